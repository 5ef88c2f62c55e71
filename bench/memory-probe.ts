// Loaded into the server by `npm run bench:memory` (node --import), never by `npm start`: every 50 ms it writes the
// process's memory as V8 and Node see it, one JSON line on file descriptor 3, which the bench opens as a pipe.
import { writeSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';

const FD = 3;

const timer = setInterval(() => {
  const m = process.memoryUsage();
  const h = getHeapStatistics();
  const line = JSON.stringify({
    t: Date.now(), rss: m.rss, heapTotal: m.heapTotal, heapUsed: m.heapUsed, external: m.external,
    arrayBuffers: m.arrayBuffers, heapPhysical: h.total_physical_size, malloced: h.malloced_memory,
  });
  try {
    writeSync(FD, `${line}\n`);
  } catch {
    // the bench has gone: nothing to report to
    clearInterval(timer);
  }
}, 50);
timer.unref();

// npm run bench:metrics: what counting and timing a request costs (http/metrics.ts's `metered`), measured in
// isolation, against what each endpoint family costs per request in the last `npm run bench`
// (docs/measurements/serving.md). The bench measures the cost as throughput lost, which is as precise as
// its runs are steady; this measures the wrapper alone, to a tenth of a µs.
import { EventEmitter } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { metered } from '../src/http/metrics.js';
import { mean } from '../test/support/measure.js';
import { MEASUREMENTS_DIR, writeMeasurement } from './measurement.js';

const REQUESTS = Number(process.env.METRICS_BENCH_REQUESTS ?? 2_000_000);

/** As much of a response as the wrapper touches: its status, whether it finished, and its 'close'. */
class Response extends EventEmitter {
  statusCode = 200;
  writableFinished = true;
}

/** A listener that answers at once: what is left of a request when the service's own work is taken out. */
const answer = (_req: IncomingMessage, res: ServerResponse) => { res.emit('close'); };

/** CPU µs per request of `listener` over `urls`, each request a new response object. */
function cpuPerRequest(listener: typeof answer, method: string, urls: string[]): number {
  const before = process.cpuUsage();
  for (let i = 0; i < REQUESTS; i++) {
    listener({ method, url: urls[i % urls.length] } as IncomingMessage, new Response() as unknown as ServerResponse);
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / REQUESTS;
}

/** The wrapper's own cost: metered minus bare, the better of three alternated runs of each. */
function wrapperCost(method: string, urls: string[]): number {
  const wrapped = metered(answer);
  const bare: number[] = [];
  const with_: number[] = [];
  for (let round = 0; round < 3; round++) {
    bare.push(cpuPerRequest(answer, method, urls));
    with_.push(cpuPerRequest(wrapped, method, urls));
  }
  return Math.min(...with_) - Math.min(...bare);
}

// The path asked again (a popular lookup, every POST of one operation) is named from a memo; a path never seen
// before (any species name of any release) is matched against the contract's templates.
const same = wrapperCost('POST', ['/search/species']);
const unique = wrapperCost('GET', Array.from({ length: 200_000 }, (_, i) => `/api/v1/history/Species%20name%20${i}`));
const worst = Math.max(same, unique);

const lines = [
  `${REQUESTS.toLocaleString('en')} requests per run; CPU µs per request of the metered listener minus the bare one`,
  '',
  '| requests | metrics cost per request (µs of CPU) |',
  '|---|---|',
  `| one path asked again | ${same.toFixed(2)} |`,
  `| a different path each time | ${unique.toFixed(2)} |`,
];
const serving = join(MEASUREMENTS_DIR, 'serving.md');
if (existsSync(serving)) {
  // The CPU per request of each family, as the service answered it in the last npm run bench
  const table = readFileSync(serving, 'utf8').split('\n');
  const header = table.find((l) => l.startsWith('| scenario |'));
  const cpuColumn = header?.split('|').map((c) => c.trim()).indexOf('CPU µs/req service') ?? -1;
  const rows = table.filter((l) => l.startsWith('| ') && !l.startsWith('| scenario') && !l.startsWith('|---'));
  if (cpuColumn > 0 && rows.length > 0) {
    lines.push('', `Against each family's CPU per request in [serving.md](serving.md) (the larger of the two costs above, ${worst.toFixed(2)} µs):`, '',
      '| scenario | CPU µs/req | metrics cost |', '|---|---|---|');
    for (const row of rows) {
      const cells = row.split('|').map((c) => c.trim());
      const cpu = Number(cells[cpuColumn]);
      if (cpu > 0) lines.push(`| ${cells[1]} | ${cpu} | ${((worst / cpu) * 100).toFixed(1)}% |`);
    }
  }
  // The bench's own measure, throughput lost with metering on in one process: each family's figure varies by
  // more than the cost from run to run, so it is read pooled over the families as well, with its standard error.
  const costColumn = header?.split('|').map((c) => c.trim()).indexOf('metrics cost (throughput)') ?? -1;
  const costs = costColumn > 0 ? rows.map((r) => Number.parseFloat(r.split('|')[costColumn]!)).filter(Number.isFinite) : [];
  if (costs.length > 1) {
    const average = mean(costs);
    const sd = Math.sqrt(costs.reduce((a, b) => a + (b - average) ** 2, 0) / (costs.length - 1));
    lines.push('', `The bench's throughput lost with metering on ([serving.md](serving.md), column "metrics cost (throughput)"): from ${Math.min(...costs).toFixed(1)}% to ${Math.max(...costs).toFixed(1)}% per family, `
      + `${average.toFixed(1)}% on average over ${costs.length} families (standard error ${(sd / Math.sqrt(costs.length)).toFixed(1)}%). `
      + 'A figure per family that is negative means the run-to-run variation is larger than the cost.');
  }
}
console.log(lines.join('\n'));
writeMeasurement({
  file: 'metrics-cost.md', title: 'What the metrics cost per request', command: 'npm run bench:metrics',
  settings: { METRICS_BENCH_REQUESTS: REQUESTS }, body: lines.join('\n'),
});

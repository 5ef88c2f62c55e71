// npm run bench:memory: what the server's peak resident memory is made of under the heavy work of `npm run bench` and
// `npm run soak`. Each scenario runs on a server of its own, started as `npm start` starts it (its Node options
// and environment) plus a probe (memory-probe.ts) that reports the V8 heap and the buffers every 50 ms; the peak
// is the kernel's high-water mark (VmHWM) over the scenario, and the split is taken at the sample where RSS was
// highest: the V8 heap (committed), ArrayBuffers and Buffers, and the rest (DuckDB, malloc's arenas, code, stacks).
// Writes docs/measurements/memory.md. Settings: MEMORY_SECONDS (20) per scenario, MEMORY_ONLY (a regular
// expression: only the scenarios it matches, printed, not written).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { projectRoot } from '../src/shared/project-root.js';
import { freePort } from '../test/support/server-process.js';
import { residentMemory } from '../test/support/measure.js';
import { writeMeasurement } from './measurement.js';
import { closeClient, send, type Req } from './soak/client.js';
import { readKeys, type Keys } from './soak/keys.js';
import { startCommand } from './soak/server.js';
import * as traffic from './soak/traffic.js';

const ROOT = projectRoot();
const SECONDS = Number(process.env.MEMORY_SECONDS ?? 20);
const ONLY = process.env.MEMORY_ONLY ? new RegExp(process.env.MEMORY_ONLY, 'i') : null;
const MB = 1024 * 1024;

interface Sample { t: number; rss: number; heapTotal: number; heapUsed: number; arrayBuffers: number }

interface Server { pid: number; base: string; samples: Sample[]; stop(): Promise<void> }

/** The server as `npm start` runs it, with the probe loaded; resolves once it answers a lookup. */
async function startServer(keys: Keys): Promise<Server> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const shipped = startCommand(ROOT);
  const child = spawn(process.execPath, [...shipped.args, '--import', join(ROOT, 'dist', 'bench', 'memory-probe.js'), join(ROOT, 'dist', 'src', 'server.js')], {
    env: { ...process.env, ...shipped.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit', 'pipe'],
  });
  const samples: Sample[] = [];
  createInterface({ input: child.stdio[3] as Readable }).on('line', (line) => samples.push(JSON.parse(line) as Sample));
  const probe = `/api/v1/species/${keys.latest}/${encodeURIComponent(keys.current[0]!)}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}${probe}`)).ok) break;
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  return {
    pid: child.pid!, base, samples,
    stop: () => new Promise((resolve) => { child.once('exit', () => resolve()); child.kill('SIGTERM'); }),
  };
}

/** autocannon against the server for SECONDS, 50 connections. */
async function cannon(base: string, path: () => string, body?: () => string): Promise<string> {
  const result = await autocannon({
    url: base, connections: 50, duration: SECONDS,
    requests: [{
      method: body ? 'POST' : 'GET', ...(body ? { headers: { 'content-type': 'application/json' } } : {}),
      setupRequest: (req) => ({ ...req, path: path(), ...(body ? { body: body() } : {}) }),
    }],
  });
  return `${result.requests.total} requests, ${result.non2xx} not 2xx, ${result.errors} errors (${result.timeouts} timed out)`;
}

/** Requests made by `make`, `parallel` at a time, each sent again as soon as it is answered, for SECONDS. */
async function repeat(base: string, parallel: Array<() => Req>): Promise<string> {
  const end = Date.now() + SECONDS * 1000;
  let answered = 0;
  let failed = 0;
  await Promise.all(parallel.map(async (make) => {
    while (Date.now() < end) {
      const a = await send(base, make());
      if (a.status === 200 && !a.error) answered++;
      else failed++;
    }
  }));
  return `${answered} requests, ${failed} not 2xx or failed`;
}

interface Scenario { name: string; run: (base: string) => Promise<string> }

function scenarios(keys: Keys): Scenario[] {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)]!;
  const names = (n: number, unknown: number) => Array.from({ length: 8 }, () => JSON.stringify({ names: traffic.names(keys, n, unknown), to_version: 'latest' }));
  const thousands = names(1000, 0.3);
  const tenThousands = names(10_000, 0.3);
  return [
    {
      name: 'species lookups, 50 connections',
      run: (base) => cannon(base, () => { const s = pick(keys.species); return `/api/v1/species/${s.version}/${encodeURIComponent(s.name)}`; }),
    },
    {
      name: 'bulk CSV of a family of the latest release, 50 connections (npm run bench)',
      run: (base) => cannon(base, () => `/api/v1/bulk/species/latest?format=csv&family=${encodeURIComponent(pick(keys.latestFamilies))}`),
    },
    {
      name: 'POST /api/v1/resolve of 1,000 names, 50 connections (npm run bench)',
      run: (base) => cannon(base, () => '/api/v1/resolve', () => pick(thousands)),
    },
    {
      name: 'POST /api/v1/resolve of 10,000 names, 50 connections',
      run: (base) => cannon(base, () => '/api/v1/resolve', () => pick(tenThousands)),
    },
    {
      name: 'bulk JSON of the whole latest release, 6 at once, and 2 batches of 10,000 names (npm run soak\'s heavy phase)',
      run: (base) => repeat(base, [
        ...Array.from({ length: 6 }, () => () => traffic.bulk(keys, keys.latest, 'json')),
        () => traffic.resolve(keys, 10_000, 1), () => traffic.resolve(keys, 10_000, 0.3),
      ]),
    },
  ];
}

const mb = (bytes: number) => (bytes / MB).toFixed(0);

async function main(): Promise<void> {
  const keys = await readKeys(join(ROOT, 'data', 'taxonomy.duckdb'));
  const lines = [
    `Each scenario on a server of its own, started as \`npm start\` starts it, for ${SECONDS} s. Peak: the kernel's high-water mark of resident memory over start-up and the scenario. At the sample (every 50 ms) where RSS was highest: the V8 heap as committed, ArrayBuffers and Buffers, and the rest (DuckDB, malloc's arenas, code, stacks). MB are MiB.`,
    '',
    '| scenario | requests | RSS after start-up | peak RSS | at the peak: V8 heap (used) | ArrayBuffers | the rest | highest V8 heap | highest ArrayBuffers |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const sc of scenarios(keys).filter((s) => !ONLY || ONLY.test(s.name))) {
    const server = await startServer(keys);
    const started = residentMemory(server.pid).rss;
    const done = await sc.run(server.base);
    // the last samples, and the peak as the kernel kept it
    await sleep(200);
    const { peak } = residentMemory(server.pid);
    await server.stop();
    const at = server.samples.reduce((a, b) => (b.rss > a.rss ? b : a));
    const highest = (f: (s: Sample) => number) => Math.max(...server.samples.map(f));
    const line = `| ${sc.name} | ${done} | ${mb(started)} | ${mb(peak)} | ${mb(at.heapTotal)} (${mb(at.heapUsed)}) | ${mb(at.arrayBuffers)} | ${mb(at.rss - at.heapTotal - at.arrayBuffers)} | ${mb(highest((s) => s.heapTotal))} | ${mb(highest((s) => s.arrayBuffers))} |`;
    console.log(line);
    lines.push(line);
  }
  closeClient();
  if (!ONLY) {
    writeMeasurement({
      file: 'memory.md', title: 'Memory: what the peak is made of under the heaviest work', command: 'npm run bench:memory',
      settings: { MEMORY_SECONDS: SECONDS }, body: lines.join('\n'),
    });
  }
}

main().catch((err: Error) => {
  console.error(err);
  process.exit(1);
});

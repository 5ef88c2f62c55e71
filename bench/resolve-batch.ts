// npm run bench:resolve: POST /api/v1/resolve of batches of 10,000 names, in three mixes: real inputs the way
// users send them (a data set's species column: current and former names, VMR virus names and abbreviations,
// higher taxa, accessions, 12% misspelt and 10% no name at all), and the two the soak sends (bench/soak.ts):
// 30% misspelt or unknown, and all of them misspelt or unknown, where "did you mean" is most of the work.
//
// In-process, a batch is answered as the route answers it (resolveInSlices, then jsonResults into UTF-8
// buffers): wall time, CPU time and the growth of the V8 heap over the heap before it, a fresh batch on
// every run (the same batch again would find its suggestions remembered, suggest.ts), median of BENCH_RUNS;
// then two batches at once, one of each soak mix (the soak's heavy phase). Then the same over HTTP against the
// server as it is shipped (the start script's Node options), with its peak RSS while two batches run at once.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { DB_FILE, DOC_SNAPSHOT_FILE } from '../src/store/files.js';
import { defaultPaths } from '../build/paths.js';
import { projectRoot } from '../src/shared/project-root.js';
import { openStore } from '../src/read/documents.js';
import { latest } from '../src/read/releases.js';
import { emptyHead, jsonResults } from '../src/read/resolve-batch.js';
import { resolveInSlices } from '../src/read/resolve.js';
import { speciesWalksLoaded } from '../src/read/species-walks.js';
import type { Store } from '../src/store/store.js';
import { Figures, writeMeasurement } from './measurement.js';
import { misspell, random, shuffle } from '../test/support/misspellings.js';
import { readKeys, type Keys } from './soak/keys.js';
import { names as soakNames } from './soak/traffic.js';
import { cpuMicros, median, residentMemory } from '../test/support/measure.js';
import { startCommand } from './soak/server.js';

const SIZE = Number(process.env.BENCH_NAMES ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PORT = 18_703;
/** What the run found, a line per measurement, for docs/measurements/resolve-batch.md. */
const out = new Figures();

/** The share of each kind of input in a batch of real inputs. */
const MIX = {
  current: 0.3, former: 0.15, virus_name: 0.15, abbreviation: 0.08, taxon: 0.05, accession: 0.05, misspelt: 0.12, unknown: 0.1,
} as const;

/** A batch of `size` real inputs drawn from the data set with a seed: the same batch for the same seed. */
export async function resolveBatch(store: Store, size: number, seed = 17): Promise<string[]> {
  const v = latest(store);
  const pools: Record<keyof typeof MIX, string[]> = {
    current: await names(store, `SELECT DISTINCT name FROM main.name_index WHERE kind = 'species' AND last_msl = ${v.msl}`),
    former: await names(store, `SELECT DISTINCT name FROM main.name_index WHERE kind = 'species' AND last_msl < ${v.msl}`),
    virus_name: await names(store, "SELECT DISTINCT name FROM main.name_index WHERE kind = 'virus_name'"),
    abbreviation: await names(store, "SELECT DISTINCT name FROM main.name_index WHERE kind = 'abbreviation'"),
    taxon: await names(store, "SELECT DISTINCT name FROM main.name_index WHERE kind = 'taxon'"),
    accession: await names(store, "SELECT DISTINCT id_key AS name FROM main.identifier_index WHERE kind = 'accession'"),
    misspelt: [],
    unknown: [],
  };
  const rnd = random(seed);
  const pick = (xs: string[]) => xs[Math.floor(rnd() * xs.length)]!;
  const out: string[] = [];
  for (const [kind, share] of Object.entries(MIX) as Array<[keyof typeof MIX, number]>) {
    for (let i = 0; i < Math.round(share * size) && out.length < size; i++) {
      if (kind === 'misspelt') out.push(misspell(pick(pools.current), 1 + Math.floor(rnd() * 2), rnd));
      else if (kind === 'unknown') out.push(shuffle(pick(pools.current), rnd));
      else out.push(pick(pools[kind]));
    }
  }
  while (out.length < size) out.push(pick(pools.current));
  // in a random order, as a user's table would have them
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

async function names(store: Store, sql: string): Promise<string[]> {
  return (await store.query<{ name: string }>(`${sql} ORDER BY name`)).map((r) => r.name);
}

/** The soak's keys in one order (its queries say DISTINCT without ORDER BY), so that a seed gives one batch. */
function ordered(keys: Keys): Keys {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  for (const list of [keys.current, keys.genera, keys.families, keys.accessions, keys.virusNames]) list.sort(cmp);
  keys.species.sort((a, b) => cmp(a.version, b.version) || cmp(a.name, b.name));
  return keys;
}

/** A mix of inputs: its batch for a seed. */
interface Mix {
  label: string;
  batch: (seed: number) => Promise<string[]>;
}

function mixes(store: Store, keys: Keys): Mix[] {
  return [
    { label: 'real inputs (22% misspelt or unknown)', batch: (seed) => resolveBatch(store, SIZE, seed) },
    { label: 'soak mix, 30% misspelt or unknown', batch: async (seed) => soakNames(keys, SIZE, 0.3, random(seed)) },
    { label: 'soak mix, all misspelt or unknown', batch: async (seed) => soakNames(keys, SIZE, 1, random(seed)) },
  ];
}

/** Resident set size of a process now, in MB. */
const rssMb = (pid: number): number => residentMemory(pid).rss / 2 ** 20;

const list = (xs: number[]) => `${xs.map((x) => x.toFixed(0)).join(', ')} (median ${median(xs).toFixed(0)})`;

/** The answer of a batch as the route writes it: its JSON, a slice at a time, held as buffers. Its size in bytes. */
async function answer(store: Store, batch: string[], sample: () => void): Promise<number> {
  const to = latest(store);
  const head = emptyHead(null, to);
  const buffers: Buffer[] = [];
  for await (const piece of jsonResults(resolveInSlices(store, batch, null, to), head)) {
    buffers.push(Buffer.from(piece));
    sample();
  }
  return buffers.reduce((n, b) => n + b.length, 0) + Buffer.byteLength(JSON.stringify(head));
}

/** Wall, CPU and V8 heap growth (the most used and allocated over what they were before, in MB) of `work`. */
async function measured(work: (sample: () => void) => Promise<unknown>): Promise<{ wall: number; cpu: number; used: number; total: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  // V8's own figures, as process.memoryUsage() gives them without reading the RSS from /proc each time
  // (which, every few milliseconds, was a good part of what it measured)
  const before = getHeapStatistics();
  let used = before.used_heap_size;
  let total = before.total_heap_size;
  const sample = () => {
    const m = getHeapStatistics();
    used = Math.max(used, m.used_heap_size);
    total = Math.max(total, m.total_heap_size);
  };
  // between slices as well as after each piece of the answer
  const timer = setInterval(sample, 2);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  try {
    await work(sample);
  } finally {
    clearInterval(timer);
  }
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  sample();
  return { wall, cpu: (c.user + c.system) / 1000, used: (used - before.used_heap_size) / 2 ** 20, total: (total - before.total_heap_size) / 2 ** 20 };
}

async function inProcess(store: Store, all: Mix[]): Promise<void> {
  if (!(globalThis as { gc?: unknown }).gc) out.log('- (run without --expose-gc: heap growth measured from a heap not collected first)');
  // one batch first, so that every figure below is of code compiled by then
  await answer(store, await all[0]!.batch(1), () => {});
  for (const mix of all) {
    const runs = [];
    let bytes = 0;
    for (let run = 0; run < RUNS; run++) {
      const batch = await mix.batch(100 + run);
      runs.push(await measured(async (sample) => { bytes = await answer(store, batch, sample); }));
    }
    out.log(`- ${mix.label}, in-process (${(bytes / 1e6).toFixed(1)} MB answer): wall ms ${list(runs.map((r) => r.wall))}; `
      + `CPU ms ${list(runs.map((r) => r.cpu))}; heap growth MB, used ${list(runs.map((r) => r.used))}, total ${list(runs.map((r) => r.total))}`);
  }
  const runs = [];
  for (let run = 0; run < RUNS; run++) {
    const [a, b] = [await all[1]!.batch(200 + run), await all[2]!.batch(200 + run)];
    runs.push(await measured((sample) => Promise.all([answer(store, a, sample), answer(store, b, sample)])));
  }
  out.log(`- two batches at once (one of each soak mix), in-process: wall ms ${list(runs.map((r) => r.wall))}; `
    + `CPU ms ${list(runs.map((r) => r.cpu))}; heap growth MB, used ${list(runs.map((r) => r.used))}, total ${list(runs.map((r) => r.total))}`);
}

async function overHttp(all: Mix[]): Promise<void> {
  const root = projectRoot();
  // as `npm start` runs it: its Node options and its environment
  const shipped = startCommand(root);
  const child = spawn(process.execPath, [...shipped.args, join(root, 'dist', 'src', 'server.js')], {
    env: { ...process.env, ...shipped.env, PORT: String(PORT), HOST: '127.0.0.1', LOG_LEVEL: 'warn' }, stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    const url = `http://127.0.0.1:${PORT}/api/v1/resolve`;
    for (const t0 = Date.now(); ;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      if (Date.now() - t0 > 60_000) throw new Error('the server did not answer within 60 s');
      if (await fetch(`http://127.0.0.1:${PORT}/api/v1/versions`).then((r) => r.ok, () => false)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    // the species walks load after the server starts answering: give them the time they take
    await new Promise((r) => setTimeout(r, 5000));
    const post = async (batch: string[]) => {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ names: batch, to_version: 'latest' }) });
      const text = await res.text();
      if (!res.ok) throw new Error(`POST /api/v1/resolve: ${res.status} ${text.slice(0, 200)}`);
      return text.length;
    };
    await post(await all[0]!.batch(1));
    for (const mix of all) {
      const wall: number[] = [];
      const cpu: number[] = [];
      let bytes = 0;
      for (let run = 0; run < RUNS; run++) {
        const batch = await mix.batch(100 + run);
        const c0 = cpuMicros(child.pid!) / 1000;
        const t0 = performance.now();
        bytes = await post(batch);
        wall.push(performance.now() - t0);
        cpu.push(cpuMicros(child.pid!) / 1000 - c0);
      }
      out.log(`- ${mix.label}, POST /api/v1/resolve (${(bytes / 1e6).toFixed(1)} MB answer), server as shipped: wall ms ${list(wall)}; CPU ms ${list(cpu)}`);
    }
    const wall: number[] = [];
    const peaks: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const [a, b] = [await all[1]!.batch(200 + run), await all[2]!.batch(200 + run)];
      let peak = rssMb(child.pid!);
      const timer = setInterval(() => { peak = Math.max(peak, rssMb(child.pid!)); }, 20);
      const t0 = performance.now();
      await Promise.all([post(a), post(b)]);
      wall.push(performance.now() - t0);
      clearInterval(timer);
      peaks.push(peak);
    }
    out.log(`- two batches at once (one of each soak mix), server as shipped: wall ms ${list(wall)}; peak RSS MB ${list(peaks)}`);
  } finally {
    child.kill('SIGTERM');
  }
}

async function main(): Promise<void> {
  const { dataDir } = defaultPaths();
  const keys = ordered(await readKeys(join(dataDir, DB_FILE)));
  const store = await openStore(join(dataDir, DB_FILE), 2, join(dataDir, DOC_SNAPSHOT_FILE));
  let all: Mix[];
  try {
    all = mixes(store, keys);
    // the walks load after the store opens (species-walks.ts): measured once they have
    await speciesWalksLoaded(store);
    if (process.env.BENCH_HTTP !== 'only') await inProcess(store, all);
    // the batches over HTTP are made before the store closes (real inputs are drawn from it)
    const made = await Promise.all(all.map(async (m) => {
      const batches = new Map<number, string[]>();
      for (const seed of [1, ...Array.from({ length: RUNS }, (_, r) => 100 + r), ...Array.from({ length: RUNS }, (_, r) => 200 + r)]) batches.set(seed, await m.batch(seed));
      return { label: m.label, batch: async (seed: number) => batches.get(seed)! };
    }));
    all = made;
  } finally {
    await store.close();
  }
  if (process.env.BENCH_HTTP !== 'no') await overHttp(all);
  writeMeasurement({
    file: 'resolve-batch.md', title: 'POST /api/v1/resolve of 10,000 names', command: 'npm run bench:resolve',
    settings: { BENCH_NAMES: SIZE, BENCH_RUNS: RUNS, ...(process.env.BENCH_HTTP ? { BENCH_HTTP: process.env.BENCH_HTTP } : {}) },
    body: `Medians of ${RUNS} fresh batches of each mix; in-process as the route answers, then over HTTP against the server as \`npm start\` runs it.\n\n${out.text()}`,
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await main();

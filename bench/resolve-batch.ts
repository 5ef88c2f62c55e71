// npm run bench:resolve: POST /api/v1/resolve of a batch of 10,000 real inputs, the way users send them (a
// data set's species column): current names, former names, VMR virus names and abbreviations, higher taxa,
// accessions, misspellings and names that are no name at all. Reports the wall time and the CPU time of the
// resolution in-process (resolveMany, as the route calls it) and of the whole request against the server as
// it is shipped (start script's Node options), a few times each: the first run is the cold one.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DB_FILE } from '../build/index.js';
import { defaultPaths, DOC_SNAPSHOT_FILE, projectRoot } from '../build/paths.js';
import { openStore } from '../src/read/documents.js';
import { latest } from '../src/read/releases.js';
import { resolveMany } from '../src/read/resolve.js';
import { speciesWalksLoaded } from '../src/read/species-walks.js';
import type { Store } from '../src/store.js';
import { misspell, random, shuffle } from './misspellings.js';

const SIZE = Number(process.env.BENCH_NAMES ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PORT = 18_703;

/** The share of each kind of input in the batch. */
const MIX = {
  current: 0.3, former: 0.15, virus_name: 0.15, abbreviation: 0.08, taxon: 0.05, accession: 0.05, misspelt: 0.12, unknown: 0.1,
} as const;

/** A batch of `size` inputs drawn from the data set with a fixed seed: the same batch on every run. */
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

/** CPU time (user + system) of a process so far, in ms (/proc ticks are 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const figures = (label: string, wall: number[], cpu: number[]) =>
  console.log(`${label}: wall ms ${wall.map((x) => x.toFixed(0)).join(', ')} (median ${median(wall).toFixed(0)}); `
    + `CPU ms ${cpu.map((x) => x.toFixed(0)).join(', ')} (median ${median(cpu).toFixed(0)})`);

async function inProcess(store: Store, batch: string[]): Promise<void> {
  const to = latest(store);
  const wall: number[] = [];
  const cpu: number[] = [];
  let statuses: Record<string, number> = {};
  for (let run = 0; run < RUNS; run++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const results = await resolveMany(store, batch, null, to);
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    statuses = {};
    for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  }
  console.log(`statuses: ${Object.entries(statuses).map(([k, n]) => `${k} ${n}`).join(', ')}`);
  figures(`resolveMany of ${batch.length.toLocaleString('en')} names, in-process`, wall, cpu);
}

async function overHttp(batch: string[]): Promise<void> {
  const root = projectRoot();
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const nodeArgs = /node ((?:--\S+ )*)dist\/src\/server\.js/.exec(pkg.scripts.start)?.[1]?.trim().split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, join(root, 'dist', 'src', 'server.js')], {
    env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', LOG_LEVEL: 'warn' }, stdio: ['ignore', 'ignore', 'inherit'],
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
    const body = JSON.stringify({ names: batch, to_version: 'latest' });
    const wall: number[] = [];
    const cpu: number[] = [];
    let bytes = 0;
    for (let run = 0; run < RUNS; run++) {
      const c0 = cpuMs(child.pid!);
      const t0 = performance.now();
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const text = await res.text();
      wall.push(performance.now() - t0);
      cpu.push(cpuMs(child.pid!) - c0);
      if (!res.ok) throw new Error(`POST /api/v1/resolve: ${res.status} ${text.slice(0, 200)}`);
      bytes = text.length;
    }
    figures(`POST /api/v1/resolve of ${batch.length.toLocaleString('en')} names (${(bytes / 1e6).toFixed(1)} MB answer), server as shipped`, wall, cpu);
  } finally {
    child.kill('SIGTERM');
  }
}

async function main(): Promise<void> {
  const { dataDir } = defaultPaths();
  const store = await openStore(join(dataDir, DB_FILE), 2, join(dataDir, DOC_SNAPSHOT_FILE));
  let batch: string[];
  try {
    batch = await resolveBatch(store, SIZE);
    // the walks load after the store opens (species-walks.ts): measured once they have
    await speciesWalksLoaded(store);
    if (process.env.BENCH_HTTP !== 'only') await inProcess(store, batch);
  } finally {
    await store.close();
  }
  if (process.env.BENCH_HTTP !== 'no') await overHttp(batch);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();

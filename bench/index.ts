// npm run bench: throughput of the service against a ceiling, in one run, on this machine.
// The ceiling is plain Express 5 answering a fixed ~300-byte res.json; the service runs as shipped
// (server.js, default middleware and logging, logs to /dev/null), and in a second process whose metering is
// switched off and on between runs (metrics-toggle.ts), for what the metrics cost. Rounds alternate the runs
// so all see the same machine state; each figure is autocannon with 50 connections over loopback.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { DuckDBInstance } from '@duckdb/node-api';
import { projectRoot } from '../src/shared/project-root.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { writeMeasurement } from './measurement.js';
import { NAMES_SQL, searchQueries } from '../test/support/search-queries.js';
import { cpuMicros, mean, residentMemory } from '../test/support/measure.js';
import { aiQuestions, MIX_SQL, type MixSource } from './ai-questions.js';
import { startCommand } from './soak/server.js';

const ROOT = projectRoot();
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Only the scenarios whose name matches (a regular expression), to measure one change quickly. */
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : null;
/** The ceiling's port; the service listens on the next and the second process on the one after. */
const PORT = Number(process.env.BENCH_PORT ?? 18_701);
/** Where the second process's metering is switched (metrics-toggle.ts, which is given it in its environment). */
const SWITCH_PATH = '/.bench/metering/';

interface Run { rps: number; p50: number; p99: number; errors: number; non2xx: number; cpuPerRequest: number; rss: number; peak: number }

function start(script: string, port: number, probe: string, env: Record<string, string> = {}, nodeArgs: string[] = []): { child: ChildProcess; ready: Promise<number> } {
  const t0 = Date.now();
  const child = spawn(process.execPath, [...nodeArgs, script], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const ready = (async () => {
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}${probe}`);
        if (res.ok) return Date.now() - t0;
      } catch {
        // not yet listening
      }
      if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}`);
      await sleep(20);
    }
  })();
  return { child, ready };
}

// CPU time per request is reported beside throughput: on a shared, noisy machine it varies much less from
// run to run than req/s does.
async function load(pid: number, port: number, paths: () => string, method = 'GET', body?: () => string): Promise<Run> {
  const cpu0 = cpuMicros(pid);
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: 50,
    duration: DURATION,
    requests: [{
      method: method as 'GET',
      headers: body ? { 'content-type': 'application/json' } : {},
      setupRequest: (req) => ({ ...req, path: paths(), ...(body ? { body: body() } : {}) }),
    }],
  });
  return {
    rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors, non2xx: result.non2xx,
    cpuPerRequest: (cpuMicros(pid) - cpu0) / Math.max(1, result.requests.total),
    ...memory(pid),
  };
}

/** Resident memory now and its high-water mark (start-up included), in MB. */
function memory(pid: number): { rss: number; peak: number } {
  const { rss, peak } = residentMemory(pid);
  return { rss: rss / 2 ** 20, peak: peak / 2 ** 20 };
}

interface Keys {
  species: string[];
  /** every species name of any release, once */
  names: string[];
  /** the names search queries are made from (search-queries.ts) and the releases by number */
  searchNames: string[];
  msls: number[];
  /** the families of the latest release */
  families: string[];
  releases: string[];
  /** every ordered pair of different releases, both directions, with its number of detail rows per change type */
  pairs: Array<{ from: string; to: string; rows: Record<string, number> }>;
  /** what the /ai/query questions are made from (ai-questions.ts) */
  mix: MixSource;
}

/** What the scenarios draw from, read from the data set: every (release, species), release and pair. */
async function keysOf(): Promise<Keys> {
  const instance = await DuckDBInstance.create(join(ROOT, 'data', 'taxonomy.duckdb'), { access_mode: 'READ_ONLY' });
  const conn = await instance.connect();
  const all = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJson() as Array<Record<string, string | number>>;
  const species = (await all('SELECT msl, species FROM src.species')).map((r) => `/api/v1/species/MSL${r.msl}/${encodeURIComponent(String(r.species))}`);
  const releases = (await all('SELECT version FROM main.releases ORDER BY msl')).map((r) => String(r.version));
  const names = (await all('SELECT DISTINCT species FROM src.species ORDER BY species')).map((r) => String(r.species));
  const searchNames = (await all(NAMES_SQL)).map((r) => String(r.name));
  const msls = (await all('SELECT msl FROM main.releases ORDER BY msl')).map((r) => Number(r.msl));
  const families = (await all(`SELECT DISTINCT family FROM src.species WHERE msl = (SELECT max(msl) FROM main.releases)
    AND family IS NOT NULL ORDER BY family`)).map((r) => String(r.family));
  const diffs = await all(`SELECT from_version, to_version, species_added AS added, species_removed AS removed, species_renamed AS renamed,
    species_reclassified AS reclassified, species_merged AS merged, species_split AS split, species_ended_by_split AS ended_by_split,
    species_formed_by_merge AS formed_by_merge FROM main.release_diff`);
  const mix: MixSource = {
    species: (await all(MIX_SQL.species)).map((r) => ({ name: String(r.name), msl: Number(r.msl), year: Number(r.year) })),
    viruses: (await all(MIX_SQL.viruses)).map((r) => String(r.name)),
    releases: (await all(MIX_SQL.releases)).map((r) => ({ msl: Number(r.msl), year: Number(r.year), label: String(r.label) })),
  };
  conn.closeSync();
  instance.closeSync();
  const reversed: Record<string, string> = { added: 'removed', removed: 'added', merged: 'split', split: 'merged', ended_by_split: 'formed_by_merge', formed_by_merge: 'ended_by_split' };
  const pairs = diffs.flatMap(({ from_version: from, to_version: to, ...rows }) => {
    const counts = rows as Record<string, number>;
    const backwards = Object.fromEntries(Object.entries(counts).map(([k, n]) => [reversed[k] ?? k, n]));
    return [{ from: String(from), to: String(to), rows: counts }, { from: String(to), to: String(from), rows: backwards }];
  });
  return { species, names, searchNames, msls, families, releases, pairs, mix };
}

/** A page of compare details of a random pair: all types or one, at a random offset within what there is. */
function detailsPage(pairs: Keys['pairs']): string {
  const p = pairs[Math.floor(Math.random() * pairs.length)]!;
  const types = Object.keys(p.rows).filter((t) => p.rows[t]! > 0);
  const type = Math.random() < 0.5 || types.length === 0 ? null : types[Math.floor(Math.random() * types.length)]!;
  const total = type ? p.rows[type]! : Object.values(p.rows).reduce((a, b) => a + b, 0);
  const offset = Math.floor(Math.random() * Math.max(1, total - 20));
  return `/api/v1/compare/${p.from}/${p.to}/details?limit=20&offset=${offset}${type ? `&change_type=${type}` : ''}`;
}

/** Bytes under a path, files and folders alike. */
function bytesOf(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((n, f) => n + bytesOf(join(path, f)), 0);
}

interface Scenario { name: string; paths: () => string; method?: 'GET' | 'POST'; body?: () => string }

async function main(): Promise<void> {
  const { species: keys, names, searchNames, msls, families, releases, pairs, mix } = await keysOf();
  const pick = <T>(xs: T[]) => () => xs[Math.floor(Math.random() * xs.length)]!;
  const name = pick(names);
  const queries = searchQueries(searchNames, msls, 500, 17);
  const query = pick(queries);
  const version = pick(releases);
  // 20 batches of 1,000 names of any release, made before the run
  const batches = Array.from({ length: 20 }, () => JSON.stringify({ names: Array.from({ length: 1000 }, name), to_version: 'latest' }));
  // POST /ai/query: 600 distinct questions in plain words drawn from the data (cache off: every request is read
  // and answered), names of every era and releases written every way
  const question = pick(aiQuestions(mix, 600, 37));
  const scenarios: Scenario[] = [
    { name: 'species lookup, random (release, species)', paths: pick(keys) },
    { name: 'history by name (any species name of any release)', paths: () => `/api/v1/history/${encodeURIComponent(name())}` },
    { name: 'resolve a name to a release (GET /api/v1/resolve)', paths: () => `/api/v1/resolve?name=${encodeURIComponent(name())}&to_version=${version()}` },
    { name: 'POST /api/v1/resolve, 1,000 names of any release', paths: () => '/api/v1/resolve', method: 'POST', body: pick(batches) },
    { name: 'compare summary, random pair (either order)', paths: pick(pairs.map((p) => `/api/v1/compare/${p.from}/${p.to}`)) },
    { name: 'compare details, a page of 20 of a random pair', paths: () => detailsPage(pairs) },
    {
      name: 'search (GET /api/v1/search, real queries)',
      paths: () => { const q = query(); return `/api/v1/search?q=${encodeURIComponent(q.text)}&version=MSL${q.msl}&field=${q.field}`; },
    },
    {
      name: 'search species (POST /search/species, real queries)', paths: () => '/search/species', method: 'POST',
      body: () => JSON.stringify({ query: query().text, limit: 10 }),
    },
    { name: '/taxonomy/species (latest, any name)', paths: () => `/taxonomy/species/${encodeURIComponent(name())}` },
    { name: '/historical/releases/:version', paths: () => `/historical/releases/${version()}` },
    { name: '/historical/compare/:from/:to', paths: pick(pairs.map((p) => `/historical/compare/${p.from}/${p.to}`)) },
    { name: '/historical/species/:name/history', paths: () => `/historical/species/${encodeURIComponent(name())}/history` },
    {
      name: '/ai/query (POST, cache off, 600 varied questions)', paths: () => '/ai/query', method: 'POST',
      body: () => JSON.stringify({ query: question(), use_cache: false }),
    },
    { name: 'bulk CSV of a family (latest)', paths: () => `/api/v1/bulk/species/latest?format=csv&family=${encodeURIComponent(pick(families)())}` },
  ];

  // One after the other, so the service's start-up is timed on an otherwise idle machine.
  const ceiling = start(join(ROOT, 'dist', 'bench', 'ceiling.js'), PORT, '/');
  process.once('exit', () => ceiling.child.kill('SIGKILL'));
  await ceiling.ready;
  // The probe is a species lookup, so "first answer" means the documents are loaded, not just the port open.
  // as `npm start` runs it: its Node options and its environment (MALLOC_ARENA_MAX bounds malloc's arenas)
  const shipped = startCommand(ROOT);
  const serviceEnv = { ...shipped.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' };
  const service = start(join(ROOT, 'dist', 'src', 'server.js'), PORT + 1, pick(keys)(), serviceEnv, shipped.args);
  process.once('exit', () => service.child.kill('SIGKILL'));
  const startup = await service.ready;
  // The same service in a second process, its metering switched on and off between runs: what counting and
  // timing every request costs, free of the difference between two processes.
  const toggle = pathToFileURL(join(ROOT, 'dist', 'bench', 'metrics-toggle.js')).href;
  const switched = start(join(ROOT, 'dist', 'src', 'server.js'), PORT + 2, pick(keys)(), { ...serviceEnv, METRICS: 'off', METERING_SWITCH: SWITCH_PATH }, [...shipped.args, '--import', toggle]);
  process.once('exit', () => switched.child.kill('SIGKILL'));
  await switched.ready;
  const metering = async (state: 'on' | 'off') => {
    const res = await fetch(`http://127.0.0.1:${PORT + 2}${SWITCH_PATH}${state}`);
    if (res.status !== 204) throw new Error(`metering ${state}: ${res.status}`);
  };

  const results = new Map<string, { ceiling: Run[]; service: Run[]; off: Run[]; on: Run[] }>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const sc of scenarios.filter((x) => !ONLY || ONLY.test(x.name))) {
      const entry = results.get(sc.name) ?? { ceiling: [], service: [], off: [], on: [] };
      entry.ceiling.push(await load(ceiling.child.pid!, PORT, () => '/'));
      const runs = [
        async () => entry.service.push(await load(service.child.pid!, PORT + 1, sc.paths, sc.method, sc.body)),
        async () => { await metering('off'); entry.off.push(await load(switched.child.pid!, PORT + 2, sc.paths, sc.method, sc.body)); },
        async () => { await metering('on'); entry.on.push(await load(switched.child.pid!, PORT + 2, sc.paths, sc.method, sc.body)); },
      ];
      // in turn first, so that none always follows the ceiling's run, and metering on and off swap places
      for (let i = 0; i < runs.length; i++) await runs[(round + i) % runs.length]!();
      results.set(sc.name, entry);
    }
  }
  const mem = memory(service.child.pid!);
  for (const s of [ceiling, service, switched]) s.child.kill('SIGTERM');

  const lines = [
    `autocannon, 50 connections, ${DURATION} s per run, ${ROUNDS} interleaved rounds; the ceiling is plain Express 5 answering a fixed ~300-byte \`res.json\``,
    '',
    '| scenario | ceiling req/s | service req/s | ratio | service p50 ms | service p99 ms | non-2xx | CPU µs/req ceiling | CPU µs/req service | service RSS MB (max) | service peak RSS MB (so far) | 2nd process: ratio, metrics off | 2nd process: ratio, metrics on | CPU µs/req, metrics off | CPU µs/req, metrics on | metrics cost (throughput) |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const [name, r] of results) {
    const c = mean(r.ceiling.map((x) => x.rps));
    const s = mean(r.service.map((x) => x.rps));
    const off = mean(r.off.map((x) => x.rps));
    const on = mean(r.on.map((x) => x.rps));
    const cost = `${((1 - on / off) * 100).toFixed(1)}%`;
    lines.push(`| ${name} | ${c.toFixed(0)} | ${s.toFixed(0)} | ${(s / c).toFixed(2)}x | ${mean(r.service.map((x) => x.p50)).toFixed(1)} | ${Math.max(...r.service.map((x) => x.p99)).toFixed(1)} | ${r.service.reduce((a, x) => a + x.errors + x.non2xx, 0)} | ${mean(r.ceiling.map((x) => x.cpuPerRequest)).toFixed(0)} | ${mean(r.service.map((x) => x.cpuPerRequest)).toFixed(0)} | ${Math.max(...r.service.map((x) => x.rss)).toFixed(0)} | ${Math.max(...r.service.map((x) => x.peak)).toFixed(0)} | ${(off / c).toFixed(2)}x | ${(on / c).toFixed(2)}x | ${mean(r.off.map((x) => x.cpuPerRequest)).toFixed(0)} | ${mean(r.on.map((x) => x.cpuPerRequest)).toFixed(0)} | ${cost} |`);
  }
  const data = join(ROOT, 'data');
  const report = JSON.parse(readFileSync(join(data, 'build-report.json'), 'utf8')) as { duration_ms: number; stages: Record<string, { ms: number; skipped: boolean }> };
  const mb = (bytes: number) => (bytes / 1e6).toFixed(0);
  const [db, docs, parquet] = [bytesOf(join(data, 'taxonomy.duckdb')), bytesOf(join(data, 'documents.bin')), bytesOf(join(data, 'parquet'))];
  lines.push('', `- ${releases.length} releases (${releases[0]}..${releases[releases.length - 1]}), ${keys.length} (release, species) pairs, ${pairs.length / 2} release pairs`,
    `- start-up to first answer: ${startup} ms; service RSS after the runs: ${mem.rss.toFixed(0)} MB (peak ${mem.peak.toFixed(0)} MB)`,
    `- data set: database ${mb(db)} MB + documents ${mb(docs)} MB + Parquet ${mb(parquet)} MB = ${mb(db + docs + parquet)} MB`,
    `- last build (build-report.json): ${(report.duration_ms / 1000).toFixed(1)} s (${Object.entries(report.stages).map(([k, v]) => `${k} ${(v.ms / 1000).toFixed(1)} s${v.skipped ? ' skipped' : ''}`).join(', ')}); \`npm run build -- --force\` rebuilds every stage`,
    '- non-2xx answers of /taxonomy/species are 404s: it takes names from every release, and abolished ones are not found.',
    '- 2nd process: the same service started a second time, its metering switched off and on between runs (bench/metrics-toggle.ts), in the same rounds and in turn with the service; metrics cost is the share of throughput that process loses with metering on (negative: within noise, it was faster metered). The service and the 2nd process with metering on run the same code: the difference between their ratios is how much two processes differ.');
  console.log(lines.join('\n'));
  // A full run is the record (docs/measurements/serving.md); a run of some scenarios only prints.
  if (!ONLY) {
    writeMeasurement({
      file: 'serving.md', title: 'Serving: every endpoint family against the plain-Express ceiling', command: 'npm run bench',
      settings: { BENCH_SECONDS: DURATION, BENCH_ROUNDS: ROUNDS }, body: lines.join('\n'),
    });
  }
}

main().catch((err: Error) => {
  console.error(err);
  process.exit(1);
});

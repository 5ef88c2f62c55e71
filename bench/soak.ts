// npm run soak: the real server (as `npm start` runs it) under mixed, steady traffic for SOAK_MINUTES
// (default 10), while the data set is rebuilt and swapped in twice and reloaded on SIGHUP once, with two
// heavy phases (six bulk downloads and two batches of 10,000 names at once, lookups going on). Prints a
// table over time and a verdict, writes both to docs/measurements/soak.md (a heavy-phase-only run to
// soak-heavy-only.md: it must not replace the record of a whole run), and exits non-zero when a verdict fails.
//
// Settings (environment): SOAK_MINUTES (10), SOAK_RATE (1: a multiplier of every steady rate below),
// SOAK_DATA (the data set to soak: copied to a temporary folder, which is what gets rebuilt; default data/),
// SOAK_KEEP=1 keeps that folder and the logs, SOAK_HEAVY_ONLY=1 runs the heavy phase alone (no rebuilds or
// SIGHUP: the heavy-phase figures of a short run, e.g. SOAK_MINUTES=2, for measuring a change), SOAK_PARTS
// (bulk,batch,slow) which heavy work the heavy phases run: the six downloads, the two batches, the slowloris,
// SOAK_VIA_HAPROXY=1 sends every request and slow client through HAProxy (Debian's package, the project's
// deploy/haproxy/vtqs.cfg) in front of the server, as a site runs it.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { projectRoot } from '../src/shared/project-root.js';
import { writeMeasurement } from './measurement.js';
import { closeClient, send, type Req } from './soak/client.js';
import { readKeys, type Keys } from './soak/keys.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { percentile } from '../test/support/measure.js';
import { clock, Recorder } from './soak/record.js';
import { startServer } from './soak/server.js';
import { freePort } from '../test/support/server-process.js';
import * as traffic from './soak/traffic.js';
import type { TrafficClass } from './soak/traffic.js';

const ROOT = projectRoot();
const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const RATE = Number(process.env.SOAK_RATE ?? 1);
const SOURCE = process.env.SOAK_DATA ?? join(ROOT, 'data');
const DURATION = MINUTES * 60_000;
const HEAVY_ONLY = process.env.SOAK_HEAVY_ONLY === '1';

/** The budgets the verdict holds the run to. */
const BUDGET = { rssMb: 450, heavyLookupP99Ms: 50, driftShare: 0.05 };

/** Steady traffic, requests per second of each class (times SOAK_RATE). */
const STEADY: Array<{ cls: TrafficClass; perSecond: number; make: (k: Keys) => Req }> = [
  { cls: 'lookup', perSecond: 34, make: traffic.lookup },
  { cls: 'compare', perSecond: 4, make: traffic.compare },
  { cls: 'search', perSecond: 4, make: traffic.search },
  { cls: 'ai', perSecond: 2, make: traffic.ai },
  { cls: 'resolve', perSecond: 0.5, make: (k) => traffic.resolve(k, 200, 0.3) },
  { cls: 'bulk', perSecond: 0.1, make: (k) => traffic.bulk(k) },
  { cls: 'resolve-10k', perSecond: 1 / 90, make: () => pick(BATCHES.mixed) },
];


/** The heavy phases' slowloris: connections that send nothing, and connections that drip their headers. */
const SLOW = { idle: 200, drip: 200 };

/** HAProxy with the project's configuration in front of `base` (every replica line naming it); its address. */
async function behindHaproxy(base: string, children: Set<ChildProcess>): Promise<string> {
  const [listen, stats] = [await freePort(), await freePort()];
  const replica = new URL(base).host;
  const child = spawn('haproxy', ['-db', '-f', join(ROOT, 'deploy', 'haproxy', 'vtqs.cfg')], {
    env: { ...process.env, VTQS_LISTEN: `127.0.0.1:${listen}`, VTQS_STATS: `127.0.0.1:${stats}`, VTQS_REPLICA_1: replica, VTQS_REPLICA_2: replica, VTQS_REPLICA_3: replica },
    stdio: 'ignore',
  });
  children.add(child);
  const front = `http://127.0.0.1:${listen}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`haproxy exited with ${child.exitCode}`);
    if ((await fetch(`${front}/ready`).then((r) => r.status, () => 0)) === 200) return front;
    if (i > 600) throw new Error('HAProxy did not pass requests to the server within a minute');
    await sleep(100);
  }
}

/**
 * One round of slow clients (test/support/slow-clients.ts, a process of its own so that their sockets do not
 * share this client's event loop), until the server has closed them all or the phase ends.
 */
function slowClients(base: string, idle: number, drip: number, ms: number): Promise<void> {
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'test', 'support', 'slow-clients.js'), new URL(base).port, String(idle), String(drip), '500'],
    { stdio: 'ignore' });
  const stop = setTimeout(() => child.kill(), Math.max(0, ms));
  return new Promise((resolve) => child.once('exit', () => { clearTimeout(stop); resolve(); }));
}
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;

/**
 * The 10,000-name batches, made before the run: making one is tens of milliseconds of synchronous work in this
 * process, which would hold up reading the answers it times (the soak would measure its own pauses).
 */
const BATCHES: { unknown: Req[]; mixed: Req[] } = { unknown: [], mixed: [] };

/**
 * The soak runs on the machine it measures. When the server and its builds keep both cores busy, a client at the
 * same priority waits for the CPU too, and times its own waits as the server's; so it asks for a higher one
 * (root only), as a client on a machine of its own would have. Returns whether it got it.
 */
function raisePriority(): boolean {
  try {
    setPriority(-10);
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const raised = raisePriority();
  const work = mkdtempSync(join(tmpdir(), 'vtqs-soak-'));
  const dataDir = join(work, 'data');
  const logs = { server: join(work, 'server.log'), build: join(work, 'build.log') };
  process.stderr.write(`soak: copying ${SOURCE} to ${dataDir}\n`);
  cpSync(SOURCE, dataDir, { recursive: true, filter: (src) => !/^\.staging|\.tmp$|\.wal$/.test(basename(src)) });
  const keys = await readKeys(join(dataDir, 'taxonomy.duckdb'));
  for (let i = 0; i < 8; i++) {
    BATCHES.unknown.push(traffic.resolve(keys, 10_000, 1));
    BATCHES.mixed.push(traffic.resolve(keys, 10_000, 0.3));
  }
  process.stderr.write(`soak: ${keys.species.length} (release, species) pairs, ${keys.releases.length} releases; ${MINUTES} minutes\n`);

  const children = new Set<ChildProcess>();
  process.once('exit', () => { for (const c of children) if (c.exitCode === null) c.kill('SIGKILL'); });
  const t0 = performance.now();
  const rec = new Recorder(t0);
  const server = await startServer(ROOT, dataDir, logs.server, () => rec.now());
  children.add(server.child);
  rec.event('server started');
  // the address every client uses: the server's own, or HAProxy's in front of it
  const front = process.env.SOAK_VIA_HAPROXY === '1' ? await behindHaproxy(server.base, children) : server.base;
  if (front !== server.base) rec.event(`HAProxy in front (${front})`);
  let stopping = false;
  server.child.once('exit', (code, signal) => {
    if (!stopping) rec.event(`SERVER EXITED (${code ?? signal}); see ${logs.server}`);
  });
  const rssTimer = setInterval(() => {
    // an exiting process's status has no VmRSS for a moment before its exit is seen: no sample then
    const { rss } = server.child.exitCode === null ? server.memory() : { rss: NaN };
    if (Number.isFinite(rss)) rec.rss.push({ t: rec.now(), mb: rss });
  }, 1000);

  const inFlight = new Set<Promise<void>>();
  let heavy = false;
  const issue = (cls: TrafficClass, req: Req, expected = 200): Promise<void> => {
    const start = rec.now();
    const flagged = heavy;
    const p = send(front, req).then((answer) => {
      rec.request(cls, `${req.method} ${req.path.slice(0, 120)}`, start, answer, expected, flagged || heavy);
    });
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
    return p;
  };

  // Open loop: each class is sent at its rate whatever the answers' times, as independent users would.
  let stopped = false;
  const timers = STEADY.map(({ cls, perSecond, make }) => {
    let sent = 0;
    const start = rec.now();
    return setInterval(() => {
      const due = Math.floor(((rec.now() - start) / 1000) * perSecond * RATE);
      for (; sent < due && !stopped; sent++) void issue(cls, make(keys));
    }, 20);
  });

  const heavyPhase = async (ms: number) => {
    heavy = true;
    rec.event(`heavy phase: 6 bulk downloads + 2 batches of 10,000 names + ${SLOW.idle + SLOW.drip} slow clients`);
    const end = rec.now() + ms;
    const repeat = async (send: () => Promise<void>) => { while (rec.now() < end) await send(); };
    const parts = process.env.SOAK_PARTS ?? 'bulk,batch,slow';
    await Promise.all([
      ...(parts.includes('bulk') ? Array.from({ length: 6 }, () => repeat(() => issue('bulk', traffic.bulk(keys, keys.latest, 'json')))) : []),
      // the issue's case: names that match nothing, every one of them needing a "did you mean"
      ...(parts.includes('batch') ? [repeat(() => issue('resolve-10k', pick(BATCHES.unknown))),
      repeat(() => issue('resolve-10k', pick(BATCHES.mixed)))] : []),
      // a slowloris: connections that send nothing or a header byte every half second, opened again as
      // the server closes them at its headers timeout
      ...(parts.includes('slow') ? [repeat(() => slowClients(front, SLOW.idle, SLOW.drip, end - rec.now()))] : []),
    ]);
    heavy = false;
    rec.event('heavy phase ends');
  };
  const problems: string[] = [];
  const awaitLoaded = async (reason: string, after: number, what: string) => {
    for (let waited = 0; waited < 120_000; waited += 200) {
      const loaded = server.loaded.slice(after).find((l) => l.reason === reason);
      if (loaded) {
        rec.event(`${what} swapped in (documents ${loaded.documents}, ${loaded.takenOverMb} of ${loaded.documentsMb} MB taken over)`);
        return;
      }
      await sleep(200);
    }
    problems.push(`${what}: the server did not report the data set loaded`);
    rec.event(`${what}: NOT swapped in`);
  };
  const rebuild = async (n: number) => {
    rec.event(`rebuild ${n} starts`);
    const before = server.loaded.length;
    const child = spawn(process.execPath, [join(ROOT, 'dist', 'build', 'cli.js'), '--force'], {
      env: { ...process.env, DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    try { setPriority(child.pid!, 0); } catch { /* not raised */ }
    children.add(child);
    const log = createWriteStream(logs.build, { flags: 'a' });
    child.stdout!.pipe(log, { end: false });
    child.stderr!.pipe(log, { end: false });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    children.delete(child);
    if (code !== 0) {
      problems.push(`rebuild ${n} failed (exit status ${code}); see ${logs.build}`);
      rec.event(`rebuild ${n} FAILED`);
      return;
    }
    rec.event(`rebuild ${n} built`);
    await awaitLoaded('database file replaced', before, `rebuild ${n}`);
  };
  const sighup = async () => {
    const before = server.loaded.length;
    rec.event('SIGHUP');
    server.child.kill('SIGHUP');
    await awaitLoaded('SIGHUP', before, 'SIGHUP reload');
  };

  // Each event starts at its share of the run, or when the one before has ended, whichever is later.
  const heavyMs = Math.max(30_000, 0.1 * DURATION);
  const plan: Array<[number, () => Promise<void>]> = HEAVY_ONLY ? [[0.2, () => heavyPhase(0.6 * DURATION)]] : [
    [0.2, () => heavyPhase(heavyMs)],
    [0.35, () => rebuild(1)],
    [0.55, sighup],
    [0.6, () => rebuild(2)],
    [0.85, () => heavyPhase(heavyMs)],
  ];
  for (const [share, run] of plan) {
    const wait = share * DURATION - rec.now();
    if (wait > 0) await sleep(wait);
    await run();
  }
  const planEnd = rec.now();
  if (planEnd < DURATION) await sleep(DURATION - planEnd);
  else rec.event('run extended: the events took longer than the planned run');
  stopped = true;
  for (const t of timers) clearInterval(t);
  await Promise.all([...inFlight]);
  rec.event('traffic stops');
  const memory = server.child.exitCode === null ? server.memory() : { rss: NaN, peak: NaN };
  stopping = true;
  const exitCode = await server.stop();
  clearInterval(rssTimer);
  closeClient();

  // --- verdict -----------------------------------------------------------------------------------------
  const end = rec.now();
  const requests = [...rec.samples.values()].reduce((n, s) => n + s.length, 0);
  const rssMax = rec.rssMax();
  const warm = { from: 0.1 * DURATION, to: 0.4 * DURATION };
  const final = { from: end - 0.3 * DURATION, to: end };
  const warmMax = rec.rssMax(warm.from, warm.to);
  const finalMax = rec.rssMax(final.from, final.to);
  const heavyLookups = rec.heavyLookups();
  const heavyP99 = percentile(heavyLookups, 99);
  const checks: Array<[boolean, string]> = [
    [rec.failures.length === 0, `failed requests: ${rec.failures.length} of ${requests} (allowed: 0)`],
    [rssMax <= BUDGET.rssMb, `server RSS at most ${rssMax.toFixed(0)} MB over ${rec.rss.length} samples, one a second (budget ${BUDGET.rssMb} MB; high-water mark of the process ${memory.peak.toFixed(0)} MB)`],
    [finalMax <= warmMax * (1 + BUDGET.driftShare), `no upward drift once warm: RSS max ${finalMax.toFixed(0)} MB in the last ${clock(0.3 * DURATION)} (from ${clock(final.from)}) against ${warmMax.toFixed(0)} MB in ${clock(warm.from)}-${clock(warm.to)} (${(100 * (finalMax / warmMax - 1)).toFixed(1)}%, allowed +${100 * BUDGET.driftShare}%)`],
    [heavyLookups.length > 0 && heavyP99 <= BUDGET.heavyLookupP99Ms, `lookup p99 while bulk downloads and 10,000-name batches run: ${heavyP99.toFixed(1)} ms over ${heavyLookups.length} lookups (budget ${BUDGET.heavyLookupP99Ms} ms)`],
    [HEAVY_ONLY || problems.length === 0, `${HEAVY_ONLY ? '(SOAK_HEAVY_ONLY: no swaps) ' : ''}two rebuilds and a SIGHUP swapped in${problems.length ? `: ${problems.join('; ')}` : ''}`],
    [exitCode === 0 && server.errors.length === 0, `server logged ${server.errors.length} errors and exited with status ${exitCode} on SIGTERM`],
  ];
  const report = [
    `${MINUTES} minutes planned, ${clock(end)} run; server as \`npm start\` runs it; steady traffic x${RATE}: ${STEADY.map((s) => `${s.cls} ${+(s.perSecond * RATE).toFixed(3)}/s`).join(', ')}; client at ${raised ? 'a raised priority (nice -10)' : 'the default priority (not root: the client may time its own waits for the CPU)'}; heavy phases of ${clock(heavyMs)}: 6 bulk downloads of ${keys.latest} as JSON and 2 batches of 10,000 names (one all unknown or misspelt, one 30%) repeated, and ${SLOW.idle} idle and ${SLOW.drip} header-dripping connections (those of SOAK_PARTS: ${process.env.SOAK_PARTS ?? 'bulk,batch,slow'}), lookups going on.`,
    '',
    rec.overTime(),
    '',
    'p50 / p99 ms (requests) of each class:',
    '',
    rec.byClass(),
    '',
    ...checks.map(([ok, text]) => `- ${ok ? 'PASS' : '**FAIL**'}: ${text}`),
    ...(rec.failures.length ? ['', 'First failures:', ...rec.failures.slice(0, 20).map((f) => `- ${clock(f.t)} ${f.cls} ${f.what}: ${f.error ?? `status ${f.status}`}`)] : []),
    ...(server.errors.length ? ['', 'Server errors:', ...server.errors.slice(0, 10).map((e) => `- ${e.slice(0, 300)}`)] : []),
  ].join('\n');
  console.log(report);
  writeMeasurement({
    file: `${HEAVY_ONLY ? 'soak-heavy-only' : 'soak'}${front === server.base ? '' : '-haproxy'}.md`,
    title: `${HEAVY_ONLY ? 'Soak, heavy phase only' : 'Soak: mixed traffic through two rebuilds and a SIGHUP'}${front === server.base ? '' : ', through HAProxy'}`,
    command: 'npm run soak',
    settings: {
      SOAK_MINUTES: MINUTES, SOAK_RATE: RATE, ...(HEAVY_ONLY ? { SOAK_HEAVY_ONLY: 1 } : {}),
      ...(process.env.SOAK_PARTS ? { SOAK_PARTS: process.env.SOAK_PARTS } : {}), ...(process.env.SOAK_DATA ? { SOAK_DATA: SOURCE } : {}),
      ...(front === server.base ? {} : { SOAK_VIA_HAPROXY: 1 }),
    },
    body: report,
  });
  if (process.env.SOAK_KEEP) process.stderr.write(`soak: data and logs kept in ${work}\n`);
  if (!process.env.SOAK_KEEP) rmSync(work, { recursive: true, force: true });
  process.exit(checks.every(([ok]) => ok) ? 0 : 1);
}

main().catch((err: Error) => {
  console.error(err);
  process.exit(2);
});

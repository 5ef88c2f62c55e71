// Replicas behind a real load balancer (`npm run test:cluster`, and part of `npm test`): three replicas of the
// real server, each its own host in a network namespace of its own (ip netns, a veth pair to this host)
// with its own data directory, pulling published bundles (real builds of the manifest's first releases)
// from a static store on this host, behind Debian's HAProxy with the project's configuration
// (deploy/haproxy/vtqs.cfg: health checks on /ready). Load is driven through HAProxy while (a) a new build
// is published: every replica converges on it, no request fails; (b) the replicas restart one at a time
// (SIGTERM: not ready, drained, then stopped; started again, not ready until loaded): no request fails;
// (c) one replica is killed with SIGKILL: the failures are counted (none may come after HAProxy marked it
// down). The figures are printed. Needs root (network namespaces) and haproxy, which .ci/run installs.
import { expect } from 'chai';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publishBundle } from '../build/bundle.js';
import { projectRoot } from '../src/shared/project-root.js';
import { POINTER_FILE } from '../src/store/bundle-format.js';
import { waitUntil } from './support/wait.js';
import { freePort } from './support/server-process.js';
import { smallBuild, type SmallBuild } from './support/small-builds.js';
import { serveFiles, type StaticFiles } from './support/static-files.js';

const REPLICAS = 3;
/** The replicas' port inside their namespaces. */
const PORT = 8000;
/** Long enough for HAProxy (inter 1 s, fall 2) to take a stopping replica out before it closes. */
const SHUTDOWN_DELAY_MS = 3000;

interface Replica {
  name: string;
  ns: string;
  address: string;
  dataDir: string;
  child: ChildProcess | null;
  logs: Array<{ msg: string; [k: string]: unknown }>;
}

/** Requests through the load balancer until stopped, each recorded with its end time and status (-1: failed). */
function drive(base: string, paths: readonly string[], clients: number) {
  const results: Array<{ at: number; status: number }> = [];
  let stopped = false;
  const client = async (c: number) => {
    for (let i = 0; !stopped; i++) {
      let status = -1;
      try {
        const res = await fetch(`${base}${paths[(c + i) % paths.length]}`, { signal: AbortSignal.timeout(30_000) });
        await res.arrayBuffer();
        status = res.status;
      } catch {
        // refused, reset or timed out: a failed request
      }
      results.push({ at: Date.now(), status });
    }
  };
  const running = Promise.all(Array.from({ length: clients }, (_, c) => client(c)));
  return {
    results,
    async stop() {
      stopped = true;
      await running;
      return results;
    },
  };
}

const failed = (rs: Array<{ status: number }>) => rs.filter((r) => r.status !== 200).length;

describe('replicas behind HAProxy (npm run test:cluster)', function () {
  this.timeout(900_000);
  const tag = `vt${process.pid % 100_000}`;
  let subnet = '';
  const replicas: Replica[] = [];
  let first: SmallBuild;
  let second: SmallBuild;
  let dest: string;
  let store: StaticFiles;
  let haproxy: ChildProcess;
  const haproxyOut: Array<{ at: number; line: string }> = [];
  let lb = '';
  let stats = '';

  const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString();

  const start = (r: Replica) => {
    const child = spawn('ip', ['netns', 'exec', r.ns, process.execPath, join(projectRoot(), 'dist', 'src', 'server.js')], {
      env: {
        ...process.env, PORT: String(PORT), HOST: '0.0.0.0', DATA_DIR: r.dataDir, LOG_LEVEL: 'info', LOG_SAMPLE: '0',
        // this host, as the replica's namespace reaches it: the other end of its veth pair
        DATA_URL: `http://${r.address.replace(/\.2$/, '.1')}:${new URL(store.base).port}/${POINTER_FILE}`,
        DATA_POLL_SECONDS: '1', SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let rest = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop()!;
      for (const l of lines) {
        try {
          r.logs.push(JSON.parse(l) as Replica['logs'][number]);
        } catch {
          r.logs.push({ msg: l });
        }
      }
    });
    r.child = child;
  };
  const readiness = async (r: Replica) => {
    const res = await fetch(`http://${r.address}:${PORT}/ready`, { signal: AbortSignal.timeout(2000) });
    return (await res.json()) as { ready: boolean; build_id: string | null };
  };
  /** HAProxy's view of each server: UP, DOWN, ... (its stats page as CSV). */
  const states = async (): Promise<Record<string, string>> => {
    const csv = await (await fetch(`${stats}/stats;csv`)).text();
    return Object.fromEntries(csv.split('\n').map((l) => l.split(',')).filter((f) => f[0] === 'replicas' && /^r\d$/.test(f[1] ?? '')).map((f) => [f[1]!, f[17]!.split(' ')[0]!]));
  };
  const allUp = async () => Object.values(await states()).every((s) => s === 'UP') ? true : undefined;

  before(async function () {
    if (process.getuid?.() !== 0 || !existsSync('/usr/sbin/haproxy')) {
      console.log('      skipped: needs root (network namespaces) and /usr/sbin/haproxy (.ci/run installs it)');
      this.skip();
    }
    [first, second] = await Promise.all([smallBuild(3), smallBuild(4)]);
    dest = mkdtempSync(join(tmpdir(), 'vtqs-cluster-store-'));
    await publishBundle(dest, { dataDir: first.dataDir, manifest: first.manifest });
    store = await serveFiles(dest, '0.0.0.0');
    // a 10.x.y.0/16 no interface of this machine uses
    const used = ip('-o', '-4', 'addr');
    for (let x = 100 + (process.pid % 100); ; x = x === 254 ? 100 : x + 1) {
      if (!used.includes(` 10.${x}.`)) {
        subnet = `10.${x}`;
        break;
      }
    }
    for (let i = 1; i <= REPLICAS; i++) {
      const r: Replica = { name: `r${i}`, ns: `${tag}r${i}`, address: `${subnet}.${i}.2`, dataDir: mkdtempSync(join(tmpdir(), `vtqs-cluster-r${i}-`)), child: null, logs: [] };
      ip('netns', 'add', r.ns);
      ip('link', 'add', `${tag}h${i}`, 'type', 'veth', 'peer', 'name', `${tag}n${i}`);
      ip('link', 'set', `${tag}n${i}`, 'netns', r.ns);
      ip('addr', 'add', `${subnet}.${i}.1/24`, 'dev', `${tag}h${i}`);
      ip('link', 'set', `${tag}h${i}`, 'up');
      ip('-n', r.ns, 'addr', 'add', `${r.address}/24`, 'dev', `${tag}n${i}`);
      ip('-n', r.ns, 'link', 'set', `${tag}n${i}`, 'up');
      ip('-n', r.ns, 'link', 'set', 'lo', 'up');
      replicas.push(r);
      start(r);
    }
    for (const r of replicas) await waitUntil(`${r.name} ready`, async () => ((await readiness(r)).ready ? true : undefined), 120_000);

    const [lbPort, statsPort] = [await freePort(), await freePort()];
    lb = `http://127.0.0.1:${lbPort}`;
    stats = `http://127.0.0.1:${statsPort}`;
    haproxy = spawn('haproxy', ['-db', '-f', join(projectRoot(), 'deploy', 'haproxy', 'vtqs.cfg')], {
      env: {
        ...process.env, VTQS_LISTEN: `127.0.0.1:${lbPort}`, VTQS_STATS: `127.0.0.1:${statsPort}`,
        ...Object.fromEntries(replicas.map((r, i) => [`VTQS_REPLICA_${i + 1}`, `${r.address}:${PORT}`])),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const s of [haproxy.stdout!, haproxy.stderr!]) {
      s.setEncoding('utf8').on('data', (chunk: string) => {
        for (const line of chunk.split('\n').filter(Boolean)) haproxyOut.push({ at: Date.now(), line });
      });
    }
    await waitUntil('HAProxy to see every replica up', allUp, 60_000);
  });

  after(async () => {
    haproxy?.kill('SIGKILL');
    for (const r of replicas) {
      r.child?.kill('SIGKILL');
      try {
        ip('netns', 'del', r.ns);
      } catch {
        // already gone
      }
      rmSync(r.dataDir, { recursive: true, force: true });
    }
    await store?.close();
    if (dest) rmSync(dest, { recursive: true, force: true });
  });

  const LOAD = ['/api/v1/versions', '/api/v1/search?q=virus&limit=3', '/api/v1/compare/MSL1/MSL3', '/health'];

  it('(a) a new build published: every replica converges on it, no request fails', async () => {
    const load = drive(lb, LOAD, 8);
    const t0 = Date.now();
    await publishBundle(dest, { dataDir: second.dataDir, manifest: second.manifest });
    const converged: number[] = [];
    for (const r of replicas) {
      await waitUntil(`${r.name} on the new build`, async () => ((await readiness(r)).build_id === second.report.build_id ? true : undefined), 60_000);
      converged.push(Date.now() - t0);
    }
    const results = await load.stop();
    console.log(`      converged in ${converged.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')}; ${results.length} requests, ${failed(results)} failed`);
    expect(Math.max(...converged)).to.be.below(60_000);
    expect(results.length).to.be.greaterThan(100);
    expect(failed(results)).to.equal(0);
  });

  it('(b) replicas restarted one at a time (SIGTERM: drained; not ready until loaded): no request fails', async () => {
    const load = drive(lb, LOAD, 8);
    const took: number[] = [];
    for (const r of replicas) {
      const t0 = Date.now();
      const exited = new Promise<number | null>((resolve) => r.child!.once('exit', (code) => resolve(code)));
      r.child!.kill('SIGTERM');
      expect(await exited).to.equal(0);
      start(r);
      await waitUntil(`${r.name} ready again`, async () => ((await readiness(r)).build_id === second.report.build_id ? true : undefined), 120_000);
      await waitUntil('HAProxy to see it up', allUp, 60_000);
      took.push(Date.now() - t0);
    }
    const results = await load.stop();
    console.log(`      each replica out and back in ${took.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')}; ${results.length} requests, ${failed(results)} failed`);
    expect(results.length).to.be.greaterThan(100);
    expect(failed(results)).to.equal(0);
  });

  it('(c) a replica killed with SIGKILL: only requests in flight on it may fail, none after HAProxy marks it down', async () => {
    const load = drive(lb, LOAD, 8);
    await waitUntil('load under way', () => (load.results.length > 200 ? true : undefined));
    const victim = replicas[1]!;
    const killedAt = Date.now();
    victim.child!.kill('SIGKILL');
    const down = await waitUntil('HAProxy to mark it down', () => haproxyOut.find((l) => l.at >= killedAt && new RegExp(`Server replicas/${victim.name} is DOWN`).test(l.line)), 30_000);
    const afterDown = load.results.length;
    await waitUntil('requests after it was marked down', () => (load.results.length > afterDown + 300 ? true : undefined));
    const results = await load.stop();
    const between = results.filter((r) => r.at >= killedAt && r.at < down.at);
    const later = results.filter((r) => r.at >= down.at);
    console.log(`      killed ${victim.name}; HAProxy marked it down ${down.at - killedAt} ms later; ${results.length} requests: `
      + `${failed(results)} failed in all, ${failed(between)} of ${between.length} between the kill and the mark, ${failed(later)} of ${later.length} after`);
    expect(failed(results.filter((r) => r.at < killedAt))).to.equal(0);
    expect(failed(later)).to.equal(0);
    expect(later.length).to.be.greaterThan(300);
  });
});

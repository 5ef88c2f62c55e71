// The contract fuzzer's runner: starts the server as shipped (dist/src/server.js, npm start's Node options),
// reads pools of real names from it, sends the seeded stream of probes (probes.ts) with a few in flight,
// checks every answer (checks.ts), then sends HTTP-level probes no operation describes (an oversized URL or
// header, a malformed request line) and checks the server still answers. `npm run fuzz` runs it in full;
// test/contract-fuzz.test.ts runs a short seeded run in `npm test`.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { projectRoot } from '../../src/shared/project-root.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { check, describeProbe, type Answer, type Finding, type Probe } from './checks.js';
import { loadContract, type Contract } from './contract.js';
import { deepJson, probes } from './probes.js';
import type { Pools } from './values.js';

export interface FuzzOptions {
  requests: number;
  seed: number;
  concurrency?: number;
  /** Log a line every this many requests (0: quiet). */
  progressEvery?: number;
}

export interface FuzzReport {
  requests: number;
  seconds: number;
  seed: number;
  /** kind -> status -> count */
  byKind: Map<string, Map<number, number>>;
  findings: Finding[];
  operations: number;
}


async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    }).on('error', reject);
  });
}

/** The server as `npm start` runs it, on a free port; resolves once /health says ok. */
export async function startServer(env: Record<string, string> = {}): Promise<{ child: ChildProcess; port: number; stderr: () => string }> {
  const root = projectRoot();
  const port = await freePort();
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const nodeArgs = /node ((?:--\S+ )*)dist\/src\/server\.js/.exec(pkg.scripts.start)?.[1]?.trim().split(' ').filter(Boolean) ?? [];
  let errors = '';
  const child = spawn(process.execPath, [...nodeArgs, join(root, 'dist', 'src', 'server.js')], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => { errors += d.toString(); });
  child.stderr!.on('data', (d: Buffer) => { errors += d.toString(); });
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${errors.slice(-500)}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      if ((await res.json() as { status: string }).status === 'ok') break;
    } catch {
      // not listening yet
    }
    if (i > 3000) throw new Error('server did not start');
    await sleep(20);
  }
  return { child, port, stderr: () => errors };
}

function send(agent: http.Agent, port: number, p: Probe): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...p.headers };
    if (p.body !== undefined) headers['content-length'] = Buffer.byteLength(p.body);
    const req = http.request({ host: '127.0.0.1', port, method: p.method, path: p.path, headers, agent, timeout: 120_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 120 s')));
    req.on('error', reject);
    req.end(p.body);
  });
}

/** Real values to fill parameters with, read from the service itself. */
async function readPools(port: number): Promise<Pools> {
  const get = async <T>(path: string): Promise<T> => (await (await fetch(`http://127.0.0.1:${port}${path}`)).json()) as T;
  const versions = (await get<Array<{ version: string }>>('/api/v1/versions')).map((v) => v.version);
  const families = (await get<{ families: Array<{ family: string }> }>('/taxonomy/families')).families.map((f) => f.family);
  type Hit = { scientific_name: string; genus: string | null; order: string | null; realm: string | null };
  const hits: Hit[] = [];
  for (const [q, v] of [['virus', versions.at(-1)], ['virus', versions[Math.floor(versions.length / 2)]], ['mosaic', versions[0]], ['phage', versions.at(-1)]] as const) {
    hits.push(...(await get<{ results: Hit[] }>(`/api/v1/search?q=${q}&version=${v}&limit=300`)).results);
  }
  const species = [...new Set(hits.map((h) => h.scientific_name))];
  const taxa = [...new Set(hits.flatMap((h) => [h.genus, h.order, h.realm]).filter((x): x is string => Boolean(x)))];
  return {
    versions: [...versions, 'latest', 'LATEST', ...versions.slice(0, 5).map((v) => v.toLowerCase())],
    species: [...species, 'tobacco mosaic virus', 'TMV', 'SARS-CoV-2', 'Influenza A virus', 'Coliphage lambda', 'Caudovirales'],
    families,
    taxa: [...taxa, ...families.slice(0, 50)],
  };
}

/** The statuses a conditional or HEAD probe must get, from a plain GET of the same URL just before. */
async function withReference(agent: http.Agent, port: number, p: Probe): Promise<Probe> {
  const plain = await send(agent, port, { ...p, method: 'GET', headers: {} });
  if (p.kind === 'HEAD') return { ...p, status: [plain.status] };
  const etag = typeof plain.headers.etag === 'string' ? plain.headers.etag : null;
  const tag = p.headers['if-none-match']!;
  const sent = etag ? tag.replace('ETAG', etag) : tag;
  const matches = plain.status === 200 && etag !== null && (sent === '*' || sent.split(',').some((t) => t.trim().replace(/^W\//, '') === etag));
  return { ...p, headers: { 'if-none-match': sent }, status: [matches ? 304 : plain.status], note: `If-None-Match: ${sent.slice(0, 60)}` };
}

/** Requests below the contract: what the HTTP server answers before any route sees them. */
const RAW_PROBES: Array<{ name: string; bytes: string; expect: RegExp }> = [
  { name: 'URL of 100 KB', bytes: `GET /api/v1/species/MSL40/${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, expect: /^HTTP\/1\.1 (414|431|400)/ },
  { name: 'header of 64 KB', bytes: `GET /api/v1/versions HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(65_536)}\r\n\r\n`, expect: /^HTTP\/1\.1 431/ },
  { name: 'malformed request line', bytes: 'GET\r\n\r\n', expect: /^HTTP\/1\.1 400/ },
  { name: 'header with a control character', bytes: 'GET /api/v1/versions HTTP/1.1\r\nHost: x\r\nX-A: a\u0001b\r\n\r\n', expect: /^HTTP\/1\.1 400/ },
  { name: 'no Host header', bytes: 'GET /api/v1/versions HTTP/1.1\r\n\r\n', expect: /^HTTP\/1\.1 400/ },
  { name: 'absolute-form URL', bytes: 'GET http://x/api/v1/versions HTTP/1.1\r\nHost: x\r\n\r\n', expect: /^HTTP\/1\.1 200/ },
  { name: 'path traversal', bytes: 'GET /api/v1/../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n', expect: /^HTTP\/1\.1 404/ },
  { name: 'path traversal out of /docs', bytes: 'GET /docs/../package.json HTTP/1.1\r\nHost: x\r\n\r\n', expect: /^HTTP\/1\.1 404/ },
  { name: 'query string nested 100,000 deep', bytes: `GET /api/v1/search?q=${encodeURIComponent(deepJson(100_000, 'array'))} HTTP/1.1\r\nHost: x\r\n\r\n`, expect: /^HTTP\/1\.1 431/ },
];

/** A raw answer's refusal must still be JSON in the documented shape: a specific `detail`. */
function rawBodyFinding(got: string): string | null {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(got)?.[1] ?? 0);
  if (status < 400) return null;
  const [head = '', body = ''] = got.split('\r\n\r\n', 2);
  if (!/^content-type: application\/json/im.test(head)) return `a ${status} that is not JSON: ${head.split('\r\n').find((l) => /^content-type/i.test(l)) ?? 'no Content-Type'}`;
  try {
    const detail = (JSON.parse(body) as { detail?: unknown }).detail;
    return typeof detail === 'string' && detail.length >= 12 ? null : `no specific detail: ${body.slice(0, 100)}`;
  } catch {
    return `a body that is not JSON: ${body.slice(0, 100)}`;
  }
}

async function rawProbe(port: number, bytes: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(bytes));
    let got = '';
    socket.on('data', (d: Buffer) => { got += d.toString('latin1'); });
    socket.on('close', () => resolve(got));
    socket.on('error', () => resolve(got));
    socket.setTimeout(10_000, () => socket.destroy());
  });
}

export async function fuzz(port: number, contract: Contract, opts: FuzzOptions): Promise<FuzzReport> {
  const t0 = performance.now();
  const pools = await readPools(port);
  const stream = fc.sample(probes(contract, pools), { seed: opts.seed, numRuns: opts.requests });
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.concurrency ?? 8 });
  const byKind = new Map<string, Map<number, number>>();
  const findings: Finding[] = [];
  let next = 0;
  let done = 0;
  const worker = async () => {
    for (let i = next++; i < stream.length; i = next++) {
      let p = stream[i]!;
      try {
        if (p.kind === 'HEAD' || p.kind === 'If-None-Match') p = await withReference(agent, port, p);
        const a = await send(agent, port, p);
        const counts = byKind.get(p.kind) ?? new Map<number, number>();
        byKind.set(p.kind, counts.set(a.status, (counts.get(a.status) ?? 0) + 1));
        findings.push(...check(contract, p, a));
      } catch (err) {
        findings.push({ check: 'request failed', probe: describeProbe(p), status: 0, detail: (err as Error).message });
      }
      if (opts.progressEvery && ++done % opts.progressEvery === 0) console.log(`  ${done} requests, ${findings.length} findings`);
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency ?? 8 }, worker));
  agent.destroy();

  for (const raw of RAW_PROBES) {
    const got = await rawProbe(port, raw.bytes);
    const counts = byKind.get('HTTP-level') ?? new Map<number, number>();
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(got)?.[1] ?? 0);
    byKind.set('HTTP-level', counts.set(status, (counts.get(status) ?? 0) + 1));
    if (!raw.expect.test(got)) findings.push({ check: 'HTTP-level probe', probe: raw.name, status, detail: got.slice(0, 120) || 'connection closed without an answer' });
    const shape = rawBodyFinding(got);
    if (shape) findings.push({ check: 'error message', probe: raw.name, status, detail: shape });
  }
  const health = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.status).catch(() => 0);
  if (health !== 200) findings.push({ check: 'server still answers', probe: 'GET /health after the run', status: health, detail: 'the server stopped answering' });
  return { requests: stream.length + RAW_PROBES.length, seconds: (performance.now() - t0) / 1000, seed: opts.seed, byKind, findings, operations: contract.operations.length };
}

/** The run as Markdown: requests per kind by status class, then findings per check. */
export function summary(r: FuzzReport): string {
  const lines = [
    `Seed ${r.seed}: ${r.requests.toLocaleString('en')} requests over ${r.operations} operations in ${r.seconds.toFixed(0)} s; ${r.findings.length} findings.`,
    '',
    '| request kind | requests | 2xx | 304 | 400 | 404 | 405 | 413 | 415 | 422 | other | >= 500 |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const named = [304, 400, 404, 405, 413, 415, 422];
  for (const [kind, counts] of [...r.byKind].sort((a, b) => a[0].localeCompare(b[0]))) {
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    const ok = [...counts].filter(([s]) => s >= 200 && s < 300).reduce((a, [, n]) => a + n, 0);
    const server = [...counts].filter(([s]) => s >= 500).reduce((a, [, n]) => a + n, 0);
    const other = [...counts].filter(([s]) => !(s >= 200 && s < 300) && s < 500 && !named.includes(s)).reduce((a, [, n]) => a + n, 0);
    lines.push(`| ${kind} | ${total} | ${ok} | ${named.map((s) => counts.get(s) ?? 0).join(' | ')} | ${other} | ${server} |`);
  }
  const checks = ['status >= 500', 'body schema', 'undeclared status', 'contract-valid request refused', 'contract-invalid request answered', 'expected status',
    'CSV formula cell', 'content type', 'error message', 'security headers', '405 without the right Allow', 'HEAD with a body', '304 with a body',
    'HTTP-level probe', 'request failed', 'server still answers'];
  lines.push('', '| check | findings |', '|---|---:|');
  for (const c of checks) lines.push(`| ${c} | ${r.findings.filter((f) => f.check === c).length} |`);
  return lines.join('\n');
}

async function main(): Promise<void> {
  const requests = Number(process.env.FUZZ_REQUESTS ?? 20_000);
  const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);
  const server = await startServer();
  try {
    console.log(`fuzzing ${requests} requests, seed ${seed} (FUZZ_SEED=${seed} repeats this run)`);
    const report = await fuzz(server.port, loadContract(), { requests, seed, concurrency: 8, progressEvery: 2000 });
    console.log(summary(report));
    const shown = new Map<string, number>();
    for (const f of report.findings) {
      const n = (shown.get(f.check) ?? 0) + 1;
      shown.set(f.check, n);
      if (n <= 5) console.log(`- ${f.check} (${f.status}): ${f.probe}\n    ${f.detail}`);
    }
    // A 500's cause is in the server's log (errors only), not in the answer: show it with the findings.
    if (report.findings.some((f) => f.status >= 500) && server.stderr()) console.log(`\nserver log (last 4,000 characters):\n${server.stderr().slice(-4000)}`);
    process.exitCode = report.findings.length === 0 ? 0 : 1;
  } finally {
    server.child.kill('SIGTERM');
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((err: Error) => {
    console.error(err);
    process.exit(1);
  });
}

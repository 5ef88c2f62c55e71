// npm run bench:growth -- DIR...: how the cost grows with the record. For each data set given (built with
// `DATA_DIR=DIR npm run build -- --force --releases=N`, the first N releases of the manifest, or the full
// build), its releases, build time, database, documents and Parquet sizes, and the server's start-up to its
// first answer and RSS once started, the server run as shipped (the start script's Node options).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { projectRoot } from '../src/shared/project-root.js';
import { median } from '../test/support/measure.js';
import { writeMeasurement } from './measurement.js';

const PORT = 18_704;
const STARTS = Number(process.env.BENCH_RUNS ?? 3);

function bytesOf(path: string): number {
  const st = statSync(path);
  return st.isDirectory() ? readdirSync(path).reduce((n, f) => n + bytesOf(join(path, f)), 0) : st.size;
}

function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

/** Starts the server on a data set; the time to its first species answer and its RSS a second later. */
async function startOnce(dataDir: string, probe: string): Promise<{ ms: number; rss: number }> {
  const root = projectRoot();
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const nodeArgs = /node ((?:--\S+ )*)dist\/src\/server\.js/.exec(pkg.scripts.start)?.[1]?.trim().split(' ').filter(Boolean) ?? [];
  const t0 = Date.now();
  const child = spawn(process.execPath, [...nodeArgs, join(root, 'dist', 'src', 'server.js')], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(PORT), HOST: '127.0.0.1', LOG_LEVEL: 'warn' }, stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server on ${dataDir} exited with ${child.exitCode}`);
      if (Date.now() - t0 > 120_000) throw new Error(`server on ${dataDir} did not answer within 120 s`);
      if (await fetch(`http://127.0.0.1:${PORT}${probe}`).then((r) => r.ok, () => false)) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const ms = Date.now() - t0;
    await new Promise((r) => setTimeout(r, 1000));
    return { ms, rss: rssMb(child.pid!) };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

async function main(): Promise<void> {
  const dirs = process.argv.slice(2).map((d) => resolve(d));
  if (dirs.length === 0) throw new Error('usage: npm run bench:growth -- DATA_DIR...');
  const mb = (b: number) => (b / 1e6).toFixed(0);
  const lines = [
    '| releases | species rows | build s | database MB | documents MB | Parquet MB | start-up to first answer ms (median) | RSS after start MB (median) |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const dir of dirs) {
    const report = JSON.parse(readFileSync(join(dir, 'build-report.json'), 'utf8')) as {
      duration_ms: number; releases: Array<{ version: string }>; parquet: { tables: Record<string, { rows: number }> };
    };
    const releases = report.releases.map((r) => r.version);
    const probe = `/api/v1/versions`;
    const runs = [];
    for (let i = 0; i < STARTS; i++) runs.push(await startOnce(dir, probe));
    lines.push(`| ${releases.length} (${releases[0]}..${releases[releases.length - 1]}) | ${report.parquet.tables.species?.rows ?? '?'} | ${(report.duration_ms / 1000).toFixed(0)} | `
      + `${mb(bytesOf(join(dir, 'taxonomy.duckdb')))} | ${mb(bytesOf(join(dir, 'documents.bin')))} | ${mb(bytesOf(join(dir, 'parquet')))} | `
      + `${median(runs.map((r) => r.ms))} | ${median(runs.map((r) => r.rss)).toFixed(0)} |`);
  }
  console.log(lines.join('\n'));
  writeMeasurement({
    file: 'growth.md', title: 'How cost grows with the record', command: 'npm run bench:growth',
    settings: { BENCH_RUNS: STARTS, data_sets: dirs.map((d) => relative(projectRoot(), d) || '.').join(' ') },
    body: `Each data set built with \`DATA_DIR=DIR npm run build -- --force --releases=N\`; build times are each data set's last build (build-report.json).\n\n${lines.join('\n')}`,
  });
}

main().catch((err: Error) => {
  console.error(err);
  process.exit(1);
});

// What the fault drills share: copies of the real data set to damage, builds and slow clients run as
// processes of their own (to be killed), and what a reader of a published data set can observe of it.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync, copyFileSync, cpSync, existsSync, mkdtempSync, openSync, readFileSync, readdirSync, statSync, writeFileSync, writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { fileChecksum, readRecordedChecksum } from '../../src/store/checksum.js';
import { DB_CHECKSUM_FILE, DB_FILE, DOC_SNAPSHOT_FILE, REPORT_FILE } from '../../src/store/files.js';
import { type BuildReport } from '../../build/index.js';
import { defaultPaths } from '../../build/paths.js';
import { projectRoot } from '../../src/shared/project-root.js';

/** The files a server reads. */
export const SERVED = [DB_FILE, DB_CHECKSUM_FILE, DOC_SNAPSHOT_FILE] as const;

/**
 * A copy of the real data set under `into` (a new temporary folder by default): what a server reads, or
 * with `whole` everything a build reads and writes too (Parquet, raw files, reports).
 */
export function copyDataSet(opts: { whole?: boolean; into?: string } = {}): string {
  const from = defaultPaths().dataDir;
  const dir = opts.into ?? mkdtempSync(join(tmpdir(), 'vtqs-drill-'));
  for (const f of [...SERVED, ...(opts.whole ? [REPORT_FILE, 'build-report.txt'] : [])]) copyFileSync(join(from, f), join(dir, f));
  if (opts.whole) for (const d of ['parquet', 'raw']) cpSync(join(from, d), join(dir, d), { recursive: true });
  return dir;
}

/**
 * Makes the next build of `dataDir` re-run the project stage only, as a changed projection would (the
 * build compares its cache keys with the published report's): the shortest build that publishes anew.
 */
export function staleProjection(dataDir: string): void {
  const file = join(dataDir, REPORT_FILE);
  const report = JSON.parse(readFileSync(file, 'utf8')) as BuildReport;
  report.cache_keys.project = 'a projection changed';
  writeFileSync(file, JSON.stringify(report, null, 2));
}

/** Identity of each published file (a publish renames, so a replaced file has another inode) and the report's hash. */
export function published(dataDir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of [...SERVED, REPORT_FILE]) {
    const path = join(dataDir, f);
    if (!existsSync(path)) continue;
    const s = statSync(path);
    out[f] = `inode ${s.ino}, ${s.size} bytes, mtime ${s.mtimeMs}`;
  }
  out.report_sha256 = existsSync(join(dataDir, REPORT_FILE)) ? createHash('sha256').update(readFileSync(join(dataDir, REPORT_FILE))).digest('hex') : 'none';
  return out;
}

export const stagingFolders = (dataDir: string) => readdirSync(dataDir).filter((f) => f.startsWith('.staging-'));

export interface BuildRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Every line the build printed (stdout and stderr), without the time and elapsed time a progress line starts with. */
  lines: string[];
  ms: number;
  pid: number;
}

export interface RunOptions {
  force?: boolean;
  env?: Record<string, string>;
  /** A script other than the command-line build, with its arguments. */
  script?: string[];
}

/** What a progress line starts with when the build's output is no terminal (build/progress.ts). */
export const PROGRESS_STAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \+\d+\.\ds /;

/** Runs `node dist/build/cli.js` over `dataDir` as its own process. */
export function runBuild(dataDir: string, opts: RunOptions = {}): Promise<BuildRun> {
  const t0 = Date.now();
  const args = opts.script ?? [join(projectRoot(), 'dist', 'build', 'cli.js'), ...(opts.force ? ['--force'] : [])];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, DATA_DIR: dataDir, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const take = (stream: NodeJS.ReadableStream) => {
    let rest = '';
    stream.setEncoding('utf8').on('data', (chunk: string) => {
      const complete = (rest + chunk).split('\n');
      rest = complete.pop()!;
      lines.push(...complete.filter(Boolean).map((l) => l.replace(PROGRESS_STAMP, '')));
    });
  };
  take(child.stdout);
  take(child.stderr);
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, lines, ms: Date.now() - t0, pid: child.pid! })));
}


/** Overwrites `length` bytes at `at` (a fraction of the file's size) with a repeated byte. */
export function overwrite(file: string, at: number, length: number, byte = 0x5a): void {
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(length, byte), 0, length, Math.floor(statSync(file).size * at));
  closeSync(fd);
}

/** The build a database file holds, read as the server reads it. */
export async function buildIdOf(file: string): Promise<string> {
  const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  try {
    const conn = await instance.connect();
    const id = String((await conn.runAndReadAll('SELECT build_id FROM src.build_info')).getRows()[0]![0]);
    conn.closeSync();
    return id;
  } finally {
    instance.closeSync();
  }
}

/** A database file and the checksum beside it: which build, and whether the file is the one it describes. */
export async function describeDb(dir: string): Promise<{ build: string; checksum: 'matches' | 'of another build' | 'none' }> {
  const build = await buildIdOf(join(dir, DB_FILE));
  const recorded = readRecordedChecksum(join(dir, DB_CHECKSUM_FILE));
  if (!recorded) return { build, checksum: 'none' };
  if (recorded.build_id !== build) return { build, checksum: 'of another build' };
  expect(await fileChecksum(join(dir, DB_FILE)), `${dir}: the file its checksum describes`).to.deep.equal({ bytes: recorded.bytes, crc32: recorded.crc32 });
  return { build, checksum: 'matches' };
}


/**
 * Starts slow-clients.js against a port: `idle` connections that send nothing, `drip` that send a header
 * byte every 500 ms. Its reports (JSON lines) arrive in `reports`.
 */
export function slowClients(port: string, idle: number, drip: number): { reports: Array<Record<string, unknown>>; stop(): void } {
  const child = spawn(process.execPath, [join(projectRoot(), 'dist', 'test', 'support', 'slow-clients.js'), port, String(idle), String(drip), '500'],
    { stdio: ['ignore', 'pipe', 'inherit'] });
  const reports: Array<Record<string, unknown>> = [];
  // Its lines are short and written one at a time, well under a pipe read.
  child.stdout.setEncoding('utf8').on('data', (d: string) => reports.push(...d.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>)));
  return { reports, stop: () => { if (child.exitCode === null) child.kill(); } };
}

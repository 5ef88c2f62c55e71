// The offline build: fetch -> ingest -> project, into a staging folder that replaces the published data set
// only when every stage succeeded. A stage whose inputs (raw checksums, its code, its SQL) are unchanged
// since the last good build is skipped.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileChecksum } from '../src/store/checksum.js';
import { DB_CHECKSUM_FILE, DB_FILE, DOC_SNAPSHOT_FILE, REPORT_FILE, SUMMARY_FILE } from '../src/store/files.js';
import { fetchInputs } from './fetch.js';
import { killableProgress } from './kill-points.js';
import { firstReleases, loadManifest } from './manifest.js';
import { type BuildPaths } from './paths.js';
import { projectRoot } from '../src/shared/project-root.js';
import { seconds, type Progress } from './progress.js';
import { summary } from './summary.js';
import { publish, removeStale, stagingName } from './publish.js';
import { ingest, type IngestReport } from './stage-ingest.js';
import { runChecks, type Checks } from './checks.js';
import { project, type ProjectReport } from './stage-project.js';
import { EXPORTED_MODELS, exportTables, stageIngestOutput, type ExportReport } from './stage-export.js';

export interface BuildOptions extends BuildPaths {
  progress: Progress;
  /** Download inputs missing from rawDir and the mirror (off in tests). */
  download?: boolean;
  /** Rebuild every stage even when its cache key is unchanged. */
  force?: boolean;
  /**
   * Last step: writes the server's document snapshot for a database (unless the one at `out` is already
   * its). Passed in by the command-line entry point and the tests' real build, so the pipeline itself does
   * not depend on the server's code, and fixture builds, whose projections have no documents, skip it.
   */
  snapshot?: (dbFile: string, out: string, buildId: string) => Promise<unknown>;
  /**
   * Build only the first this many releases of the manifest (all when unset): a smaller record, to measure how
   * the build and the server's cost grow with it (npm run bench). The cross-release tables are read whole.
   */
  releases?: number;
  /**
   * Last word before the new data set is published: throws to refuse it (the update job's checks,
   * build/update.ts), which then fails the build and leaves the published data set as it was.
   */
  accept?: (report: BuildReport) => void | Promise<void>;
}

export interface BuildReport {
  build_id: string;
  started_at: string;
  duration_ms: number;
  stages: Record<string, { ms: number; skipped: boolean }>;
  cache_keys: { ingest: string; project: string };
  inputs: Array<{ file: string; sha256: string; bytes: number }>;
  parquet: { bytes: number; files: number; tables: Record<string, { rows: number }> };
  /** The database as written; the server checks the file against its checksum (checksum.ts). */
  database: { file: string; bytes: number; crc32: string };
  /** The server's document snapshot, when the build wrote one. */
  documents: { file: string; bytes: number } | null;
  releases: IngestReport['releases'];
  projections: ProjectReport;
  /** The tables written from the read models, and the whole-record downloads with their checksums. */
  exported: ExportReport;
  checks: Checks;
  warnings: string[];
}


export async function build(opts: BuildOptions): Promise<BuildReport> {
  const started = Date.now();
  const stages: BuildReport['stages'] = {};
  const progress = killableProgress(opts.progress);
  const log = (line: string) => progress.log(line);
  const timed = async <T>(name: string, skipped: boolean, fn: () => Promise<T>): Promise<T> => {
    const t = Date.now();
    log(`stage ${name} started${skipped ? ' (skipped: its inputs are unchanged)' : ''}`);
    const out = await fn();
    const ms = Date.now() - t;
    stages[name] = { ms, skipped };
    if (!skipped) log(`stage ${name} done in ${seconds(ms)}`);
    return out;
  };

  removeStale(opts.dataDir, log);
  const manifest = firstReleases(loadManifest(opts.manifest), opts.releases);
  await timed('fetch', false, () => fetchInputs(manifest, {
    rawDir: opts.rawDir, mirror: opts.mirror, download: opts.download ?? true, log,
  }));

  const root = projectRoot();
  const inputs = [...manifest.releases.flatMap((r) => Object.values(r.files)), ...Object.values(manifest.crossRelease), ...Object.values(manifest.enrichment)];
  const ingestKey = hash([
    ...inputs.map((f) => f.sha256),
    ...codeFiles(join(root, 'build')).map((f) => `${relative(root, f)}:${hashFile(f)}`),
    // The readers' and DuckDB's versions shape the output too.
    `package-lock.json:${hashFile(join(root, 'package-lock.json'))}`,
  ]);
  const projectKey = hash([ingestKey, ...codeFiles(opts.projectionsDir).map((f) => `${relative(root, f)}:${hashFile(f)}`)]);
  const buildId = projectKey.slice(0, 16);

  const previous = readPreviousReport(opts.dataDir);
  const parquetDir = join(opts.dataDir, 'parquet');
  const dbFile = join(opts.dataDir, DB_FILE);
  const ingestFresh = !opts.force && previous?.cache_keys.ingest === ingestKey && existsSync(parquetDir);
  const projectFresh = ingestFresh && previous?.cache_keys.project === projectKey && existsSync(dbFile);
  if (projectFresh && previous) {
    log(`data set ${previous.build_id} is up to date (inputs, code and projections unchanged)`);
    // The server's document definitions may have changed without the data: the snapshot is checked apart.
    await opts.snapshot?.(dbFile, join(opts.dataDir, DOC_SNAPSHOT_FILE), previous.build_id);
    return previous;
  }

  // Everything new goes to a staging folder beside the published one (same file system, so the final
  // renames are atomic); a failure anywhere leaves the published data set exactly as it was.
  const staging = join(opts.dataDir, stagingName(process.pid, Date.now()));
  mkdirSync(staging, { recursive: true });
  try {
    // The Parquet folder is always staged whole: the exported tables are written after the project stage,
    // from this build's read models, even when the ingest stage's tables are reused (linked, not copied).
    const stagedParquet = join(staging, 'parquet');
    if (ingestFresh) stageIngestOutput(parquetDir, stagedParquet, EXPORTED_MODELS);
    const ingested = ingestFresh && previous
      ? await timed('ingest', true, async () => ({ releases: previous.releases, tables: previous.parquet.tables, warnings: [] }))
      : await timed('ingest', false, () => ingest(manifest, opts.rawDir, join(root, 'build', 'sql'), stagedParquet, progress));
    const stagedDb = join(staging, DB_FILE);
    const projections = await timed('project', false, () => project({
      parquetDir: stagedParquet, dbFile: stagedDb, projectionsDir: opts.projectionsDir, buildId, progress,
    }));

    const checks = await timed('checks', false, () => runChecks(stagedDb));
    const exported = await timed('export', false, () => exportTables(stagedDb, stagedParquet));
    if (opts.snapshot) await timed('snapshot', false, () => opts.snapshot!(stagedDb, join(staging, DOC_SNAPSHOT_FILE), buildId));
    // Taken last: nothing writes to the database after the project stage, and the checks and the snapshot
    // open it read-only.
    const checksum = await fileChecksum(stagedDb);
    writeFileSync(join(staging, DB_CHECKSUM_FILE), `${JSON.stringify({ build_id: buildId, ...checksum })}\n`);
    const report: BuildReport = {
      build_id: buildId,
      started_at: new Date(started).toISOString(),
      duration_ms: Date.now() - started,
      stages,
      cache_keys: { ingest: ingestKey, project: projectKey },
      inputs: inputs.map((f) => ({ file: f.file, sha256: f.sha256, bytes: f.bytes })),
      parquet: { ...sizeOf(stagedParquet), tables: ingested.tables },
      database: { file: DB_FILE, ...checksum },
      documents: existsSync(join(staging, DOC_SNAPSHOT_FILE)) ? { file: DOC_SNAPSHOT_FILE, bytes: statSync(join(staging, DOC_SNAPSHOT_FILE)).size } : null,
      releases: ingested.releases,
      projections,
      exported,
      checks,
      warnings: ingested.warnings,
    };
    writeFileSync(join(staging, REPORT_FILE), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(join(staging, SUMMARY_FILE), summary(report));
    if (opts.accept) await timed('accept', false, async () => opts.accept!(report));
    log('stage publish started');
    await publish(staging, opts.dataDir, true, log);
    log(`stage publish done: build ${buildId} in ${seconds(Date.now() - started)}`);
    return report;
  } catch (err) {
    throw diskFull(err) ? new Error(`no space left on the device of ${opts.dataDir} while building in ${staging} `
      + `(the staging folder is removed, the published data set is unchanged): ${(err as Error).message}`, { cause: err }) : err;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

// Node says ENOSPC; DuckDB, which writes the Parquet files and the database, says it in words.
const diskFull = (err: unknown) =>
  (err as NodeJS.ErrnoException).code === 'ENOSPC' || /no space left on device/i.test((err as Error).message ?? '');

export function readPreviousReport(dataDir: string): BuildReport | null {
  try {
    return JSON.parse(readFileSync(join(dataDir, REPORT_FILE), 'utf8')) as BuildReport;
  } catch {
    return null;
  }
}

function sizeOf(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  for (const f of walk(dir)) {
    bytes += statSync(f).size;
    files += 1;
  }
  return { bytes, files };
}

function* walk(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else yield p;
  }
}

/** The files whose content decides a stage's output: sources and SQL, sorted for a stable key. */
function codeFiles(dir: string): string[] {
  return [...walk(dir)].filter((f) => /\.(ts|sql)$/.test(f)).sort();
}

const hashFile = (f: string) => createHash('sha256').update(readFileSync(f)).digest('hex');
const hash = (parts: string[]) => createHash('sha256').update(parts.join('\n')).digest('hex');

// Test data: the real data set (built once per test run from ../shared/msl, reusing an up-to-date build,
// with the server's document snapshot as `npm run build` writes it)
// and tiny fixture data sets whose source tables a test writes in SQL, projected by the real project stage.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { build, type BuildReport } from '../../build/index.js';
import { DB_FILE, DOC_SNAPSHOT_FILE } from '../../src/store/files.js';
import { defaultPaths } from '../../build/paths.js';
import { silent } from '../../build/progress.js';
import { refreshDocSnapshot } from '../../src/read/documents.js';
import { project } from '../../build/stage-project.js';
import { SOURCE_SCHEMA } from './source-schema.js';

let real: Promise<BuildReport> | null = null;

/** Builds (or reuses) the real data set under data/ and returns its build report. */
export function realBuild(): Promise<BuildReport> {
  real ??= build({ ...defaultPaths(), progress: silent, download: false, snapshot: refreshDocSnapshot });
  return real;
}

export interface Db {
  conn: DuckDBConnection;
  all<T = Record<string, unknown>>(sql: string, values?: unknown[]): Promise<T[]>;
  /** The number in column n of the first row (a query of the form SELECT count(*) AS n ...). */
  count(sql: string, values?: unknown[]): Promise<number>;
  close(): void;
}

async function open(path: string, readOnly: boolean): Promise<Db> {
  const instance = await DuckDBInstance.create(path, readOnly ? { access_mode: 'READ_ONLY' } : {});
  const conn = await instance.connect();
  const all = async <T>(sql: string, values: unknown[] = []) =>
    (await conn.runAndReadAll(sql, values as never)).getRowObjectsJson() as T[];
  return {
    conn,
    all,
    count: async (sql, values) => Number((await all<{ n: number | string }>(sql, values))[0]!.n),
    close: () => { conn.closeSync(); instance.closeSync(); },
  };
}

/**
 * The real data set published again in `dir` as another build: the database with its build id changed and
 * the document snapshot to go with it (the same documents, its header naming the new build), as a rebuild
 * of unchanged inputs under a new id would publish them, without rebuilding. Returns the files written,
 * under temporary names for the caller to rename over the published ones (snapshot first, as a build does).
 */
export async function republished(dir: string, buildId: string): Promise<{ db: string; snapshot: string }> {
  await realBuild();
  const { dataDir } = defaultPaths();
  const db = join(dir, `next-${buildId}.duckdb`);
  const snapshot = join(dir, `next-${buildId}.bin`);
  copyFileSync(join(dataDir, DB_FILE), db);
  const instance = await DuckDBInstance.create(db);
  const conn = await instance.connect();
  try {
    await conn.run('UPDATE src.build_info SET build_id = $1', [buildId]);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
  // the header is the file's first line and not part of its checksum: the body is copied as it is
  const source = readFileSync(join(dataDir, DOC_SNAPSHOT_FILE));
  const end = source.indexOf(10);
  const header = JSON.parse(source.subarray(0, end).toString('utf8')) as { build_id: string };
  writeFileSync(snapshot, Buffer.concat([Buffer.from(JSON.stringify({ ...header, build_id: buildId })), source.subarray(end)]));
  return { db, snapshot };
}

/** The real database, read-only (JSON-typed rows: BIGINTs come back as strings). */
export async function realDb(): Promise<Db> {
  await realBuild();
  return open(join(defaultPaths().dataDir, DB_FILE), true);
}

/**
 * A fixture data set: `setup` creates the source tables (species, releases, taxa, ...) in SQL; they are
 * written as Parquet like the ingest stage does and every projection in projections/ is built from them.
 * Tables a projection needs but the fixture leaves out must be created empty by the fixture.
 */
export async function fixtureDb(setup: string): Promise<Db & { dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'vtqs-fixture-'));
  const parquetDir = join(dir, 'parquet');
  const scratch = await open(':memory:', false);
  try {
    await scratch.conn.run(SOURCE_SCHEMA);
    await scratch.conn.run(setup);
    const tables = await scratch.all<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'main'");
    mkdirSync(parquetDir, { recursive: true });
    for (const { name } of tables) {
      await scratch.conn.run(`COPY "${name}" TO '${join(parquetDir, `${name}.parquet`)}' (FORMAT parquet)`);
    }
  } finally {
    scratch.close();
  }
  const dbFile = join(dir, 'fixture.duckdb');
  await project({ parquetDir, dbFile, projectionsDir: defaultPaths().projectionsDir, buildId: 'fixture', progress: silent });
  const db = await open(dbFile, true);
  return { ...db, dir, close: () => { db.close(); rmSync(dir, { recursive: true, force: true }); } };
}

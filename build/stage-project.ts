// Project stage: a fresh DuckDB file holding the Parquet tables (schema src) and every read model of
// projections/*.sql (schema main), built in dependency order. The server only ever opens this file.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { NAME_NORM_MACRO } from './name-norm.js';
import type { Progress } from './progress.js';

export interface ProjectReport {
  /** rows is null for a view. */
  models: Record<string, { rows: number | null; ms: number }>;
}

export interface ProjectOptions {
  parquetDir: string;
  dbFile: string;
  projectionsDir: string;
  buildId: string;
  progress: Progress;
}

interface Model {
  name: string;
  sql: string;
  depends: string[];
  /** A view costs no storage: for a wide spelling-out of a compact table that only analysts read in bulk. */
  view: boolean;
}

/**
 * Reads projections/*.sql; a model names the models it reads in a `-- depends: a, b` comment, and a
 * `-- kind: view` comment makes it a view instead of a table.
 */
export function loadModels(dir: string): Model[] {
  if (!existsSync(dir)) return [];
  const models = readdirSync(dir).filter((f) => f.endsWith('.sql')).sort().map((f) => {
    const sql = readFileSync(join(dir, f), 'utf8');
    const depends = [...sql.matchAll(/^--[ \t]*depends:[ \t]*(.*)$/gm)].flatMap((m) => m[1]!.split(',').map((s) => s.trim()).filter(Boolean));
    return { name: basename(f, '.sql'), sql, depends, view: /^--[ \t]*kind:[ \t]*view[ \t]*$/m.test(sql) };
  });
  return topoSort(models);
}

function topoSort(models: Model[]): Model[] {
  const byName = new Map(models.map((m) => [m.name, m]));
  const done = new Set<string>();
  const out: Model[] = [];
  const visit = (m: Model, path: string[]) => {
    if (done.has(m.name)) return;
    if (path.includes(m.name)) throw new Error(`projections: dependency cycle ${[...path, m.name].join(' -> ')}`);
    for (const d of m.depends) {
      const dep = byName.get(d);
      if (!dep) throw new Error(`projections/${m.name}.sql depends on unknown model '${d}'`);
      visit(dep, [...path, m.name]);
    }
    done.add(m.name);
    out.push(m);
  };
  for (const m of models) visit(m, []);
  return out;
}

export async function project(opts: ProjectOptions): Promise<ProjectReport> {
  const models = loadModels(opts.projectionsDir);
  const instance = await DuckDBInstance.create(opts.dbFile);
  const conn = await instance.connect();
  const report: ProjectReport = { models: {} };
  try {
    const bar = opts.progress.bar('building read models', models.length + 1);
    await conn.run('CREATE SCHEMA src');
    await conn.run(NAME_NORM_MACRO);
    for (const entry of readdirSync(opts.parquetDir, { withFileTypes: true })) {
      const name = entry.name.replace(/\.parquet$/, '');
      const path = entry.isDirectory() ? join(opts.parquetDir, entry.name, '**', '*.parquet') : join(opts.parquetDir, entry.name);
      await conn.run(`CREATE TABLE src."${name}" AS SELECT * FROM read_parquet('${path.replaceAll("'", "''")}'${entry.isDirectory() ? ', hive_partitioning = true' : ''})`);
    }
    await conn.run('CREATE TABLE src.build_info AS SELECT $1::VARCHAR AS build_id, now() AS built_at', [opts.buildId]);
    bar.tick('source tables');
    for (const m of models) {
      const t = Date.now();
      try {
        await conn.run(`CREATE ${m.view ? 'VIEW' : 'TABLE'} main."${m.name}" AS ${m.sql}`);
      } catch (err) {
        throw new Error(`projections/${m.name}.sql: ${(err as Error).message}`);
      }
      // A view's rows are computed when read: counting them would cost what the view saves.
      const n = m.view ? null : (await conn.runAndReadAll(`SELECT count(*)::INTEGER FROM main."${m.name}"`)).getRows()[0]![0] as number;
      report.models[m.name] = { rows: n, ms: Date.now() - t };
      bar.tick(m.name);
    }
    await conn.run('CHECKPOINT');
    bar.done();
    return report;
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

// Export stage: the Parquet tables that say what the API says, copied out of the read models once the project
// stage has built them (a bulk user reads these, never taxonomy.duckdb), and every published table again as
// one whole-record file with its sha256 beside it (data/parquet/downloads/). Each exported table is a read
// model of projections/ (a view: the database stores it once, as the Parquet file).
import { createHash } from 'node:crypto';
import { copyFileSync, createReadStream, linkSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

/** The folder of whole-record downloads inside the Parquet folder. */
export const DOWNLOADS_DIR = 'downloads';
/** The checksum list of the downloads, in `sha256sum -c` format. */
export const CHECKSUMS_FILE = 'SHA256SUMS';

/**
 * The read models published as Parquet tables of the same name: the ingest stage never writes them and the
 * project stage never reads them back.
 */
export const EXPORTED_MODELS: readonly string[] = ['release_taxa', 'release_changes', 'name_crosswalk'];

/**
 * Makes `staged` hold the ingest stage's tables of `live` (hard links: the files are never written in place),
 * so a build that reuses the ingest output still stages a whole Parquet folder of its own and publishes it
 * in one swap, and the derived tables of the last build are never read as inputs.
 */
export function stageIngestOutput(live: string, staged: string, exported: readonly string[]): void {
  const skip = new Set([...exported, ...exported.map((t) => `${t}.parquet`), DOWNLOADS_DIR]);
  const copy = (from: string, to: string) => {
    mkdirSync(to, { recursive: true });
    for (const e of readdirSync(from, { withFileTypes: true })) {
      if (from === live && skip.has(e.name)) continue;
      if (e.isDirectory()) copy(join(from, e.name), join(to, e.name));
      else linkOrCopy(join(from, e.name), join(to, e.name));
    }
  };
  copy(live, staged);
}

export interface ExportReport {
  tables: Record<string, { rows: number }>;
  downloads: Array<{ file: string; bytes: number; sha256: string }>;
}

export async function exportTables(dbFile: string, parquetDir: string): Promise<ExportReport> {
  const instance = await DuckDBInstance.create(dbFile, { access_mode: 'READ_ONLY' });
  const conn = await instance.connect();
  const q = (p: string) => `'${p.replaceAll("'", "''")}'`;
  const tables: ExportReport['tables'] = {};
  try {
    // A fixture build's projections may define none of them.
    const present = new Set((await conn.runAndReadAll(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'")).getRows().map((r) => String(r[0])));
    for (const table of EXPORTED_MODELS.filter((t) => present.has(t))) {
      const out = join(parquetDir, `${table}.parquet`);
      await conn.run(`COPY main."${table}" TO ${q(out)} (FORMAT parquet, COMPRESSION zstd)`);
      const n = (await conn.runAndReadAll(`SELECT count(*)::INTEGER FROM read_parquet(${q(out)})`)).getRows()[0]![0] as number;
      tables[table] = { rows: n };
    }

    // One file per table with every release in it, for a download that needs no partition layout.
    const downloads = join(parquetDir, DOWNLOADS_DIR);
    mkdirSync(downloads, { recursive: true });
    const files: ExportReport['downloads'] = [];
    for (const e of readdirSync(parquetDir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.name === DOWNLOADS_DIR) continue;
      const table = e.name.replace(/\.parquet$/, '');
      const file = `${table}.parquet`;
      const out = join(downloads, file);
      if (e.isDirectory()) {
        await conn.run(`COPY (SELECT * FROM read_parquet(${q(join(parquetDir, e.name, '**', '*.parquet'))}, hive_partitioning = true, union_by_name = true) ORDER BY msl)
          TO ${q(out)} (FORMAT parquet, COMPRESSION zstd)`);
      } else {
        linkOrCopy(join(parquetDir, e.name), out);
      }
      const sha256 = await fileSha256(out);
      writeFileSync(`${out}.sha256`, `${sha256}  ${file}\n`);
      files.push({ file, bytes: statSync(out).size, sha256 });
    }
    writeFileSync(join(downloads, CHECKSUMS_FILE), files.map((f) => `${f.sha256}  ${f.file}\n`).join(''));
    return { tables, downloads: files };
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

async function fileSha256(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}

function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

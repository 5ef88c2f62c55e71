// Bulk downloads of the read side: a release's species as a file DuckDB writes once per build (Store.exported)
// in the format asked, with the same columns in every format.
import { createReadStream, createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { DerivedFile } from '../derived-files.js';
import type { Store } from '../store.js';
import type { ResolvedVersion } from './releases.js';

export type BulkFormat = 'json' | 'csv' | 'parquet';

/** How DuckDB writes each format, and the media type it is served as. */
export const BULK_FORMATS: Record<BulkFormat, { copy: string; type: string }> = {
  json: { copy: 'FORMAT json, ARRAY true', type: 'application/json; charset=utf-8' },
  csv: { copy: "FORMAT csv, HEADER true, NEW_LINE '\\r\\n'", type: 'text/csv; charset=utf-8' },
  parquet: { copy: 'FORMAT parquet, COMPRESSION zstd', type: 'application/vnd.apache.parquet' },
};

/** The download's columns, in order. */
const BULK_COLUMNS = [
  'version', 'sort', 'realm', 'subrealm', 'kingdom', 'subkingdom', 'phylum', 'subphylum', 'class', 'subclass',
  'order', 'suborder', 'family', 'subfamily', 'genus', 'subgenus', 'species', 'genome_composition', 'host_source',
  'genome_size_bp', 'ictv_id', 'taxnode_id', 'lineage_id', 'last_change', 'msl_of_last_change', 'proposal',
] as const;
const NUMBER_COLUMNS: ReadonlySet<string> = new Set(['sort', 'genome_size_bp', 'ictv_id', 'taxnode_id', 'lineage_id', 'msl_of_last_change']);

const SELECT = `
  SELECT 'MSL' || s.msl AS version, s.sort::INTEGER AS sort, s.realm, s.subrealm, s.kingdom, s.subkingdom, s.phylum, s.subphylum,
         s.class, s.subclass, s."order", s.suborder, s.family, s.subfamily, s.genus, s.subgenus, s.species,
         coalesce(g.vmr_genome_composition, s.genome_composition) AS genome_composition, g.host_source,
         g.genome_size_bp::INTEGER AS genome_size_bp, coalesce(s.ictv_id, i.ictv_id)::INTEGER AS ictv_id,
         s.taxnode_id::INTEGER AS taxnode_id, i.lineage_id::INTEGER AS lineage_id,
         trim(s.last_change, ', ') AS last_change, s.msl_of_last_change, s.proposal
  FROM src.species s
  LEFT JOIN main.species_identity i ON i.taxnode_id = s.taxnode_id
  LEFT JOIN main.species_genome g ON g.taxnode_id = s.taxnode_id
  WHERE s.msl = $1 AND ($2::VARCHAR IS NULL OR lower(s.family) = lower($2)) AND ($3::VARCHAR IS NULL OR lower(s.realm) = lower($3))
  ORDER BY s.sort, s.species`;

/**
 * The query with the text cells a spreadsheet would run as formulas (=, +, -, @, their full-width forms,
 * tab or CR first) given a leading ' (OWASP's advice, as csv-stringify's escape_formulas does); numbers
 * are left alone.
 */
export function formulaSafe(sql: string, columns: readonly string[], numeric: ReadonlySet<string>): string {
  const cells = columns.map((c) => (numeric.has(c) ? `"${c}"`
    : `CASE WHEN left("${c}", 1) IN ('=', '+', '-', '@', chr(9), chr(13), '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20') THEN '''' || "${c}" ELSE "${c}" END AS "${c}"`));
  return `SELECT ${cells.join(', ')} FROM (${sql})`;
}

const CSV_SELECT = formulaSafe(SELECT, BULK_COLUMNS, NUMBER_COLUMNS);

/** A download as it is sent: the file, and the encoding its bytes are in. */
export interface BulkFile {
  file: DerivedFile;
  encoding: 'gzip' | 'identity';
}

/**
 * Every species of a release, optionally of one family or realm (matched without regard to case), as a
 * file in the format asked; gzipped (once, like the file itself) for a client that takes gzip, except
 * Parquet, whose pages are compressed already.
 */
export async function bulkSpecies(store: Store, v: ResolvedVersion, format: BulkFormat, family: string | undefined,
  realm: string | undefined, gzip: boolean): Promise<BulkFile> {
  const f = family?.toLowerCase() ?? null;
  const r = realm?.toLowerCase() ?? null;
  const key = JSON.stringify(['species', v.msl, f, r, format]);
  const file = await store.exported(key, format === 'csv' ? CSV_SELECT : SELECT, [v.msl, f, r], BULK_FORMATS[format].copy);
  if (!gzip || format === 'parquet') return { file, encoding: 'identity' };
  const zipped = await store.derived(`${key} gzip`, (path) => pipeline(createReadStream(file.path), createGzip(), createWriteStream(path)));
  return { file: zipped, encoding: 'gzip' };
}

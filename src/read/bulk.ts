// Bulk downloads of the read side: a release's rows of a bulk resource (its species, its taxa of every rank,
// the changes of the step into it) as a file DuckDB writes once per build (Store.exported) in the format
// asked, with the same columns in every format; and the build's whole-record Parquet files with checksums.
import { createReadStream, createWriteStream, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { ARROW_STREAM, arrowStream } from './arrow.js';
import { HttpError } from './errors.js';
import type { DerivedFile } from '../store/derived-files.js';
import type { Store } from '../store/store.js';
import type { ResolvedVersion } from './releases.js';
import { notFoundAt } from './taxa.js';

export type BulkFormat = 'json' | 'jsonl' | 'csv' | 'tsv' | 'parquet' | 'arrow';

/**
 * How DuckDB writes each format (Arrow, which it does not write, apache-arrow writes from its result: arrow.ts),
 * the media type it is served as and the file name's extension. The types are IANA's (text/csv RFC 4180,
 * text/tab-separated-values, application/vnd.apache.parquet, application/vnd.apache.arrow.stream), and
 * application/jsonl as jsonlines.org gives it for JSON Lines.
 */
export const BULK_FORMATS: Record<BulkFormat, { copy: string | null; type: string; ext: string }> = {
  json: { copy: 'FORMAT json, ARRAY true', type: 'application/json; charset=utf-8', ext: 'json' },
  jsonl: { copy: 'FORMAT json', type: 'application/jsonl; charset=utf-8', ext: 'jsonl' },
  csv: { copy: "FORMAT csv, HEADER true, NEW_LINE '\\r\\n'", type: 'text/csv; charset=utf-8; header=present', ext: 'csv' },
  // IANA's TSV has no quoting: a tab or line break inside a cell cannot be written, so cells are stripped of them.
  tsv: { copy: "FORMAT csv, HEADER true, DELIMITER '\\t', QUOTE '', ESCAPE '', NEW_LINE '\\n'", type: 'text/tab-separated-values; charset=utf-8', ext: 'tsv' },
  parquet: { copy: 'FORMAT parquet, COMPRESSION zstd', type: 'application/vnd.apache.parquet', ext: 'parquet' },
  arrow: { copy: null, ...ARROW_STREAM },
};

export type BulkResource = 'species' | 'taxa' | 'changes';

interface ResourceSpec {
  /** The query of one release's rows: $1 the release; when filtered, $2 a family, $3 a realm (lower case, or null). */
  select: string;
  columns: readonly string[];
  /** Columns whose values are numbers, lists or booleans (no formula escaping, no tab stripping). */
  typed: ReadonlySet<string>;
  /** Whether the resource takes the family and realm filters. */
  filtered: boolean;
}

const RANK_COLUMNS = ['realm', 'subrealm', 'kingdom', 'subkingdom', 'phylum', 'subphylum', 'class', 'subclass',
  'order', 'suborder', 'family', 'subfamily', 'genus', 'subgenus'] as const;

const FILTER = '($2::VARCHAR IS NULL OR lower(family) = $2) AND ($3::VARCHAR IS NULL OR lower(realm) = $3)';

const RESOURCES: Record<BulkResource, ResourceSpec> = {
  species: {
    // Host and genome size come from the VMR exemplar of the same release, else of the nearest release of
    // the lineage that has one (projections/species_genome.sql): *_source_msl names that release.
    select: `
      SELECT * FROM (
        SELECT 'MSL' || s.msl AS version, s.sort::INTEGER AS sort, s.realm, s.subrealm, s.kingdom, s.subkingdom, s.phylum, s.subphylum,
               s.class, s.subclass, s."order", s.suborder, s.family, s.subfamily, s.genus, s.subgenus, s.species,
               coalesce(g.vmr_genome_composition, s.genome_composition) AS genome_composition,
               (CASE WHEN g.vmr_genome_composition IS NOT NULL THEN g.exemplar_from_msl WHEN s.genome_composition IS NOT NULL THEN s.msl END)::INTEGER AS genome_composition_source_msl,
               g.host_source, (CASE WHEN g.host_source IS NOT NULL THEN g.exemplar_from_msl END)::INTEGER AS host_source_msl,
               g.genome_size_bp::INTEGER AS genome_size_bp, (CASE WHEN g.genome_size_bp IS NOT NULL THEN g.genome_size_from_msl END)::INTEGER AS genome_size_source_msl,
               coalesce(s.ictv_id, i.ictv_id)::INTEGER AS ictv_id, s.taxnode_id::INTEGER AS taxnode_id, i.lineage_id::INTEGER AS lineage_id,
               trim(s.last_change, ', ') AS last_change, s.msl_of_last_change, s.proposal
        FROM src.species s
        -- the joined tables cut to the release and the columns read: DuckDB otherwise built its hash tables of
        -- every release's rows, and kept the blocks cached after each new download (npm run soak)
        LEFT JOIN (SELECT taxnode_id, ictv_id, lineage_id FROM main.species_identity WHERE msl = $1) i ON i.taxnode_id = s.taxnode_id
        LEFT JOIN (SELECT taxnode_id, vmr_genome_composition, exemplar_from_msl, host_source, genome_size_bp, genome_size_from_msl
                   FROM main.species_genome WHERE msl = $1) g ON g.taxnode_id = s.taxnode_id
        WHERE s.msl = $1
      )
      WHERE ${FILTER}
      ORDER BY sort, species`,
    columns: ['version', 'sort', ...RANK_COLUMNS, 'species', 'genome_composition', 'genome_composition_source_msl', 'host_source',
      'host_source_msl', 'genome_size_bp', 'genome_size_source_msl', 'ictv_id', 'taxnode_id', 'lineage_id', 'last_change',
      'msl_of_last_change', 'proposal'],
    typed: new Set(['sort', 'genome_composition_source_msl', 'host_source_msl', 'genome_size_bp', 'genome_size_source_msl', 'ictv_id',
      'taxnode_id', 'lineage_id', 'msl_of_last_change']),
    filtered: true,
  },
  taxa: {
    select: `SELECT * EXCLUDE (msl) FROM main.release_taxa WHERE msl = $1 AND ${FILTER}`,
    columns: ['version', 'rank', 'name', ...RANK_COLUMNS, 'taxnode_id', 'parent_taxnode_id', 'ictv_id', 'ictv_id_source', 'lineage_kind', 'lineage_id'],
    typed: new Set(['taxnode_id', 'parent_taxnode_id', 'ictv_id', 'lineage_id']),
    filtered: true,
  },
  changes: {
    select: 'SELECT * EXCLUDE (from_msl, to_msl) FROM main.release_changes WHERE to_msl = $1',
    columns: ['from_version', 'to_version', 'rank', 'from_name', 'to_name', 'change', 'proposal', 'higher_renamed', 'from_taxnode',
      'to_taxnode', 'lineage_kind', 'lineage_id', 'from_lineage_id', 'to_lineage_id', 'ended_into'],
    typed: new Set(['higher_renamed', 'from_taxnode', 'to_taxnode', 'lineage_id', 'from_lineage_id', 'to_lineage_id', 'ended_into']),
    filtered: false,
  },
};

/** Whether a resource takes the family and realm filters. */
export const isFiltered = (resource: BulkResource) => RESOURCES[resource].filtered;

/**
 * A cell's first character is one a spreadsheet would start a formula with: =, +, -, @, their full-width
 * forms, tab or CR. One regular expression, not `left(c, 1) IN (...)`: DuckDB plans an IN list of six or
 * more values as a join against the list, a hash table per column, and a family's CSV then needed over
 * 60 MB of its memory instead of a few (npm run bench:memory).
 */
const FORMULA_START = "'^[=+\\-@\\t\\r\uFF1D\uFF0B\uFF0D\uFF20]'";

/**
 * The query with the text cells a spreadsheet would run as formulas given a leading ' (OWASP's advice, as
 * csv-stringify's escape_formulas does); numbers are left alone.
 */
export function formulaSafe(sql: string, columns: readonly string[], numeric: ReadonlySet<string>): string {
  const cells = columns.map((c) => (numeric.has(c) ? `"${c}"`
    : `CASE WHEN regexp_matches("${c}", ${FORMULA_START}) THEN '''' || "${c}" ELSE "${c}" END AS "${c}"`));
  return `SELECT ${cells.join(', ')} FROM (${sql})`;
}

/** Columns holding lists of names (JSON and Parquet keep them as lists). */
const LIST_COLUMNS: ReadonlySet<string> = new Set(['ended_into']);

/** A TSV cell cannot hold a tab or a line break: each becomes a space. Lists are written as ';'-joined text. */
function tsvSafe(sql: string, columns: readonly string[], typed: ReadonlySet<string>): string {
  const cells = columns.map((c) => (LIST_COLUMNS.has(c) ? `array_to_string("${c}", ';') AS "${c}"`
    : typed.has(c) ? `"${c}"` : `regexp_replace("${c}", '[\\t\\r\\n]+', ' ', 'g') AS "${c}"`));
  return `SELECT ${cells.join(', ')} FROM (${sql})`;
}


function query(resource: BulkResource, format: BulkFormat): string {
  const { select, columns, typed } = RESOURCES[resource];
  const ordered = `SELECT ${columns.map((c) => `"${c}"`).join(', ')} FROM (${select})`;
  if (format === 'csv') return formulaSafe(ordered, columns, typed);
  if (format === 'tsv') return tsvSafe(formulaSafe(ordered, columns, typed), columns, typed);
  return ordered;
}

/** A download as it is sent: the file, and the encoding its bytes are in. */
export interface BulkFile {
  file: DerivedFile;
  encoding: 'gzip' | 'identity';
}

/**
 * The 404 for a family or realm filter that names no taxon of that rank in the release (with the resolver's
 * suggestions, as every endpoint gives them), rather than a file of no rows.
 */
async function checkFilter(store: Store, v: ResolvedVersion, rank: 'family' | 'realm', name: string | undefined): Promise<void> {
  if (name === undefined) return;
  const [row] = await store.query<{ n: number }>(
    'SELECT count(*)::INTEGER AS n FROM src.taxa WHERE msl = $1 AND rank = $2 AND lower(name) = lower($3)', [v.msl, rank, name]);
  if ((row?.n ?? 0) === 0) throw await notFoundAt(store, name, rank, v);
}

/**
 * The rows of a bulk resource for a release, optionally of one family or realm (matched without regard to
 * case), as a file in the format asked; gzipped (once, like the file itself) for a client that takes gzip,
 * except Parquet, whose pages are compressed already.
 */
export async function bulkRows(store: Store, resource: BulkResource, v: ResolvedVersion, format: BulkFormat,
  family: string | undefined, realm: string | undefined, gzip: boolean): Promise<BulkFile> {
  if (!RESOURCES[resource].filtered && (family !== undefined || realm !== undefined)) {
    throw new HttpError(400, `the ${resource} download takes no family or realm filter (it lists the changes of a whole release step)`, 'BadRequest');
  }
  await checkFilter(store, v, 'family', family);
  await checkFilter(store, v, 'realm', realm);
  const f = family?.toLowerCase() ?? null;
  const r = realm?.toLowerCase() ?? null;
  const key = JSON.stringify([resource, v.msl, f, r, format]);
  const values = RESOURCES[resource].filtered ? [v.msl, f, r] : [v.msl];
  const { copy } = BULK_FORMATS[format];
  const sql = query(resource, format);
  const file = copy !== null ? await store.exported(key, sql, values, copy)
    : await store.derived(key, async (path) => writeFileSync(path, arrowStream(await store.columns(sql, values, 'bulk'))));
  if (!gzip || format === 'parquet') return { file, encoding: 'identity' };
  const zipped = await store.derived(`${key} gzip`, (path) => pipeline(createReadStream(file.path), createGzip(), createWriteStream(path)));
  return { file: zipped, encoding: 'gzip' };
}

// --- whole-record files ------------------------------------------------------------------------------------

/**
 * The folder the build writes whole-record files to (build/stage-export.ts), beside the database the store
 * serves, and their checksum list.
 */
const downloadsOf = (store: Store) => join(dirname(store.file), 'parquet', 'downloads');
const CHECKSUMS = 'SHA256SUMS';

export interface RecordFile {
  file: string;
  bytes: number;
  sha256: string;
}

/** The whole-record Parquet files of the data set, one per table, as the build's checksum list names them. */
export function recordFiles(store: Store): RecordFile[] {
  const dir = downloadsOf(store);
  const list = join(dir, CHECKSUMS);
  if (!existsSync(list)) return [];
  return readFileSync(list, 'utf8').split('\n').filter(Boolean).map((line) => {
    const [sha256, file] = line.split(/\s+\*?/) as [string, string];
    return { file, sha256, bytes: statSync(join(dir, file)).size };
  });
}

/**
 * A whole-record file, its checksum file (`<table>.parquet.sha256`) or the checksum list, by name; a name
 * the checksum list does not hold is a 404 naming the files there are.
 */
export function recordFile(store: Store, name: string): { path: string; bytes: number; type: string } {
  const files = recordFiles(store);
  const dir = downloadsOf(store);
  const known = name === CHECKSUMS || files.some((f) => f.file === name || `${f.file}.sha256` === name);
  if (!known) {
    throw new HttpError(404, `no download named '${name}': there are ${files.map((f) => f.file).join(', ')}, each with a .sha256 file, and ${CHECKSUMS}`, 'NotFound');
  }
  const path = join(dir, name);
  return { path, bytes: statSync(path).size, type: name.endsWith('.parquet') ? BULK_FORMATS.parquet.type : 'text/plain; charset=utf-8' };
}

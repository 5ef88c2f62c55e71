// Reader for the ICTV database tables exported as text (cross_release/*.utf8.txt): tab-separated,
// header first, no quoting, and the literal NULL for SQL NULL. Below the generic reader, typed views
// of the two tables that span all releases: the merge/split closure that links ictv_ids across
// releases, and the table of contents that maps tree_id to MSL release number.
import { readFileSync } from 'node:fs';
import { InputError } from './types.js';

export type TsvRow = Record<string, string | null>;

/**
 * Rows as header -> value (all columns, not only the required ones). Row i of the result is line i + 2
 * of the file, which callers use to name the line in their own errors.
 */
export function readTsv(path: string, requiredColumns: string[]): TsvRow[] {
  // A BOM would glue itself to the first column name; CR would stick to the last value of every line.
  const lines = readFileSync(path, 'utf8').replace(/^\uFEFF/, '').split('\n').map((line) => line.replace(/\r$/, ''));
  if (lines[lines.length - 1] === '') lines.pop();
  if (lines.length === 0) throw new InputError('file is empty (no header line)', path);

  const header = lines[0].split('\t');
  const seen = new Set<string>();
  for (const column of header) {
    if (seen.has(column)) throw new InputError(`header names column '${column}' twice`, path, { row: 1, column });
    seen.add(column);
  }
  for (const column of requiredColumns) {
    if (!seen.has(column)) {
      throw new InputError(`required column '${column}' is missing (header: ${header.join(', ')})`, path, { column });
    }
  }

  const rows: TsvRow[] = [];
  for (let i = 1; i < lines.length; i++) {
    const fields = lines[i].split('\t');
    // A short or long line means a tab inside a value or a truncated line; either would shift columns.
    if (fields.length !== header.length) {
      throw new InputError(`line ${i + 1} has ${fields.length} fields, the header has ${header.length}`, path, { row: i + 1 });
    }
    const row: TsvRow = {};
    header.forEach((column, j) => { row[column] = fields[j] === 'NULL' ? null : fields[j]; });
    rows.push(row);
  }
  return rows;
}

/**
 * One row of taxonomy_node_merge_split: the transitive closure of identity, merge and split links between
 * ictv_ids. The table's is_merged/is_split/is_recreated are not bits but counts (0-8) accumulated
 * along the path from prev to next (e.g. 1 and 2 over dist 3); the booleans say "at least one", the
 * counts keep the raw values.
 */
export interface MergeSplitRow {
  prevIctvId: number;
  nextIctvId: number;
  isMerged: boolean;
  isSplit: boolean;
  isRecreated: boolean;
  mergedCount: number;
  splitCount: number;
  recreatedCount: number;
  /** Number of link steps; 0 is the identity row every taxon has with itself. */
  dist: number;
  revCount: number;
}

/** One row of taxonomy_toc: tree_id is the first taxnode_id of a release. */
export interface TocRow {
  treeId: number;
  msl: number;
  versionTag: string | null;
  comments: string | null;
}

function integer(row: TsvRow, column: string, path: string, line: number): number {
  const value = row[column];
  if (value === null || !/^-?\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new InputError(`line ${line}: expected an integer, found ${JSON.stringify(value)}`, path, { row: line, column });
  }
  return Number(value);
}

function count(row: TsvRow, column: string, path: string, line: number): number {
  const value = integer(row, column, path, line);
  if (value < 0) throw new InputError(`line ${line}: expected a count, found ${value}`, path, { row: line, column });
  return value;
}

export function readMergeSplit(path: string): MergeSplitRow[] {
  const columns = ['prev_ictv_id', 'next_ictv_id', 'is_merged', 'is_split', 'is_recreated', 'dist', 'rev_count'];
  return readTsv(path, columns).map((row, i) => {
    const line = i + 2;
    const mergedCount = count(row, 'is_merged', path, line);
    const splitCount = count(row, 'is_split', path, line);
    const recreatedCount = count(row, 'is_recreated', path, line);
    return {
      prevIctvId: integer(row, 'prev_ictv_id', path, line),
      nextIctvId: integer(row, 'next_ictv_id', path, line),
      isMerged: mergedCount > 0,
      isSplit: splitCount > 0,
      isRecreated: recreatedCount > 0,
      mergedCount,
      splitCount,
      recreatedCount,
      dist: count(row, 'dist', path, line),
      revCount: count(row, 'rev_count', path, line),
    };
  });
}

export function readToc(path: string): TocRow[] {
  return readTsv(path, ['tree_id', 'msl_release_num', 'version_tag', 'comments']).map((row, i) => {
    const line = i + 2;
    return {
      treeId: integer(row, 'tree_id', path, line),
      msl: integer(row, 'msl_release_num', path, line),
      versionTag: row.version_tag,
      comments: row.comments,
    };
  });
}

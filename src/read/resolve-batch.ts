// A batch of names resolved as a table, as POST /api/v1/resolve and the command line's `resolve` answer it:
// JSON (a summary of the statuses, then every resolution), or CSV in and CSV out (the user's own rows with the
// answer's columns added). The resolution itself is resolve.ts's.
import { parse as csvParser, type Options as CsvOptions } from 'csv-parse';
import { stringify as stringifyCsv } from 'csv-stringify/sync';
import { HttpError } from '../errors.js';
import { mapInSlices, nextTurn } from '../slices.js';
import type { ResolvedVersion } from './releases.js';
import type { Resolution } from './resolve.js';

/** CSV rows written between two turns of the event loop (a few milliseconds). */
const CSV_SLICE_ROWS = 200;
/** CSV text parsed between two turns of the event loop (a few milliseconds). */
const CSV_SLICE_CHARS = 8_192;

/** What the JSON answer says before its results. */
export interface BatchHead {
  from_version: string | null;
  to_version: string;
  count: number;
  summary: Record<string, number>;
}

export function batchHead(from: ResolvedVersion | null, to: ResolvedVersion, results: readonly Resolution[]): BatchHead {
  const summary: Record<string, number> = {};
  for (const r of results) summary[r.status] = (summary[r.status] ?? 0) + 1;
  return { from_version: from?.version ?? null, to_version: to.version, count: results.length, summary };
}

/** A CSV table of names: its records as sent, and the name of each (trimmed for resolving). */
export interface NamesTable {
  records: Array<Record<string, string>>;
  names: string[];
}

/** Reads a CSV text with a header row holding a `name` column; 400 when it is no CSV, 422 without that column. */
export async function readNamesCsv(text: string): Promise<NamesTable> {
  let records: Array<Record<string, string>>;
  try {
    // Cells are kept as sent (a leading tab some users add to defuse formulas included) and echoed with
    // formulas neutralised; only the name is trimmed for resolving.
    records = await parseCsvInSlices(text, { columns: true, skip_empty_lines: true, bom: true });
  } catch (err) {
    throw new HttpError(400, `CSV body cannot be read: ${(err as Error).message}`);
  }
  const nameColumn = records.length > 0 ? Object.keys(records[0]!).find((k) => k.trim() === 'name') : undefined;
  if (nameColumn === undefined) throw new HttpError(422, "CSV body needs a header row with a 'name' column");
  return { records, names: records.map((r) => (r[nameColumn] ?? '').trim()) };
}

/** A table of bare names, as if sent as CSV with a `name` column only. */
export function namesTable(names: readonly string[]): NamesTable {
  return { records: names.map((name) => ({ name })), names: names.map((n) => n.trim()) };
}

/**
 * The CSV answer, a piece of a few hundred rows at a time: each record as sent with the answer's columns
 * after it. The answer's columns never overwrite one of the user's: a clash is written as resolve_<column>.
 */
export async function* csvAnswer(table: NamesTable, results: readonly Resolution[]): AsyncGenerator<string> {
  const { records } = table;
  const own = new Set(Object.keys(records[0] ?? {}));
  const column = (name: string) => (own.has(name) ? `resolve_${name}` : name);
  const rows = await mapInSlices(records, (r, i) => {
    const x = results[i]!;
    const answer: Record<string, unknown> = {
      status: x.status, rank: x.rank ?? '', matched_name: x.matched_name ?? '', match_type: x.match_type ?? '',
      confidence: x.confidence, to_version: x.to_version, result: x.results.join('; '),
      changes: x.chain.map((c) => `${c.version} ${c.change}${c.to_name ? ` -> ${c.to_name}` : ''}`).join('; '),
      note: x.note ?? '', suggestions: x.suggestions.join('; '),
    };
    return { ...r, ...Object.fromEntries(Object.entries(answer).map(([k, v]) => [column(k), v])) };
  });
  // In slices of rows, each written with the columns the first row gives (as one call would take them).
  const columns = Object.keys(rows[0]!);
  for (let i = 0; i < rows.length; i += CSV_SLICE_ROWS) {
    if (i > 0) await nextTurn();
    yield stringifyCsv(rows.slice(i, i + CSV_SLICE_ROWS), { header: i === 0, columns, record_delimiter: 'windows', escape_formulas: true });
  }
}

/**
 * The records of a CSV text, parsed a piece at a time with a turn of the event loop between pieces: a body of
 * 10,000 rows parsed in one go held every other request for over 100 ms.
 */
async function parseCsvInSlices(text: string, options: CsvOptions): Promise<Array<Record<string, string>>> {
  const parser = csvParser(options);
  const records: Array<Record<string, string>> = [];
  let failure: Error | undefined;
  parser.on('readable', () => {
    for (let r = parser.read() as Record<string, string> | null; r !== null; r = parser.read() as Record<string, string> | null) records.push(r);
  });
  parser.on('error', (err: Error) => { failure ??= err; });
  const ended = new Promise<void>((resolve) => parser.once('end', resolve).once('error', () => resolve()));
  for (let i = 0; i < text.length && !failure; i += CSV_SLICE_CHARS) {
    if (i > 0) await nextTurn();
    parser.write(text.slice(i, i + CSV_SLICE_CHARS));
  }
  if (!failure) parser.end();
  await ended;
  if (failure) throw failure;
  return records;
}

// A batch of names resolved as a table, as POST /api/v1/resolve and the command line's `resolve` answer it:
// JSON (a summary of the statuses, then every resolution), or CSV in and CSV out (the user's own rows with the
// answer's columns added). The resolution itself is resolve.ts's; both answers are written a slice of
// resolutions at a time as resolveInSlices hands them over, so the resolutions of a whole batch (objects
// several times the size of their text) are never all alive at once.
import { parse as csvParser, type Options as CsvOptions } from 'csv-parse';
import { stringify as stringifyCsv } from 'csv-stringify/sync';
import { HttpError } from './errors.js';
import { eachInSlices, mapInSlices, nextTurn } from './slices.js';
import type { ResolvedVersion } from './releases.js';
import { shownResolution, type Resolution } from './resolve.js';

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
  const head = emptyHead(from, to);
  for (const r of results) counted(head, r);
  return head;
}

/** The head of an answer with no results yet (jsonResults counts them in). */
export function emptyHead(from: ResolvedVersion | null, to: ResolvedVersion): BatchHead {
  return { from_version: from?.version ?? null, to_version: to.version, count: 0, summary: {} };
}

function counted(head: BatchHead, r: Resolution): void {
  head.count++;
  head.summary[r.status] = (head.summary[r.status] ?? 0) + 1;
}

/**
 * The JSON answer's results as text, a slice of resolutions at a time (a comma before every result but the
 * first), each counted into head as it goes: head is complete once the last piece is out, and is written
 * before them (respond.ts sendJsonPieces).
 */
export async function* jsonResults(slices: AsyncIterable<readonly Resolution[]>, head: BatchHead): AsyncGenerator<string> {
  let first = true;
  for await (const slice of slices) {
    const texts: string[] = [];
    await eachInSlices(slice, (r) => {
      counted(head, r);
      texts.push(first ? JSON.stringify(shownResolution(r)) : `,${JSON.stringify(shownResolution(r))}`);
      first = false;
    });
    yield texts.join('');
  }
}

/** A CSV table of names: its header and records as sent, and the name of each (trimmed for resolving). */
export interface NamesTable {
  columns: string[];
  records: Array<Record<string, string>>;
  names: string[];
}

/**
 * Reads a CSV text with a header row holding a `name` column; 400 when it is no CSV, 422 without that column.
 * It takes every text the contract's pattern for the body (`NamesCsv`) accepts: RFC 4180 fields, records
 * ended by CRLF or LF, rows of any length (a missing cell is empty, an extra one is dropped), no rows but
 * the header. The request validator refuses any other text first; these refusals are for the command line.
 */
export async function readNamesCsv(text: string): Promise<NamesTable> {
  let records: Array<Record<string, string>>;
  let columns: string[] = [];
  try {
    // Cells are kept as sent (a leading tab some users add to defuse formulas included) and echoed with
    // formulas neutralised; only the name is trimmed for resolving.
    records = await parseCsvInSlices(text, {
      columns: (header: string[]) => (columns = header), skip_empty_lines: true, bom: true, relax_column_count: true,
      // Both, always: detected from the first line, a file of CRLF lines would read a lone LF as a character
      record_delimiter: ['\r\n', '\n'],
    });
  } catch (err) {
    throw new HttpError(400, `CSV body cannot be read: ${(err as Error).message}`);
  }
  const nameColumn = columns.find((k) => k.trim() === 'name');
  if (nameColumn === undefined) throw new HttpError(422, "CSV body needs a header row with a 'name' column");
  return { columns, records, names: records.map((r) => (r[nameColumn] ?? '').trim()) };
}

/** A table of bare names, as if sent as CSV with a `name` column only. */
export function namesTable(names: readonly string[]): NamesTable {
  return { columns: ['name'], records: names.map((name) => ({ name })), names: names.map((n) => n.trim()) };
}

/**
 * The CSV answer, a piece of a few hundred rows at a time: each record as sent with the answer's columns
 * after it, from the resolutions of the records in order, a slice at a time. The answer's columns never
 * overwrite one of the user's: a clash is written as resolve_<column>.
 */
export async function* csvAnswer(table: NamesTable, slices: AsyncIterable<readonly Resolution[]> | Iterable<readonly Resolution[]>): AsyncGenerator<string> {
  const { records } = table;
  const own = new Set(table.columns);
  const column = (name: string) => (own.has(name) ? `resolve_${name}` : name);
  // the user's columns as the header gives them (a short row's missing cells are empty), then the answer's
  const columns = [...new Set([...table.columns, ...ANSWER_COLUMNS.map(column)])];
  let header = true;
  let at = 0;
  for await (const results of slices) {
    const rows = await mapInSlices(results, (x, i) => {
      const answer: Record<string, unknown> = {
        status: x.status, rank: x.rank ?? '', matched_name: x.matched_name ?? '', match_type: x.match_type ?? '',
        confidence: x.confidence, to_version: x.to_version, result: x.results.join('; '),
        changes: x.chain.map((c) => `${c.version} ${c.change}${c.to_name ? ` -> ${c.to_name}` : ''}`).join('; '),
        note: x.note ?? '', suggestions: x.suggestions.join('; '),
      };
      return { ...records[at + i]!, ...Object.fromEntries(Object.entries(answer).map(([k, v]) => [column(k), v])) };
    });
    for (let i = 0; i < rows.length; i += CSV_SLICE_ROWS) {
      if (!header) await nextTurn();
      yield stringifyCsv(rows.slice(i, i + CSV_SLICE_ROWS), { ...CSV_OUT, header, columns });
      header = false;
    }
    at += results.length;
  }
  // a table of no rows: its header alone
  if (header) yield stringifyCsv([], { ...CSV_OUT, header, columns });
}

/**
 * How the CSV answer is written: CRLF lines (RFC 4180), formulas neutralised, and any cell holding a line
 * break quoted (csv-stringify quotes one holding the record delimiter, CRLF, but not a lone CR or LF, which
 * a user's cell or name may hold).
 */
const CSV_OUT = { record_delimiter: 'windows', escape_formulas: true, quoted_match: /[\r\n]/ } as const;

/** The columns the CSV answer adds to the user's, in their order. */
const ANSWER_COLUMNS = ['status', 'rank', 'matched_name', 'match_type', 'confidence', 'to_version', 'result', 'changes', 'note', 'suggestions'];

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

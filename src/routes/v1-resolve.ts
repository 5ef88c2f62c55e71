// /api/v1/resolve: migrate names (a whole data set's species column) from one release to another, over HTTP
// (JSON, or CSV in and CSV out). The resolution itself is the read layer's (read/resolve.ts).
import { Router, type Request, type Response } from 'express';
import { parse as csvParser, type Options as CsvOptions } from 'csv-parse';
import { stringify as stringifyCsv } from 'csv-stringify/sync';
import { HttpError } from '../errors.js';
import { resolveVersion } from '../read/releases.js';
import { resolveMany, shownResolution } from '../read/resolve.js';
import { sendCsvPieces, sendJsonList } from '../respond.js';
import { mapInSlices, nextTurn } from '../slices.js';

const MAX_NAMES = 10_000;
/** CSV rows written between two turns of the event loop (a few milliseconds). */
const CSV_SLICE_ROWS = 200;
/** CSV text parsed between two turns of the event loop (a few milliseconds). */
const CSV_SLICE_CHARS = 8_192;

// Query and body as the contract declares them, validated before a handler runs (operations.ts, the validator).
interface GetQuery {
  name: string;
  from_version?: string;
  to_version?: string;
}
interface PostBody {
  names: string[];
  from_version?: string;
  to_version?: string;
}

// GET /resolve?name=&from_version=&to_version=
async function resolveGet(req: Request, res: Response): Promise<void> {
  const q = req.query as unknown as GetQuery;
  const from = q.from_version ? resolveVersion(req.store, q.from_version) : null;
  const to = resolveVersion(req.store, q.to_version);
  const [result] = await resolveMany(req.store, [q.name], from, to);
  res.set('Cache-Control', 'public, max-age=300').json(shownResolution(result!));
}

// POST /resolve: JSON {names, from_version, to_version}, or CSV with a name column (CSV in, CSV out)
async function resolvePost(req: Request, res: Response): Promise<void> {
  if (typeof req.body === 'string') return resolveCsv(req, res);
  const body = req.body as PostBody;
  const from = body.from_version ? resolveVersion(req.store, body.from_version) : null;
  const to = resolveVersion(req.store, body.to_version);
  const results = await resolveMany(req.store, body.names, from, to);
  const summary: Record<string, number> = {};
  for (const r of results) summary[r.status] = (summary[r.status] ?? 0) + 1;
  res.set('Cache-Control', 'no-store');
  await sendJsonList(req, res, { from_version: from?.version ?? null, to_version: to.version, count: results.length, summary },
    'results', results, shownResolution);
}

async function resolveCsv(req: Request, res: Response): Promise<void> {
  let records: Array<Record<string, string>>;
  try {
    // Cells are kept as sent (a leading tab some users add to defuse formulas included) and echoed with
    // formulas neutralised; only the name is trimmed for resolving.
    records = await parseCsvInSlices(req.body as string, { columns: true, skip_empty_lines: true, bom: true });
  } catch (err) {
    throw new HttpError(400, `CSV body cannot be read: ${(err as Error).message}`);
  }
  if (records.length === 0 || !Object.keys(records[0]!).some((k) => k.trim() === 'name')) throw new HttpError(422, "CSV body needs a header row with a 'name' column");
  const nameColumn = Object.keys(records[0]!).find((k) => k.trim() === 'name')!;
  if (records.length > MAX_NAMES) throw new HttpError(413, `at most ${MAX_NAMES} names per request, got ${records.length}`);
  const from = typeof req.query.from_version === 'string' ? resolveVersion(req.store, req.query.from_version) : null;
  const to = resolveVersion(req.store, typeof req.query.to_version === 'string' ? req.query.to_version : undefined);
  const results = await resolveMany(req.store, records.map((r) => (r[nameColumn] ?? '').trim()), from, to);
  // The answer's columns never overwrite one of the user's: a clash is written as resolve_<column>.
  const own = new Set(Object.keys(records[0]!));
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
  async function* pieces(): AsyncGenerator<string> {
    for (let i = 0; i < rows.length; i += CSV_SLICE_ROWS) {
      if (i > 0) await nextTurn();
      yield stringifyCsv(rows.slice(i, i + CSV_SLICE_ROWS), { header: i === 0, columns, record_delimiter: 'windows', escape_formulas: true });
    }
  }
  res.set('Cache-Control', 'no-store');
  await sendCsvPieces(res, pieces());
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

export function resolveRouter(): Router {
  const router = Router();
  router.get('/resolve', resolveGet);
  router.post('/resolve', resolvePost);
  return router;
}

// /api/v1/resolve: migrate names (a whole data set's species column) from one release to another, over HTTP
// (JSON, or CSV in and CSV out). The resolution and the answer's shape are the read layer's (read/resolve.ts,
// read/resolve-batch.ts).
import { Router, type Request, type Response } from 'express';
import { HttpError } from '../read/errors.js';
import { resolveVersion } from '../read/releases.js';
import { resolveInSlices, resolveName, shownResolution } from '../read/resolve.js';
import { csvAnswer, emptyHead, jsonResults, readNamesCsv } from '../read/resolve-batch.js';
import { NamesAtOnce } from '../read/names-at-once.js';
import { sendCsvPieces, sendJson, sendJsonPieces } from '../http/send-answer.js';

const MAX_NAMES = 10_000;

/**
 * Names the POST batches resolve at once, over all of them (names-at-once.ts): two batches of the most names a
 * request takes and small ones beside them (with room for one large batch only, a batch of 200 names waited
 * seconds behind it, npm run soak), or twenty-five of 1,000. The others wait their turn, holding only their names.
 */
const batches = new NamesAtOnce(2.5 * MAX_NAMES);

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
  const result = await resolveName(req.store, q.name, from, to);
  sendJson(req, res, shownResolution(result), from?.scope === 'latest' ? 'latest' : to.scope);
}

// POST /resolve: JSON {names, from_version, to_version}, or CSV with a name column (CSV in, CSV out)
async function resolvePost(req: Request, res: Response): Promise<void> {
  if (typeof req.body === 'string') return resolveCsv(req, res);
  const body = req.body as PostBody;
  const from = body.from_version ? resolveVersion(req.store, body.from_version) : null;
  const to = resolveVersion(req.store, body.to_version);
  res.set('Cache-Control', 'no-store');
  // resolved and written a slice at a time; the summary is counted as they go, and written first
  const head = emptyHead(from, to);
  const leave = await batches.enter(body.names.length);
  try {
    // a client that left while its batch waited has nothing to be sent
    if (res.destroyed) return;
    await sendJsonPieces(req, res, 'results', jsonResults(resolveInSlices(req.store, body.names, from, to), head), () => ({ ...head }));
  } finally {
    leave();
  }
}

async function resolveCsv(req: Request, res: Response): Promise<void> {
  const table = await readNamesCsv(req.body as string);
  if (table.names.length > MAX_NAMES) throw new HttpError(413, `at most ${MAX_NAMES} names per request, got ${table.names.length}`);
  const from = typeof req.query.from_version === 'string' ? resolveVersion(req.store, req.query.from_version) : null;
  const to = resolveVersion(req.store, typeof req.query.to_version === 'string' ? req.query.to_version : undefined);
  res.set('Cache-Control', 'no-store');
  const leave = await batches.enter(table.names.length);
  try {
    if (res.destroyed) return;
    await sendCsvPieces(res, csvAnswer(table, resolveInSlices(req.store, table.names, from, to)));
  } finally {
    leave();
  }
}

export function resolveRouter(): Router {
  const router = Router();
  router.get('/resolve', resolveGet);
  router.post('/resolve', resolvePost);
  return router;
}

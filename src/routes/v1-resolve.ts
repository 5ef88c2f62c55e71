// /api/v1/resolve: migrate names (a whole data set's species column) from one release to another, over HTTP
// (JSON, or CSV in and CSV out). The resolution and the answer's shape are the read layer's (read/resolve.ts,
// read/resolve-batch.ts).
import { Router, type Request, type Response } from 'express';
import { HttpError } from '../errors.js';
import { resolveVersion } from '../read/releases.js';
import { resolveMany, shownResolution } from '../read/resolve.js';
import { batchHead, csvAnswer, readNamesCsv } from '../read/resolve-batch.js';
import { sendCsvPieces, sendJsonList } from '../respond.js';

const MAX_NAMES = 10_000;

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
  res.set('Cache-Control', 'no-store');
  await sendJsonList(req, res, { ...batchHead(from, to, results) }, 'results', results, shownResolution);
}

async function resolveCsv(req: Request, res: Response): Promise<void> {
  const table = await readNamesCsv(req.body as string);
  if (table.names.length > MAX_NAMES) throw new HttpError(413, `at most ${MAX_NAMES} names per request, got ${table.names.length}`);
  const from = typeof req.query.from_version === 'string' ? resolveVersion(req.store, req.query.from_version) : null;
  const to = resolveVersion(req.store, typeof req.query.to_version === 'string' ? req.query.to_version : undefined);
  const results = await resolveMany(req.store, table.names, from, to);
  res.set('Cache-Control', 'no-store');
  await sendCsvPieces(res, csvAnswer(table, results));
}

export function resolveRouter(): Router {
  const router = Router();
  router.get('/resolve', resolveGet);
  router.post('/resolve', resolvePost);
  return router;
}

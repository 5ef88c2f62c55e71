// /api/v1/resolve: migrate names (a whole data set's species column) from one release to another, over HTTP
// (JSON, or CSV in and CSV out). The resolution itself is the read layer's (read/resolve.ts).
import { setImmediate } from 'node:timers/promises';
import { Router, type Request, type Response } from 'express';
import { parse as parseCsv } from 'csv-parse/sync';
import { stringify as stringifyCsv } from 'csv-stringify/sync';
import { z } from 'zod';
import { HttpError } from '../errors.js';
import { resolveVersion } from '../read/releases.js';
import { resolveMany, shownResolution } from '../read/resolve.js';
import { sendJsonList } from '../respond.js';
import { mapInSlices } from '../slices.js';

const MAX_NAMES = 10_000;
/** CSV rows written between two turns of the event loop (a few milliseconds). */
const CSV_SLICE_ROWS = 500;

const GetQuery = z.object({ name: z.string().min(1).max(500), from_version: z.string().optional(), to_version: z.string().optional() });
const PostBody = z.object({
  names: z.array(z.string().max(500)).min(1).max(MAX_NAMES),
  from_version: z.string().optional(),
  to_version: z.string().optional(),
});

// GET /resolve?name=&from_version=&to_version=
async function resolveGet(req: Request, res: Response): Promise<void> {
  const q = GetQuery.parse(req.query);
  const from = q.from_version ? resolveVersion(req.store, q.from_version) : null;
  const to = resolveVersion(req.store, q.to_version);
  const [result] = await resolveMany(req.store, [q.name], from, to);
  res.set('Cache-Control', 'public, max-age=300').json(shownResolution(result!));
}

// POST /resolve: JSON {names, from_version, to_version}, or CSV with a name column (CSV in, CSV out)
async function resolvePost(req: Request, res: Response): Promise<void> {
  if (typeof req.body === 'string') return resolveCsv(req, res);
  const body = PostBody.parse(req.body);
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
    records = parseCsv(req.body as string, { columns: true, skip_empty_lines: true, bom: true, trim: true }) as Array<Record<string, string>>;
  } catch (err) {
    throw new HttpError(400, `CSV body cannot be read: ${(err as Error).message}`);
  }
  if (records.length === 0 || !Object.keys(records[0]!).includes('name')) throw new HttpError(422, "CSV body needs a header row with a 'name' column");
  if (records.length > MAX_NAMES) throw new HttpError(413, `at most ${MAX_NAMES} names per request, got ${records.length}`);
  const from = typeof req.query.from_version === 'string' ? resolveVersion(req.store, req.query.from_version) : null;
  const to = resolveVersion(req.store, typeof req.query.to_version === 'string' ? req.query.to_version : undefined);
  const results = await resolveMany(req.store, records.map((r) => r.name ?? ''), from, to);
  const rows = await mapInSlices(records, (r, i) => {
    const x = results[i]!;
    return {
      ...r, status: x.status, rank: x.rank ?? '', matched_name: x.matched_name ?? '', match_type: x.match_type ?? '',
      confidence: x.confidence, to_version: x.to_version, result: x.results.join('; '),
      changes: x.chain.map((c) => `${c.version} ${c.change}${c.to_name ? ` -> ${c.to_name}` : ''}`).join('; '),
      note: x.note ?? '', suggestions: x.suggestions.join('; '),
    };
  });
  // In slices of rows, each written with the columns the first row gives (as one call would take them).
  const columns = Object.keys(rows[0]!);
  const parts: string[] = [];
  for (let i = 0; i < rows.length; i += CSV_SLICE_ROWS) {
    if (i > 0) await setImmediate();
    parts.push(stringifyCsv(rows.slice(i, i + CSV_SLICE_ROWS), { header: i === 0, columns, record_delimiter: 'windows' }));
  }
  res.set('Cache-Control', 'no-store').type('text/csv; charset=utf-8').send(parts.join(''));
}

export function resolveRouter(): Router {
  const router = Router();
  router.get('/resolve', resolveGet);
  router.post('/resolve', resolvePost);
  return router;
}

// GET /api/v1/bulk/species/:version: every species of a release (optionally of one family or realm) as
// JSON, CSV or Parquet (read/bulk.ts), streamed from the file written for it: the body is never held whole.
// These answers pick their own encoding (a gzipped copy of the file, made once) and skip the app's
// compression middleware (app.ts), which would compress the same bytes again on every download.
import { Router, type Request, type Response } from 'express';
import { notModified, sendFile } from '../respond.js';
import { BULK_FORMATS, bulkSpecies, type BulkFormat } from '../read/bulk.js';
import { resolveVersion } from '../read/releases.js';

/** The query as the contract declares it, validated and defaulted before the handler runs (operations.ts). */
interface Query {
  format: BulkFormat;
  family?: string;
  realm?: string;
}

async function species(req: Request, res: Response): Promise<void> {
  const q = req.query as unknown as Query;
  const v = resolveVersion(req.store, req.params.version as string);
  if (notModified(req, res, v.scope)) return;
  const { file, encoding } = await bulkSpecies(req.store, v, q.format, q.family, q.realm, req.acceptsEncodings('gzip') === 'gzip');
  const base = `species_${v.version}${q.family ? `_${q.family}` : ''}${q.realm ? `_${q.realm}` : ''}`.replace(/[^A-Za-z0-9_.-]+/g, '_');
  // attachment() sets a type from the file name's extension, which mime may not know: the type goes after it
  res.attachment(`${base}.${q.format}`).type(BULK_FORMATS[q.format].type).set('Vary', 'Accept-Encoding');
  if (encoding !== 'identity') res.set('Content-Encoding', encoding);
  await sendFile(res, file.path, file.bytes);
}

export function bulkRouter(): Router {
  return Router().get('/bulk/species/:version', species);
}

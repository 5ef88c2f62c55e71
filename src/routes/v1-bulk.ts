// GET /api/v1/bulk/{species,taxa,changes}/:version: a release's rows of a bulk resource (optionally of one
// family or realm) as JSON, JSON Lines, CSV, TSV or Parquet (read/bulk.ts), streamed from the file written for
// it: the body is never held whole. GET /api/v1/bulk/files[/:file]: the build's whole-record Parquet files and
// their sha256 checksums; GET /api/v1/bulk/dictionary: the data dictionary of every published table.
// File answers pick their own encoding (a gzipped copy of the file, made once) and skip the app's compression
// middleware (app.ts), which would compress the same bytes again on every download.
import { Router, type Request, type Response } from 'express';
import { sendJson, notModified, sendFile } from '../http/send-answer.js';
import { BULK_FORMATS, bulkRows, recordFile, recordFiles, type BulkFormat, type BulkResource } from '../read/bulk.js';
import { dataDictionary } from '../read/dictionary.js';
import { resolveVersion } from '../read/releases.js';

/** The query as the contract declares it, validated and defaulted before the handler runs (operations.ts). */
interface Query {
  format: BulkFormat;
  family?: string;
  realm?: string;
}

function rows(resource: BulkResource) {
  return async (req: Request, res: Response): Promise<void> => {
    const q = req.query as unknown as Query;
    const v = resolveVersion(req.store, req.params.version as string);
    // the filters are checked first: a family that is no taxon is a 404 even to a client holding any version
    // (If-None-Match: *); the file itself is written once per build, so a 304 costs a lookup after the first
    const { file, encoding } = await bulkRows(req.store, resource, v, q.format, q.family, q.realm, req.acceptsEncodings('gzip') === 'gzip');
    if (notModified(req, res, v.scope)) return;
    // The file name names the release (MSL41, not "latest") and the filters.
    const base = `${resource}_${v.version}${q.family ? `_${q.family}` : ''}${q.realm ? `_${q.realm}` : ''}`.replace(/[^A-Za-z0-9_.-]+/g, '_');
    // attachment() sets a type from the file name's extension, which mime may not know: the type goes after it
    res.attachment(`${base}.${BULK_FORMATS[q.format].ext}`).type(BULK_FORMATS[q.format].type).set('Vary', 'Accept-Encoding');
    if (encoding !== 'identity') res.set('Content-Encoding', encoding);
    await sendFile(res, file.path, file.bytes);
  };
}

function files(req: Request, res: Response): void {
  const base = `${req.baseUrl}/bulk/files`;
  sendJson(req, res, {
    build_id: req.store.buildId,
    checksums: `${base}/SHA256SUMS`,
    files: recordFiles(req.store).map((f) => ({ ...f, url: `${base}/${f.file}`, sha256_url: `${base}/${f.file}.sha256` })),
  }, 'latest');
}

async function file(req: Request, res: Response): Promise<void> {
  const f = recordFile(req.store, req.params.file as string);
  if (notModified(req, res, 'latest')) return;
  res.attachment(req.params.file as string).type(f.type);
  await sendFile(res, f.path, f.bytes);
}

function dictionary(req: Request, res: Response): void {
  sendJson(req, res, dataDictionary(), 'latest');
}

export function bulkRouter(): Router {
  return Router()
    .get('/bulk/species/:version', rows('species'))
    .get('/bulk/taxa/:version', rows('taxa'))
    .get('/bulk/changes/:version', rows('changes'))
    .get('/bulk/files', files)
    .get('/bulk/files/:file', file)
    .get('/bulk/dictionary', dictionary);
}

// GET /api/v1/bulk/species/:version: every species of a release (optionally of one family or realm) as
// JSON, CSV or Parquet, with the same columns in every format. Streamed: the body is never held whole.
import { mkdtempSync, rmSync, createReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Router, type Request, type Response } from 'express';
import { stringify as stringifyCsv } from 'csv-stringify/sync';
import { notModified } from '../respond.js';
import { resolveVersion } from '../read/releases.js';
import type { Row } from '../store.js';

/** The query as the contract declares it, validated and defaulted before the handler runs (operations.ts). */
interface Query {
  format: 'json' | 'csv' | 'parquet';
  family?: string;
  realm?: string;
}

/** Cells a spreadsheet would run as formulas (=, +, -, @, tab, CR first) get a leading ' (OWASP). */
const CSV_OPTIONS = { record_delimiter: 'windows', escape_formulas: true } as const;

/** The download's columns, in order; the same for every format. */
const BULK_COLUMNS = [
  'version', 'sort', 'realm', 'subrealm', 'kingdom', 'subkingdom', 'phylum', 'subphylum', 'class', 'subclass',
  'order', 'suborder', 'family', 'subfamily', 'genus', 'subgenus', 'species', 'genome_composition', 'host_source',
  'genome_size_bp', 'ictv_id', 'taxnode_id', 'lineage_id', 'last_change', 'msl_of_last_change', 'proposal',
] as const;

const SELECT = `
  SELECT 'MSL' || s.msl AS version, s.sort::INTEGER AS sort, s.realm, s.subrealm, s.kingdom, s.subkingdom, s.phylum, s.subphylum,
         s.class, s.subclass, s."order", s.suborder, s.family, s.subfamily, s.genus, s.subgenus, s.species,
         coalesce(g.vmr_genome_composition, s.genome_composition) AS genome_composition, g.host_source,
         g.genome_size_bp::INTEGER AS genome_size_bp, coalesce(s.ictv_id, i.ictv_id)::INTEGER AS ictv_id,
         s.taxnode_id::INTEGER AS taxnode_id, i.lineage_id::INTEGER AS lineage_id,
         trim(s.last_change, ', ') AS last_change, s.msl_of_last_change, s.proposal
  FROM src.species s
  LEFT JOIN main.species_identity i ON i.taxnode_id = s.taxnode_id
  LEFT JOIN main.species_genome g ON g.taxnode_id = s.taxnode_id
  WHERE s.msl = $1 AND ($2::VARCHAR IS NULL OR lower(s.family) = lower($2)) AND ($3::VARCHAR IS NULL OR lower(s.realm) = lower($3))
  ORDER BY s.sort, s.species`;

async function bulkSpecies(req: Request, res: Response): Promise<void> {
  const q = req.query as unknown as Query;
  const v = resolveVersion(req.store, req.params.version as string);
  if (notModified(req, res, v.scope)) return;
  const values = [v.msl, q.family ?? null, q.realm ?? null];
  const base = `species_${v.version}${q.family ? `_${q.family}` : ''}${q.realm ? `_${q.realm}` : ''}`.replace(/[^A-Za-z0-9_.-]+/g, '_');

  if (q.format === 'parquet') {
    // DuckDB writes Parquet to a file; it is streamed from there and removed.
    const dir = mkdtempSync(join(tmpdir(), 'vtqs-bulk-'));
    try {
      const file = join(dir, 'species.parquet');
      await req.store.query(`COPY (${SELECT}) TO '${file}' (FORMAT parquet, COMPRESSION zstd)`, values, 'bulk');
      // attachment() sets a type from the file name's extension, which mime does not know: the type goes after it
      res.attachment(`${base}.parquet`).type('application/vnd.apache.parquet');
      await pipeline(createReadStream(file), res);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return;
  }

  res.attachment(`${base}.${q.format}`).type(q.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8');
  // pipeline waits for the client to take each piece, and stops the query (the connection goes back to
  // the pool) when the client goes away.
  try {
    await pipeline(bodyOf(req.store.stream(SELECT, values), q.format), res);
  } catch (err) {
    if (res.destroyed && (err as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
    throw err;
  }
}

/** The download's text, piece by piece as the rows come. */
async function* bodyOf(slices: AsyncIterable<Row[]>, format: 'json' | 'csv'): AsyncGenerator<string> {
  let first = true;
  yield format === 'csv' ? `${BULK_COLUMNS.join(',')}\r\n` : '[';
  for await (const rows of slices) {
    if (rows.length === 0) continue;
    const text = format === 'csv'
      ? stringifyCsv(rows.map((r) => BULK_COLUMNS.map((c) => r[c] ?? null)), CSV_OPTIONS)
      : `${first ? '' : ','}${rows.map((r) => JSON.stringify(Object.fromEntries(BULK_COLUMNS.map((c) => [c, r[c] ?? null])))).join(',')}`;
    first = false;
    yield text;
  }
  if (format === 'json') yield ']';
}

export function bulkRouter(): Router {
  return Router().get('/bulk/species/:version', bulkSpecies);
}

// /api/v1: the releases, per-release species lookups, search, group listings and diversity statistics
// (comparisons and histories, resolution, citations and bulk downloads have modules of their own). Point
// lookups read in-memory documents; searches and listings are one bound DuckDB query each.
import { Router, type Request } from 'express';
import { z } from 'zod';
import { HttpError } from '../errors.js';
import { sendJson } from '../respond.js';
import { asWritten, nameParam, normaliseName } from '../read/names.js';
import { releases, resolveVersion, type ResolvedVersion } from '../read/releases.js';

const Page = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

const SearchQuery = Page.extend({
  q: z.string().min(1).max(200),
  version: z.string().optional(),
  field: z.enum(['name', 'family', 'host', 'all']).default('name'),
});

const GROUP_RANKS = { family: 'family', genus: 'genus', realm: 'realm' } as const;

export function v1Router(): Router {
  const router = Router();

  // GET /versions <- releases (held in memory by the store)
  router.get('/versions', (req, res) => {
    const body = releases(req.store).map((r) => ({
      version: r.version, release_number: r.msl, year: r.year, label: r.label,
      total_species: r.total_species, total_genera: r.total_genera, total_families: r.total_families,
      total_orders: r.total_orders, total_realms: r.total_realms,
    }));
    sendJson(req, res, body, 'latest');
  });

  // GET /species/:version/:name <- species_doc (in memory)
  router.get('/species/:version/:scientific_name', async (req, res) => {
    const v = resolveVersion(req.store, req.params.version);
    const name = nameParam(req.params.scientific_name);
    const doc = req.store.doc('species_doc', v.msl, asWritten(req.params.scientific_name).toLowerCase())
      ?? req.store.doc('species_doc', v.msl, name.toLowerCase());
    if (doc) return sendJson(req, res, doc, v.scope);
    throw await speciesNotFound(req, name, v);
  });

  // GET /search <- api_search, one query
  router.get('/search', async (req, res) => {
    const q = SearchQuery.parse(req.query);
    const v = resolveVersion(req.store, q.version);
    const term = q.q.toLowerCase();
    const fields: Record<typeof q.field, string> = {
      name: 'contains(name_key, $2)',
      family: 'contains(family_key, $2)',
      host: 'contains(host_key, $2)',
      all: 'contains(all_key, $2)',
    };
    const rows = await req.store.query<{ total: string; result: string }>(`
      SELECT count(*) OVER () AS total, result
      FROM main.api_search
      WHERE msl = $1 AND ${fields[q.field]}
      -- exact matches first, then names starting with the query, then alphabetical
      ORDER BY name_key = $2 DESC, starts_with(name_key, $2) DESC, species
      LIMIT $3 OFFSET $4`, [v.msl, term, q.limit, q.offset]);
    const total = rows.length > 0 ? Number(rows[0]!.total) : await countMatches(req, v, fields[q.field], term);
    sendJson(req, res, {
      query: q.q, field: q.field, version: v.version, total_results: total, limit: q.limit, offset: q.offset,
      results: rows.map((r) => JSON.parse(r.result) as unknown),
    }, v.scope);
  });

  // GET /taxonomy/:version/(family|genus|realm)/:name <- src.species, one query
  router.get('/taxonomy/:version/:rank/:name', async (req, res) => {
    const v = resolveVersion(req.store, req.params.version);
    const rank = GROUP_RANKS[req.params.rank as keyof typeof GROUP_RANKS];
    if (!rank) throw new HttpError(400, `invalid rank '${req.params.rank}'; expected family, genus or realm`);
    const page = Page.parse(req.query);
    const [row] = await req.store.query<{ name: string | null; total: number; genera: number; doc: string | null }>(`
      WITH members AS (
        SELECT * FROM src.species WHERE msl = $1 AND lower("${rank}") = lower($2)
      )
      SELECT any_value("${rank}") AS name, count(*)::INTEGER AS total, count(DISTINCT genus)::INTEGER AS genera,
             (SELECT json_group_array(json_object('scientific_name', species, 'genus', genus, 'subgenus', subgenus,
                     'family', family, 'subfamily', subfamily, 'order', "order", 'realm', realm))::VARCHAR
              FROM (SELECT * FROM members ORDER BY sort, species LIMIT $3 OFFSET $4)) AS doc
      FROM members`, [v.msl, nameParam(req.params.name), page.limit, page.offset]);
    if (!row || row.total === 0) throw new HttpError(404, `${rank} '${req.params.name}' not found in ${v.version}`);
    sendJson(req, res, {
      version: v.version, rank, name: row.name, total_species: row.total, total_genera: row.genera,
      limit: page.limit, offset: page.offset, species: JSON.parse(row.doc ?? '[]') as unknown,
    }, v.scope);
  });


  // GET /stats/diversity/:version <- diversity_stats (in memory)
  router.get('/stats/diversity/:version', (req, res) => {
    const v = resolveVersion(req.store, req.params.version);
    const doc = req.store.doc('diversity_stats', v.msl);
    if (!doc) throw new HttpError(404, `no diversity statistics for ${v.version}`);
    sendJson(req, res, doc, v.scope);
  });

  return router;
}

async function countMatches(req: Request, v: ResolvedVersion, where: string, term: string): Promise<number> {
  const [row] = await req.store.query<{ n: number }>(`
    SELECT count(*)::INTEGER AS n FROM main.api_search WHERE msl = $1 AND ${where}`, [v.msl, term]);
  return row?.n ?? 0;
}

/** A 404 that says where the name went when it is a former (or later) name of a species. */
async function speciesNotFound(req: Request, name: string, v: ResolvedVersion): Promise<HttpError> {
  const rows = await req.store.query<{ name: string; kind: string; name_in_version: string | null; current_name: string | null; last_msl: number }>(`
    SELECT n.name, n.kind, si.species AS name_in_version, n.current_name, n.last_msl::INTEGER AS last_msl
    FROM main.name_index n
    LEFT JOIN main.species_identity si ON si.lineage_id = n.lineage_id AND si.msl = $2
    WHERE n.name_norm = $1
    ORDER BY si.species IS NULL, n.last_msl DESC
    LIMIT 5`, [normaliseName(name), v.msl]);
  const hit = rows.find((r) => r.name_in_version !== null);
  if (hit) {
    const what = hit.kind === 'species' ? 'is not the name of a species' : `is a ${hit.kind.replace('_', ' ')}, not a species name`;
    return new HttpError(404, `'${name}' ${what} in ${v.version}; the species is '${hit.name_in_version}' in ${v.version}`, 'NotFound',
      { current_name: hit.name_in_version, version: v.version });
  }
  const gone = rows[0];
  if (gone) {
    return new HttpError(404, `species '${name}' is not in ${v.version}; it was last listed in MSL${gone.last_msl}${gone.current_name ? `, and is '${gone.current_name}' today` : ''}`);
  }
  return new HttpError(404, `species '${name}' not found in ${v.version}`);
}


// /api/v1: the releases, per-release species lookups, search, group listings and diversity statistics
// (comparisons and histories, resolution, citations and bulk downloads have modules of their own). Point
// lookups read in-memory documents, searches the in-memory search index; listings are one bound DuckDB query each.
import { Router, type Request } from 'express';
import { HttpError } from '../read/errors.js';
import { withJsonField } from '../read/json-text.js';
import { linkTo, nextPage, nextPageOf, sendJson } from '../http/send-answer.js';
import { releases, type ResolvedVersion, resolveVersion, type Scope } from '../read/releases.js';
import type { Store } from '../store/store.js';
import { CLASSIFICATION_RANKS, speciesDoc } from '../read/lineages.js';
import { asWritten, nameParam } from '../read/names.js';
import { absence, resolveName, shownResolution, type Resolution } from '../read/resolve.js';
import { releaseSearch } from '../read/search-index.js';
import { unknownNameError } from '../read/suggest.js';
import { typeahead } from '../read/typeahead.js';

// Query parameters as the contract declares them: validated, parsed and defaulted before a handler runs
// (operations.ts, the request validator).
interface Page {
  limit: number;
  offset: number;
}

interface SearchQuery extends Page {
  q: string;
  version?: string;
  field: 'name' | 'family' | 'host' | 'all';
}


/** The species document of a release whose name is the one given, as written or tidied; else undefined. */
function speciesDocNamed(store: Store, v: ResolvedVersion, written: string): Buffer | undefined {
  return store.doc('species_doc', v.msl, asWritten(written).toLowerCase()) ?? store.doc('species_doc', v.msl, nameParam(written).toLowerCase());
}

/** A page of a search of one release, from the index in memory; `url` is the request's, for the next page's. */
function searchAnswer(store: Store, q: SearchQuery, url: string): { body: Buffer; scope: Scope; next: string | null } {
  const v = resolveVersion(store, q.version);
  const { total, results } = releaseSearch(store).page(v.msl, q.field, q.q.toLowerCase(), q.limit, q.offset);
  const next = nextPageOf(url, { total, limit: q.limit, offset: q.offset });
  const head = { query: q.q, field: q.field, version: v.version, total_results: total, limit: q.limit, offset: q.offset, next };
  return { body: withJsonField(head, 'results', results), scope: v.scope, next };
}

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

  // GET /species/:version/:name <- species_doc (in memory); a name that is not the species' own in that
  // release goes through the resolver (former names, other spellings, virus names, identifiers)
  router.get('/species/:version/:scientific_name', async (req, res) => {
    const v = resolveVersion(req.store, req.params.version);
    const name = nameParam(req.params.scientific_name);
    const doc = speciesDocNamed(req.store, v, req.params.scientific_name);
    if (doc) return sendJson(req, res, doc, v.scope);
    const r = await resolveName(req.store, name, v, v);
    if (r.status === 'unknown') throw unknownNameError(req.store, name, r.suggestions);
    const found = r.rank === 'species' && r.status !== 'ambiguous' && r.results.length === 1 ? speciesDoc(req.store, v.msl, r.results[0]!) : null;
    if (!found) throw new HttpError(404, absence(r, v, 'species'), 'NotFound', { resolution: shownResolution(r) });
    sendJson(req, res, { ...found, match: matchOf(r) }, v.scope);
  });

  // GET /search <- api_search, held in memory (read/search-index.ts)
  router.get('/search', (req, res) => {
    const { body, scope, next } = searchAnswer(req.store, req.query as unknown as SearchQuery, req.originalUrl);
    if (next) res.setHeader('Link', linkTo(next));
    sendJson(req, res, body, scope);
  });

  // GET /taxonomy/:version/:rank/:name <- src.species, one query; a name that is not a taxon of that rank in
  // that release goes through the resolver, as for species
  router.get('/taxonomy/:version/:rank/:name', async (req, res) => {
    const v = resolveVersion(req.store, req.params.version);
    const rank = CLASSIFICATION_RANKS.find((r) => r === req.params.rank);
    if (!rank) throw new HttpError(400, `invalid rank '${req.params.rank}'; expected one of ${CLASSIFICATION_RANKS.join(', ')}`);
    const page = req.query as unknown as Page;
    const name = nameParam(req.params.name);
    let listing = await members(req, v, rank, name, page);
    let match: ReturnType<typeof matchOf> | null = null;
    if (!listing) {
      const r = await resolveName(req.store, name, v, v);
      if (r.status === 'unknown') throw unknownNameError(req.store, name, r.suggestions);
      if (r.rank === rank && r.status !== 'ambiguous' && r.results.length === 1) listing = await members(req, v, rank, r.results[0]!, page);
      if (!listing) throw new HttpError(404, absence(r, v, rank), 'NotFound', { resolution: shownResolution(r) });
      match = matchOf(r);
    }
    sendJson(req, res, {
      version: v.version, rank, name: listing.name, total_species: listing.total, total_genera: listing.genera,
      limit: page.limit, offset: page.offset, next: nextPage(req, res, { total: listing.total, ...page }), species: listing.species, ...(match ? { match } : {}),
    }, v.scope);
  });

  // GET /stats/diversity/:version <- diversity_stats (in memory)
  router.get('/stats/diversity/:version', (req, res) => {
    const v = resolveVersion(req.store, req.params.version);
    const doc = req.store.doc('diversity_stats', v.msl);
    if (!doc) throw new HttpError(404, `no diversity statistics for ${v.version}`);
    sendJson(req, res, doc, v.scope);
  });

  // GET /stats/releases <- release_figures_doc (in memory)
  router.get('/stats/releases', (req, res) => {
    const doc = req.store.doc('release_figures_doc', 'all');
    if (!doc) throw new Error('read model release_figures_doc has no document all');
    sendJson(req, res, doc, 'latest');
  });

  // GET /suggest?q= <- name_index (in memory, typeahead.ts)
  router.get('/suggest', async (req, res) => {
    const { q, limit } = req.query as unknown as { q: string; limit: number };
    sendJson(req, res, { query: q, suggestions: await typeahead(req.store, q, limit) }, 'latest');
  });

  return router;
}

/** A page of the species under a taxon of one rank in a release, or null when no species is under that name. */
async function members(req: Request, v: ResolvedVersion, rank: string, name: string, page: Page):
  Promise<{ name: string; total: number; genera: number; species: unknown[] } | null> {
  const [row] = await req.store.query<{ name: string | null; total: number; genera: number; doc: string | null }>(`
    WITH members AS (
      SELECT * FROM src.species WHERE msl = $1 AND lower("${rank}") = lower($2)
    )
    SELECT any_value("${rank}") AS name, count(*)::INTEGER AS total, count(DISTINCT genus)::INTEGER AS genera,
           (SELECT json_group_array(json_object('scientific_name', species, 'genus', genus, 'subgenus', subgenus,
                   'family', family, 'subfamily', subfamily, 'order', "order", 'realm', realm))::VARCHAR
            FROM (SELECT * FROM members ORDER BY sort, species LIMIT $3 OFFSET $4)) AS doc
    FROM members`, [v.msl, name, page.limit, page.offset]);
  if (!row || row.total === 0) return null;
  return { name: row.name!, total: row.total, genera: row.genera, species: JSON.parse(row.doc ?? '[]') as unknown[] };
}

/** How a name that is not the taxon's own name in the release asked matched it (shown with the answer). */
function matchOf(r: Resolution): Record<string, unknown> {
  return { query: r.name, matched_name: r.matched_name, match_type: r.match_type, confidence: r.confidence, status: r.status, note: r.note };
}

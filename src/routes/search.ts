// /search: name search over every name a species ever had, faceted and advanced species search, facet counts,
// family summaries and release statistics. Names are matched from memory (read/search-index.ts); faceted and
// advanced search filter search_species in one bound DuckDB query each; facets, statistics and family summaries
// are pre-rendered documents read from memory.
import { Router, type Request, type Response } from 'express';
import { sendJson, sendUncached } from '../http/send-answer.js';
import type { Store } from '../store/store.js';
import { nameParam, normaliseName } from '../read/names.js';
import { latest, resolveVersion } from '../read/releases.js';
import { betterHit, matchNames, speciesSearch, type NameHit } from '../read/search-index.js';
import { MIN_SCORE } from '../read/suggest.js';
import { notFoundAt } from '../read/taxa.js';

/**
 * Eras of the taxonomy, by release year (src.releases), so a new release falls into one by its year. Each
 * era runs from its first year to the year before the next era; the last one is open and reaches the latest
 * release. 1990 brought the first order (MSL11); 1999 ICTV's species definition of the 7th Report (MSL18,
 * when the list shrank from 2,370 to 1,551 species); 2005 the 8th Report (MSL23); the releases of 2005-2017
 * are split at the 9th Report (2012); 2018 brought ranks above order (MSL33) and realms (MSL34); 2021 (MSL37)
 * the first renaming wave to binomial "Genus epithet" names and the abolition of Caudovirales.
 */
const ERA_STARTS = [
  ['1971-1989', 1971], ['1990-1998', 1990], ['1999-2004', 1999], ['2005-2011', 2005], ['2012-2017', 2012],
  ['2018-2020', 2018], ['2021-present', 2021],
] as const;
export type Era = (typeof ERA_STARTS)[number][0];

/** An era's years: to the year before the next era, or for the last one to the latest release's year. */
export function eraYears(store: Store, era: Era): { from: number; to: number } {
  const i = ERA_STARTS.findIndex(([name]) => name === era);
  const next = ERA_STARTS[i + 1];
  return { from: ERA_STARTS[i]![1], to: next ? next[1] - 1 : Math.max(ERA_STARTS[i]![1], latest(store).year) };
}

/**
 * The normal form of a search text (as name_index.name_norm). A text with no letter or digit of the Latin
 * alphabet has no normal form and matches nothing: NUL, which no normal form holds, stands for it.
 */
function queryKey(query: string): string {
  return normaliseName(query) || '\u0000';
}

const lower = (s: string | null | undefined): string | null => (s ? s.trim().toLowerCase() : null);

// The match as the results show it: which name (current, former, virus name, abbreviation) and how.
const MATCH_JSON = (h: string, current: string) => `json_object(
    'name', ${h}.name,
    'kind', CASE WHEN ${h}.kind = 'species' AND lower(${h}.name) = lower(${current}) THEN 'current'
                 WHEN ${h}.kind = 'species' THEN 'former' ELSE ${h}.kind END,
    'type', (['exact', 'prefix', 'substring', 'typo'])[${h}.tier],
    'similarity', round(${h}.similarity, 3))`;

// Bodies as the contract declares them, validated and defaulted before a handler runs.
interface SpeciesBody {
  query: string;
  family_filter?: string | null;
  genus_filter?: string | null;
  exact_match: boolean;
  limit: number;
}

// POST /species <- name_index and search_species of the latest release, from memory (read/search-index.ts)
function speciesAnswer(store: Store, body: SpeciesBody): object {
  const v = latest(store);
  const { total, results } = speciesSearch(store, queryKey(body.query), body.exact_match, MIN_SCORE, lower(body.family_filter), lower(body.genus_filter), body.limit);
  return {
    query: body.query, exact_match: body.exact_match, family_filter: body.family_filter ?? null, genus_filter: body.genus_filter ?? null,
    msl_version: v.version, total_matches: total, limit: body.limit, results,
  };
}

function searchSpecies(req: Request, res: Response): void {
  sendUncached(req, res, speciesAnswer(req.store, req.body as SpeciesBody));
}

/** The query as the contract declares it, validated before a handler runs (operations.ts). */
interface VersionQuery {
  version?: string;
}

// GET /facets?version= <- search_facets (in memory)
function facets(req: Request, res: Response): void {
  const v = resolveVersion(req.store, (req.query as VersionQuery).version);
  sendJson(req, res, req.store.doc('search_facets', v.msl)!, v.scope);
}

// GET /statistics?version= <- search_statistics (in memory)
function statistics(req: Request, res: Response): void {
  const v = resolveVersion(req.store, (req.query as VersionQuery).version);
  sendJson(req, res, req.store.doc('search_statistics', v.msl)!, v.scope);
}

// GET /family/:family_name/summary <- search_family_summary (in memory)
async function familySummary(req: Request, res: Response): Promise<void> {
  const name = nameParam(req.params.family_name as string);
  const doc = req.store.doc('search_family_summary', name.toLowerCase());
  if (!doc) throw await notFoundAt(req.store, name, 'family', latest(req.store));
  sendJson(req, res, doc, 'latest');
}

interface FacetedBody {
  family: string;
  msl_version: string;
  realm?: string | null;
  genus?: string | null;
  genome_composition?: string | null;
  host_source?: string | null;
  limit: number;
  offset: number;
}

// POST /faceted <- search_species, one query: the page of species, the total and the facet counts of the
// species that pass the filters
async function faceted(req: Request, res: Response): Promise<void> {
  const body = req.body as FacetedBody;
  const v = resolveVersion(req.store, body.msl_version);
  const [row] = await req.store.query<{ family: string | null; total: number; results: string; facets: string | null }>(`
    WITH m AS (
      SELECT * FROM main.search_species
      WHERE msl = $1 AND family_key = $2
        AND ($3::VARCHAR IS NULL OR realm_key = $3) AND ($4::VARCHAR IS NULL OR genus_key = $4)
        AND ($5::VARCHAR IS NULL OR genome_composition_key = $5) AND ($6::VARCHAR IS NULL OR host_source_key = $6)
    ),
    facet AS (
      SELECT 'subfamily' AS facet, subfamily AS value, count(*) AS n FROM m GROUP BY ALL
      UNION ALL SELECT 'genus', genus, count(*) FROM m GROUP BY ALL
      UNION ALL SELECT 'genome_composition', genome_composition, count(*) FROM m GROUP BY ALL
      UNION ALL SELECT 'host_source', host_source, count(*) FROM m GROUP BY ALL
    )
    SELECT (SELECT any_value(name) FROM src.taxa WHERE msl = $1 AND rank = 'family' AND lower(name) = $2) AS family,
           (SELECT count(*) FROM m)::INTEGER AS total,
           (SELECT to_json(coalesce(list(json_object(
                     'scientific_name', species, 'realm', realm, 'family', family, 'subfamily', subfamily, 'genus', genus,
                     'subgenus', subgenus, 'genome_composition', genome_composition, 'host_source', host_source)
                     ORDER BY sort, species), []))
            FROM (SELECT * FROM m ORDER BY sort, species LIMIT $7 OFFSET $8))::VARCHAR AS results,
           (SELECT json_group_object(facet, items) FROM (
              SELECT facet, to_json(list(json_object('value', value, 'count', n) ORDER BY n DESC, value NULLS LAST)) AS items
              FROM facet GROUP BY facet))::VARCHAR AS facets`,
  [v.msl, lower(body.family), lower(body.realm), lower(body.genus), lower(body.genome_composition), lower(body.host_source), body.limit, body.offset]);
  if (!row?.family) throw await notFoundAt(req.store, body.family, 'family', v);
  const none = { subfamily: [], genus: [], genome_composition: [], host_source: [] };
  // a POST: its URL does not name the answer, so no URL-derived ETag (respond.ts) and no caching
  sendUncached(req, res, {
    msl_version: v.version, family: row.family,
    filters: { realm: body.realm ?? null, genus: body.genus ?? null, genome_composition: body.genome_composition ?? null, host_source: body.host_source ?? null },
    total: row.total, limit: body.limit, offset: body.offset,
    // a POST's next page is the same body with another offset: no URL can name it
    next_offset: body.offset + body.limit < row.total ? body.offset + body.limit : null,
    results: JSON.parse(row.results) as unknown,
    facets: { ...none, ...(row.facets ? JSON.parse(row.facets) as object : {}) },
  });
}

/** Each sort's ORDER BY over the columns of a row of `m` in advanced() aliased `t`. */
const SORTS = {
  relevance: (t: string) => `${t}.tier NULLS LAST, ${t}.similarity DESC NULLS LAST, ${t}.species`,
  alphabetical: (t: string) => `${t}.species`,
  first_appearance: (t: string) => `${t}.lineage_first_msl, ${t}.species`,
  recently_changed: (t: string) => `${t}.last_change_msl DESC, ${t}.species`,
} as const;

interface AdvancedBody {
  query?: string | null;
  filters: { family?: string | null; era?: Era | null; realm?: string | null; genome_composition?: string | null; host?: string | null };
  sort_by?: keyof typeof SORTS;
  limit: number;
}

// POST /advanced <- search_species, one query, given each lineage's best-matching name (matched from memory).
// Without an era: the species of the latest release. With one: every species present in some release of the
// era (since abolished, merged or split ones too), each lineage once, as listed in the latest release of the
// era that has it; filters apply to that listing.
async function advanced(req: Request, res: Response): Promise<void> {
  const body = req.body as AdvancedBody;
  const f = body.filters;
  const q = body.query && body.query.trim() !== '' ? queryKey(body.query) : null;
  const era = f.era ? eraYears(req.store, f.era) : null;
  const sort = body.sort_by ?? (q ? 'relevance' : 'alphabetical');
  const v = latest(req.store);
  const best = new Map<number, NameHit>();
  for (const x of q ? matchNames(req.store, q, false, MIN_SCORE) : []) {
    const seen = best.get(x.lineage_id);
    if (!seen || betterHit(x, seen) < 0) best.set(x.lineage_id, x);
  }
  // Rows are filtered, counted and sorted on the few columns that decide a page, and only the page's rows are
  // read whole and made JSON: every column of every species of a release, sorted, held a search's worth of
  // DuckDB memory several times over (several such searches at once ran out of it).
  const rows = await req.store.query<{ total: number; result: string }>(`
    WITH r AS (
      SELECT s.msl, s.lineage_id, s.species, s.lineage_first_msl, s.last_change_msl FROM main.search_species s
      WHERE (CASE WHEN $3::INTEGER IS NULL THEN s.msl = $9
                  ELSE s.msl IN (SELECT msl FROM src.releases WHERE year BETWEEN $3 AND $4) END)
        AND ($5::VARCHAR IS NULL OR s.family_key = $5) AND ($6::VARCHAR IS NULL OR s.realm_key = $6)
        AND ($7::VARCHAR IS NULL OR s.genome_composition_key = $7) AND ($8::VARCHAR IS NULL OR list_contains(s.host_keys, $8))
      QUALIFY row_number() OVER (PARTITION BY s.lineage_id ORDER BY s.msl DESC) = 1
    ),
    h AS (  -- each lineage's best-matching name, matched in memory (read/search-index.ts)
      SELECT unnest(from_json($2::JSON, '[{"lineage_id": "BIGINT", "name": "VARCHAR", "kind": "VARCHAR", "tier": "INTEGER", "similarity": "DOUBLE"}]'), recursive := true)
    ),
    m AS (
      SELECT r.*, h.lineage_id IS NOT NULL AS matched, h.name, h.kind, h.tier, h.similarity
      FROM r LEFT JOIN h ON h.lineage_id = r.lineage_id
      WHERE $1::VARCHAR IS NULL OR h.lineage_id IS NOT NULL
    ),
    page AS (SELECT * FROM m AS t ORDER BY ${SORTS[sort]('t')} LIMIT $10)
    SELECT (SELECT count(*) FROM m)::INTEGER AS total,
           json_object('scientific_name', s.species, 'msl_version', s.version, 'realm', s.realm, 'family', s.family,
                       'genus', s.genus, 'genome_composition', s.genome_composition, 'hosts', s.hosts,
                       'status', s.lineage_ended, 'current_name', s.current_name,
                       'first_appearance', 'MSL' || s.lineage_first_msl,
                       'last_change', json_object('version', 'MSL' || s.last_change_msl, 'change', s.last_change),
                       'match', CASE WHEN p.matched THEN ${MATCH_JSON('p', 's.current_name')} END)::VARCHAR AS result
    FROM page p JOIN main.search_species s ON s.msl = p.msl AND s.lineage_id = p.lineage_id
    ORDER BY ${SORTS[sort]('p')}`,
  [q, JSON.stringify([...best.values()].map(({ lineage_id, name, kind, tier, similarity }) => ({ lineage_id, name, kind, tier, similarity }))),
    era?.from ?? null, era?.to ?? null, lower(f.family), lower(f.realm), lower(f.genome_composition), lower(f.host), v.msl, body.limit]);
  sendUncached(req, res, {
    query: body.query ?? null,
    filters: { family: f.family ?? null, era: f.era ?? null, realm: f.realm ?? null, genome_composition: f.genome_composition ?? null, host: f.host ?? null },
    era: f.era ? { name: f.era, from_year: era!.from, to_year: era!.to } : null,
    sort_by: sort, total: rows[0]?.total ?? 0, limit: body.limit,
    results: rows.map((r) => JSON.parse(r.result) as unknown),
  });
}

export function searchRouter(): Router {
  const router = Router();
  router.post('/species', searchSpecies);
  router.get('/facets', facets);
  router.post('/faceted', faceted);
  router.get('/family/:family_name/summary', familySummary);
  router.post('/advanced', advanced);
  router.get('/statistics', statistics);
  return router;
}

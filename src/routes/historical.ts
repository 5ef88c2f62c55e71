// /historical: the releases, comparisons of any two, a species or a family across all releases, the end of the
// order Caudovirales and the milestones of the 20 years. Every answer is a pre-rendered document (projections
// *_doc.sql, caudovirales_dissolution.sql), held in memory except the species histories; a 404 runs a query,
// to suggest close names.
import { Router } from 'express';
import { HttpError } from '../errors.js';
import { sendJson } from '../respond.js';
import type { Store } from '../store.js';
import { assertPair, diffSummary } from '../read/compare.js';
import { lookupName, nameParam, normaliseName } from '../read/names.js';
import { resolveVersion } from '../read/releases.js';

export function historicalRouter(): Router {
  const router = Router();

  // GET /releases <- release_list_doc (in memory)
  router.get('/releases', (req, res) => {
    sendJson(req, res, required(req.store, 'release_list_doc', 'all'), 'latest');
  });

  // GET /releases/:msl_version <- release_doc (in memory)
  router.get('/releases/:msl_version', (req, res) => {
    const v = resolveVersion(req.store, req.params.msl_version);
    sendJson(req, res, required(req.store, 'release_doc', v.msl), v.scope);
  });

  // GET /compare/:from/:to <- release_diff via diffSummary (the numbers of /api/v1/compare) + compare_doc
  router.get('/compare/:from_version/:to_version', (req, res) => {
    const from = resolveVersion(req.store, req.params.from_version);
    const to = resolveVersion(req.store, req.params.to_version);
    assertPair(from, to);
    const s = diffSummary(req.store, from, to);
    const byType = {
      added: s.species_added, removed: s.species_removed, renamed: s.species_renamed, reclassified: s.species_reclassified,
      merged: s.species_merged, split: s.species_split, ended_by_split: s.species_ended_by_split, formed_by_merge: s.species_formed_by_merge,
    };
    // One per row of /api/v1/compare/.../details: a species both renamed and reclassified counts twice.
    const total = byType.added + byType.removed + byType.renamed + byType.reclassified + byType.merged + byType.split
      + byType.ended_by_split + byType.formed_by_merge;
    const rest = requiredJson<object>(req.store, 'compare_doc', from.msl, to.msl);
    sendJson(req, res, {
      from_version: from.version, to_version: to.version, from_total: s.from_total, to_total: s.to_total,
      changes: { total_changes: total, by_type: byType, renamed_and_reclassified: s.species_renamed_and_reclassified, unchanged: s.species_unchanged },
      ...rest,
    }, from.scope === 'latest' || to.scope === 'latest' ? 'latest' : 'release');
  });

  // GET /species/:name/history <- name_lookup (in memory) + species_history_doc, one keyed query. These
  // histories (41 MB) stay in the database: /api/v1/history serves the same lineages from memory, in the
  // shape analysts script against, and holding both would cost the memory budget.
  router.get('/species/:scientific_name/history', async (req, res) => {
    const name = nameParam(req.params.scientific_name);
    const hits = lookupName(req.store, name);
    if (hits.length === 0) throw await speciesNotFound(req.store, name);
    // As /api/v1/history: a name that was a species name follows only those lineages; a virus name or
    // abbreviation may lead to several.
    const chosen = hits.some((h) => h.kind === 'species') ? hits.filter((h) => h.kind === 'species') : hits;
    const ids = [...new Set(chosen.map((h) => h.lineage_id))];
    const rows = await req.store.query<{ lineage_id: string; doc: string }>(
      'SELECT lineage_id, doc FROM main.species_history_doc WHERE list_contains($1::BIGINT[], lineage_id)', [ids]);
    const byId = new Map(rows.map((r) => [Number(r.lineage_id), JSON.parse(r.doc) as unknown]));
    const lineages = ids.map((id) => byId.get(id) ?? brokenBuild('species_history_doc', [id]));
    sendJson(req, res, { query: name, matched_name: chosen[0]!.name, matched_kind: chosen[0]!.kind, lineages }, 'latest');
  });

  // GET /family/:name/evolution <- family_evolution_doc (in memory), keyed by every name the family carried
  router.get('/family/:family_name/evolution', async (req, res) => {
    const name = nameParam(req.params.family_name);
    const doc = req.store.doc('family_evolution_doc', name.toLowerCase());
    if (!doc) throw await familyNotFound(req.store, name);
    sendJson(req, res, doc, 'latest');
  });

  // GET /caudovirales-dissolution <- caudovirales_dissolution (in memory)
  router.get('/caudovirales-dissolution', (req, res) => {
    sendJson(req, res, required(req.store, 'caudovirales_dissolution', 'caudovirales'), 'latest');
  });

  // GET /timeline <- timeline_doc (in memory)
  router.get('/timeline', (req, res) => {
    sendJson(req, res, required(req.store, 'timeline_doc', 'all'), 'latest');
  });

  return router;
}

// Documents every build has: their absence is a broken build (500), not a missing resource.
function required(store: Store, table: string, ...key: Array<string | number>): Buffer {
  return store.doc(table, ...key) ?? brokenBuild(table, key);
}

function requiredJson<T>(store: Store, table: string, ...key: Array<string | number>): T {
  return store.docJson<T>(table, ...key) ?? brokenBuild(table, key);
}

function brokenBuild(table: string, key: Array<string | number>): never {
  throw new Error(`read model ${table} has no document ${key.join('|')}`);
}

/** 404 for a name no species ever had, with up to 3 known names close to it. */
async function speciesNotFound(store: Store, name: string): Promise<HttpError> {
  const norm = normaliseName(name);
  const [row] = norm.length === 0 ? [] : await store.query<{ names: string[] | null }>(`
    SELECT list(name ORDER BY score DESC, name)[1:3] AS names
    FROM (
      SELECT name, max(jaro_winkler_similarity(name_norm, $1)) AS score
      FROM main.name_index
      -- a typo rarely hits the first letter, and rarely changes the length by more than 3
      WHERE name_len BETWEEN length($1) - 3 AND length($1) + 3 AND left(name_norm, 1) = left($1, 1)
      GROUP BY name
      HAVING score >= 0.85
    )`, [norm]);
  const suggestions = row?.names ?? [];
  return new HttpError(404, `no species ever had the name '${name}'${didYouMean(suggestions)}`, 'NotFound', { suggestions });
}

/** 404 for an unknown family: says when the name is a taxon of another rank, and suggests close family names. */
async function familyNotFound(store: Store, name: string): Promise<HttpError> {
  const key = name.toLowerCase();
  const [row] = await store.query<{ ranks: string[] | null; names: string[] | null }>(`
    SELECT (SELECT list(DISTINCT rank ORDER BY rank) FROM src.taxa WHERE lower(name) = $1) AS ranks,
           (SELECT list(name ORDER BY score DESC, name)[1:3]
            FROM (SELECT name, jaro_winkler_similarity(name_key, $1) AS score FROM main.family_evolution_doc)
            WHERE score >= 0.85) AS names`, [key]);
  const suggestions = row?.names ?? [];
  const ranks = row?.ranks ?? [];
  const what = ranks.length > 0 ? `'${name}' is ${/^[aeiou]/.test(ranks[0]!) ? 'an' : 'a'} ${ranks.join(' or ')} name, not a family`
    : `no family was ever named '${name}'`;
  return new HttpError(404, `${what}${didYouMean(suggestions)}`, 'NotFound', { suggestions });
}

const didYouMean = (names: string[]) => (names.length > 0 ? `; did you mean ${names.map((n) => `'${n}'`).join(', ')}?` : '');

// /historical: the releases, comparisons of any two, a species or a family across all releases, the end of the
// order Caudovirales and the milestones of the whole record. Every answer is a pre-rendered document
// (projections *_doc.sql, caudovirales_dissolution.sql), held in memory except the species histories; names
// are found by the resolver, and a 404 for an unknown name suggests close ones (read/suggest.ts).
import { Router } from 'express';
import { HttpError } from '../read/errors.js';
import { sendJson } from '../http/send-answer.js';
import type { Store } from '../store/store.js';
import { assertPair, diffSummary } from '../read/compare.js';
import { nameParam } from '../read/names.js';
import { latest, resolveVersion } from '../read/releases.js';
import { absence, lineagesNamed, resolveName } from '../read/resolve.js';
import { unknownNameError } from '../read/suggest.js';
import { notFoundAt } from '../read/taxa.js';

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

  // GET /species/:name/history <- name_lookup + species_history_doc (documents), one per lineage
  router.get('/species/:scientific_name/history', async (req, res) => {
    const name = nameParam(req.params.scientific_name);
    const v = latest(req.store);
    const r = await resolveName(req.store, name, null, v);
    if (r.status === 'unknown') throw unknownNameError(req.store, name, r.suggestions);
    // As /api/v1/history: every lineage the name stood for (species only: the taxa above have their
    // histories at /api/v1/history)
    const ids = (lineagesNamed(req.store, name) ?? r.lineages).filter((l) => l.kind === 'species').map((l) => l.id);
    if (ids.length === 0) throw new HttpError(404, absence(r, v, 'species'), 'NotFound');
    const lineages = ids.map((id) => req.store.docJson<unknown>('species_history_doc', id) ?? brokenBuild('species_history_doc', [id]));
    sendJson(req, res, { query: name, matched_name: r.matched_name, matched_kind: r.matched_kind, match_type: r.match_type, confidence: r.confidence, lineages }, 'latest');
  });

  // GET /family/:name/evolution <- family_evolution_doc (in memory), keyed by every name the family carried
  router.get('/family/:family_name/evolution', async (req, res) => {
    const name = nameParam(req.params.family_name);
    const doc = req.store.doc('family_evolution_doc', name.toLowerCase());
    if (!doc) throw await notFoundAt(req.store, name, 'family', latest(req.store));
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

// /api/v1/compare and /api/v1/history: comparisons of any two releases, and the history of the taxon of any
// rank that a name or identifier denotes. The answers are the read layer's (read/compare.ts, read/resolve.ts,
// read/lineages.ts).
import { Router, type Request, type Response } from 'express';
import { nextPage, sendJson, type Scope } from '../respond.js';
import { assertPair, CHANGE_TYPES, changesPage, diffSummary } from '../read/compare.js';
import { lineageDoc, mslOf, taxonDoc } from '../read/lineages.js';
import { nameParam } from '../read/names.js';
import { latest, resolveVersion, type ResolvedVersion } from '../read/releases.js';
import { lineagesNamed, resolveName } from '../read/resolve.js';
import { unknownNameError } from '../read/suggest.js';

function pair(req: Request): { from: ResolvedVersion; to: ResolvedVersion; scope: Scope } {
  const from = resolveVersion(req.store, req.params.from_version as string);
  const to = resolveVersion(req.store, req.params.to_version as string);
  assertPair(from, to);
  return { from, to, scope: from.scope === 'latest' || to.scope === 'latest' ? 'latest' : 'release' };
}

// GET /compare/:from/:to <- release_diff (in memory)
function compare(req: Request, res: Response): void {
  const { from, to, scope } = pair(req);
  sendJson(req, res, diffSummary(req.store, from, to), scope);
}

/** The query as the contract declares it, validated and defaulted before the handler runs (operations.ts). */
interface DetailsQuery {
  change_type?: (typeof CHANGE_TYPES)[number];
  limit: number;
  offset: number;
}

// GET /compare/:from/:to/details <- compare_rows + compare_species (+ compare_exit_proposal), in memory
function compareDetails(req: Request, res: Response): void {
  const { from, to, scope } = pair(req);
  const q = req.query as unknown as DetailsQuery;
  const { total, changes } = changesPage(req.store, from, to, { change_type: q.change_type ?? null, limit: q.limit, offset: q.offset });
  sendJson(req, res, {
    from_version: from.version, to_version: to.version, change_type: q.change_type ?? null,
    total, limit: q.limit, offset: q.offset, next: nextPage(req, res, { total, limit: q.limit, offset: q.offset }), changes,
  }, scope);
}

// GET /history/:name <- the resolver (name_lookup, identifier_index) + history_doc / taxon_history_doc (in memory)
async function history(req: Request, res: Response): Promise<void> {
  const name = nameParam(req.params.species_name as string);
  const resolution = await resolveName(req.store, name, null, latest(req.store));
  if (resolution.status === 'unknown') throw unknownNameError(req.store, name, resolution.suggestions);
  // every lineage the name stood for, in order; where it leads now is the resolution's (its latest meaning)
  const named = lineagesNamed(req.store, name) ?? resolution.lineages;
  const lineages = named.map((l) => (l.kind === 'taxon' ? taxonDoc(req.store, l.id) : lineageDoc(req.store, l.id)));
  const versions = lineages.flatMap((l) => [l.first_appearance, l.last_appearance]).sort((x, y) => mslOf(x) - mslOf(y));
  // where the name lives now: its own lineage's current name, else (merged, split) where the resolver follows it
  const resolved = resolution.lineages.length === 1 ? resolution.lineages[0]! : null;
  const own = resolved ? lineages[named.findIndex((l) => l.kind === resolved.kind && l.id === resolved.id)]?.current_name ?? null : null;
  sendJson(req, res, {
    query: name,
    matched_name: resolution.matched_name,
    match_type: resolution.match_type,
    confidence: resolution.confidence,
    rank: resolution.rank,
    first_appearance: versions[0],
    last_appearance: versions[versions.length - 1],
    current_name: own ?? (resolution.results.length === 1 ? resolution.results[0]! : null),
    current_names: resolution.results,
    status: resolution.status,
    names: [...new Set(lineages.flatMap((l) => l.names))],
    lineages,
  }, 'latest');
}

export function historyRouter(): Router {
  const router = Router();
  router.get('/compare/:from_version/:to_version', compare);
  router.get('/compare/:from_version/:to_version/details', compareDetails);
  router.get('/history/:species_name', history);
  return router;
}

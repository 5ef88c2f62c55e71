// /api/v1/compare and /api/v1/history: comparisons of any two releases, and the history of the taxon of any
// rank that a name or identifier denotes. The answers are the read layer's (read/compare.ts, read/history.ts).
import { Router, type Request, type Response } from 'express';
import { nextPage, sendBytes, sendJson } from '../http/send-answer.js';
import { ARROW_STREAM } from '../read/arrow.js';
import { type ResolvedVersion, resolveVersion, type Scope } from '../read/releases.js';
import type { Store } from '../store/store.js';
import { assertPair, CHANGE_TYPES, changesAnswer, changesArrow } from '../read/compare.js';
import { compareSummary } from '../read/official-tallies.js';
import { historyJson } from '../read/history.js';
import { nameParam } from '../read/names.js';

function pair(store: Store, fromVersion: string, toVersion: string): { from: ResolvedVersion; to: ResolvedVersion; scope: Scope } {
  const from = resolveVersion(store, fromVersion);
  const to = resolveVersion(store, toVersion);
  assertPair(from, to);
  return { from, to, scope: from.scope === 'latest' || to.scope === 'latest' ? 'latest' : 'release' };
}

// GET /compare/:from/:to <- release_diff and official_tally (in memory)
function compare(req: Request, res: Response): void {
  const { from, to, scope } = pair(req.store, req.params.from_version as string, req.params.to_version as string);
  sendJson(req, res, compareSummary(req.store, from, to), scope);
}

/** The query as the contract declares it, validated and defaulted before the handler runs (operations.ts). */
interface DetailsQuery {
  change_type?: (typeof CHANGE_TYPES)[number];
  limit: number;
  offset: number;
  format: 'json' | 'arrow';
}

// GET /compare/:from/:to/details <- compare_rows + compare_species (+ compare_exit_proposal), in memory
function compareDetails(req: Request, res: Response): void {
  const { from, to, scope } = pair(req.store, req.params.from_version as string, req.params.to_version as string);
  const q = req.query as unknown as DetailsQuery;
  const answer = changesAnswer(req.store, from, to, { change_type: q.change_type ?? null, limit: q.limit, offset: q.offset });
  const { changes, ...head } = answer;
  const next = nextPage(req, res, { total: head.total, limit: q.limit, offset: q.offset });
  if (q.format === 'arrow') sendBytes(req, res, changesArrow(answer, next), ARROW_STREAM.type, scope);
  else sendJson(req, res, { ...head, next, changes }, scope);
}

// GET /history/:name <- the resolver (name_lookup, identifier_index) + history_doc / taxon_history_doc (in memory),
// the documents sent as the bytes they are held as
async function history(req: Request, res: Response): Promise<void> {
  sendJson(req, res, await historyJson(req.store, nameParam(req.params.species_name as string)), 'latest');
}

export function historyRouter(): Router {
  const router = Router();
  router.get('/compare/:from_version/:to_version', compare);
  router.get('/compare/:from_version/:to_version/details', compareDetails);
  router.get('/history/:species_name', history);
  return router;
}

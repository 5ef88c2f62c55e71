// The history of whatever a name or identifier denotes: every lineage the name has stood for (species or a
// higher taxon of any rank), release by release, and where it lives now. The one answer of GET
// /api/v1/history/:name and of the command line's `history`.
import type { Store } from '../store.js';
import { lineageDoc, mslOf, taxonDoc, type LineageDoc, type TaxonLineageDoc } from './lineages.js';
import { latest } from './releases.js';
import { lineagesNamed, resolveName, type MatchType, type Status } from './resolve.js';
import { unknownNameError } from './suggest.js';

export interface History {
  query: string;
  matched_name: string | null;
  match_type: MatchType | null;
  confidence: number;
  rank: string | null;
  first_appearance: string | undefined;
  last_appearance: string | undefined;
  current_name: string | null;
  current_names: string[];
  status: Status;
  names: string[];
  lineages: Array<LineageDoc | TaxonLineageDoc>;
}

/** The history of a name (as the user wrote it, whitespace tidied); a name that matches nothing is a 404 with suggestions. */
export async function historyOf(store: Store, name: string): Promise<History> {
  const resolution = await resolveName(store, name, null, latest(store));
  if (resolution.status === 'unknown') throw unknownNameError(store, name, resolution.suggestions);
  // every lineage the name stood for, in order; where it leads now is the resolution's (its latest meaning)
  const named = lineagesNamed(store, name) ?? resolution.lineages;
  const lineages = named.map((l) => (l.kind === 'taxon' ? taxonDoc(store, l.id) : lineageDoc(store, l.id)));
  const versions = lineages.flatMap((l) => [l.first_appearance, l.last_appearance]).sort((x, y) => mslOf(x) - mslOf(y));
  // where the name lives now: its own lineage's current name, else (merged, split) where the resolver follows it
  const resolved = resolution.lineages.length === 1 ? resolution.lineages[0]! : null;
  const own = resolved ? lineages[named.findIndex((l) => l.kind === resolved.kind && l.id === resolved.id)]?.current_name ?? null : null;
  return {
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
  };
}

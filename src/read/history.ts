// The history of whatever a name or identifier denotes: every lineage the name has stood for (species or a
// higher taxon of any rank), release by release, and where it lives now. The one answer of GET
// /api/v1/history/:name and of the command line's `history`.
import { jsonArray, withJsonField } from './json-text.js';
import type { Store } from '../store/store.js';
import { lineageDoc, mslOf, taxonDoc, type LineageDoc, type TaxonLineageDoc } from './lineages.js';
import { latest } from './releases.js';
import { lineagesNamed, resolveName, type MatchType, type Status } from './resolve.js';
import { speciesWalks } from './species-walks.js';
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

/** What a history says of one lineage beside its document. */
interface LineageFacts {
  first_appearance: string;
  last_appearance: string;
  current_name: string | null;
  names: string[];
}

/**
 * A history without its lineages' documents, and those documents as the JSON bytes they are held as: a
 * species lineage's facts come from the species walks, so its document is never parsed (nor serialised
 * again: history_doc's JSON is what JSON.stringify gives for it, test/species-walks.test.ts).
 */
async function historyParts(store: Store, name: string): Promise<{ head: Omit<History, 'lineages'>; docs: Buffer[] }> {
  const resolution = await resolveName(store, name, null, latest(store));
  if (resolution.status === 'unknown') throw unknownNameError(store, name, resolution.suggestions);
  // every lineage the name stood for, in order; where it leads now is the resolution's (its latest meaning)
  const named = lineagesNamed(store, name) ?? resolution.lineages;
  const walks = speciesWalks(store);
  const facts = named.map((l): LineageFacts => {
    if (l.kind === 'taxon') return taxonDoc(store, l.id);
    const w = walks?.summary(l.id);
    if (!w) return lineageDoc(store, l.id);  // the walks are still loading
    return { first_appearance: `MSL${w.first}`, last_appearance: `MSL${w.last}`, current_name: w.current_name, names: w.names };
  });
  const docs = named.map((l) => store.doc(l.kind === 'taxon' ? 'taxon_history_doc' : 'history_doc', l.id)!);
  const versions = facts.flatMap((l) => [l.first_appearance, l.last_appearance]).sort((x, y) => mslOf(x) - mslOf(y));
  // where the name lives now: its own lineage's current name, else (merged, split) where the resolver follows it
  const resolved = resolution.lineages.length === 1 ? resolution.lineages[0]! : null;
  const own = resolved ? facts[named.findIndex((l) => l.kind === resolved.kind && l.id === resolved.id)]?.current_name ?? null : null;
  return {
    head: {
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
      names: [...new Set(facts.flatMap((l) => l.names))],
    },
    docs,
  };
}

/** The history of a name (as the user wrote it, whitespace tidied); a name that matches nothing is a 404 with suggestions. */
export async function historyOf(store: Store, name: string): Promise<History> {
  const { head, docs } = await historyParts(store, name);
  return { ...head, lineages: docs.map((d) => JSON.parse(d.toString('utf8')) as LineageDoc | TaxonLineageDoc) };
}

/** historyOf as the JSON bytes JSON.stringify would give, the lineages' documents copied as they are held. */
export async function historyJson(store: Store, name: string): Promise<Buffer> {
  const { head, docs } = await historyParts(store, name);
  return withJsonField(head, 'lineages', jsonArray(docs));
}

// One question through the whole language layer: identifiers looked up, the question read (parse.ts), checked
// for what it asks that the service cannot answer (scope.ts), answered (answer.ts, relations.ts) and judged
// (understood.ts). The router and the evaluation harness (bench/ai-eval.ts) both call this, so what is measured
// is what is served.
import type { Store } from '../store.js';
import { lookupIdentifiers } from '../read/identifiers.js';
import { answer, type Answer } from './answer.js';
import { identifierWords, parseQuestion, storeLexicon, type Parsed } from './parse.js';

export type QueryResult = Answer & { status: 'answered' | 'not_understood' | 'declined'; intent: string; entities: Record<string, unknown> };

function entitiesOf(p: Parsed): Record<string, unknown> {
  return {
    species: p.species.map((s) => ({ text: s.text, matched_name: s.matched_name, kind: s.kind, current_name: s.current_name, lineage_ids: s.lineage_ids })),
    taxa: p.taxa.map((t) => ({ text: t.text, rank: t.rank, name: t.name, first_version: `MSL${t.entry.first_msl}`, last_version: `MSL${t.entry.last_msl}` })),
    releases: p.releases.map((r) => ({ text: r.text, version: r.version, year: r.year, label: r.label, ...(r.note ? { note: r.note } : {}) })),
    hosts: p.hosts,
    genome_types: p.genomeTypes,
    rank: p.targetRank,
    change: p.change,
    unknown: [...p.unknownNames, ...p.badReleases],
  };
}

/** The answer to one question, as POST /ai/query returns it (without the echoed query and cache flag). */
export async function askQuestion(store: Store, query: string): Promise<QueryResult> {
  const ids = await lookupIdentifiers(store, identifierWords(query));
  const parsed = parseQuestion(query, storeLexicon(store, ids));
  const a = await answer(store, parsed);
  return { status: parsed.intent === 'unknown' || parsed.intent === 'help' ? 'not_understood' : 'answered', response: a.response, intent: parsed.intent, entities: entitiesOf(parsed), data: a.data, sources: a.sources };
}

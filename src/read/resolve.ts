// Resolution: a name, in any spelling, as any species or virus name or abbreviation it has ever been, followed
// from the release it was used in to the release asked for, through renames, moves, merges and splits (the
// lineages of history_doc, held in memory). The one walk every endpoint that migrates a name uses: /resolve,
// /ai, and the placements of species in a release.
import { setImmediate } from 'node:timers/promises';
import type { Store } from '../store.js';
import { lineageDoc, mslOf, speciesDoc, type LineageDoc, type SpeciesDoc, type TimelineEntry } from './lineages.js';
import { lookupName, normaliseName, type NameHit } from './names.js';
import type { ResolvedVersion } from './releases.js';

export interface Resolution {
  name: string;
  status: 'unchanged' | 'renamed' | 'moved' | 'renamed+moved' | 'merged' | 'split' | 'abolished' | 'ambiguous' | 'unknown';
  matched_name: string | null;
  matched_kind: NameHit['kind'] | null;
  from_version: string | null;
  to_version: string;
  results: string[];
  chain: Array<{ version: string; change: string; from_name: string | null; to_name: string | null; proposal: string | null }>;
  suggestions: string[];
}

const above = (lineage: string) => lineage.split(';').slice(0, -1).join(';');

/** Follows a lineage to the target release: its species there, or where it went when it ended. */
function follow(store: Store, id: number, from: number, to: number, depth = 0): { names: string[]; ended: LineageDoc['ended'] | 'present'; chain: Resolution['chain'] } {
  const doc = lineageDoc(store, id);
  const chain: Resolution['chain'] = [];
  let previous: TimelineEntry | undefined;
  for (const t of doc.timeline) {
    if (mslOf(t.version) > to) break;
    if (mslOf(t.version) > from && previous && t.change !== 'unchanged') {
      chain.push({ version: t.version, change: t.change, from_name: previous.name, to_name: t.name, proposal: t.proposal });
    }
    previous = t;
  }
  const there = doc.timeline.find((t) => mslOf(t.version) === to);
  if (there) return { names: [there.name], ended: 'present', chain };
  if (mslOf(doc.last_appearance) > to) return { names: [], ended: 'present', chain }; // a gap: not listed in that release
  const next = `MSL${mslOf(doc.last_appearance) + 1}`;
  if (doc.ended === 'abolished' || depth > 20) {
    chain.push({ version: doc.abolished_in ?? next, change: 'abolished', from_name: previous?.name ?? null, to_name: null, proposal: null });
    return { names: [], ended: 'abolished', chain };
  }
  const targets = doc.ended === 'merged' ? doc.merged_into : doc.split_into;
  const names: string[] = [];
  for (const target of targets) {
    chain.push({ version: next, change: doc.ended, from_name: previous?.name ?? null, to_name: target, proposal: null });
    const hit = lookupName(store, target).find((h) => h.kind === 'species' && h.first_msl <= mslOf(next) && h.last_msl >= mslOf(next));
    if (!hit) continue;
    const onward = follow(store, hit.lineage_id, mslOf(next), to, depth + 1);
    names.push(...onward.names);
    chain.push(...onward.chain);
  }
  return { names: [...new Set(names)], ended: doc.ended, chain };
}

export function resolveOne(store: Store, name: string, from: ResolvedVersion | null, to: ResolvedVersion): Resolution {
  const base = { name, from_version: from?.version ?? null, to_version: to.version, suggestions: [] as string[] };
  let hits = lookupName(store, name);
  if (hits.length === 0) return { ...base, status: 'unknown', matched_name: null, matched_kind: null, results: [], chain: [] };
  // Prefer what the name meant in the source release, and a species name over a virus name.
  // A species name is "in use" in the releases where it was the official name, not where a VMR isolate
  // still carried it as a virus name (Tobacco mosaic virus in MSL39 is the virus of Tobamovirus tabaci).
  const inUse = (h: NameHit, v: number) => (h.kind === 'species' && h.species_first_msl !== null
    ? h.species_first_msl <= v && (h.species_last_msl ?? 0) >= v
    : h.first_msl <= v && h.last_msl >= v);
  const validAtFrom = from ? hits.filter((h) => inUse(h, from.msl)) : [];
  if (validAtFrom.length > 0) hits = validAtFrom;
  if (hits.some((h) => h.kind === 'species')) hits = hits.filter((h) => h.kind === 'species');
  const lineages = [...new Set(hits.map((h) => h.lineage_id))];
  const best = hits[0]!;
  const matched = { matched_name: best.name, matched_kind: best.kind };

  if (lineages.length > 1) {
    const results = [...new Set(lineages.flatMap((id) => follow(store, id, from?.msl ?? (best.species_last_msl ?? best.last_msl), to.msl).names))];
    return { ...base, ...matched, status: 'ambiguous', results, chain: [] };
  }
  // The release the name is taken from: the one asked for when the name was in use there, else the last
  // release in which it was the species' name (an old name given without from_version means that era).
  const start = validAtFrom.length > 0 ? from!.msl : Math.min(best.species_last_msl ?? best.last_msl, to.msl);
  const walked = follow(store, best.lineage_id, start, to.msl);
  if (walked.ended !== 'present') {
    const status = walked.ended === 'current' ? 'abolished' : walked.ended;
    return { ...base, ...matched, status, results: walked.names, chain: walked.chain };
  }
  if (walked.names.length === 0) return { ...base, ...matched, status: 'abolished', results: [], chain: walked.chain };
  const doc = lineageDoc(store, best.lineage_id);
  const origin = doc.timeline.filter((t) => mslOf(t.version) <= start).pop() ?? doc.timeline[0]!;
  const target = doc.timeline.find((t) => mslOf(t.version) === to.msl)!;
  const renamed = origin.name !== target.name;
  const moved = above(origin.lineage) !== above(target.lineage);
  const status = renamed && moved ? 'renamed+moved' : renamed ? 'renamed' : moved ? 'moved' : 'unchanged';
  return { ...base, ...matched, status, results: [target.name], chain: walked.chain };
}

/** Up to 3 known names close to each unknown name (Jaro-Winkler over names of similar length). */
async function suggest(store: Store, names: string[]): Promise<Map<string, string[]>> {
  const wanted = [...new Set(names.map(normaliseName).filter((n) => n.length > 0))];
  const out = new Map<string, string[]>();
  if (wanted.length === 0) return out;
  const rows = await store.query<{ q: string; names: string[] }>(`
    WITH q AS (SELECT unnest($1::VARCHAR[]) AS q)
    SELECT q.q, list(name ORDER BY score DESC, name)[1:3] AS names
    FROM (
      SELECT q.q, n.name, max(jaro_winkler_similarity(n.name_norm, q.q)) AS score
      FROM q JOIN main.name_index n
        -- a typo rarely hits the first letter, and rarely changes the length by more than 3
        ON n.name_len BETWEEN length(q.q) - 3 AND length(q.q) + 3 AND left(n.name_norm, 1) = left(q.q, 1)
      GROUP BY ALL
      HAVING score >= 0.85
    ) q
    GROUP BY q.q`, [wanted]);
  for (const r of rows) out.set(r.q, r.names);
  return out;
}

/** Names resolved between two turns of the event loop (~10 ms of work). */
const SLICE = 128;

export async function resolveMany(store: Store, names: string[], from: ResolvedVersion | null, to: ResolvedVersion): Promise<Resolution[]> {
  // Resolving is synchronous work on in-memory documents, ~0.1 ms a name: 10,000 names in one go would
  // hold every other request for a second. In slices, lookups keep being answered between them.
  const results: Resolution[] = [];
  for (let i = 0; i < names.length; i += SLICE) {
    if (i > 0) await setImmediate();
    for (const n of names.slice(i, i + SLICE)) results.push(resolveOne(store, n, from, to));
  }
  const unknown = results.filter((r) => r.status === 'unknown');
  if (unknown.length > 0) {
    const suggestions = await suggest(store, unknown.map((r) => r.name));
    for (const r of unknown) r.suggestions = suggestions.get(normaliseName(r.name)) ?? [];
  }
  return results;
}

export interface Placement {
  lineage: LineageDoc;
  /** The species record in the release asked, or in the release it went on as (merged, split). */
  species: SpeciesDoc | null;
  /** present: the lineage is in that release; ended: it ended before it (resolution says where it went);
   *  not_yet: the release predates it; gap: it is missing from that release only. */
  status: 'present' | 'ended' | 'not_yet' | 'gap';
  resolution: Resolution | null;
}

/** Where a lineage stands in a release: its own species there, or what it became. */
export function placeIn(store: Store, lineageId: number, name: string, target: ResolvedVersion): Placement {
  const lineage = lineageDoc(store, lineageId);
  const here = lineage.timeline.find((t) => t.version === target.version);
  if (here) return { lineage, species: speciesDoc(store, target.msl, here.name), status: 'present', resolution: null };
  if (target.msl < mslOf(lineage.first_appearance)) return { lineage, species: null, status: 'not_yet', resolution: null };
  if (target.msl < mslOf(lineage.last_appearance)) return { lineage, species: null, status: 'gap', resolution: null };
  const resolution = resolveOne(store, name, null, target);
  const successor = resolution.results[0];
  return { lineage, species: successor ? speciesDoc(store, target.msl, successor) : null, status: 'ended', resolution };
}


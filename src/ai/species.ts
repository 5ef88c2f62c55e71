// A species found by any of its names, read from the documents the store holds in memory: its lineage
// (history_doc) and its record in a release (species_doc). Shared by the species answers of POST /ai/query and
// the name path of POST /ai/classify.
import type { Store } from '../store.js';
import { resolveOne, type Resolution } from '../routes/v1-resolve.js';
import type { ResolvedVersion } from '../versions.js';

export const CLASSIFICATION_RANKS = ['realm', 'subrealm', 'kingdom', 'subkingdom', 'phylum', 'subphylum', 'class',
  'subclass', 'order', 'suborder', 'family', 'subfamily', 'genus', 'subgenus'] as const;

export interface SpeciesDoc {
  scientific_name: string;
  msl_version: string;
  msl_year: number;
  classification: Record<string, string | null>;
  genome: { type: string | null; type_from_version: string | null; size: string | null; size_bp: number | null; size_from_version: string | null; size_coverage: string | null };
  hosts: string[];
  hosts_from_version: string | null;
  lineage_id: number;
  isolates_exemplar?: { virus_names: string | null; abbreviations: string | null } | null;
}

export interface TimelineEntry {
  version: string;
  year: number;
  name: string;
  family: string | null;
  genus: string | null;
  lineage: string;
  change: string;
  proposal: string | null;
}

export interface LineageDoc {
  lineage_id: number;
  first_appearance: string;
  last_appearance: string;
  current_name: string | null;
  names: string[];
  began: string | null;
  ended: 'current' | 'abolished' | 'merged' | 'split';
  split_from: string[];
  merged_from: string[];
  merged_into: string[];
  split_into: string[];
  abolished_in: string | null;
  timeline: TimelineEntry[];
}

export const mslOf = (version: string): number => Number(version.slice(3));

export function lineageDoc(store: Store, id: number): LineageDoc {
  const doc = store.docJson<LineageDoc>('history_doc', id);
  if (!doc) throw new Error(`history_doc has no lineage ${id}`);
  return doc;
}

export function speciesDoc(store: Store, msl: number, name: string): SpeciesDoc | null {
  return store.docJson<SpeciesDoc>('species_doc', msl, name.toLowerCase()) ?? null;
}

/** "realm Riboviria > ... > genus Orthoflavivirus", the ranks the species has. */
export function lineageText(c: Record<string, string | null>): string {
  return CLASSIFICATION_RANKS.filter((r) => c[r]).map((r) => `${r} ${c[r]}`).join(' > ');
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

/** One sentence on how a lineage ended: "abolished in MSL36", "merged into X in MSL25". */
export function endingText(l: LineageDoc): string {
  const next = `MSL${mslOf(l.last_appearance) + 1}`;
  switch (l.ended) {
    case 'current': return `still listed in ${l.last_appearance}`;
    case 'abolished': return `abolished in ${l.abolished_in ?? next}`;
    case 'merged': return `merged into ${l.merged_into.join(', ')} in ${next}`;
    case 'split': return `split into ${l.split_into.join(', ')} in ${next}`;
  }
}

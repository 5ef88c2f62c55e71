// Lineages: a species (history_doc) or a higher taxon (taxon_history_doc) through every release it is in, with
// the change that brought it into each and how it ended; and a species' record in one release (species_doc),
// as the documents held in memory give them. The one shape of these documents the routes and /ai read.
import { RANKS, type Rank } from '../shared/ranks.js';
import type { Store } from '../store/store.js';

// The one list of ranks, realm first, is the build's (build/ingest/types.ts): the data holds no other.
export { RANKS, type Rank };

/** The ranks above species, realm first (a species' classification). */
export const CLASSIFICATION_RANKS = RANKS.filter((r): r is Exclude<Rank, 'species'> => r !== 'species');
export type ClassificationRank = typeof CLASSIFICATION_RANKS[number];

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
  /** Species of this release split off the lineage in this step while it carried on. */
  split_off: string[] | null;
  merged_in: string[] | null;
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

/** The release number of a version name: MSL40 -> 40. */
export const mslOf = (version: string): number => Number(version.slice(3));

export function lineageDoc(store: Store, id: number): LineageDoc {
  const doc = store.docJson<LineageDoc>('history_doc', id);
  if (!doc) throw new Error(`history_doc has no lineage ${id}`);
  return doc;
}

export interface TaxonTimelineEntry {
  version: string;
  year: number;
  rank: string;
  name: string;
  lineage: string;
  change: string;
  species: number;
}

/** A higher taxon through the releases (taxon_history_doc; see projections/taxon_history_doc.sql). */
export interface TaxonLineageDoc {
  taxon_id: number;
  rank: string;
  name: string;
  names: string[];
  first_appearance: string;
  last_appearance: string;
  current_name: string | null;
  ended: 'current' | 'renamed' | 'merged' | 'split' | 'abolished';
  ended_in: string | null;
  into: string[];
  species_at_end: number | null;
  species_abolished: number | null;
  destinations: Array<{ taxon_id: number; rank: string; name: string; species: number }>;
  children: Array<{ taxon_id: number; rank: string; name: string }>;
  timeline: TaxonTimelineEntry[];
}

export function taxonDoc(store: Store, id: number): TaxonLineageDoc {
  const doc = store.docJson<TaxonLineageDoc>('taxon_history_doc', id);
  if (!doc) throw new Error(`taxon_history_doc has no lineage ${id}`);
  return doc;
}

export function speciesDoc(store: Store, msl: number, name: string): SpeciesDoc | null {
  return store.docJson<SpeciesDoc>('species_doc', msl, name.toLowerCase()) ?? null;
}

/** "realm Riboviria > ... > genus Orthoflavivirus", the ranks the species has. */
export function lineageText(c: Record<string, string | null>): string {
  return CLASSIFICATION_RANKS.filter((r) => c[r]).map((r) => `${r} ${c[r]}`).join(' > ');
}

/**
 * A host source as a group of hosts: without the VMR's "(S)" mark ("invertebrates (S)": recorded from a sample,
 * not from the exemplar's own host), a host of that group all the same.
 */
export const hostGroup = (hostSource: string): string => hostSource.replace(/\s*\(S\)\s*$/, '').trim();

/** One sentence on how a lineage ended: "abolished in MSL36", "merged into X in MSL25". */
export function endingText(l: Pick<LineageDoc, 'last_appearance' | 'ended' | 'abolished_in' | 'merged_into' | 'split_into'>): string {
  const next = `MSL${mslOf(l.last_appearance) + 1}`;
  switch (l.ended) {
    case 'current': return `still listed in ${l.last_appearance}`;
    case 'abolished': return `abolished in ${l.abolished_in ?? next}`;
    case 'merged': return `merged into ${l.merged_into.join(', ')} in ${next}`;
    case 'split': return `split into ${l.split_into.join(', ')} in ${next}`;
  }
}

// Names as users give them, and what a name leads to: the one normal form names are matched on (the
// same as name_index.name_norm in SQL; test/read-names.test.ts holds the two together), and the lineages a
// name has ever denoted (name_lookup, held in memory).
import type { Store } from '../store.js';

/** The normal form names are matched on: case, accents, punctuation and spaces ignored (as name_index). */
export function normaliseName(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^a-z0-9]+/g, '');
}

/**
 * A name taken from a URL path: '+' stands for a space there as in a query string, and runs of whitespace
 * count as one. A few names of the 1970s-1990s lists do hold a '+' ("Phage 3T+"): a lookup by exact name
 * tries the name as written first (asWritten).
 */
export function nameParam(raw: string): string {
  return asWritten(raw.replaceAll('+', ' '));
}

/** A name from a URL path with its '+' kept, runs of whitespace as one. */
export function asWritten(raw: string): string {
  return raw.replace(/\s+/g, ' ').trim();
}

/** One lineage a name leads to (name_lookup; see projections/name_lookup.sql). */
export interface NameHit {
  lineage_id: number;
  name: string;
  kind: 'species' | 'virus_name' | 'abbreviation';
  first_msl: number;
  last_msl: number;
  /** Releases in which it was the lineage's official species name (null: only ever an isolate name). */
  species_first_msl: number | null;
  species_last_msl: number | null;
  current_name: string | null;
}

/** The lineages a name (any spelling of case, accents, punctuation) leads to, best first. */
export function lookupName(store: Store, name: string): NameHit[] {
  return store.docJson<NameHit[]>('name_lookup', normaliseName(name)) ?? [];
}

// Names as users give them, and what a name leads to: the one normal form names are matched on (the same as
// the SQL macro name_norm, build/name-norm.ts; test/read-layer.test.ts holds the two together), the lineages a
// name has ever denoted (name_lookup, held in memory), and how closely a spelling matches: an exact spelling
// wins over one that differs in case or accents, which wins over one that differs in punctuation or spaces.
import type { Store } from '../store/store.js';

/** The normal form names are matched on: case, accents, punctuation and spaces ignored (as name_norm). */
export function normaliseName(name: string): string {
  // ASCII has no accents to take apart (NFD leaves it as it is, and none of it is a mark): a batch's names
  // mostly are, and the Unicode steps were most of the cost
  const base = NOT_ASCII.test(name) ? name.normalize('NFD').replace(/\p{M}/gu, '') : name;
  return base.toLowerCase().replace(/[^a-z0-9]+/g, '');
}

const NOT_ASCII = /[\u0080-\uffff]/;

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
  /** A species lineage (history_doc), or for kind 'taxon' a higher taxon's lineage (taxon_history_doc). */
  lineage_id: number;
  name: string;
  kind: 'species' | 'virus_name' | 'abbreviation' | 'taxon';
  /** species, or the higher taxon's rank. */
  rank: string;
  /** Every spelling of the name seen for the lineage. */
  variants: string[];
  first_msl: number;
  last_msl: number;
  /** Releases in which it was the lineage's official name (null: only ever an isolate name). */
  species_first_msl: number | null;
  species_last_msl: number | null;
  current_name: string | null;
}

/** How a spelling matched a known name, closest first. */
export type Spelling = 'exact' | 'case_diacritics' | 'normalised';

const folded = (s: string) => asWritten(s).normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** How the input (as written, and folded once it is needed) matched a hit. */
function spellingOf(input: { written: string; folded?: string; raw: string }, hit: NameHit): Spelling {
  if (hit.variants.some((v) => asWritten(v) === input.written)) return 'exact';
  input.folded ??= folded(input.raw);
  const f = input.folded;
  return hit.variants.some((v) => folded(v) === f) ? 'case_diacritics' : 'normalised';
}

/** The lineages a name (any spelling of case, accents, punctuation) leads to, best first. */
export function lookupName(store: Store, name: string): NameHit[] {
  return store.docJson<NameHit[]>('name_lookup', normaliseName(name)) ?? [];
}

/**
 * The lineages a name leads to by its closest spelling only: "Shigella virus SHBML-50-1" as written is one
 * species, though "Shigella virus SHBML501" (another species) normalises to the same letters.
 */
export function findName(store: Store, name: string): { hits: NameHit[]; spelling: Spelling } | null {
  const hits = lookupName(store, name);
  if (hits.length === 0) return null;
  const order: Spelling[] = ['exact', 'case_diacritics', 'normalised'];
  const input = { raw: name, written: asWritten(name) };
  const tiers = hits.map((h) => spellingOf(input, h));
  const best = order.find((s) => tiers.includes(s))!;
  return { hits: hits.filter((_, i) => tiers[i] === best), spelling: best };
}

// Taxa above species by name: where a name stands in the latest release, or what became of it
// (taxonomy_taxon, held in memory), and the 404 for a name that is not a taxon of the rank asked.
import { HttpError } from './errors.js';
import type { Store } from '../store/store.js';
import type { ClassificationRank } from './lineages.js';
import type { ResolvedVersion } from './releases.js';
import { absence, resolveName, shownResolution } from './resolve.js';
import { unknownNameError } from './suggest.js';

/** taxonomy_taxon: a name above species, current or former (see projections/taxonomy_taxon.sql). */
export interface TaxonDoc {
  name: string;
  rank: ClassificationRank;
  current: boolean;
  first_version: string;
  last_version: string;
  classification: Record<ClassificationRank, string | null>;
  species_count: number;
  fate: null | { change: 'renamed' | 'abolished'; version: string; renamed_to: string | null; renamed_to_current: boolean; summary: string; detail: string };
}

export function lookupTaxon(store: Store, name: string): TaxonDoc | undefined {
  return store.docJson<TaxonDoc>('taxonomy_taxon', name.trim().toLowerCase());
}

/**
 * The 404 for a name that is not a taxon of `rank` in release v, as the resolver sees it: unknown (the one text
 * and suggestions of every endpoint), a taxon of another rank, not yet or no longer in v, or several taxa.
 */
export async function notFoundAt(store: Store, name: string, rank: string, v: ResolvedVersion): Promise<HttpError> {
  const r = await resolveName(store, name, v, v);
  if (r.status === 'unknown') return unknownNameError(store, name, r.suggestions);
  const taxon = r.rank !== 'species' && r.matched_name ? lookupTaxon(store, r.matched_name) : undefined;
  return new HttpError(404, absence(r, v, rank), 'NotFound', { resolution: shownResolution(r), ...(taxon ? { taxon } : {}) });
}

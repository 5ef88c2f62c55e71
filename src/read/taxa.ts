// Taxa above species by name: where a name stands in the latest release, or what became of it
// (taxonomy_taxon, held in memory).
import { HttpError } from '../errors.js';
import type { Store } from '../store.js';
import type { ClassificationRank } from './lineages.js';
import { releaseSpan, type ResolvedVersion } from './releases.js';

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
 * The 404 for a family name that is not a family of release v: what the name is (another rank, a former family
 * and what became of it) or, for a name never used, up to 3 family names it may be a typo of.
 */
export async function familyNotFound(store: Store, name: string, v: ResolvedVersion): Promise<HttpError> {
  const taxon = lookupTaxon(store, name);
  if (taxon && taxon.rank !== 'family') {
    const where = taxon.classification.family && taxon.classification.family !== taxon.name ? ` of family '${taxon.classification.family}'` : '';
    const when = taxon.current ? '' : ` (${taxon.fate?.summary ?? `last listed in ${taxon.last_version}`})`;
    return new HttpError(404, `'${taxon.name}' is not a family but a ${taxon.rank}${where}${when}`, 'NotFound', { taxon });
  }
  if (taxon) {
    // a family of some release, but not of this one
    const span = `it is listed in ${taxon.first_version}..${taxon.last_version}`;
    const fate = taxon.fate ? `: ${taxon.fate.summary}` : ` (${span})`;
    return new HttpError(404, `family '${taxon.name}' is not in ${v.version}${fate}`, 'NotFound', { taxon });
  }
  const suggestions = await store.query<{ name: string }>(`
    SELECT name FROM main.taxonomy_taxon
    WHERE rank = 'family' AND current AND jaro_winkler_similarity(name_key, $1) >= 0.85
    ORDER BY jaro_winkler_similarity(name_key, $1) DESC, name
    LIMIT 3`, [name.trim().toLowerCase()]);
  const hint = suggestions.length > 0 ? `; did you mean ${suggestions.map((s) => `'${s.name}'`).join(', ')}?` : '';
  return new HttpError(404, `family '${name}' not found in any release (${releaseSpan(store)})${hint}`, 'NotFound',
    { suggestions: suggestions.map((s) => s.name) });
}

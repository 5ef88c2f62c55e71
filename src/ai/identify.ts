// The name path of POST /ai/classify: a name any release used for a species, or a VMR virus name or abbreviation,
// leads to the species' classification in the latest release, following renames, moves, merges and splits
// (resolveOne). Also the typo suggestions for names that lead nowhere.
import type { Store } from '../store.js';
import { endingText, lineageDoc, lineageText, mslOf, speciesDoc, type SpeciesDoc } from '../read/lineages.js';
import { lookupName, normaliseName } from '../read/names.js';
import type { ResolvedVersion } from '../read/releases.js';
import { resolveOne } from '../read/resolve.js';

const HOW: Record<string, string> = {
  species: 'a species name (of this or an earlier release)',
  virus_name: 'a virus name of the ICTV Virus Metadata Resource',
  abbreviation: 'a virus abbreviation of the ICTV Virus Metadata Resource',
};

export interface Identified {
  match: { matched_name: string; kind: string; how: string; exact_spelling: boolean; lineage_ids: number[] };
  status: string;
  species: string | null;
  version: string;
  classification: Record<string, string | null> | null;
  lineage_text: string | null;
  genome: SpeciesDoc['genome'];
  hosts: string[];
  other_species: string[];
  explanation: string;
}

const NO_GENOME: SpeciesDoc['genome'] = { type: null, type_from_version: null, size: null, size_bp: null, size_from_version: null, size_coverage: null };

/** The species a known name leads to in the latest release, or null when the name is unknown. */
export function identify(store: Store, name: string, latest: ResolvedVersion): Identified | null {
  const hits = lookupName(store, name);
  if (hits.length === 0) return null;
  const res = resolveOne(store, name, null, latest);
  const best = hits.some((h) => h.kind === 'species') ? hits.filter((h) => h.kind === 'species') : hits;
  const first = best[0]!;
  const match = {
    matched_name: first.name, kind: first.kind, how: HOW[first.kind] ?? first.kind,
    exact_spelling: first.name === name.trim(), lineage_ids: [...new Set(best.map((h) => h.lineage_id))],
  };
  const now = res.results[0];
  const doc = now ? speciesDoc(store, latest.msl, now) : null;
  if (doc) {
    const moved = res.status === 'unchanged' ? '' : ` (${res.status} since the name was used)`;
    return {
      match, status: res.status, species: doc.scientific_name, version: latest.version, classification: doc.classification,
      lineage_text: lineageText(doc.classification), genome: doc.genome, hosts: doc.hosts, other_species: res.results.slice(1),
      explanation: `'${name}' is ${match.how} of the species ${doc.scientific_name} in ${latest.version}${moved}.`,
    };
  }
  // the lineage ended without a successor in the latest release: its last record is all there is
  const l = lineageDoc(store, first.lineage_id);
  const lastName = l.timeline[l.timeline.length - 1]!.name;
  const last = speciesDoc(store, mslOf(l.last_appearance), lastName);
  return {
    match, status: res.status, species: null, version: l.last_appearance, classification: last?.classification ?? null,
    lineage_text: last ? lineageText(last.classification) : null, genome: last?.genome ?? NO_GENOME, hosts: last?.hosts ?? [],
    other_species: [],
    explanation: `'${name}' is ${match.how}, but its species (last listed as ${lastName} in ${l.last_appearance}) was ${endingText(l)} and has no successor in ${latest.version}; the classification shown is from ${l.last_appearance}.`,
  };
}

/** Up to 3 known species, virus or taxon names within a small edit of an unknown one. */
export async function suggestNames(store: Store, name: string): Promise<string[]> {
  const q = normaliseName(name);
  if (q.length < 3) return [];
  const rows = await store.query<{ name: string }>(`
    SELECT name FROM (
      SELECT name, max(jaro_winkler_similarity(name_norm, $1)) AS score FROM main.name_index
      -- a typo rarely hits the first letter, and rarely changes the length by more than 3
      WHERE name_len BETWEEN length($1) - 3 AND length($1) + 3 AND left(name_norm, 1) = left($1, 1)
      GROUP BY name
      UNION ALL
      SELECT any_value(name), max(jaro_winkler_similarity(name_norm, $1)) FROM main.taxon_counts
      WHERE left(name_norm, 1) = left($1, 1) GROUP BY name_norm
    ) WHERE score >= 0.88 ORDER BY score DESC, name LIMIT 3`, [q]);
  return [...new Set(rows.map((r) => r.name))];
}

// The name path of POST /ai/classify: a species name of any release, a VMR virus name or abbreviation, an
// accession or an id, as the resolver (read/resolve.ts) follows it to the latest release, becomes that
// species' classification there; a lineage that ended without a successor shows its last record.
import type { Store } from '../store/store.js';
import { endingText, lineageDoc, lineageText, mslOf, speciesDoc, type SpeciesDoc } from '../read/lineages.js';
import { IDENTIFIER_KINDS } from '../read/identifiers.js';
import type { ResolvedVersion } from '../read/releases.js';
import type { Resolution } from '../read/resolve.js';

const HOW: Record<string, string> = {
  species: 'a species name (of this or an earlier release)',
  virus_name: 'a virus name of the ICTV Virus Metadata Resource',
  abbreviation: 'a virus abbreviation of the ICTV Virus Metadata Resource',
  ...IDENTIFIER_KINDS,
};

export interface Identified {
  match: { matched_name: string; kind: string; how: string; exact_spelling: boolean; match_type: string | null; confidence: number; lineage_ids: number[] };
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

/** The species a resolved input leads to in the latest release; null unless it resolved to a species. */
export function identified(store: Store, res: Resolution, latest: ResolvedVersion): Identified | null {
  if (res.status === 'unknown' || res.rank !== 'species' || res.matched_kind === null) return null;
  const lineageIds = res.lineages.map((l) => l.id);
  const match = {
    matched_name: res.matched_name!, kind: res.matched_kind, how: HOW[res.matched_kind] ?? res.matched_kind,
    exact_spelling: res.matched_name === res.name.trim(), match_type: res.match_type, confidence: res.confidence, lineage_ids: lineageIds,
  };
  const now = res.results[0];
  const doc = now ? speciesDoc(store, latest.msl, now) : null;
  if (doc) {
    const moved = res.status === 'unchanged' ? '' : ` (${res.status} since the name was used)`;
    return {
      match, status: res.status, species: doc.scientific_name, version: latest.version, classification: doc.classification,
      lineage_text: lineageText(doc.classification), genome: doc.genome, hosts: doc.hosts, other_species: res.results.slice(1),
      explanation: `'${res.name}' is ${match.how} of the species ${doc.scientific_name} in ${latest.version}${moved}.`,
    };
  }
  // the lineage ended without a successor in the latest release: its last record is all there is
  const l = lineageDoc(store, lineageIds[0]!);
  const lastName = l.timeline[l.timeline.length - 1]!.name;
  const last = speciesDoc(store, mslOf(l.last_appearance), lastName);
  return {
    match, status: res.status, species: null, version: l.last_appearance, classification: last?.classification ?? null,
    lineage_text: last ? lineageText(last.classification) : null, genome: last?.genome ?? NO_GENOME, hosts: last?.hosts ?? [],
    other_species: [],
    explanation: `'${res.name}' is ${match.how}, but its species (last listed as ${lastName} in ${l.last_appearance}) was ${endingText(l)} and has no successor in ${latest.version}; the classification shown is from ${l.last_appearance}.`,
  };
}

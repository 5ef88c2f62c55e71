// A release's totals per rank and its species per host source and genome composition (diversity_stats, one
// document per release): how many taxa of a rank a release holds, by ICTV's own count where it gives one.
import type { Store } from '../store/store.js';
import { hostGroup, type Rank } from './lineages.js';
import type { ReleaseRow } from './releases.js';

interface DiversityDoc {
  taxa: Record<string, number>;
  species_per_host_source: Array<{ host_source: string | null; species: number }> | null;
  species_per_genome_composition: Array<{ genome_composition: string | null; species: number }> | null;
}

/** A release's species per host source (each host source read into its hosts) and per genome composition. */
export interface Diversity {
  hosts: Array<{ hosts: string[]; species: number }> | null;
  genomes: Array<{ composition: string; species: number }> | null;
}

// read once per store and release: a families-by-host or -genome question reads it whole
const diversities = new WeakMap<Store, Map<number, Diversity | null>>();

export function diversity(store: Store, msl: number): Diversity | null {
  let m = diversities.get(store);
  if (!m) diversities.set(store, (m = new Map()));
  let d = m.get(msl);
  if (d === undefined) {
    const doc = store.docJson<DiversityDoc>('diversity_stats', msl);
    // "archaea, bacteria (S)": each host group named
    d = doc ? {
      hosts: doc.species_per_host_source?.flatMap((x) => (x.host_source ? [{ hosts: x.host_source.split(',').map(hostGroup), species: x.species }] : [])) ?? null,
      genomes: doc.species_per_genome_composition?.flatMap((x) => (x.genome_composition ? [{ composition: x.genome_composition, species: x.species }] : [])) ?? null,
    } : null;
    m.set(msl, d);
  }
  return d;
}

/** How many taxa of a rank a release holds (its own totals, else the diversity statistics). */
export function releaseTotal(store: Store, r: ReleaseRow, rank: Rank): number | null {
  switch (rank) {
    case 'species': return r.total_species;
    case 'genus': return r.total_genera;
    case 'family': return r.total_families;
    case 'order': return r.total_orders;
    case 'realm': return r.total_realms;
    default: return listedTotal(store, r, rank);
  }
}

// a release's taxa per rank, read out of its document once: a count of a release asks for one of them, and the
// document is large (species per host source and genome composition)
const listed = new WeakMap<Store, Map<number, Record<string, number> | null>>();

/** How many taxa of a rank a release's own list names. */
export function listedTotal(store: Store, r: ReleaseRow, rank: Rank): number | null {
  let m = listed.get(store);
  if (!m) listed.set(store, (m = new Map()));
  let taxa = m.get(r.msl);
  if (taxa === undefined) m.set(r.msl, (taxa = store.docJson<DiversityDoc>('diversity_stats', r.msl)?.taxa ?? null));
  return taxa?.[rank] ?? null;
}

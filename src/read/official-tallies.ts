// ICTV's own species tallies of a release step (the "Taxon Counts" sheet of the later release's spreadsheet, from
// MSL38 on) beside the data set's count of the same thing, and the species behind every difference
// (official_tally). Read by GET /api/v1/compare/{from}/{to} (its `official` block, for the step a sheet counts)
// and by /ai/query, which quotes ICTV's figure when asked how many species were new, renamed or abolished.
import type { Store } from '../store/store.js';
import { diffSummary, type CompareCounts } from './compare.js';
import type { ResolvedVersion } from './releases.js';

export interface TallyDifference {
  species: string;
  ours: string | null;
  ictv: string | null;
  note: string;
}

export interface OfficialTally {
  /** ICTV's word for the tally: New, New Splits, Abolished, Merged, Renamed, Moved, Promoted, ... */
  change: string;
  ictv: number;
  ours: number;
  /** What the data set counts for it. */
  ours_counts: string;
  differences: TallyDifference[];
  /** Why a difference cannot be named species by species, where it cannot. */
  note: string | null;
}

export interface OfficialBlock {
  from_version: string;
  to_version: string;
  source: string;
  tallies: OfficialTally[];
}

export const OFFICIAL_LIST = `SELECT from_msl::INTEGER AS from_msl, to_msl::INTEGER AS to_msl, change, ictv, ours, source, ours_counts,
  to_json(differences)::VARCHAR AS differences, note FROM main.official_tally ORDER BY to_msl, change`;

interface Row { from_msl: number; to_msl: number; change: string; ictv: number; ours: number; source: string; ours_counts: string; differences: string; note: string | null }

// made once per store from its rows (held for the build's life); a comparison's summary asks for its step's
const blocks = new WeakMap<Store, Map<string, OfficialBlock>>();

function byStep(store: Store): Map<string, OfficialBlock> {
  let m = blocks.get(store);
  if (!m) {
    m = new Map();
    for (const r of store.list<Row>('official_tally')) {
      const key = `${r.from_msl}|${r.to_msl}`;
      let b = m.get(key);
      if (!b) m.set(key, (b = { from_version: `MSL${r.from_msl}`, to_version: `MSL${r.to_msl}`, source: r.source, tallies: [] }));
      b.tallies.push({ change: r.change, ictv: Number(r.ictv), ours: Number(r.ours), ours_counts: r.ours_counts, differences: JSON.parse(r.differences) as TallyDifference[], note: r.note });
    }
    blocks.set(store, m);
  }
  return m;
}

/** ICTV's tallies of the step from `from` to `to`, when the two are a release and the next and a sheet counts it. */
export function officialTallies(store: Store, fromMsl: number, toMsl: number): OfficialBlock | null {
  return byStep(store).get(`${fromMsl}|${toMsl}`) ?? null;
}

/** One of ICTV's tallies of the step into a release (its own word: New, Renamed, Abolished, ...), if a sheet counts it. */
export function officialTally(store: Store, fromMsl: number, toMsl: number, change: string): OfficialTally | null {
  return officialTallies(store, fromMsl, toMsl)?.tallies.find((t) => t.change === change) ?? null;
}

export type CompareSummary = CompareCounts & { official?: OfficialBlock };

/**
 * GET /api/v1/compare's summary: the counts of each kind of change, and for a step ICTV counted (read forwards)
 * its own tallies beside them, every difference explained.
 */
export function compareSummary(store: Store, from: ResolvedVersion, to: ResolvedVersion): CompareSummary {
  const counts = diffSummary(store, from, to);
  const official = officialTallies(store, from.msl, to.msl);
  return official ? { ...counts, official } : counts;
}

// POST /search/species ranks the latest release's species by their best-matching name. A short text matches
// tens of thousands of names ("virus" nearly every one), so the walk from the names that match (found by
// search-index.ts) to their species reads typed arrays only, makes no object per name, and orders the species
// without a comparison sort.
import type { NameMatcher } from './name-matcher.js';
import { recentAnswers } from './recent.js';

/** A species of the latest release as the results show it, and the lower-cased keys its filters compare. */
export interface LatestSpecies {
  name: string;
  family: string | null;
  genus: string | null;
  realm: string | null;
  familyKey: string;
  genusKey: string;
}

/**
 * The species matching a text, best first: latest-release species (indexes into the ranker's list), the
 * name_index row of the name each matched by, and the rank key of that match (rankKey).
 */
export interface Ranking {
  species: Int32Array;
  rows: Int32Array;
  keys: Int32Array;
}

/** Calls visit for each normal form matching a text: how it matched (tier 1-4) and its similarity in thousandths. */
export type MatchingForms = (visit: (form: number, tier: number, milli: number) => void) => void;

/**
 * A match's rank, lower first: its tier, then its similarity (to 3 decimals, as the results show it). A
 * species' ranks then run from TIER_SPAN to 5 * TIER_SPAN - 1.
 */
const TIER_SPAN = 1001;
const rankKey = (tier: number, milli: number) => tier * TIER_SPAN + 1000 - milli;
export const tierOf = (key: number) => Math.floor(key / TIER_SPAN);
export const similarityOf = (key: number) => (1000 - (key % TIER_SPAN)) / 1000;

/** Rankings of recent searches are kept up to about this many bytes in all (a page, or the text typed again). */
const CACHED_RANKING_BYTES = 1 << 22;

export class SpeciesRanker {
  /** The species (index into list) that each row of name_index names, -1 for none (a higher taxon, an abolished lineage). */
  private readonly speciesOfRow: Int32Array;
  // Work arrays of a ranking: each species' best match so far (its row, -1 for none yet, and its rank key).
  private readonly bestRow: Int32Array;
  private readonly bestKey: Int32Array;
  private readonly counts = new Int32Array(5 * TIER_SPAN + 1);
  private readonly recent = recentAnswers<Ranking>(CACHED_RANKING_BYTES, (r) => 3 * r.species.byteLength);

  /** list: the latest release's species, in the order that breaks ties (species order). */
  constructor(private readonly matcher: NameMatcher, readonly list: readonly LatestSpecies[]) {
    const byName = new Map(list.map((s, i) => [s.name, i]));
    this.speciesOfRow = new Int32Array(matcher.rowCount).fill(-1);
    for (let row = 0; row < matcher.rowCount; row++) {
      const current = matcher.currentNameOf(row);
      if (matcher.kindOf(row) !== 'taxon' && current !== null) this.speciesOfRow[row] = byName.get(current) ?? -1;
    }
    this.bestRow = new Int32Array(list.length).fill(-1);
    this.bestKey = new Int32Array(list.length);
  }

  /**
   * The species any of whose names is among the forms matching a text (each once, by its best match: tier,
   * similarity, then name), best first, then in list order; family and genus: lower-cased filters. key names
   * the text and everything else asked: a ranking already made for it is given again.
   */
  rank(key: string, family: string | null, genus: string | null, matching: MatchingForms): Ranking {
    const known = this.recent.get(key);
    if (known) return known;
    const { matcher, speciesOfRow, bestRow, bestKey, list } = this;
    const touched: number[] = [];
    matching((form, tier, milli) => {
      const k = rankKey(tier, milli);
      for (let i = matcher.firstRow(form), end = matcher.endRow(form); i < end; i++) {
        const row = matcher.rowAt(i);
        const s = speciesOfRow[row]!;
        if (s < 0) continue;
        const seen = bestRow[s]!;
        if (seen < 0) {
          const sp = list[s]!;
          if ((family !== null && sp.familyKey !== family) || (genus !== null && sp.genusKey !== genus)) continue;
          touched.push(s);
        } else if (!(k < bestKey[s]! || (k === bestKey[s]! && matcher.nameOf(row) < matcher.nameOf(seen)))) continue;
        bestRow[s] = row;
        bestKey[s] = k;
      }
    });
    // a counting sort by rank key of the species in list order: list order within a key
    const order = Int32Array.from(touched).sort();
    const { counts } = this;
    counts.fill(0);
    for (const s of order) counts[bestKey[s]! + 1]! += 1;
    for (let k = 1; k < counts.length; k++) counts[k]! += counts[k - 1]!;
    const ranking: Ranking = { species: new Int32Array(order.length), rows: new Int32Array(order.length), keys: new Int32Array(order.length) };
    for (const s of order) {
      const at = counts[bestKey[s]!]!++;
      ranking.species[at] = s;
      ranking.rows[at] = bestRow[s]!;
      ranking.keys[at] = bestKey[s]!;
      bestRow[s] = -1;
    }
    this.recent.set(key, ranking);
    return ranking;
  }
}

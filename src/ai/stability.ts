// The stability analysis of one family (GET /ai/stability/:family_name and the stability questions of
// POST /ai/query), read from family_stability: its score, the score's formula, its churn per release, its events
// and where it stands against the median family. Families that no longer exist have a row too.
import type { Store } from '../store/store.js';
import { latest } from '../read/releases.js';
import { notFoundAt } from '../read/taxa.js';
import { count, dec, num } from './format.js';

export const STABILITY_FORMULA =
  'stability = max(0, 1 - (0.5 * renamed + moved + merged + split + abolished) / species_steps), where species_steps '
  + 'counts, over every release step n-1 -> n with the family in n-1, the species it held in n-1, and each other term '
  + 'counts those species renamed, moved to another family (or to none), merged into another species, split, or '
  + 'abolished in that step; a rename weighs half because the species keeps its place. 1 = none of its species ever '
  + 'changed; null when the family never had a species in a release before the latest.';

export interface ChurnStep {
  msl_version: string;
  species: number;
  renamed: number;
  moved: number;
  merged: number;
  split: number;
  abolished: number;
  churn: number;
}

export interface FamilyEvent {
  msl_version: string;
  kind: string;
  description: string;
  species: number;
  related: string[];
}

export interface StabilityRow {
  family: string;
  first_version: string;
  last_version: string;
  releases: number;
  current: boolean;
  renamed_from: string | null;
  renamed_to: string | null;
  species_first: number;
  species_last: number;
  species_max: number;
  species_steps: number;
  renamed: number;
  moved: number;
  merged: number;
  split: number;
  abolished: number;
  renamed_rate: number | null;
  moved_rate: number | null;
  merged_rate: number | null;
  split_rate: number | null;
  abolished_rate: number | null;
  stability: number | null;
  stability_rank: number | null;
  ranked_families: number;
  median_stability: number;
  churn: ChurnStep[];
  events: FamilyEvent[];
}

const COLUMNS = `family, first_version, last_version, releases::INTEGER AS releases, current, renamed_from, renamed_to,
  species_first::INTEGER AS species_first, species_last::INTEGER AS species_last, species_max::INTEGER AS species_max,
  species_steps::INTEGER AS species_steps, renamed::INTEGER AS renamed, moved::INTEGER AS moved,
  merged::INTEGER AS merged, split::INTEGER AS split, abolished::INTEGER AS abolished,
  renamed_rate, moved_rate, merged_rate, split_rate, abolished_rate, stability,
  stability_rank::INTEGER AS stability_rank, ranked_families::INTEGER AS ranked_families, median_stability,
  to_json(list_transform(churn, c -> struct_insert(c, churn := CASE WHEN c.species > 0 THEN
    round((0.5 * c.renamed + c.moved + c.merged + c.split + c.abolished) / c.species, 4) END)))::VARCHAR AS churn,
  to_json(events)::VARCHAR AS events`;

interface RawRow extends Omit<StabilityRow, 'churn' | 'events'> {
  churn: string;
  events: string;
}

const decode = (r: RawRow): StabilityRow => ({ ...r, churn: JSON.parse(r.churn) as ChurnStep[], events: JSON.parse(r.events) as FamilyEvent[] });

/** The family_stability row of a family name in any letter case, or null. */
export async function stabilityRow(store: Store, family: string): Promise<StabilityRow | null> {
  const rows = await store.query<RawRow>(`SELECT ${COLUMNS} FROM main.family_stability WHERE lower(family) = lower($1)`, [family]);
  return rows[0] ? decode(rows[0]) : null;
}

/** The most and least stable ranked families (ties: more species-steps first, as stability_rank orders them). */
export async function stabilityExtremes(store: Store, n: number): Promise<{ most: StabilityRow[]; least: StabilityRow[] }> {
  const rows = (await store.query<RawRow & { end: string }>(`
    (SELECT ${COLUMNS}, 'most' AS "end" FROM main.family_stability WHERE stability IS NOT NULL ORDER BY stability_rank, family LIMIT $1)
    UNION ALL
    (SELECT ${COLUMNS}, 'least' FROM main.family_stability WHERE stability IS NOT NULL ORDER BY stability, species_steps DESC, family LIMIT $1)`, [n]));
  return { most: rows.filter((r) => r.end === 'most').map(decode), least: rows.filter((r) => r.end === 'least').map(decode) };
}

export function statusOf(r: StabilityRow): 'current' | 'renamed' | 'abolished' {
  return r.current ? 'current' : r.renamed_to ? 'renamed' : 'abolished';
}

/** One or two sentences: the score, its rank and the median, and what drove it. */
export function stabilitySentence(r: StabilityRow): string {
  const life = r.current ? `listed ${r.first_version}-${r.last_version}` : `listed ${r.first_version}-${r.last_version}, ${r.renamed_to ? `then renamed ${r.renamed_to}` : 'then abolished'}`;
  if (r.stability === null) {
    return `${r.family} (${life}) has no stability score: it never held species in a release followed by another one, so no change could be measured.`;
  }
  const against = r.stability > r.median_stability ? 'more stable than' : r.stability < r.median_stability ? 'less stable than' : 'as stable as';
  return `${r.family} (${life}) has a stability score of ${dec(r.stability)} (rank ${num(r.stability_rank!)} of ${num(r.ranked_families)} families), `
    + `${against} the median family (${dec(r.median_stability)}). Over ${count(r.species_steps, 'species-release step', 'species-release steps')} `
    + `its species saw ${num(r.renamed)} renames, ${num(r.moved)} moves to another family, ${num(r.merged)} merges, ${num(r.split)} splits and ${num(r.abolished)} abolitions.`;
}

/** The body of GET /ai/stability/:family_name. */
export async function stabilityReport(store: Store, family: string): Promise<Record<string, unknown>> {
  const r = await stabilityRow(store, family);
  if (!r) throw await notFoundAt(store, family, 'family', latest(store));
  return {
    family: r.family,
    status: statusOf(r),
    first_version: r.first_version,
    last_version: r.last_version,
    releases: r.releases,
    renamed_from: r.renamed_from,
    renamed_to: r.renamed_to,
    species: { first: r.species_first, last: r.species_last, max: r.species_max },
    stability: r.stability === null ? null : Number(r.stability.toFixed(4)),
    formula: STABILITY_FORMULA,
    stability_rank: r.stability_rank,
    ranked_families: r.ranked_families,
    median_stability: Number(r.median_stability.toFixed(4)),
    compared_to_median: r.stability === null ? null
      : r.stability > r.median_stability ? 'above' : r.stability < r.median_stability ? 'below' : 'equal',
    species_steps: r.species_steps,
    changes: { renamed: r.renamed, moved: r.moved, merged: r.merged, split: r.split, abolished: r.abolished },
    rates: {
      renamed: r.renamed_rate, moved: r.moved_rate, merged: r.merged_rate, split: r.split_rate, abolished: r.abolished_rate,
    },
    churn: r.churn,
    events: r.events,
    summary: stabilitySentence(r),
  };
}

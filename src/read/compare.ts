// Comparisons of two releases, in either order: the counts of each kind of change (release_diff, held as
// rows) and the changes themselves, page by page (compare_rows, compare_species, compare_exit_proposal, held
// as documents). A pair is stored once, read forwards; read backwards it exchanges what was added with what
// was removed and merges with splits.
import { arrowStream } from './arrow.js';
import { HttpError } from './errors.js';
import type { Store } from '../store/store.js';
import type { ResolvedVersion } from './releases.js';

export interface DiffSummary {
  from_msl: number;
  to_msl: number;
  species_added: number;
  species_removed: number;
  species_renamed: number;
  species_reclassified: number;
  species_renamed_and_reclassified: number;
  species_merged: number;
  species_split: number;
  species_ended_by_split: number;
  species_formed_by_merge: number;
  species_unchanged: number;
  from_total: number;
  to_total: number;
}

export const DIFF_LIST = `SELECT from_msl::INTEGER AS from_msl, to_msl::INTEGER AS to_msl, species_added, species_removed,
  species_renamed, species_reclassified, species_renamed_and_reclassified, species_merged, species_split,
  species_ended_by_split, species_formed_by_merge, species_unchanged, from_total, to_total FROM main.release_diff`;

export const CHANGE_TYPES = ['added', 'removed', 'renamed', 'reclassified', 'merged', 'split', 'ended_by_split', 'formed_by_merge'] as const;
export type ChangeType = typeof CHANGE_TYPES[number];

/** Reading a pair backwards exchanges what was added with what was removed, and merges with splits. */
const REVERSED: Record<ChangeType, ChangeType> = {
  added: 'removed', removed: 'added', merged: 'split', split: 'merged',
  ended_by_split: 'formed_by_merge', formed_by_merge: 'ended_by_split', renamed: 'renamed', reclassified: 'reclassified',
};

/** Two different releases of the data set. A release compared with itself is no comparison the data set holds (404). */
export function assertPair(from: ResolvedVersion, to: ResolvedVersion): void {
  if (from.msl === to.msl) throw new HttpError(404, `from_version and to_version are both ${from.version}: a release is not compared with itself; pick two different releases`);
}

/** release_diff's row of a pair read forwards (a before b), held in memory. */
function forwardDiff(store: Store, a: ResolvedVersion, b: ResolvedVersion): DiffSummary {
  const row = store.list<DiffSummary>('release_diff').find((d) => d.from_msl === a.msl && d.to_msl === b.msl);
  if (!row) throw new HttpError(404, `no comparison of ${a.version} and ${b.version} in this data set`);
  return row;
}

export type CompareCounts = Omit<DiffSummary, 'from_msl' | 'to_msl'> & { from_version: string; to_version: string };

/** The summary of a pair in either order, from the forward pair's row (held in memory). */
export function diffSummary(store: Store, from: ResolvedVersion, to: ResolvedVersion): CompareCounts {
  const forward = from.msl < to.msl;
  const row = forward ? forwardDiff(store, from, to) : forwardDiff(store, to, from);
  const pick = (fwd: keyof DiffSummary, rev: keyof DiffSummary) => row[forward ? fwd : rev];
  return {
    from_version: from.version, to_version: to.version,
    species_added: pick('species_added', 'species_removed'),
    species_removed: pick('species_removed', 'species_added'),
    species_renamed: row.species_renamed,
    species_reclassified: row.species_reclassified,
    species_renamed_and_reclassified: row.species_renamed_and_reclassified,
    species_merged: pick('species_merged', 'species_split'),
    species_split: pick('species_split', 'species_merged'),
    species_ended_by_split: pick('species_ended_by_split', 'species_formed_by_merge'),
    species_formed_by_merge: pick('species_formed_by_merge', 'species_ended_by_split'),
    species_unchanged: row.species_unchanged,
    from_total: pick('from_total', 'to_total'),
    to_total: pick('to_total', 'from_total'),
  };
}

const COUNT_OF: Record<ChangeType, keyof DiffSummary> = {
  added: 'species_added', removed: 'species_removed', renamed: 'species_renamed', reclassified: 'species_reclassified',
  merged: 'species_merged', split: 'species_split', ended_by_split: 'species_ended_by_split', formed_by_merge: 'species_formed_by_merge',
};

/** A species as a compare detail shows it (compare_species), held in memory. */
interface SpeciesState {
  name: string;
  family: string | null;
  genus: string | null;
  lineage: string;
  lineage_id: number;
  proposal: string | null;
}

/** The change types in the order a pair's rows are listed (compare_rows: as DuckDB sorts them). */
const TYPE_ORDER: readonly ChangeType[] = ['added', 'ended_by_split', 'formed_by_merge', 'merged', 'reclassified', 'removed', 'renamed', 'split'];
/** Rows of species of a that left: the lineage and the proposal are the a-side species' (release_diff_change). */
const LEFT: ReadonlySet<ChangeType> = new Set(['ended_by_split', 'merged', 'removed']);
const NONE = 0xffff;

/**
 * Rows [from, to) of a pair as (a-side, b-side) species references: compare_rows holds them as base64 of
 * 4 bytes a row; only the 3-byte groups covering the rows asked are decoded.
 */
function pairRows(store: Store, a: number, b: number, from: number, to: number): Uint16Array {
  const text = store.doc('compare_rows', a, b);
  if (!text || to <= from) return new Uint16Array(0);
  const [first, last] = [Math.floor((4 * from) / 3), Math.ceil((4 * to) / 3)];
  const bytes = Buffer.from(text.toString('latin1', 4 * first, Math.min(text.length, 4 * last)), 'base64');
  const skip = 4 * from - 3 * first;
  const rows = new Uint16Array(2 * (to - from));
  for (let i = 0; i < rows.length; i++) rows[i] = bytes.readUInt16LE(skip + 2 * i);
  return rows;
}

export interface SpeciesChange {
  change_type: ChangeType;
  old_name: string | null;
  new_name: string | null;
  old_family: string | null;
  new_family: string | null;
  old_genus: string | null;
  new_genus: string | null;
  old_lineage: string | null;
  new_lineage: string | null;
  lineage_id: number;
  proposal: string | null;
}

/** One page of the species changes between two releases, of one type or all, and how many there are. */
export function changesPage(store: Store, from: ResolvedVersion, to: ResolvedVersion,
  page: { change_type: ChangeType | null; limit: number; offset: number }): { total: number; changes: SpeciesChange[] } {
  const forward = from.msl < to.msl;
  const [a, b] = forward ? [from, to] : [to, from];
  // A backwards pair reads the forward rows with the two sides exchanged, and lists them in the same order.
  const stored = page.change_type && !forward ? REVERSED[page.change_type] : page.change_type;
  const counts = forwardDiff(store, a, b);
  const blocks: Array<{ type: ChangeType; start: number; end: number }> = [];
  for (const type of TYPE_ORDER) {
    const start = blocks[blocks.length - 1]?.end ?? 0;
    blocks.push({ type, start, end: start + counts[COUNT_OF[type]] });
  }
  const block = stored ? blocks.find((x) => x.type === stored)! : { start: 0, end: blocks[blocks.length - 1]!.end };
  const total = block.end - block.start;
  const first = block.start + Math.min(page.offset, total);
  const rows = pairRows(store, a.msl, b.msl, first, block.start + Math.min(page.offset + page.limit, total));
  const state = (msl: number, idx: number) => (idx === NONE ? undefined : store.docJson<SpeciesState>('compare_species', msl, idx));
  const changes: SpeciesChange[] = [];
  for (let i = 0; i < rows.length / 2; i++) {
    const pos = first + i;
    const type = blocks.find((x) => pos < x.end)!.type;
    const [older, newer] = [state(a.msl, rows[2 * i]!), state(b.msl, rows[2 * i + 1]!)];
    const left = LEFT.has(type);
    const [o, n] = forward ? [older, newer] : [newer, older];
    changes.push({
      change_type: forward ? type : REVERSED[type],
      old_name: o?.name ?? null, new_name: n?.name ?? null, old_family: o?.family ?? null, new_family: n?.family ?? null,
      old_genus: o?.genus ?? null, new_genus: n?.genus ?? null, old_lineage: o?.lineage ?? null, new_lineage: n?.lineage ?? null,
      lineage_id: (left || type === 'renamed' || type === 'reclassified' ? older : newer)!.lineage_id,
      proposal: left ? store.docJson<string>('compare_exit_proposal', a.msl, b.msl, pos + 1) ?? null : newer?.proposal ?? null,
    });
  }
  return { total, changes };
}

/** A page of changes as GET /compare/:from/:to/details answers it (and the command line's `compare --details`). */
export interface ChangesAnswer {
  from_version: string;
  to_version: string;
  change_type: ChangeType | null;
  total: number;
  limit: number;
  offset: number;
  changes: SpeciesChange[];
}

export function changesAnswer(store: Store, from: ResolvedVersion, to: ResolvedVersion,
  page: { change_type: ChangeType | null; limit: number; offset: number }): ChangesAnswer {
  const { total, changes } = changesPage(store, from, to, page);
  return { from_version: from.version, to_version: to.version, change_type: page.change_type, total, limit: page.limit, offset: page.offset, changes };
}

/** The columns of a change as an Arrow stream gives them, in the order of the JSON answer's rows. */
const CHANGE_COLUMNS: ReadonlyArray<[keyof SpeciesChange, string]> = [
  ['change_type', 'VARCHAR'], ['old_name', 'VARCHAR'], ['new_name', 'VARCHAR'], ['old_family', 'VARCHAR'], ['new_family', 'VARCHAR'],
  ['old_genus', 'VARCHAR'], ['new_genus', 'VARCHAR'], ['old_lineage', 'VARCHAR'], ['new_lineage', 'VARCHAR'], ['lineage_id', 'INTEGER'],
  ['proposal', 'VARCHAR'],
];

/**
 * A page of changes as an Arrow stream: the rows of `changes` as columns, and the rest of the JSON answer
 * (the next page's URL included) as the stream's schema metadata.
 */
export function changesArrow(answer: ChangesAnswer, next: string | null): Uint8Array {
  const { changes, ...head } = answer;
  const metadata = Object.fromEntries(Object.entries({ ...head, next }).map(([k, v]) => [k, v === null ? '' : String(v)]));
  return arrowStream(CHANGE_COLUMNS.map(([name, type]) => ({ name, type, values: changes.map((c) => c[name]) })), metadata);
}

// /api/v1/compare and /api/v1/history: comparisons of any two releases (release_diff, release_diff_change)
// and species histories found by any name (name_lookup -> history_doc).
import type { Request, Response } from 'express';
import { z } from 'zod';
import { HttpError } from '../errors.js';
import { sendJson, type Scope } from '../respond.js';
import type { Store } from '../store.js';
import { nameParam, normaliseName, resolveVersion, type ResolvedVersion } from '../versions.js';

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

/** Reading a pair backwards exchanges what was added with what was removed, and merges with splits. */
const REVERSED: Record<string, string> = {
  added: 'removed', removed: 'added', merged: 'split', split: 'merged',
  ended_by_split: 'formed_by_merge', formed_by_merge: 'ended_by_split', renamed: 'renamed', reclassified: 'reclassified',
};

function pair(req: Request): { from: ResolvedVersion; to: ResolvedVersion; scope: Scope } {
  const from = resolveVersion(req.store, req.params.from_version as string);
  const to = resolveVersion(req.store, req.params.to_version as string);
  if (from.msl === to.msl) throw new HttpError(400, `from_version and to_version are both ${from.version}; compare two different releases`);
  return { from, to, scope: from.scope === 'latest' || to.scope === 'latest' ? 'latest' : 'release' };
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

// GET /compare/:from/:to <- release_diff (in memory)
export function compare(req: Request, res: Response): void {
  const { from, to, scope } = pair(req);
  sendJson(req, res, diffSummary(req.store, from, to), scope);
}

const DetailsQuery = z.object({
  change_type: z.enum(['added', 'removed', 'renamed', 'reclassified', 'merged', 'split', 'ended_by_split', 'formed_by_merge']).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

type ChangeType = NonNullable<z.infer<typeof DetailsQuery>['change_type']>;

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

// GET /compare/:from/:to/details <- compare_rows + compare_species (+ compare_exit_proposal), in memory:
// the rows of the page asked, by position, and the species they refer to
export function compareDetails(req: Request, res: Response): void {
  const { from, to, scope } = pair(req);
  const q = DetailsQuery.parse(req.query);
  const forward = from.msl < to.msl;
  const [a, b] = forward ? [from, to] : [to, from];
  // A backwards pair reads the forward rows with the two sides exchanged, and lists them in the same order.
  const stored = q.change_type && !forward ? REVERSED[q.change_type] as ChangeType : q.change_type ?? null;
  const counts = forwardDiff(req.store, a, b);
  const blocks: Array<{ type: ChangeType; start: number; end: number }> = [];
  for (const type of TYPE_ORDER) {
    const start = blocks[blocks.length - 1]?.end ?? 0;
    blocks.push({ type, start, end: start + counts[COUNT_OF[type]] });
  }
  const block = stored ? blocks.find((x) => x.type === stored)! : { start: 0, end: blocks[blocks.length - 1]!.end };
  const total = block.end - block.start;
  const first = block.start + Math.min(q.offset, total);
  const rows = pairRows(req.store, a.msl, b.msl, first, block.start + Math.min(q.offset + q.limit, total));
  const state = (msl: number, idx: number) => (idx === NONE ? undefined : req.store.docJson<SpeciesState>('compare_species', msl, idx));
  const changes = [];
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
      proposal: left ? req.store.docJson<string>('compare_exit_proposal', a.msl, b.msl, pos + 1) ?? null : newer?.proposal ?? null,
    });
  }
  sendJson(req, res, {
    from_version: from.version, to_version: to.version, change_type: q.change_type ?? null,
    total, limit: q.limit, offset: q.offset, changes,
  }, scope);
}

export interface NameHit {
  lineage_id: number;
  name: string;
  kind: 'species' | 'virus_name' | 'abbreviation';
  first_msl: number;
  last_msl: number;
  /** Releases in which it was the lineage's official species name (null: only ever an isolate name). */
  species_first_msl: number | null;
  species_last_msl: number | null;
  current_name: string | null;
}

/** The lineages a name (any spelling of case, accents, punctuation) leads to, best first. */
export function lookupName(store: Store, name: string): NameHit[] {
  return store.docJson<NameHit[]>('name_lookup', normaliseName(name)) ?? [];
}

interface LineageDoc {
  lineage_id: number;
  first_appearance: string;
  last_appearance: string;
  current_name: string | null;
  names: string[];
}

// GET /history/:name <- name_lookup + history_doc (in memory)
export function history(req: Request, res: Response): void {
  const name = nameParam(req.params.species_name as string);
  const hits = lookupName(req.store, name);
  if (hits.length === 0) throw new HttpError(404, `no species ever had the name '${name}'`);
  // A name that was a species name only follows those lineages; a virus name or abbreviation may lead to several.
  const chosen = hits.some((h) => h.kind === 'species') ? hits.filter((h) => h.kind === 'species') : hits;
  const lineages = [...new Set(chosen.map((h) => h.lineage_id))]
    .map((id) => req.store.docJson<LineageDoc>('history_doc', id)!);
  const versions = lineages.flatMap((l) => [l.first_appearance, l.last_appearance]).sort((x, y) => Number(x.slice(3)) - Number(y.slice(3)));
  sendJson(req, res, {
    query: name,
    matched_name: chosen[0]!.name,
    first_appearance: versions[0],
    last_appearance: versions[versions.length - 1],
    current_name: lineages.find((l) => l.current_name)?.current_name ?? null,
    names: [...new Set(lineages.flatMap((l) => l.names))],
    lineages,
  }, 'latest');
}

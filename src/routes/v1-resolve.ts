// /api/v1/resolve: migrate names (a whole data set's species column) from one release to another. Each
// name is looked up in name_lookup (any spelling, any release, virus names and abbreviations too) and its
// lineage followed in history_doc to the target release, through renames, moves, merges and splits.
// Everything but the typo suggestions is read from memory; suggestions are one query for all unknown names.
import type { Request, Response } from 'express';
import { parse as parseCsv } from 'csv-parse/sync';
import { stringify as stringifyCsv } from 'csv-stringify/sync';
import { setImmediate } from 'node:timers/promises';
import { z } from 'zod';
import { HttpError } from '../errors.js';
import type { Store } from '../store.js';
import { normaliseName, resolveVersion, type ResolvedVersion } from '../versions.js';
import { lookupName, type NameHit } from './v1-history.js';

const MAX_NAMES = 10_000;

interface TimelineEntry {
  version: string;
  name: string;
  lineage: string;
  change: string;
  proposal: string | null;
}

interface LineageDoc {
  lineage_id: number;
  ended: 'current' | 'abolished' | 'merged' | 'split';
  merged_into: string[];
  split_into: string[];
  abolished_in: string | null;
  last_appearance: string;
  timeline: TimelineEntry[];
}

export interface Resolution {
  name: string;
  status: 'unchanged' | 'renamed' | 'moved' | 'renamed+moved' | 'merged' | 'split' | 'abolished' | 'ambiguous' | 'unknown';
  matched_name: string | null;
  matched_kind: NameHit['kind'] | null;
  from_version: string | null;
  to_version: string;
  results: string[];
  chain: Array<{ version: string; change: string; from_name: string | null; to_name: string | null; proposal: string | null }>;
  suggestions: string[];
}

const msl = (version: string) => Number(version.slice(3));
const above = (lineage: string) => lineage.split(';').slice(0, -1).join(';');

function lineageDoc(store: Store, id: number): LineageDoc {
  return store.docJson<LineageDoc>('history_doc', id)!;
}

/** Follows a lineage to the target release: its species there, or where it went when it ended. */
function follow(store: Store, id: number, from: number, to: number, depth = 0): { names: string[]; ended: LineageDoc['ended'] | 'present'; chain: Resolution['chain'] } {
  const doc = lineageDoc(store, id);
  const chain: Resolution['chain'] = [];
  let previous: TimelineEntry | undefined;
  for (const t of doc.timeline) {
    if (msl(t.version) > to) break;
    if (msl(t.version) > from && previous && t.change !== 'unchanged') {
      chain.push({ version: t.version, change: t.change, from_name: previous.name, to_name: t.name, proposal: t.proposal });
    }
    previous = t;
  }
  const there = doc.timeline.find((t) => msl(t.version) === to);
  if (there) return { names: [there.name], ended: 'present', chain };
  if (msl(doc.last_appearance) > to) return { names: [], ended: 'present', chain }; // a gap: not listed in that release
  const next = `MSL${msl(doc.last_appearance) + 1}`;
  if (doc.ended === 'abolished' || depth > 20) {
    chain.push({ version: doc.abolished_in ?? next, change: 'abolished', from_name: previous?.name ?? null, to_name: null, proposal: null });
    return { names: [], ended: 'abolished', chain };
  }
  const targets = doc.ended === 'merged' ? doc.merged_into : doc.split_into;
  const names: string[] = [];
  for (const target of targets) {
    chain.push({ version: next, change: doc.ended, from_name: previous?.name ?? null, to_name: target, proposal: null });
    const hit = lookupName(store, target).find((h) => h.kind === 'species' && h.first_msl <= msl(next) && h.last_msl >= msl(next));
    if (!hit) continue;
    const onward = follow(store, hit.lineage_id, msl(next), to, depth + 1);
    names.push(...onward.names);
    chain.push(...onward.chain);
  }
  return { names: [...new Set(names)], ended: doc.ended, chain };
}

export function resolveOne(store: Store, name: string, from: ResolvedVersion | null, to: ResolvedVersion): Resolution {
  const base = { name, from_version: from?.version ?? null, to_version: to.version, suggestions: [] as string[] };
  let hits = lookupName(store, name);
  if (hits.length === 0) return { ...base, status: 'unknown', matched_name: null, matched_kind: null, results: [], chain: [] };
  // Prefer what the name meant in the source release, and a species name over a virus name.
  // A species name is "in use" in the releases where it was the official name, not where a VMR isolate
  // still carried it as a virus name (Tobacco mosaic virus in MSL39 is the virus of Tobamovirus tabaci).
  const inUse = (h: NameHit, v: number) => (h.kind === 'species' && h.species_first_msl !== null
    ? h.species_first_msl <= v && (h.species_last_msl ?? 0) >= v
    : h.first_msl <= v && h.last_msl >= v);
  const validAtFrom = from ? hits.filter((h) => inUse(h, from.msl)) : [];
  if (validAtFrom.length > 0) hits = validAtFrom;
  if (hits.some((h) => h.kind === 'species')) hits = hits.filter((h) => h.kind === 'species');
  const lineages = [...new Set(hits.map((h) => h.lineage_id))];
  const best = hits[0]!;
  const matched = { matched_name: best.name, matched_kind: best.kind };

  if (lineages.length > 1) {
    const results = [...new Set(lineages.flatMap((id) => follow(store, id, from?.msl ?? (best.species_last_msl ?? best.last_msl), to.msl).names))];
    return { ...base, ...matched, status: 'ambiguous', results, chain: [] };
  }
  // The release the name is taken from: the one asked for when the name was in use there, else the last
  // release in which it was the species' name (an old name given without from_version means that era).
  const start = validAtFrom.length > 0 ? from!.msl : Math.min(best.species_last_msl ?? best.last_msl, to.msl);
  const walked = follow(store, best.lineage_id, start, to.msl);
  if (walked.ended !== 'present') {
    const status = walked.ended === 'current' ? 'abolished' : walked.ended;
    return { ...base, ...matched, status, results: walked.names, chain: walked.chain };
  }
  if (walked.names.length === 0) return { ...base, ...matched, status: 'abolished', results: [], chain: walked.chain };
  const doc = lineageDoc(store, best.lineage_id);
  const origin = doc.timeline.filter((t) => msl(t.version) <= start).pop() ?? doc.timeline[0]!;
  const target = doc.timeline.find((t) => msl(t.version) === to.msl)!;
  const renamed = origin.name !== target.name;
  const moved = above(origin.lineage) !== above(target.lineage);
  const status = renamed && moved ? 'renamed+moved' : renamed ? 'renamed' : moved ? 'moved' : 'unchanged';
  return { ...base, ...matched, status, results: [target.name], chain: walked.chain };
}

/** Up to 3 known names close to each unknown name (Jaro-Winkler over names of similar length). */
async function suggest(store: Store, names: string[]): Promise<Map<string, string[]>> {
  const wanted = [...new Set(names.map(normaliseName).filter((n) => n.length > 0))];
  const out = new Map<string, string[]>();
  if (wanted.length === 0) return out;
  const rows = await store.query<{ q: string; names: string[] }>(`
    WITH q AS (SELECT unnest($1::VARCHAR[]) AS q)
    SELECT q.q, list(name ORDER BY score DESC, name)[1:3] AS names
    FROM (
      SELECT q.q, n.name, max(jaro_winkler_similarity(n.name_norm, q.q)) AS score
      FROM q JOIN main.name_index n
        -- a typo rarely hits the first letter, and rarely changes the length by more than 3
        ON n.name_len BETWEEN length(q.q) - 3 AND length(q.q) + 3 AND left(n.name_norm, 1) = left(q.q, 1)
      GROUP BY ALL
      HAVING score >= 0.85
    ) q
    GROUP BY q.q`, [wanted]);
  for (const r of rows) out.set(r.q, r.names);
  return out;
}

/** Names resolved between two turns of the event loop (~10 ms of work). */
const SLICE = 128;

export async function resolveMany(store: Store, names: string[], from: ResolvedVersion | null, to: ResolvedVersion): Promise<Resolution[]> {
  // Resolving is synchronous work on in-memory documents, ~0.1 ms a name: 10,000 names in one go would
  // hold every other request for a second. In slices, lookups keep being answered between them.
  const results: Resolution[] = [];
  for (let i = 0; i < names.length; i += SLICE) {
    if (i > 0) await setImmediate();
    for (const n of names.slice(i, i + SLICE)) results.push(resolveOne(store, n, from, to));
  }
  const unknown = results.filter((r) => r.status === 'unknown');
  if (unknown.length > 0) {
    const suggestions = await suggest(store, unknown.map((r) => r.name));
    for (const r of unknown) r.suggestions = suggestions.get(normaliseName(r.name)) ?? [];
  }
  return results;
}

const GetQuery = z.object({ name: z.string().min(1).max(500), from_version: z.string().optional(), to_version: z.string().optional() });
const PostBody = z.object({
  names: z.array(z.string().max(500)).min(1).max(MAX_NAMES),
  from_version: z.string().optional(),
  to_version: z.string().optional(),
});

// GET /resolve?name=&from_version=&to_version=
export async function resolveGet(req: Request, res: Response): Promise<void> {
  const q = GetQuery.parse(req.query);
  const from = q.from_version ? resolveVersion(req.store, q.from_version) : null;
  const to = resolveVersion(req.store, q.to_version);
  const [result] = await resolveMany(req.store, [q.name], from, to);
  res.set('Cache-Control', 'public, max-age=300').json(result);
}

// POST /resolve: JSON {names, from_version, to_version}, or CSV with a name column (CSV in, CSV out)
export async function resolvePost(req: Request, res: Response): Promise<void> {
  if (typeof req.body === 'string') return resolveCsv(req, res);
  const body = PostBody.parse(req.body);
  const from = body.from_version ? resolveVersion(req.store, body.from_version) : null;
  const to = resolveVersion(req.store, body.to_version);
  const results = await resolveMany(req.store, body.names, from, to);
  const summary: Record<string, number> = {};
  for (const r of results) summary[r.status] = (summary[r.status] ?? 0) + 1;
  res.set('Cache-Control', 'no-store').json({
    from_version: from?.version ?? null, to_version: to.version, count: results.length, summary, results,
  });
}

async function resolveCsv(req: Request, res: Response): Promise<void> {
  let records: Array<Record<string, string>>;
  try {
    records = parseCsv(req.body as string, { columns: true, skip_empty_lines: true, bom: true, trim: true }) as Array<Record<string, string>>;
  } catch (err) {
    throw new HttpError(400, `CSV body cannot be read: ${(err as Error).message}`);
  }
  if (records.length === 0 || !Object.keys(records[0]!).includes('name')) throw new HttpError(422, "CSV body needs a header row with a 'name' column");
  if (records.length > MAX_NAMES) throw new HttpError(413, `at most ${MAX_NAMES} names per request, got ${records.length}`);
  const from = typeof req.query.from_version === 'string' ? resolveVersion(req.store, req.query.from_version) : null;
  const to = resolveVersion(req.store, typeof req.query.to_version === 'string' ? req.query.to_version : undefined);
  const results = await resolveMany(req.store, records.map((r) => r.name ?? ''), from, to);
  const rows = records.map((r, i) => {
    const x = results[i]!;
    return {
      ...r, status: x.status, matched_name: x.matched_name ?? '', to_version: x.to_version, result: x.results.join('; '),
      changes: x.chain.map((c) => `${c.version} ${c.change}${c.to_name ? ` -> ${c.to_name}` : ''}`).join('; '),
      suggestions: x.suggestions.join('; '),
    };
  });
  res.set('Cache-Control', 'no-store').type('text/csv; charset=utf-8').send(stringifyCsv(rows, { header: true, record_delimiter: 'windows' }));
}

// What every answer of POST /ai/query is made of: the answer's shape, the releases it is asked in, and the
// sentences answers share (a release with its year, the note of a year of two releases, "not understood").
import type { Store } from '../../store/store.js';
import { normaliseName } from '../../read/names.js';
import { releases as releaseRows, type ReleaseRow } from '../../read/releases.js';
import { fateOf, parentsIn } from '../../read/taxonomy-facts.js';
import { EXAMPLE_QUESTIONS } from '../examples.js';
import { release } from '../format.js';
import { and } from '../format.js';
import type { Parsed, TaxonEntry } from '../parse.js';

export interface Source {
  model: string;
  version: string;
}

export interface Answer {
  response: string;
  /** Set when the answer says what was not understood instead of answering (the caller reports not_understood). */
  unanswered?: true;
  data: Record<string, unknown>;
  sources: Source[];
}

/** The releases an answer is given among: all of them, the latest last. */
export interface Ctx {
  store: Store;
  all: ReleaseRow[];
  latest: ReleaseRow;
}

export function contextOf(store: Store): Ctx {
  const all = releaseRows(store);
  return { store, all, latest: all[all.length - 1]! };
}

export type Handler = (ctx: Ctx, p: Parsed) => Answer | Promise<Answer>;

/**
 * "Is T4 still a myovirus?", "Is lambda a siphovirus today?": asked of now in so many words, where a taxon no longer
 * listed holds no Yes by what it once held.
 */
export function askedNow(p: Parsed): boolean {
  return p.form.still || /\b(?:now|today|currently|nowadays|these days|any ?more|any longer)\b/.test(p.normalised);
}

/** A question in the past tense ("Was ...", "Did ... belong", "Has ... been"): asked of no release, whether it ever was. */
export const PAST = /^\s*(?:was|were|did|had|has|have|used)\b/;

/** "MSL1-MSL41": every release, as a source's version. */
export const span = (ctx: Ctx): string => `${ctx.all[0]!.version}-${ctx.latest.version}`;
export const rowOf = (ctx: Ctx, msl: number): ReleaseRow | undefined => ctx.all.find((r) => r.msl === msl);
/**
 * Whether a change in release `msl` is in what a question asks of the release `asked`: "since 2015", "after MSL30",
 * "before 2015", "until MSL20" (the span the parser read), or in that release itself.
 */
export function inSpan(span: string | null, msl: number, asked: number): boolean {
  switch (span) {
    case 'since': return msl >= asked;
    case 'after': return msl > asked;
    case 'before': case 'prior to': return msl < asked;
    case 'until': case 'till': case 'up to': return msl <= asked;
    default: return msl === asked;
  }
}
/** The release before this one, if any. */
export const previousOf = (ctx: Ctx, r: ReleaseRow): ReleaseRow | undefined => ctx.all.filter((x) => x.msl < r.msl).pop();

/** "MSL39" -> "MSL39 (2023)": a release named in an answer says when it was. */
export function labelled(ctx: Ctx, version: string): string {
  const r = ctx.all.find((x) => x.version === version);
  return r ? release(r) : version;
}

/** The release a question is about: the first it names, else the latest. */
export function targetRelease(ctx: Ctx, p: Parsed): ReleaseRow {
  const ref = p.releases[0];
  return (ref && rowOf(ctx, ref.msl)) ?? ctx.latest;
}

/** An answer with the notes of the releases it read ("2018 had 2 releases ..."). */
export function withNote(text: string, p: Parsed): string {
  const notes = p.releases.flatMap((r) => (r.note ? [r.note] : []));
  return notes.length ? `${text} (Note: ${notes.join('; ')}.)` : text;
}

/** One model over every release, or over the releases given. */
export const sources = (ctx: Ctx, model: string, version?: string): Source[] => [{ model, version: version ?? span(ctx) }];

export function fallback(reason: string): Answer {
  const examples = EXAMPLE_QUESTIONS.slice(0, 5).map((e) => e.question);
  return {
    response: `${reason} I can answer questions such as: ${examples.slice(0, 3).map((q) => `"${q}"`).join(', ')}.`,
    data: { examples },
    sources: [],
    unanswered: true,
  };
}

/** A question recognised but missing a part: the sentence saying which, and questions it can answer. */
export function notUnderstood(missing: string, response: string): Answer {
  const a = fallback(response);
  return { ...a, data: { ...a.data, missing } };
}

/** A taxon's entries in taxon_profile by name (one per rank it was used at). */
export const profileEntries = (ctx: Ctx, name: string): TaxonEntry[] => ctx.store.docJson<TaxonEntry[]>('taxon_profile', normaliseName(name)) ?? [];

export interface TaxonFate {
  /** The release that changed it (the one after its last). */
  at: ReleaseRow;
  change: string;
  new_name: string | null;
  /** "from the family Flaviviridae into the family Hepaciviridae (new in MSL41)", or "" when it stayed put. */
  moved: string;
  /** "renamed Orthohepacivirus and moved from the family Flaviviridae into the family Hepaciviridae (new in MSL41 (2025))". */
  text: string;
}

/**
 * What the release after a taxon's last did to it, as the rename history records it (the change lists from MSL38,
 * the renames ICTV's ids trace before): renamed, moved,
 * abolished; where it was renamed, the taxa above it before and after, so a move into a new family is said too
 * ("the genus Hepacivirus was renamed Orthohepacivirus and moved into the new family Hepaciviridae").
 */
export async function taxonFate(ctx: Ctx, t: { rank: string; name: string; entry: TaxonEntry }): Promise<TaxonFate | null> {
  const at = ctx.all.find((r) => r.msl > t.entry.last_msl);
  if (!at) return null;
  const f = (await fateOf(ctx.store, t.name)).find((x) => x.msl === at.msl);
  if (!f) return null;
  const verbs = f.change.split(',').map((w) => w.trim().toLowerCase()).filter(Boolean);
  const renamed = f.new_name && f.new_name !== t.name ? f.new_name : null;
  // the taxon it became, and the taxa above it in that release against those above it in the last release that
  // listed it before (not those of a later release: T4virus became Tequatrovirus in Myoviridae, whose genera went
  // to Straboviridae three releases on)
  const [before, after] = renamed ? await Promise.all([parentsIn(ctx.store, t.entry.last_msl, t.name), parentsIn(ctx.store, at.msl, renamed)]) : [null, null];
  const moves = before && after ? before.flatMap((up) => {
    const there = after.find((x) => x.rank === up.rank);
    if (!there || there.name === up.name) return [];
    const fresh = profileEntries(ctx, there.name).some((e) => e.rank === there.rank && e.first_msl === at.msl);
    return [`from the ${up.rank} ${up.name} into the ${fresh ? 'new ' : ''}${there.rank} ${there.name}`];
  }) : [];
  const moved = moves.slice(0, 2).join(' and ');
  if (moved && !verbs.includes('moved')) verbs.push('moved');
  const said = verbs.map((v) => (v === 'renamed' && renamed ? `renamed ${renamed}` : v === 'moved' && moved ? `moved ${moved}` : v));
  return { at, change: f.change, new_name: f.new_name, moved, text: and(said) };
}

/**
 * The name a taxon no longer listed carries in a release, where it lives on under another name: its renames
 * followed one after another (the genus "Adeno-associated virus group" became Dependovirus in MSL7, Dependovirus
 * became Dependoparvovirus in MSL28), each in the release after the last that listed the name before. A species in
 * the taxon under its later name is in the same taxon, renamed: "Is AAV2 a dependovirus?" is a Yes. Null when the
 * taxon was abolished, merged or split rather than renamed, or is still listed.
 */
export async function renamedAs(ctx: Ctx, t: { rank: string; name: string; entry: TaxonEntry }, msl: number): Promise<{ name: string; steps: RenameStep[] } | null> {
  const w = await renameWalk(ctx, t.name, t.entry.last_msl, msl);
  return w.stop === 'reached' && w.steps.length > 0 ? { name: w.name, steps: w.steps } : null;
}

export interface RenameStep { from: string; to: string; at: ReleaseRow }

/**
 * A taxon's renames one after another, from `name` (last listed in `last`) on to the release `until`: each in the
 * release after the last that listed the name before. Where it stopped: `until` reached, a release that did not
 * rename it (it ended otherwise, or the change lists say nothing), or a new name no release lists.
 */
export async function renameWalk(ctx: Ctx, name: string, last: number, until: number): Promise<{ name: string; last: number; steps: RenameStep[]; stop: 'reached' | 'not_renamed' | 'unlisted' }> {
  const steps: RenameStep[] = [];
  while (last < until && steps.length < 8) {
    const at = ctx.all.find((r) => r.msl > last);
    const f = at ? (await fateOf(ctx.store, name)).find((x) => x.msl === at.msl && x.new_name && /renam/i.test(x.change)) : undefined;
    if (!at || !f) return { name, last, steps, stop: 'not_renamed' };
    steps.push({ from: name, to: f.new_name!, at });
    name = f.new_name!;
    const next = profileEntries(ctx, name).find((e) => e.first_msl <= at.msl && e.last_msl >= at.msl);
    if (!next) return { name, last, steps, stop: 'unlisted' };
    last = next.last_msl;
  }
  return { name, last, steps, stop: last >= until ? 'reached' : 'not_renamed' };
}

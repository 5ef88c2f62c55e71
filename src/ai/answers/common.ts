// What every answer of POST /ai/query is made of: the answer's shape, the releases it is asked in, and the
// sentences answers share (a release with its year, the note of a year of two releases, "not understood").
import type { Store } from '../../store/store.js';
import { releases as releaseRows, type ReleaseRow } from '../../read/releases.js';
import { EXAMPLE_QUESTIONS } from '../examples.js';
import { release } from '../format.js';
import type { Parsed } from '../parse.js';

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

/** "MSL1-MSL41": every release, as a source's version. */
export const span = (ctx: Ctx): string => `${ctx.all[0]!.version}-${ctx.latest.version}`;
export const rowOf = (ctx: Ctx, msl: number): ReleaseRow | undefined => ctx.all.find((r) => r.msl === msl);
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

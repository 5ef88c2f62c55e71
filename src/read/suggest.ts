// "Did you mean": the one place that turns a name matching nothing into the known names it is most likely a
// misspelling of, over every name of name_index (species, virus names, abbreviations, higher taxa, of every
// release). Every endpoint that cannot find a name suggests with this, so the same unknown name gets the
// same suggestions everywhere. The scoring and the threshold were chosen by measurement (bench/suggestions.ts,
// docs/measurements/suggestions.md): misspellings generated from real names, the share whose first suggestion is
// the name meant, against how often a suggestion is offered for a name that is not a misspelling at all.
import { HttpError } from './errors.js';
import { Image, writeImage } from '../store/index-image.js';
import { eachInSlices } from './slices.js';
import type { Store } from '../store/store.js';
import { NameMatcher } from './name-matcher.js';
import { normaliseName, type NameHit } from './names.js';
import { LRUCache } from 'lru-cache';
import { releaseSpan } from './releases.js';

export interface Suggestion {
  name: string;
  kind: NameHit['kind'];
  rank: string;
  lineage_id: number;
  current_name: string | null;
  /** Similarity of the normal forms, 0..1 (1 - Damerau-Levenshtein distance / the longer length). */
  score: number;
}

/** The least similarity offered as a suggestion. */
export const MIN_SCORE = 0.75;

/** The similarity of two normal forms in SQL, 0..1: 1 - Damerau-Levenshtein distance / the longer length. */
export const similaritySql = (a: string, b: string) => `(1 - damerau_levenshtein(${a}, ${b}) / greatest(length(${a}), length(${b})))`;
const MAX_SUGGESTIONS = 3;

/**
 * Every row of name_index for the matcher, as one text (fields apart by US, rows by RS): one string made
 * from DuckDB's result, where 60,000 row objects would be made and dropped.
 */
const NAME_ROWS_SQL = `
  SELECT string_agg(concat_ws(chr(31), name, name_norm, kind, rank, lineage_id, coalesce(current_name, ''),
                              last_msl, (current_name IS NULL)::INTEGER), chr(30)) AS text
  FROM main.name_index`;

/** The matcher of each open store, loaded with it (documents.ts) so that no request waits for it. */
const matchers = new WeakMap<Store, NameMatcher>();

/**
 * The suggestions last computed, per matcher (one build's names): the same misspelt or unknown names come back
 * (a table sent again after a fix, a typeahead retyped), and a name with nothing close costs the most to match.
 * An entry is a normal form and up to three suggestions; the last RECENT names used are kept.
 */
const RECENT = 8192;

const recent = new WeakMap<NameMatcher, LRUCache<string, Suggestion[]>>();

function remembered(matcher: NameMatcher, key: string, compute: () => Suggestion[]): Suggestion[] {
  let cache = recent.get(matcher);
  if (!cache) recent.set(matcher, (cache = new LRUCache({ max: RECENT })));
  const known = cache.get(key);
  if (known) return known;
  const fresh = compute();
  cache.set(key, fresh);
  return fresh;
}

/**
 * previous: the store being replaced; of the same build (the same names), its matcher is taken over.
 * Otherwise it is read from the store's snapshot, or else built from name_index.
 */
export async function loadSuggestions(store: Store, previous?: Store): Promise<void> {
  const saved = store.savedImage('names');
  const matcher = (previous?.buildId === store.buildId ? matchers.get(previous) : undefined)
    ?? (saved ? NameMatcher.read(new Image(saved)) : NameMatcher.of((await store.query<{ text: string }>(NAME_ROWS_SQL))[0]!.text));
  matchers.set(store, matcher);
  store.keepImage('names', () => writeImage(matcher.fields()));
}

/** The name matcher of an open store (search-index.ts ranks its names too). */
export function nameMatcher(store: Store): NameMatcher {
  const matcher = matchers.get(store);
  if (!matcher) throw new Error('the name matcher of this store was not loaded');
  return matcher;
}

/**
 * Up to 3 known names close to each input, best first, keyed by the input's normal form. Candidates are names
 * within 2 characters of its length that share its first or its last letter (a misspelling rarely changes
 * both, and comparing every name would cost 20 times more). A batch is matched in slices: lookups are
 * answered between them.
 */
export async function suggest(store: Store, inputs: string[], minScore = MIN_SCORE): Promise<Map<string, Suggestion[]>> {
  const matcher = nameMatcher(store);
  const distinct = new Set<string>();
  await eachInSlices(inputs, (input) => {
    const q = normaliseName(input);
    if (q.length >= 3) distinct.add(q);
  });
  const out = new Map<string, Suggestion[]>();
  await eachInSlices([...distinct], (q) => {
    const hits = remembered(matcher, `${minScore}|${q}`, () => matcher.match(q, minScore, MAX_SUGGESTIONS).map(({ row, score }) => ({
      name: row.name, kind: row.kind, rank: row.rank, lineage_id: row.lineage_id, current_name: row.current_name,
      score: Math.round(score * 1000) / 1000,
    })));
    // a copy of each: callers may change what they are given
    if (hits.length > 0) out.set(q, hits.map((h) => ({ ...h })));
  });
  return out;
}

/** " did you mean 'A', 'B'?" for a message, or nothing. */
export function didYouMean(names: string[]): string {
  return names.length > 0 ? `; did you mean ${names.map((n) => `'${n}'`).join(', ')}?` : '';
}

/** The names suggested for one input. */
export async function suggestNames(store: Store, name: string): Promise<string[]> {
  return (await suggest(store, [name])).get(normaliseName(name))?.map((s) => s.name) ?? [];
}

/**
 * The 404 for a name that matches no taxon, virus or identifier of any release: the same text and the same
 * suggestions on every endpoint.
 */
export async function unknownName(store: Store, name: string): Promise<HttpError> {
  return unknownNameError(store, name, await suggestNames(store, name));
}

/** unknownName, for a caller that has the suggestions already (a resolution of the name). */
export function unknownNameError(store: Store, name: string, suggestions: string[]): HttpError {
  return new HttpError(404, `'${name}' is not the name of any taxon, virus or identifier in ${releaseSpan(store)}${didYouMean(suggestions)}`,
    'NotFound', { suggestions });
}

// "Did you mean": the one place that turns a name matching nothing into the known names it is most likely a
// misspelling of, over every name of name_index (species, virus names, abbreviations, higher taxa, of every
// release). Every endpoint that cannot find a name suggests with this, so the same unknown name gets the
// same suggestions everywhere. The scoring and the threshold were chosen by measurement (bench/suggestions.ts,
// README "Measured figures"): misspellings generated from real names, the share whose first suggestion is
// the name meant, against how often a suggestion is offered for a name that is not a misspelling at all.
import { HttpError } from '../errors.js';
import type { Store } from '../store.js';
import { normaliseName, type NameHit } from './names.js';
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
 * Up to this many inputs are suggested for in one light query (a 404, a short list); more are a batch's,
 * work of the batch lane (store.ts) done in slices, so that no query holds a connection and a core for long.
 */
const LIGHT_INPUTS = 8;
const SLICE_INPUTS = 128;

/**
 * $1 the inputs' normal forms, $2 the least similarity. The candidates are two equality joins (same first
 * letter; same last letter and another first letter) rather than one join on either, which DuckDB could
 * only run as a nested loop over every pair. The Damerau-Levenshtein distance, the costly part, is computed
 * only where the plain Levenshtein distance allows it: a transposition costs at most two plain edits, so a
 * pair whose plain distance is above twice what the similarity allows is out whatever the transpositions
 * (the epsilon keeps rounding from dropping a pair on the boundary). Same suggestions as scoring every pair.
 */
const SUGGEST_SQL = `
    WITH q AS (SELECT q, length(q) AS len, q[1] AS first, q[-1] AS last FROM (SELECT unnest($1::VARCHAR[]) AS q)),
    n AS (
      SELECT name, kind, rank, lineage_id, current_name, last_msl, name_norm, name_len, name_norm[1] AS first, name_norm[-1] AS last
      FROM main.name_index
    ),
    pairs AS (
      SELECT q.q, n.* FROM q JOIN n ON n.first = q.first AND n.name_len BETWEEN q.len - 2 AND q.len + 2
      UNION ALL
      SELECT q.q, n.* FROM q JOIN n ON n.last = q.last AND n.first <> q.first AND n.name_len BETWEEN q.len - 2 AND q.len + 2
    ),
    scored AS (
      SELECT q, name, kind, rank, lineage_id, current_name, last_msl, ${similaritySql('name_norm', 'q')} AS score
      FROM pairs
      WHERE levenshtein(name_norm, q) <= 2 * (1 - $2) * greatest(length(name_norm), length(q)) + 1e-9
    ),
    best AS (  -- a name once, with its strongest role: an official name before a virus name or abbreviation
      SELECT * FROM scored WHERE score >= $2
      QUALIFY row_number() OVER (PARTITION BY q, name ORDER BY kind IN ('species', 'taxon') DESC, last_msl DESC, lineage_id) = 1
    )
    SELECT q, list(struct_pack(name := name, kind := kind, rank := rank, lineage_id := lineage_id::VARCHAR,
                               current_name := current_name, score := round(score, 3))
                   ORDER BY score DESC, kind IN ('species', 'taxon') DESC, last_msl DESC, name)[1:${MAX_SUGGESTIONS}] AS hits
    FROM best GROUP BY q`;

/**
 * Up to 3 known names close to each input, best first, keyed by the input's normal form. Candidates are names
 * within 2 characters of its length that share its first or its last letter (a misspelling rarely changes
 * both, and comparing every name would cost 20 times more).
 */
export async function suggest(store: Store, inputs: string[], minScore = MIN_SCORE): Promise<Map<string, Suggestion[]>> {
  const wanted = [...new Set(inputs.map(normaliseName).filter((n) => n.length >= 3))];
  const out = new Map<string, Suggestion[]>();
  const lane = wanted.length <= LIGHT_INPUTS ? 'light' : 'batch';
  for (let i = 0; i < wanted.length; i += SLICE_INPUTS) {
    const rows = await store.query<{ q: string; hits: Array<Suggestion & { lineage_id: string }> }>(
      SUGGEST_SQL, [wanted.slice(i, i + SLICE_INPUTS), minScore], lane);
    for (const r of rows) out.set(r.q, r.hits.map((h) => ({ ...h, lineage_id: Number(h.lineage_id) })));
  }
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

// Real search queries, the same on every run of the same build (seeded): what bench/search.ts measures the
// search index's agreement with DuckDB on, and what npm run bench sends to the search endpoints.
//   a whole name, a prefix of a name, a word of a name, a prefix of a word, a misspelling (1-2 edits) of a
//   name of 5+ letters, in turn; names drawn from name_index (species names of any release, VMR virus names
//   and abbreviations); every third query in a random release, every fifth with field=all.
import type { SearchField } from '../src/read/search-index.js';
import { misspell, random } from './misspellings.js';

/** The names queries are made from, in a fixed order. */
export const NAMES_SQL = "SELECT name FROM main.name_index WHERE kind <> 'taxon' ORDER BY name_norm, lineage_id, kind";

export interface Query { kind: string; text: string; msl: number; field: SearchField }

const KINDS = ['name', 'prefix', 'word', 'word prefix', 'misspelling'] as const;

export function searchQueries(names: readonly string[], msls: readonly number[], n: number, seed: number): Query[] {
  const rnd = random(seed);
  const latest = Math.max(...msls);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const out: Query[] = [];
  while (out.length < n) {
    const name = pick(names);
    const kind = KINDS[out.length % KINDS.length]!;
    const words = name.split(/\s+/).filter((w) => w.length >= 3);
    const word = words.length > 0 ? pick(words) : name;
    let text: string;
    if (kind === 'name') text = rnd() < 0.5 ? name : name.toLowerCase();
    else if (kind === 'prefix') text = name.slice(0, 3 + Math.floor(rnd() * 8));
    else if (kind === 'word') text = word;
    else if (kind === 'word prefix') text = word.slice(0, Math.min(word.length, 3 + Math.floor(rnd() * 5)));
    else if (name.replace(/[^a-z0-9]/gi, '').length >= 5) text = misspell(name, 1 + Math.floor(rnd() * 2), rnd);
    else continue;
    text = text.trim();
    if (text.length === 0) continue;
    out.push({ kind, text, msl: out.length % 3 === 2 ? pick(msls) : latest, field: out.length % 5 === 4 ? 'all' : 'name' });
  }
  return out;
}

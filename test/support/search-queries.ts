// Real search queries, the same on every run of the same build (seeded): what bench/search.ts measures the
// search index's agreement with DuckDB on (and test/search-index.test.ts checks), and what npm run bench
// sends to the search endpoints; and the DuckDB queries the search endpoints ran before the index.
//   a whole name, a prefix of a name, a word of a name, a prefix of a word, a misspelling (1-2 edits) of a
//   name of 5+ letters, in turn; names drawn from name_index (species names of any release, VMR virus names
//   and abbreviations); every third query in a random release, every fifth with field=all.
import type { SearchField } from '../../src/read/search-index.js';
import { MIN_SCORE, similaritySql } from '../../src/read/suggest.js';
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

// GET /api/v1/search as it was answered before the index: one query of api_search.
export const DUCKDB_SEARCH = (field: SearchField) => `
  SELECT count(*) OVER () AS total, json_extract_string(result, '$.scientific_name') AS species
  FROM main.api_search
  WHERE msl = $1 AND contains(${{ name: 'names_key', family: 'family_key', host: 'host_key', all: 'all_key' }[field]}, $2)
  ORDER BY name_key = $2 DESC, contains(chr(31) || names_key || chr(31), chr(31) || $2 || chr(31)) DESC,
           starts_with(name_key, $2) DESC, contains(chr(31) || names_key, chr(31) || $2) DESC,
           contains(name_key, $2) DESC, species
  LIMIT 10`;

// POST /search/species as it was answered before the index: name_index and search_species in one query.
const SIMILARITY = `round(${similaritySql('n.name_norm', '$1')}, 3)`;
export const DUCKDB_SPECIES = `
  WITH hit AS (
    SELECT n.name, n.current_name,
           CASE WHEN n.name_norm = $1 THEN 1 WHEN starts_with(n.name_norm, $1) THEN 2 WHEN contains(n.name_norm, $1) THEN 3 ELSE 4 END AS tier,
           ${SIMILARITY} AS similarity
    FROM main.name_index n
    WHERE n.kind <> 'taxon'
      AND (n.name_norm = $1 OR contains(n.name_norm, $1)
           OR (length($1) >= 5 AND n.name_len BETWEEN length($1) - 2 AND length($1) + 2 AND ${SIMILARITY} >= ${MIN_SCORE}))
  ),
  best AS (
    SELECT s.species, h.tier, h.similarity
    FROM hit h JOIN main.search_species s ON s.msl = $2 AND s.species = h.current_name
    QUALIFY row_number() OVER (PARTITION BY s.species ORDER BY h.tier, h.similarity DESC, h.name) = 1
  )
  SELECT count(*) OVER ()::INTEGER AS total, species FROM best ORDER BY tier, similarity DESC, species LIMIT 10`;


// Search from memory (src/read/search-index.ts) against the DuckDB queries it replaced, on the real data:
// generated real queries (bench/search-queries.ts: whole names, prefixes, words, word prefixes, misspellings,
// in the latest and in random releases, field=name and field=all), plus families and hosts; the same total
// and the same first 10 species in the same order.
import { expect } from 'chai';
import { join } from 'node:path';
import { DUCKDB_SEARCH, DUCKDB_SPECIES, NAMES_SQL, searchQueries } from './support/search-queries.js';
import { DB_FILE } from '../src/store/files.js';
import { defaultPaths } from '../build/paths.js';
import { openStore } from '../src/read/documents.js';
import { normaliseName } from '../src/read/names.js';
import { releases } from '../src/read/releases.js';
import { releaseSearch, speciesSearch, type SearchField } from '../src/read/search-index.js';
import { MIN_SCORE } from '../src/read/suggest.js';
import type { Store } from '../src/store/store.js';
import { realBuild } from './support/data.js';

describe('search index: searches from memory', function () {
  let store: Store;
  let queries: ReturnType<typeof searchQueries>;
  let latestMsl: number;

  before(async () => {
    await realBuild();
    store = await openStore(join(defaultPaths().dataDir, DB_FILE), 2);
    const names = (await store.query<{ name: string }>(NAMES_SQL)).map((r) => r.name);
    const msls = releases(store).map((r) => r.msl);
    latestMsl = Math.max(...msls);
    // another seed than the bench's
    queries = searchQueries(names, msls, 200, 2026);
  });
  after(async () => store?.close());

  const top = (species: string[], total: number) => ({ total, species });

  async function duckSearch(msl: number, field: SearchField, term: string) {
    const rows = await store.query<{ total: string; species: string }>(DUCKDB_SEARCH(field), [msl, term]);
    return top(rows.map((r) => r.species), rows.length > 0 ? Number(rows[0]!.total) : 0);
  }

  function memorySearch(msl: number, field: SearchField, term: string) {
    const index = releaseSearch(store);
    const found = index.search(msl, field, term, 10, 0);
    return top(found.rows.map((r) => (index.result(r) as { scientific_name: string }).scientific_name), found.total);
  }

  it('ranks GET /api/v1/search as the DuckDB query of api_search did, on 200 real queries', async () => {
    let matched = 0;
    for (const q of queries) {
      const term = q.text.toLowerCase();
      const theirs = await duckSearch(q.msl, q.field, term);
      expect(memorySearch(q.msl, q.field, term), `'${q.text}' in MSL${q.msl}, ${q.field}`).to.deep.equal(theirs);
      if (theirs.total > 0) matched += 1;
    }
    expect(matched, 'queries that match something').to.be.greaterThan(100);
  });

  it('finds families and hosts, and a text of one or two letters, as DuckDB did', async () => {
    const families = (await store.query<{ f: string }>(`SELECT DISTINCT family_key AS f FROM main.search_species
      WHERE msl = $1 AND family_key IS NOT NULL ORDER BY f LIMIT 20`, [latestMsl])).map((r) => r.f);
    const cases: Array<[SearchField, string]> = [
      ...families.map((f): [SearchField, string] => ['family', f.slice(0, 6)]),
      ['host', 'archaea'], ['host', 'vertebrates'], ['host', 'plants'], ['name', 'a'], ['all', 'vi'], ['name', 'zz'],
    ];
    for (const msl of [latestMsl, 20]) {
      for (const [field, term] of cases) {
        expect(memorySearch(msl, field, term), `'${term}' in MSL${msl}, ${field}`).to.deep.equal(await duckSearch(msl, field, term));
      }
    }
  });

  it('ranks POST /search/species (typo tolerant) as the DuckDB query of name_index did, on 200 real queries', async () => {
    let typos = 0;
    for (const q of queries) {
      const key = normaliseName(q.text) || '\u0000';
      const rows = await store.query<{ total: number; species: string }>(DUCKDB_SPECIES, [key, latestMsl]);
      const ours = speciesSearch(store, key, false, MIN_SCORE, null, null, 10);
      expect(top(ours.results.map((r) => r.scientific_name), ours.total), `'${q.text}'`)
        .to.deep.equal(top(rows.map((r) => r.species), rows[0]?.total ?? 0));
      if (ours.results.some((r) => r.match.type === 'typo')) typos += 1;
    }
    expect(typos, 'queries with a misspelling matched').to.be.greaterThan(20);
  });

  it('answers a species search asked again from its kept ranking: the same answer, a shorter page its first rows, a filter its own', () => {
    let filtered = 0;
    for (const q of queries.slice(0, 80)) {
      const key = normaliseName(q.text) || '\u0000';
      const all = speciesSearch(store, key, false, MIN_SCORE, null, null, 500);
      expect(speciesSearch(store, key, false, MIN_SCORE, null, null, 500), `'${q.text}' again`).to.deep.equal(all);
      expect(speciesSearch(store, key, false, MIN_SCORE, null, null, 3), `'${q.text}', 3`).to.deep.equal({ total: all.total, results: all.results.slice(0, 3) });
      const family = all.results[0]?.family;
      if (!family || all.total > 500) continue;
      // the same text with a family: that family's species of the unfiltered ranking, in its order
      const only = all.results.filter((r) => r.family === family);
      expect(speciesSearch(store, key, false, MIN_SCORE, family.toLowerCase(), null, 500), `'${q.text}' in ${family}`).to.deep.equal({ total: only.length, results: only });
      filtered += 1;
    }
    expect(filtered, 'queries checked with a family filter').to.be.greaterThan(20);
  });
});

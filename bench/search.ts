// npm run bench:search: the in-memory search index (src/read/search-index.ts) against the DuckDB queries it replaced
// and against two npm libraries, on 500 real queries generated from the data set (search-queries.ts;
// SEARCH_SEED, SEARCH_N change them).
// For GET /api/v1/search: the same top 10 (names and order) and total as the DuckDB query of api_search
// (the query the endpoint ran before the index) and CPU µs per query; for POST /search/species the same
// against its DuckDB query (name_index, typo tolerant). The libraries (MiniSearch, uFuzzy) are measured as
// the step that finds the keys holding the text, under the same ranking: build time, heap, CPU per query
// and agreement with DuckDB's top 10.
import { join } from 'node:path';
import uFuzzy from '@leeoniya/ufuzzy';
import MiniSearch from 'minisearch';
import { DB_FILE, DOC_SNAPSHOT_FILE } from '../src/store/files.js';
import { defaultPaths } from '../build/paths.js';
import { openStore } from '../src/read/documents.js';
import { normaliseName } from '../src/read/names.js';
import { releases } from '../src/read/releases.js';
import { releaseSearch, speciesSearch } from '../src/read/search-index.js';
import { SubstringIndex } from '../src/read/substring-index.js';
import { MIN_SCORE } from '../src/read/suggest.js';
import type { Store } from '../src/store/store.js';
import { writeMeasurement } from './measurement.js';
import { DUCKDB_SEARCH, DUCKDB_SPECIES, NAMES_SQL, searchQueries, type Query } from '../test/support/search-queries.js';

const N = Number(process.env.SEARCH_N ?? 500);
const SEED = Number(process.env.SEARCH_SEED ?? 17);

/** The query set: n queries from name_index (search-queries.ts). */
async function queriesOf(store: Store, n = N, seed = SEED): Promise<Query[]> {
  const names = (await store.query<{ name: string }>(NAMES_SQL)).map((r) => r.name);
  return searchQueries(names, releases(store).map((r) => r.msl), n, seed);
}

const cpu = () => { const u = process.cpuUsage(); return u.user + u.system; };
const heap = () => { (globalThis as { gc?: () => void }).gc?.(); const m = process.memoryUsage(); return [m.heapUsed, m.arrayBuffers] as const; };

/** Runs fn over every query, returning its answers and the CPU µs per query (DuckDB's threads included). */
async function timed<T>(queries: Query[], fn: (q: Query) => T | Promise<T>): Promise<{ answers: T[]; us: number }> {
  const answers: T[] = [];
  const t0 = cpu();
  for (const q of queries) answers.push(await fn(q));
  return { answers, us: (cpu() - t0) / queries.length };
}

interface Top { total: number; top: string[] }
const same = (a: Top, b: Top) => a.total === b.total && a.top.join('\n') === b.top.join('\n');
const share = (xs: boolean[]) => `${(100 * xs.filter(Boolean).length / xs.length).toFixed(1)}%`;

async function main(): Promise<void> {
  const paths = defaultPaths();
  const t0 = performance.now();
  const store = await openStore(join(paths.dataDir, DB_FILE), 2, join(paths.dataDir, DOC_SNAPSHOT_FILE));
  console.log(`store opened (documents, name matcher, search index) in ${(performance.now() - t0).toFixed(0)} ms`);
  const index = releaseSearch(store);
  const queries = await queriesOf(store);
  const latestMsl = Math.max(...releases(store).map((r) => r.msl));
  const topOf = (found: { total: number; rows: number[] }): Top =>
    ({ total: found.total, top: found.rows.map((r) => (index.result(r) as { scientific_name: string }).scientific_name) });

  // Today's DuckDB queries, twice: the second pass is timed (prepared statements and DuckDB's cache warm).
  const viaDuckDb = (q: Query) => store.query<{ total: string; species: string }>(DUCKDB_SEARCH(q.field), [q.msl, q.text.toLowerCase()])
    .then((rows) => ({ total: rows.length > 0 ? Number(rows[0]!.total) : 0, top: rows.map((r) => r.species) }));
  await timed(queries, viaDuckDb);
  const duck = await timed(queries, viaDuckDb);

  const lines: string[] = [`${queries.length} queries (seed ${SEED}): ${[...new Set(queries.map((q) => q.kind))].map((k) => `${queries.filter((q) => q.kind === k).length} ${k}`).join(', ')}`, ''];
  lines.push('GET /api/v1/search: finding the keys that hold the text, under one ranking (search-index.ts)', '',
    '| index | build ms | V8 heap MB | typed arrays MB | CPU µs/query | same top 10 and total as DuckDB |', '|---|---:|---:|---:|---:|---:|',
    `| DuckDB (api_search, before) | - | - | - | ${duck.us.toFixed(0)} | (reference) |`);

  const strings = Array.from({ length: index.strings.size }, (_, i) => index.strings.string(i));
  const candidates: Array<{ name: string; build: () => unknown; find: (built: unknown, term: string) => number[] }> = [
    { name: 'trigram index (hand-written, chosen)', build: () => SubstringIndex.of(strings), find: (b, t) => (b as SubstringIndex).containing(t) },
    {
      name: 'MiniSearch 7.2 (prefix + fuzzy 0.2, AND)',
      build: () => { const m = new MiniSearch({ fields: ['t'] }); m.addAll(strings.map((t, id) => ({ id, t }))); return m; },
      find: (b, t) => (b as MiniSearch).search(t, { prefix: true, fuzzy: 0.2, combineWith: 'AND' }).map((r) => r.id as number).sort((x, y) => x - y),
    },
    {
      name: 'uFuzzy 1.0 (intraMode 0, in-order terms)',
      build: () => new uFuzzy({ intraMode: 0 }),
      find: (b, t) => [...((b as uFuzzy).filter(strings, t) ?? [])].sort((x, y) => x - y),
    },
  ];
  for (const c of candidates) {
    const h0 = heap();
    const b0 = performance.now();
    const built = c.build();
    const buildMs = performance.now() - b0;
    const h1 = heap();
    const [heapMb, buffersMb] = [(h1[0] - h0[0]) / 1e6, (h1[1] - h0[1]) / 1e6];
    // first pass warms the JIT; the second is timed
    await timed(queries, (q) => c.find(built, q.text.toLowerCase()));
    const run = await timed(queries, (q) => topOf(index.search(q.msl, q.field, q.text.toLowerCase(), 10, 0, c.find(built, q.text.toLowerCase()))));
    const agree = run.answers.map((a, i) => same(a, duck.answers[i]!));
    lines.push(`| ${c.name} | ${buildMs.toFixed(0)} | ${heapMb.toFixed(1)} | ${buffersMb.toFixed(1)} | ${run.us.toFixed(0)} | ${share(agree)} |`);
  }
  // the endpoint's own path: the index as loaded with the store, its cache of recent searches included
  const served = await timed(queries, (q) => topOf(index.search(q.msl, q.field, q.text.toLowerCase(), 10, 0)));
  const servedAgree = served.answers.map((a, i) => same(a, duck.answers[i]!));
  lines.push(`| search-index.ts as served (its cache of recent searches on) | - | - | - | ${served.us.toFixed(0)} | ${share(servedAgree)} |`);
  const byKind = [...new Set(queries.map((q) => q.kind))].map((k) => `${k} ${share(servedAgree.filter((_, i) => queries[i]!.kind === k))}`);
  lines.push('', `agreement by kind: ${byKind.join(', ')}`);
  const differing = queries.map((q, i) => ({ q, i })).filter(({ i }) => !servedAgree[i]).slice(0, 5);
  for (const { q, i } of differing) lines.push(`  differs: '${q.text}' (MSL${q.msl}, ${q.field}): DuckDB ${JSON.stringify(duck.answers[i])} index ${JSON.stringify(served.answers[i])}`);

  // POST /search/species
  const speciesDuck = async (q: Query) => {
    const rows = await store.query<{ total: number; species: string }>(DUCKDB_SPECIES, [normaliseName(q.text) || '\u0000', latestMsl]);
    return { total: rows[0]?.total ?? 0, top: rows.map((r) => r.species) };
  };
  await timed(queries, speciesDuck);
  const sd = await timed(queries, speciesDuck);
  const speciesMem = (q: Query) => {
    const found = speciesSearch(store, normaliseName(q.text) || '\u0000', false, MIN_SCORE, null, null, 10);
    return { total: found.total, top: found.results.map((r) => r.scientific_name) };
  };
  // The rankings of recent searches are kept (species-ranking.ts): the code is warmed on other queries, the
  // first pass over these makes each ranking afresh, the second is the searches typed again.
  await timed(await queriesOf(store, 200, SEED + 1), speciesMem);
  const sm = await timed(queries, speciesMem);
  const smKept = await timed(queries, speciesMem);
  const speciesAgree = sm.answers.map((a, i) => same(a, sd.answers[i]!) && same(smKept.answers[i]!, a));
  lines.push('', 'POST /search/species (typo tolerant, latest release)', '',
    '| index | CPU µs/query | same top 10 and total as DuckDB |', '|---|---:|---:|',
    `| DuckDB (name_index + search_species, before) | ${sd.us.toFixed(0)} | (reference) |`,
    `| search-index.ts (trigram index + name matcher), each ranking made afresh | ${sm.us.toFixed(0)} | ${share(speciesAgree)} |`,
    `| search-index.ts as served, the same searches again (rankings kept) | ${smKept.us.toFixed(0)} | ${share(speciesAgree)} |`,
    '', `agreement by kind: ${[...new Set(queries.map((q) => q.kind))].map((k) => `${k} ${share(speciesAgree.filter((_, i) => queries[i]!.kind === k))}`).join(', ')}`);
  for (const { q, i } of queries.map((q, i) => ({ q, i })).filter(({ i }) => !speciesAgree[i]).slice(0, 5)) {
    lines.push(`  differs: '${q.text}': DuckDB ${JSON.stringify(sd.answers[i])} index ${JSON.stringify(sm.answers[i])}`);
  }
  const mem = process.memoryUsage();
  lines.push('', `process after the run: RSS ${(mem.rss / 1e6).toFixed(0)} MB, heap ${(mem.heapUsed / 1e6).toFixed(0)} MB, array buffers ${(mem.arrayBuffers / 1e6).toFixed(0)} MB`);
  console.log(lines.join('\n'));
  writeMeasurement({
    file: 'search.md', title: 'Search from memory against DuckDB and two libraries', command: 'npm run bench:search',
    settings: { SEARCH_N: N, SEARCH_SEED: SEED }, body: lines.map((l) => (l.startsWith('  differs: ') ? `- ${l.trim()}` : l)).join('\n'),
  });
  await store.close();
}

main().catch((err: Error) => {
  console.error(err);
  process.exit(1);
});

// A store closes only when nothing uses it, a query included: a query can outlive the request that asked for
// it (the client gone, its response closed), and a DuckDB connection closed under a running query leaves the
// thread running it waiting for ever (on a hot swap, a libuv thread lost; on SIGTERM, a process that never
// exits).
import { expect } from 'chai';
import { join } from 'node:path';
import { DB_FILE } from '../src/store/files.js';
import { defaultPaths } from '../build/paths.js';
import { Store } from '../src/store/store.js';
import { realBuild } from './support/data.js';

describe('a store closing', () => {
  it('waits for a query still running after its request has gone, which then answers', async function () {
    await realBuild();
    const store = await Store.open(join(defaultPaths().dataDir, DB_FILE), { pool: 1, docs: [] });
    const rows = 300_000_000;
    // a request asks, and its client goes while the query runs (a bulk download cut short, say)
    store.retain();
    const running = store.query<{ n: string }>(`SELECT count(*) AS n FROM range(${rows}) AS t(i) WHERE i % 7 = 0`);
    store.release();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closing = store.close();
    const [answer] = await Promise.all([running, closing]);
    expect(Number(answer![0]!.n)).to.equal(Math.ceil(rows / 7));
  });
});

describe('a store short of DuckDB memory', () => {
  it('runs a query again alone when queries running at once need more than the limit together', async function () {
    await realBuild();
    const store = await Store.open(join(defaultPaths().dataDir, DB_FILE), { pool: 3, docs: [] });
    try {
      await store.loaded();  // the serving limit
      // Each needs most of the serving limit, for one list of two million strings (a single value DuckDB
      // cannot spill to disk), so three at once do not fit; one at a time they do.
      const items = 2_000_000;
      const answers = await Promise.all([0, 1, 2].map((k) => store.query<{ n: string }>(
        `SELECT length(list('${k}' || i::VARCHAR)) AS n FROM range(${items}) AS t(i)`)));
      expect(answers.map((rows) => Number(rows[0]!.n))).to.deep.equal([items, items, items]);
    } finally {
      await store.close();
    }
  });
});

describe('a store serving downloads', () => {
  it('drops DuckDB\'s cache after them while lookups\' queries run, none failing, the serving limit kept', async function () {
    await realBuild();
    // a query stuck behind the drop would hang the test: it fails in minutes instead
    const store = await Store.open(join(defaultPaths().dataDir, DB_FILE), { pool: 2, docs: [] });
    try {
      await store.loaded();
      const limit = async () => (await store.query<{ l: string }>("SELECT current_setting('memory_limit') AS l"))[0]!.l;
      const serving = await limit();
      const versions = (await store.query<{ msl: number }>('SELECT DISTINCT msl::INTEGER AS msl FROM src.species ORDER BY msl')).map((r) => r.msl);
      let answered = 0;
      // three bursts of downloads, each followed by the pause after which the cache is dropped, with lookups'
      // queries asked throughout (some wait for the drop: none may fail at the lowered limit)
      for (let burst = 0; burst < 3; burst++) {
        const downloads = versions.slice(burst * 10, burst * 10 + 10).map((msl) => store.exported(`test ${msl}`,
          'SELECT s.*, i.lineage_id FROM src.species s LEFT JOIN main.species_identity i USING (taxnode_id) WHERE s.msl = $1 ORDER BY s.species',
          [msl], 'FORMAT csv, HEADER true'));
        const until = Date.now() + 1_600;
        const lookups = (async () => {
          while (Date.now() < until) {
            const [row] = await store.query<{ n: number }>('SELECT count(*)::INTEGER AS n FROM src.taxa WHERE msl = $1 AND rank = $2', [versions.at(-1)!, 'family']);
            expect(row!.n).to.be.greaterThan(0);
            answered += 1;
          }
        })();
        const files = await Promise.all(downloads);
        for (const f of files) expect(f.bytes).to.be.greaterThan(0);
        await lookups;
      }
      expect(answered).to.be.greaterThan(30);
      expect(await limit()).to.equal(serving);
    } finally {
      await store.close();
    }
  });
});

// A store closes only when nothing uses it, a query included: a query can outlive the request that asked for
// it (the client gone, its response closed), and a DuckDB connection closed under a running query leaves the
// thread running it waiting for ever (on a hot swap, a libuv thread lost; on SIGTERM, a process that never
// exits).
import { expect } from 'chai';
import { join } from 'node:path';
import { DB_FILE } from '../build/index.js';
import { defaultPaths } from '../build/paths.js';
import { Store } from '../src/store.js';
import { realBuild } from './support/data.js';

describe('a store closing', () => {
  it('waits for a query still running after its request has gone, which then answers', async function () {
    this.timeout(600_000);
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
    this.timeout(600_000);
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

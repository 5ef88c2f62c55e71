// The Parquet data set says what the API says: the three queries of docs/data.md (history, resolve, compare), run as
// printed on the Parquet files alone (no taxonomy.duckdb), reproduce the facts of the API's answers for names
// and release pairs sampled from the real data with a fixed seed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { defaultPaths } from '../build/paths.js';
import { projectRoot } from '../src/shared/project-root.js';
import { onRealApp } from './support/http.js';

const SEED = 'issue-16';

/** The `PREPARE name AS ...;` statements of docs/data.md, pointed at this data set's Parquet folder. */
function documentedQueries(): Record<string, string> {
  const doc = readFileSync(join(projectRoot(), 'docs', 'data.md'), 'utf8');
  const parquet = join(defaultPaths().dataDir, 'parquet');
  const out: Record<string, string> = {};
  for (const m of doc.matchAll(/^PREPARE (\w+) AS\n([\s\S]*?);\nEXECUTE /gm)) out[m[1]!] = m[2]!.replaceAll("'data/parquet/", `'${parquet}/`);
  return out;
}

type Row = Record<string, unknown>;

describe('the Parquet files reproduce the API (the queries of docs/data.md)', function () {
  const real = onRealApp();
  let conn: DuckDBConnection;
  let close: () => void;
  const sql = documentedQueries();
  const run = async (name: string, params: unknown[]): Promise<Row[]> =>
    (await conn.runAndReadAll(sql[name]!, params as never)).getRowObjectsJson() as Row[];
  const parquet = (table: string) => `'${join(defaultPaths().dataDir, 'parquet', `${table}.parquet`)}'`;

  before(async () => {
    expect(Object.keys(sql).sort()).to.deep.equal(['compare', 'history', 'resolve']);
    const instance = await DuckDBInstance.create(':memory:');
    conn = await instance.connect();
    close = () => { conn.closeSync(); instance.closeSync(); };
  });
  after(() => close());

  // Names that are one name_norm (so the API's spelling rules cannot pick another taxon than the exact name).
  const sample = async (where: string, n: number): Promise<string[]> => (await conn.runAndReadAll(`
    SELECT name FROM ${parquet('name_crosswalk')} QUALIFY count(*) OVER (PARTITION BY name_norm) = 1 AND ${where}
    ORDER BY hash(name || '${SEED}') LIMIT ${n}`)).getRowObjectsJson().map((r) => String(r.name));

  it('100 histories: every release of every lineage, with its name, family, genus and change', async () => {
    const names = [...await sample("kind = 'species' AND ended = 'current'", 50), ...await sample("kind = 'species' AND ended <> 'current'", 50)];
    expect(names).to.have.length(100);
    for (const name of names) {
      const api = await request(real.app).get(`/api/v1/history/${encodeURIComponent(name)}`).expect(200);
      const expected = (api.body.lineages as Array<{ lineage_id: number; timeline: Row[] }>).flatMap((l) =>
        l.timeline.map((t) => ({ lineage_id: l.lineage_id, version: t.version, name: t.name, family: t.family, genus: t.genus, change: t.change })));
      const rows = (await run('history', [name])).map((r) => ({ ...r, lineage_id: Number(r.lineage_id) }));
      expect(rows, name).to.deep.equal(expected);
    }
  });

  it('100 resolutions: the status and the taxa of the latest release a name leads to', async () => {
    const names = [...await sample("ended = 'current'", 50), ...await sample("ended <> 'current'", 50)];
    expect(names).to.have.length(100);
    // The API tells how a taxon that carries on changed since the name's use; the crosswalk says it carries on
    // (a higher taxon renamed without ICTV listing the rename included).
    const carriedOn = new Set(['unchanged', 'renamed', 'moved', 'renamed+moved']);
    for (const name of names) {
      const api = await request(real.app).get(`/api/v1/resolve?name=${encodeURIComponent(name)}`).expect(200);
      const [row, more] = await run('resolve', [name]);
      expect(more, name).to.equal(undefined);
      expect({ rank: row!.rank, carried_on: ['current', 'renamed'].includes(String(row!.ended)), ended: carriedOn.has(api.body.status) ? null : row!.ended,
        results: [...(row!.latest_names as string[])].sort() }, name)
        .to.deep.equal({ rank: api.body.rank, carried_on: carriedOn.has(api.body.status), ended: carriedOn.has(api.body.status) ? null : api.body.status,
          results: [...(api.body.results as string[])].sort() });
    }
  });

  it('20 comparisons: every count of the summary', async () => {
    const pairs = (await conn.runAndReadAll(`
      SELECT a.msl AS a, b.msl AS b FROM ${parquet('releases')} a JOIN ${parquet('releases')} b ON a.msl < b.msl
      ORDER BY hash(a.msl || '-' || b.msl || '${SEED}') LIMIT 20`)).getRowObjectsJson().map((r) => [Number(r.a), Number(r.b)] as const);
    expect(pairs).to.have.length(20);
    for (const [a, b] of pairs) {
      const api = await request(real.app).get(`/api/v1/compare/MSL${a}/MSL${b}`).expect(200);
      const [row] = await run('compare', [a, b]);
      for (const [k, v] of Object.entries(row!)) expect(v, `MSL${a} -> MSL${b} ${k}`).to.equal(api.body[k]);
    }
  });
});

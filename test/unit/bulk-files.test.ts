// Bulk downloads are files DuckDB writes once per build: the cache that holds them (derived-files.ts) and
// the CSV formula guard written in SQL (read/bulk.ts), checked against the library the guard replaced.
import { readFileSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { DuckDBInstance } from '@duckdb/node-api';
import { parse as parseCsv } from 'csv-parse/sync';
import { stringify as stringifyCsv } from 'csv-stringify/sync';
import { DerivedFiles } from '../../src/store/derived-files.js';
import { BULK_FORMATS, formulaSafe } from '../../src/read/bulk.js';

describe('derived files (bulk downloads written once)', () => {
  let files: DerivedFiles;
  afterEach(() => files.clear());

  it('writes a key once, however many ask for it at the same time', async () => {
    files = new DerivedFiles(1 << 20);
    let writes = 0;
    const write = async (path: string) => {
      writes += 1;
      await sleep(20);
      writeFileSync(path, 'rows');
    };
    const got = await Promise.all([files.get('a', write), files.get('a', write), files.get('a', write)]);
    expect(writes).to.equal(1);
    expect(new Set(got.map((f) => f.path)).size).to.equal(1);
    expect(readFileSync(got[0]!.path, 'utf8')).to.equal('rows');
    expect(got[0]!.bytes).to.equal(4);
    await files.get('a', write);
    expect(writes).to.equal(1);
  });

  it('forgets a failed write, so that the next request tries again, and leaves no partial file', async () => {
    files = new DerivedFiles(1 << 20);
    let partial = '';
    const failing = async (path: string) => {
      partial = path;
      writeFileSync(path, 'half');
      throw new Error('disk full');
    };
    let error: unknown;
    await files.get('a', failing).catch((err: unknown) => { error = err; });
    expect((error as Error).message).to.equal('disk full');
    expect(existsSync(partial)).to.equal(false);
    const ok = await files.get('a', async (path) => writeFileSync(path, 'whole'));
    expect(readFileSync(ok.path, 'utf8')).to.equal('whole');
  });

  it('removes the least recently used files beyond its size; one larger than all of it is served, not kept', async () => {
    files = new DerivedFiles(10);
    const of = (text: string) => (path: string) => Promise.resolve(writeFileSync(path, text));
    const a = await files.get('a', of('aaaa'));
    const b = await files.get('b', of('bbbb'));
    await files.get('a', of('never written'));
    const c = await files.get('c', of('cccc'));
    // a was used after b: b goes
    expect([existsSync(a.path), existsSync(b.path), existsSync(c.path)]).to.deep.equal([true, false, true]);
    const big = await files.get('big', of('x'.repeat(50)));
    expect([existsSync(big.path), existsSync(a.path), existsSync(c.path)]).to.deep.equal([true, true, true]);
    // the next one that large takes its place; the files within the budget stay
    const bigger = await files.get('bigger', of('y'.repeat(60)));
    expect([existsSync(big.path), existsSync(bigger.path), existsSync(a.path), existsSync(c.path)]).to.deep.equal([false, true, true, true]);
  });
});

describe('CSV formula guard in SQL (read/bulk.ts)', () => {
  it('escapes the cells csv-stringify escapes, and only those, numbers left alone', async () => {
    const texts = ['=1+2', '+41', '-x', '@SUM(A1)', '\tlead', '\rcr', '\uFF1Dwide', '\uFF0B', '\uFF0Dw', '\uFF20w',
      'plain', 'a=b', ' =spaced', '', "'quoted", 'comma, inside', 'quote " inside', null];
    const numbers = [-1, 0, 7, null];
    const rows = texts.flatMap((t) => numbers.map((n) => ({ t, n })));
    const instance = await DuckDBInstance.create(':memory:');
    const conn = await instance.connect();
    const file = `/tmp/vtqs-formula-${process.pid}.csv`;
    try {
      await conn.run('CREATE TABLE cells (i INTEGER, t VARCHAR, n INTEGER)');
      const appender = await conn.createAppender('cells');
      rows.forEach((r, i) => {
        appender.appendInteger(i);
        if (r.t === null) appender.appendNull(); else appender.appendVarchar(r.t);
        if (r.n === null) appender.appendNull(); else appender.appendInteger(r.n);
        appender.endRow();
      });
      appender.closeSync();
      await conn.run(`COPY (${formulaSafe('SELECT t, n FROM cells ORDER BY i', ['t', 'n'], new Set(['n']))}) TO '${file}' (${BULK_FORMATS.csv.copy})`);
      const ours = readFileSync(file, 'utf8');
      const theirs = stringifyCsv(rows.map((r) => [r.t, r.n]), { header: true, columns: ['t', 'n'], record_delimiter: 'windows', escape_formulas: true });
      // Quoting may differ between writers; what a reader gets must not.
      expect(parseCsv(ours, { relax_quotes: false })).to.deep.equal(parseCsv(theirs));
      expect(ours.includes('\r\n')).to.equal(true);
    } finally {
      conn.closeSync();
      instance.closeSync();
      rmSync(file, { force: true });
    }
  });
});

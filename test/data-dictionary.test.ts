// The data dictionary (data/dictionary.yaml) against the Parquet files of the real build, both ways: every
// column of every published table is in it with the type DuckDB reads, and every entry is a column there.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { DuckDBInstance } from '@duckdb/node-api';
import { defaultPaths } from '../build/paths.js';
import { DOWNLOADS_DIR } from '../build/stage-export.js';
import { dataDictionary } from '../src/read/dictionary.js';
import { realBuild } from './support/data.js';

describe('data dictionary', function () {

  it('documents every column of every Parquet table with its type, and nothing else', async () => {
    await realBuild();
    const dir = join(defaultPaths().dataDir, 'parquet');
    const instance = await DuckDBInstance.create(':memory:');
    const conn = await instance.connect();
    try {
      const actual: Record<string, Record<string, string>> = {};
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (e.name === DOWNLOADS_DIR) continue;
        const table = e.name.replace(/\.parquet$/, '');
        const path = e.isDirectory() ? join(dir, e.name, '**', '*.parquet') : join(dir, e.name);
        const rows = (await conn.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${path}', hive_partitioning = ${e.isDirectory()}, union_by_name = true)`)).getRowObjectsJson();
        actual[table] = Object.fromEntries(rows.map((r) => [String(r.column_name), String(r.column_type)]));
      }
      const documented = Object.fromEntries(dataDictionary().tables.map((t) => [t.name, Object.fromEntries(t.columns.map((c) => [c.name, c.type]))]));
      expect(Object.keys(documented).sort()).to.deep.equal(Object.keys(actual).sort());
      for (const table of Object.keys(actual)) expect(documented[table], table).to.deep.equal(actual[table]);
      // and each whole-record download holds the same columns as its table
      for (const table of Object.keys(actual)) {
        const rows = (await conn.runAndReadAll(`DESCRIBE SELECT * FROM '${join(dir, DOWNLOADS_DIR, `${table}.parquet`)}'`)).getRowObjectsJson();
        expect(rows.map((r) => String(r.column_name)).sort(), table).to.deep.equal(Object.keys(actual[table]!).sort());
      }
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  });

  it('says what each column means and where it comes from', () => {
    for (const t of dataDictionary().tables) {
      expect(t.description, t.name).to.be.a('string').and.not.equal('');
      expect(t.provenance, t.name).to.be.a('string').and.not.equal('');
      for (const c of t.columns) {
        expect(c.meaning, `${t.name}.${c.name}`).to.be.a('string').with.length.above(5);
        expect(c.provenance, `${t.name}.${c.name}`).to.be.a('string').with.length.above(2);
      }
    }
  });
});

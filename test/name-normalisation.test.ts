// One name normalisation in SQL and TypeScript: the build's SQL macro name_norm and the read layer's
// normaliseName give the same normal form of every name in the data.
import { expect } from 'chai';
import { normaliseName } from '../src/read/names.js';
import { realDb, type Db } from './support/data.js';

describe('name normalisation', () => {
  let db: Db;
  before(async () => { db = await realDb(); });
  after(() => db.close());

  it('is the same in TypeScript as the SQL macro name_norm, for every name in the data', async () => {
    const rows = await db.all<{ name: string; norm: string }>(`
      SELECT name, name_norm(name) AS norm FROM (
        SELECT DISTINCT unnest(variants) AS name FROM main.name_index
        UNION SELECT DISTINCT name FROM src.taxa
        UNION SELECT unnest(['Taï Forest ebolavirus', 'SARS-CoV-2', 'Junín virus', '  Tobacco  mosaic\tvirus ', 'Ærø', 'ß', '', '---']))`);
    expect(rows.length).to.be.greaterThan(50_000);
    const differ = rows.filter((r) => normaliseName(r.name) !== r.norm);
    expect(differ.slice(0, 10)).to.deep.equal([]);
  });
});

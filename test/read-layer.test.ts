// The read layer's ground rules: which modules may import which (the data flows build/ -> projections/ ->
// src/read -> src/routes, and /ai sits beside the routes), and one name normalisation in SQL and TypeScript.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { expect } from 'chai';
import { projectRoot } from '../build/paths.js';
import { normaliseName } from '../src/read/names.js';
import { realDb, type Db } from './support/data.js';

const root = projectRoot();

function* sources(dir: string): Generator<string> {
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) yield* sources(p);
    else if (p.endsWith('.ts')) yield p;
  }
}

/** Every relative import of every TypeScript file under build/ and src/, as project-relative paths. */
function imports(): Array<{ from: string; to: string }> {
  const out: Array<{ from: string; to: string }> = [];
  for (const top of ['build', 'src']) {
    for (const file of sources(join(root, top))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/^(?:import|export)[^'"]*from '(\.[^']+)'/gm)) {
        const target = resolve(dirname(file), m[1]!).replace(/\.js$/, '.ts');
        out.push({ from: relative(root, file), to: relative(root, target) });
      }
    }
  }
  return out;
}

describe('read layer', () => {
  describe('module boundaries', () => {
    const all = imports();

    it('reads the imports of every module', () => {
      expect(all.length).to.be.greaterThan(100);
      expect(all).to.deep.include({ from: 'src/app.ts', to: 'src/routes/v1.ts' });
    });

    it('lets only the app mount route modules: no route imports another, nothing else imports one', () => {
      const offenders = all.filter((i) => i.to.startsWith('src/routes/') && i.from !== 'src/app.ts');
      expect(offenders).to.deep.equal([]);
    });

    it('keeps /ai on the read layer: src/ai never imports src/routes', () => {
      expect(all.filter((i) => i.from.startsWith('src/ai/') && i.to.startsWith('src/routes/'))).to.deep.equal([]);
    });

    it('keeps the build free of the server: build/ never imports src/', () => {
      expect(all.filter((i) => i.from.startsWith('build/') && i.to.startsWith('src/'))).to.deep.equal([]);
    });

    it('keeps the read layer below the routes and /ai', () => {
      expect(all.filter((i) => i.from.startsWith('src/read/') && /^src\/(routes|ai)\//.test(i.to))).to.deep.equal([]);
    });
  });

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
});

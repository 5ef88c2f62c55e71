// The endpoints the web pages read that nothing else answers (/api/v1/stats/releases, /api/v1/suggest), and
// the pages and assets as HTTP sees them, on the real data set with every answer checked against the
// contract. Expected values come from the source tables and from the endpoints that must agree.
import { expect } from 'chai';
import request from 'supertest';
import { PAGE_POLICY } from '../src/routes/web.js';
import { onRealApp } from './support/http.js';

interface Figures {
  releases: Array<{
    version: string; year: number; species: number;
    species_per_realm: Array<{ realm: string | null; species: number }>;
    changes: Record<string, number> | null;
    families_per_order: Array<{ order: string | null; families: number }>;
  }>;
}

describe('what the web pages read', function () {
  const real = onRealApp();

  describe('GET /api/v1/stats/releases', () => {
    let fig: Figures;
    before(async () => { fig = (await request(real.app).get('/api/v1/stats/releases').expect(200)).body as Figures; });

    it('lists every release in order, its species counted by realm as src.species has them', async () => {
      const rows = await real.db.all<{ version: string; species: number; realms: number; no_realm: number }>(`
        SELECT r.version, count(*)::INTEGER AS species, count(DISTINCT s.realm)::INTEGER AS realms,
               count(*) FILTER (s.realm IS NULL)::INTEGER AS no_realm
        FROM src.releases r JOIN src.species s USING (msl) GROUP BY r.version, r.msl ORDER BY r.msl`);
      expect(fig.releases.map((r) => r.version)).to.deep.equal(rows.map((r) => r.version));
      for (const [i, r] of fig.releases.entries()) {
        expect(r.species, r.version).to.equal(rows[i]!.species);
        expect(r.species_per_realm.reduce((n, x) => n + x.species, 0), r.version).to.equal(r.species);
        expect(r.species_per_realm.filter((x) => x.realm !== null).length, r.version).to.equal(rows[i]!.realms);
        expect(r.species_per_realm.find((x) => x.realm === null)?.species ?? 0, r.version).to.equal(rows[i]!.no_realm);
      }
    });

    it('counts the changes from the release before as /api/v1/compare does, none for the first', async () => {
      expect(fig.releases[0]!.changes).to.equal(null);
      // every step would be 40 comparisons; the first, the MSL37 reorganisation and the latest
      for (const i of [1, fig.releases.findIndex((r) => r.version === 'MSL37'), fig.releases.length - 1]) {
        const [a, b] = [fig.releases[i - 1]!, fig.releases[i]!];
        const cmp = (await request(real.app).get(`/api/v1/compare/${a.version}/${b.version}`).expect(200)).body as Record<string, number>;
        expect(b.changes, b.version).to.deep.equal({
          added: cmp.species_added, removed: cmp.species_removed, renamed: cmp.species_renamed,
          reclassified: cmp.species_reclassified, merged: cmp.species_merged, split: cmp.species_split,
          ended_by_split: cmp.species_ended_by_split, formed_by_merge: cmp.species_formed_by_merge,
        });
      }
    });

    it('counts the families of each order as src.taxa lists them', async () => {
      const rows = await real.db.all<{ version: string; order: string | null; families: number }>(`
        SELECT r.version, t."order", count(*)::INTEGER AS families
        FROM src.taxa t JOIN src.releases r USING (msl) WHERE t.rank = 'family' GROUP BY ALL`);
      const got = fig.releases.flatMap((r) => r.families_per_order.map((o) => `${r.version}|${o.order}|${o.families}`)).sort();
      expect(got).to.deep.equal(rows.map((r) => `${r.version}|${r.order}|${r.families}`).sort());
    });
  });

  describe('GET /api/v1/suggest', () => {
    const suggest = async (q: string, limit?: number) =>
      (await request(real.app).get('/api/v1/suggest').query(limit ? { q, limit } : { q }).expect(200)).body as
        { suggestions: Array<{ name: string; kind: string; current_name: string | null; typos: number }> };

    it('forgives a typo a word: "tobaco mosaic" offers Tobacco mosaic virus first, with its current name', async () => {
      const [tmv] = await real.db.all<{ current_name: string }>("SELECT current_name FROM main.name_index WHERE name = 'Tobacco mosaic virus' AND kind = 'species'");
      const { suggestions } = await suggest('tobaco mosaic');
      expect(suggestions[0]).to.include({ name: 'Tobacco mosaic virus', current_name: tmv!.current_name, typos: 1 });
    });

    it('offers names whose words begin with every word typed, exact beginnings first', async () => {
      const { suggestions } = await suggest('virus caudo', 50);
      expect(suggestions.length).to.be.greaterThan(0);
      for (const s of suggestions.filter((x) => x.typos === 0)) {
        const words = s.name.toLowerCase().split(/[^a-z0-9]+/);
        expect(words.some((w) => w.startsWith('caudo')) && words.some((w) => w.startsWith('virus')), s.name).to.equal(true);
      }
      const typos = suggestions.map((s) => s.typos);
      expect(typos).to.deep.equal([...typos].sort((a, b) => a - b));
      const [caudovirales] = await real.db.all<{ current_name: string | null }>("SELECT current_name FROM main.name_index WHERE name = 'Caudovirales'");
      expect((await suggest('caudovirales')).suggestions[0]).to.include({ name: 'Caudovirales', current_name: caudovirales!.current_name, typos: 0 });
    });

    it('offers a name once for where it leads now, not also for a lineage of it that ended', async () => {
      // names held by a current lineage and by one that ended (Zika virus: abolished in MSL14, again from MSL18)
      const both = await real.db.all<{ name: string; current: string }>(`
        SELECT lower(name) AS name, max(current_name) AS current FROM main.name_index GROUP BY lower(name)
        HAVING count(*) FILTER (WHERE current_name IS NULL) > 0 AND count(DISTINCT current_name) = 1 ORDER BY name LIMIT 20`);
      expect(both.length).to.be.greaterThan(0);
      for (const { name, current } of both) {
        const rows = (await suggest(name, 50)).suggestions.filter((s) => s.name.toLowerCase() === name.toLowerCase());
        expect(rows.map((s) => s.current_name), name).to.deep.equal([current]);
      }
    });

    it('answers nothing for text that begins no name, and 400 for a single letter', async () => {
      expect((await suggest('qqqzzx xqqz')).suggestions).to.deep.equal([]);
      await request(real.app).get('/api/v1/suggest?q=t').expect(400);
    });
  });

  describe('pages and assets', () => {
    it('serves the pages as HTML under their own policy, and 404s for assets that are not there', async () => {
      for (const path of ['/', '/taxon/Tobamovirus%20tabaci', '/compare/MSL36/MSL37']) {
        const res = await request(real.app).get(path).expect(200).expect('Content-Type', /text\/html/);
        expect(res.headers['content-security-policy'], path).to.equal(PAGE_POLICY);
        expect(res.headers['x-content-type-options']).to.equal('nosniff');
      }
      await request(real.app).get('/assets/vendor/plot.umd.min.js').expect(200).expect('Content-Type', /javascript/);
      await request(real.app).get('/assets/scripts/home.js').expect(200).expect('Content-Type', /javascript/);
      await request(real.app).get('/assets/site.css').expect(200).expect('Content-Type', /css/);
      for (const path of ['/assets/scripts/home.js.map', '/assets/vendor/plot.js', '/assets/scripts/%2e%2e/%2e%2e/%2e%2e/package.json', '/assets/nothing.css']) {
        await request(real.app).get(path).expect(404);
      }
      await request(real.app).get('/compare/MSL36/nonsense').expect(400);
    });
  });
});

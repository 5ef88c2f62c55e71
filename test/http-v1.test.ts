// /api/v1 on the real data set, every response checked against the contract. Expected values are read
// from the source tables (src.*) or the raw files, not from the read model an endpoint answers from.
import { expect } from 'chai';
import { pino } from 'pino';
import { parse as parseCsv } from 'csv-parse/sync';
import { tableFromIPC } from 'apache-arrow';
import request from 'supertest';
import { createApp } from '../src/http/app.js';
import { batchHead, csvAnswer, namesTable } from '../src/read/resolve-batch.js';
import { resolveMany, shownResolution } from '../src/read/resolve.js';
import { resolveVersion } from '../src/read/releases.js';
import { onRealApp, testApp } from './support/http.js';

describe('/api/v1', function () {
  const real = onRealApp();


  describe('GET /api/v1/versions', () => {
    it('lists every release, MSL1 (1971) to MSL41 (2025), with ICTV\'s own counts of species, genera, families, orders and realms', async () => {
      const res = await request(real.app).get('/api/v1/versions').expect(200).expect('Content-Type', /json/);
      expect(res.body).to.have.length(41);
      expect(res.body[0]).to.include({ version: 'MSL1', release_number: 1, year: 1971, label: '1971' });
      expect(res.body[40]).to.include({ version: 'MSL41', release_number: 41, year: 2025, label: '2025', total_species: 17554, total_realms: 10 });
      const msl18 = res.body.find((v: { version: string }) => v.version === 'MSL18');
      expect(msl18).to.include({ year: 1999, label: '1999a', total_species: 1551, total_orders: 3, total_realms: 0 });
      const msl34 = res.body.find((v: { version: string }) => v.version === 'MSL34');
      expect(msl34).to.include({ year: 2018, label: '2018b', total_realms: 1 });
      const official = async (msl: number, rank: string) => real.db.count(
        'SELECT first(count ORDER BY own_release DESC, rowid) AS n FROM src.official_counts WHERE msl = $1 AND rank = $2', [msl, rank]);
      for (const v of res.body as Array<{ release_number: number; total_species: number; total_genera: number; total_families: number }>) {
        expect(v.total_species).to.equal(await real.db.count('SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = $1', [v.release_number]));
        expect(v.total_families).to.equal(await real.db.count("SELECT count(DISTINCT name)::INTEGER AS n FROM src.taxa WHERE msl = $1 AND rank = 'family'", [v.release_number]));
        expect(v.total_genera).to.equal(await official(v.release_number, 'genus'));
      }
      // ICTV counts 182 genera in 1996; its export holds 178 names (one genus left out, 'Unnamed genus' four times)
      expect(res.body.find((v: { version: string }) => v.version === 'MSL15')).to.include({ total_genera: 182 });
    });
  });

  describe('GET /api/v1/species/:version/:name', () => {
    it('answers the full record of Tobamovirus tabaci in MSL40', async () => {
      const res = await request(real.app).get('/api/v1/species/MSL40/Tobamovirus%20tabaci').expect(200);
      const [row] = await real.db.all<Record<string, string | null>>('SELECT * FROM src.species WHERE msl = 40 AND species = $1', ['Tobamovirus tabaci']);
      expect(res.body.scientific_name).to.equal('Tobamovirus tabaci');
      expect(res.body.msl_version).to.equal('MSL40');
      expect(res.body.classification).to.include({ realm: row!.realm, family: row!.family, genus: row!.genus, order: row!.order, subfamily: null });
      expect(Object.keys(res.body.classification)).to.have.length(14);
      expect(res.body.genome.type).to.equal(row!.genome_composition);
      expect(res.body.genome.size).to.match(/^\d+(\.\d)? kb$/);
      expect(res.body.hosts).to.deep.equal(['plants']);
      expect(res.body.ictv_id).to.equal(Number(row!.ictv_id));
    });

    it('matches names in any letter case, with %20 or + for spaces', async () => {
      for (const path of ['/api/v1/species/msl40/tobamovirus%20TABACI', '/api/v1/species/MSL40/Tobamovirus+tabaci', '/api/v1/species/latest/Tobamovirus%20tabaci']) {
        const res = await request(real.app).get(path).expect(200);
        expect(res.body.scientific_name, path).to.equal('Tobamovirus tabaci');
      }
    });

    it('answers a species of the first list of 1971, the ranks not used yet null', async () => {
      const res = await request(real.app).get('/api/v1/species/MSL1/Coliphage%20lambda').expect(200);
      const [row] = await real.db.all<{ genus: string; taxnode_id: string }>(
        "SELECT genus, taxnode_id FROM src.species WHERE msl = 1 AND species = 'Coliphage lambda'");
      expect(res.body).to.include({ scientific_name: 'Coliphage lambda', msl_version: 'MSL1', msl_year: 1971, taxnode_id: Number(row!.taxnode_id) });
      expect(res.body.classification).to.include({ genus: row!.genus, family: null, order: null, realm: null });
    });

    it("answers a name holding a '+' ('Phage 3T+', 1976-1991) as written, where '+' otherwise stands for a space", async () => {
      const [row] = await real.db.all<{ msl: number }>("SELECT min(msl)::INTEGER AS msl FROM src.species WHERE species = 'Phage 3T+'");
      const res = await request(real.app).get(`/api/v1/species/MSL${row!.msl}/${encodeURIComponent('Phage 3T+')}`).expect(200);
      expect(res.body.scientific_name).to.equal('Phage 3T+');
    });

    it('answers Tobacco mosaic virus as listed in MSL23', async () => {
      const res = await request(real.app).get('/api/v1/species/MSL23/Tobacco%20mosaic%20virus').expect(200);
      expect(res.body.classification.genus).to.equal('Tobamovirus');
      expect(res.body.classification.family).to.equal(null);
    });

    it('answers a name the species had in another release with its record there, saying how the name matched', async () => {
      const res = await request(real.app).get('/api/v1/species/MSL40/Tobacco%20mosaic%20virus').expect(200);
      expect(res.body).to.include({ scientific_name: 'Tobamovirus tabaci', msl_version: 'MSL40' });
      // in MSL40 the old species name is the name of the species' virus in the VMR
      expect(res.body.match).to.include({ query: 'Tobacco mosaic virus', match_type: 'virus_name', status: 'unchanged' });
      const old = await request(real.app).get('/api/v1/species/MSL36/Tobamovirus%20tabaci').expect(200);
      expect(old.body).to.include({ scientific_name: 'Tobacco mosaic virus', msl_version: 'MSL36' });
      expect(old.body.match).to.include({ match_type: 'later_name', status: 'renamed' });
      expect(old.body.match.note).to.contain('was not used in MSL36');
    });

    it('answers a spelling of another release, without accents (Junin virus in MSL23 is Junín virus)', async () => {
      const res = await request(real.app).get('/api/v1/species/MSL23/Junin%20virus').expect(200);
      expect(res.body.scientific_name).to.equal('Junín virus');
      expect(res.body.match).to.include({ query: 'Junin virus', matched_name: 'Junín virus' });
    });

    it('answers a name that is no species of that release with 404 and the resolution', async () => {
      const res = await request(real.app).get('/api/v1/species/MSL1/SARS-CoV-2').expect(404);
      const first = await real.db.count(`SELECT min(msl)::INTEGER AS n FROM main.species_identity
        WHERE lineage_id = (SELECT lineage_id FROM main.species_identity WHERE msl = $1 AND species = 'Betacoronavirus pandemicum')`, [real.latest.msl]);
      expect(res.body.detail).to.contain(`was first listed in MSL${first}`);
      expect(res.body.resolution).to.include({ status: 'new', match_type: 'abbreviation' });
      const genus = await request(real.app).get('/api/v1/species/MSL40/Tobamovirus').expect(404);
      expect(genus.body.detail).to.equal("'Tobamovirus' is a genus, not a species");
    });

    it('answers an unknown version with 404 "Version MSL99 not found"', async () => {
      const res = await request(real.app).get('/api/v1/species/MSL99/Tobamovirus%20tabaci').expect(404);
      expect(res.body).to.deep.equal({ detail: 'Version MSL99 not found' });
    });

    it('answers a malformed version with 400 naming it', async () => {
      const res = await request(real.app).get('/api/v1/species/version-forty/Tobamovirus%20tabaci').expect(400);
      expect(res.body.detail).to.contain("'version-forty'");
      expect(Object.keys(res.body)).to.deep.equal(['detail']);
    });

    // The patched validator skips its parameter mutator for URLs without a query string (docs/operations.md): the
    // contract must hold the same either way.
    it('checks path parameters against the contract with and without a query string, and rejects unknown query parameters', async () => {
      const long = 'a'.repeat(501);
      for (const url of [`/api/v1/species/MSL40/${long}`, `/api/v1/species/MSL40/${long}?`]) {
        const res = await request(real.app).get(url).expect(400);
        expect(res.body.detail, url.slice(-5)).to.contain('scientific_name').and.to.contain('500');
      }
      const res = await request(real.app).get('/api/v1/species/MSL40/Tobamovirus%20tabaci?colour=red').expect(400);
      expect(res.body.detail).to.contain("'colour'");
      await request(real.app).get('/api/v1/species/MSL40/Tobamovirus%20tabaci?').expect(200);
    });

    it('answers an unknown name with 404', async () => {
      const res = await request(real.app).get('/api/v1/species/MSL40/No%20such%20virus').expect(404);
      expect(res.body.detail).to.equal(`'No such virus' is not the name of any taxon, virus or identifier in ${real.first.version}..${real.latest.version}`);
      expect(res.body.suggestions).to.deep.equal([]);
    });
  });

  describe('GET /api/v1/search', () => {
    it('finds a species by any name its lineage carried, whole names first (sars, hiv)', async () => {
      const [sars] = await real.db.all<{ species: string }>(`SELECT g.species FROM src.isolates i
        JOIN main.species_genome g ON g.msl = i.msl AND g.vmr_species = i.species WHERE i.msl = $1 AND i.abbreviations = 'SARS-CoV-2'`, [real.latest.msl]);
      const res = await request(real.app).get('/api/v1/search?q=sars').expect(200);
      expect(res.body.results.map((r: { scientific_name: string }) => r.scientific_name)).to.include(sars!.species);
      // a species none of whose names is or starts with "hiv" comes after every species one of whose names does
      const hiv = await request(real.app).get('/api/v1/search?q=hiv&limit=5').expect(200);
      const first = hiv.body.results[0].scientific_name as string;
      const names = await real.db.all<{ v: string }>(`SELECT unnest(variants) AS v FROM main.name_index
        WHERE kind <> 'taxon' AND current_name = $1`, [first]);
      expect(names.some((n) => n.v.toLowerCase().startsWith('hiv'))).to.equal(true);
    });

    it('counts every species whose name contains the text and pages through them', async () => {
      const expected = await real.db.count("SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = $1 AND contains(lower(species), 'tobamovirus')", [real.latest.msl]);
      const res = await request(real.app).get('/api/v1/search?q=Tobamovirus&limit=5&offset=0').expect(200);
      expect(res.body.total_results).to.equal(expected);
      expect(res.body.results).to.have.length(5);
      expect(res.body.version).to.equal(real.latest.version);
    });

    it('puts an exact match first', async () => {
      const res = await request(real.app).get('/api/v1/search?q=tobamovirus+tabaci').expect(200);
      expect(res.body.results[0].scientific_name).to.equal('Tobamovirus tabaci');
    });

    it('searches families and hosts in a named release', async () => {
      const fam = await request(real.app).get('/api/v1/search?q=virgaviridae&field=family&version=MSL36&limit=1000').expect(200);
      expect(fam.body.total_results).to.equal(await real.db.count("SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = 36 AND family = 'Virgaviridae'"));
      const host = await request(real.app).get('/api/v1/search?q=archaea&field=host&limit=1').expect(200);
      const archaea = await real.db.count("SELECT count(DISTINCT species)::INTEGER AS n FROM src.isolates WHERE msl = $1 AND exemplar = 'E' AND contains(lower(host_source), 'archaea')", [real.latest.msl]);
      expect(host.body.total_results).to.equal(archaea);
    });

    it('shows each result as the species record shows it', async () => {
      // MSL40 from the VMR; MSL30 with genome type and hosts carried along the lineage from later releases.
      for (const [version, q] of [['MSL40', 'tobamovirus'], ['MSL30', 'tobacco']] as const) {
        const res = await request(real.app).get(`/api/v1/search?q=${q}&version=${version}&limit=10`).expect(200);
        expect(res.body.results, version).to.have.length(10);
        for (const r of res.body.results as Array<{ scientific_name: string; family: string; genome_type: string | null; hosts: string[] }>) {
          const species = (await request(real.app).get(`/api/v1/species/${version}/${encodeURIComponent(r.scientific_name)}`).expect(200)).body;
          expect([r.family, r.genome_type, r.hosts], r.scientific_name).to.deep.equal([species.classification.family, species.genome.type, species.hosts]);
        }
      }
    });

    it('searches name, family, genus, order, realm and host at once with field=all, never across two of them', async () => {
      const expected = await real.db.count(`
        SELECT count(*)::INTEGER AS n FROM src.species s
        LEFT JOIN main.species_genome g ON g.msl = s.msl AND g.species = s.species
        WHERE s.msl = 40 AND (contains(lower(s.species), 'corona') OR contains(lower(coalesce(s.family, '')), 'corona')
          OR contains(lower(coalesce(s.genus, '')), 'corona') OR contains(lower(coalesce(s."order", '')), 'corona')
          OR contains(lower(coalesce(s.realm, '')), 'corona') OR contains(lower(coalesce(g.host_source, '')), 'corona'))`);
      const res = await request(real.app).get('/api/v1/search?q=corona&field=all&limit=1').expect(200);
      expect(res.body.total_results).to.equal(expected).and.be.greaterThan(0);
      // "viridae" + "nidovirales" only meet across the family/order boundary: no species matches it.
      const across = await request(real.app).get('/api/v1/search?q=coronaviridaenidovirales&field=all').expect(200);
      expect(across.body.total_results).to.equal(0);
    });

    it('rejects a limit above 1000 and an unknown field with 400', async () => {
      await request(real.app).get('/api/v1/search?q=virus&limit=1001').expect(400);
      const res = await request(real.app).get('/api/v1/search?q=virus&field=colour').expect(400);
      expect(Object.keys(res.body)).to.deep.equal(['detail']);
    });

    it('answers a search without q with 400', async () => {
      await request(real.app).get('/api/v1/search').expect(400);
    });
  });

  describe('GET /api/v1/taxonomy/:version/:rank/:name', () => {
    it('lists the species of a family, genus and realm with their counts', async () => {
      const fam = await request(real.app).get('/api/v1/taxonomy/MSL40/family/virgaviridae?limit=1000').expect(200);
      expect(fam.body.name).to.equal('Virgaviridae');
      expect(fam.body.total_species).to.equal(await real.db.count("SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = 40 AND family = 'Virgaviridae'"));
      expect(fam.body.species).to.have.length(fam.body.total_species);
      const genus = await request(real.app).get('/api/v1/taxonomy/MSL40/genus/Tobamovirus').expect(200);
      expect(genus.body.total_species).to.equal(await real.db.count("SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = 40 AND genus = 'Tobamovirus'"));
      const realm = await request(real.app).get('/api/v1/taxonomy/MSL34/realm/Riboviria?limit=1').expect(200);
      expect(realm.body.total_species).to.equal(await real.db.count("SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = 34 AND realm = 'Riboviria'"));
    });

    it('answers 404 for a family not in the release and 400 for another rank', async () => {
      const res = await request(real.app).get('/api/v1/taxonomy/MSL40/family/Myoviridae').expect(404);
      expect(res.body.detail).to.equal("'Myoviridae' is not in MSL40: the family 'Myoviridae' was abolished in MSL37");
      await request(real.app).get('/api/v1/taxonomy/MSL40/species/Tobamovirus%20tabaci').expect(400);
      await request(real.app).get('/api/v1/taxonomy/MSL40/tribe/Tobamovirus').expect(400);
    });
  });

  describe('GET /api/v1/compare/:from/:to', () => {
    it('balances: from_total - removed - merged - ended_by_split + added + split + formed_by_merge = to_total', async () => {
      for (const [a, b] of [['MSL23', 'MSL40'], ['MSL35', 'MSL40'], ['MSL36', 'MSL37'], ['MSL39', 'MSL40'], ['MSL40', 'MSL35']]) {
        const r = (await request(real.app).get(`/api/v1/compare/${a}/${b}`).expect(200)).body;
        expect(r.from_total - r.species_removed - r.species_merged - r.species_ended_by_split + r.species_added + r.species_split + r.species_formed_by_merge, `${a}->${b}`).to.equal(r.to_total);
        expect(r.from_total).to.equal(await real.db.count('SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = $1', [Number(a.slice(3))]));
      }
    });

    it('answers a reversed pair with added and removed exchanged', async () => {
      const fwd = (await request(real.app).get('/api/v1/compare/MSL35/MSL40').expect(200)).body;
      const rev = (await request(real.app).get('/api/v1/compare/MSL40/MSL35').expect(200)).body;
      expect([rev.species_added, rev.species_removed, rev.from_total, rev.to_total, rev.species_renamed])
        .to.deep.equal([fwd.species_removed, fwd.species_added, fwd.to_total, fwd.from_total, fwd.species_renamed]);
    });

    it('counts as removed exactly the MSL39 species abolished in MSL40 (the MSL40 sheet lists 38)', async () => {
      const r = (await request(real.app).get('/api/v1/compare/MSL39/MSL40').expect(200)).body;
      expect(r.species_removed).to.equal(await real.db.count("SELECT count(*)::INTEGER AS n FROM src.renames WHERE msl = 40 AND rank = 'species' AND change = 'Abolished'"));
    });

    it('answers comparing a release with itself with 404: no such comparison', async () => {
      const res = await request(real.app).get('/api/v1/compare/MSL40/msl40').expect(404);
      expect(res.body.detail).to.contain('both MSL40');
    });

    it('agrees with the MSL41 Taxon Counts sheet on new, abolished, merged and renamed species', async () => {
      const ictv = Object.fromEntries((await real.db.all<{ change: string; n: number }>(
        "SELECT change, count AS n FROM src.official_changes WHERE msl = 41 AND rank = 'species'")).map((r) => [r.change, r.n]));
      expect(ictv).to.include({ New: 1352, 'New Splits': 2, Abolished: -11, Merged: -2, Renamed: 144 });
      const r = (await request(real.app).get('/api/v1/compare/MSL40/MSL41').expect(200)).body;
      expect([r.species_removed, r.species_merged, r.species_renamed]).to.deep.equal([-ictv.Abolished, -ictv.Merged, ictv.Renamed]);
      // ICTV counts a species split into several as carried on by one of them (Orthoflavivirus encephalitidis),
      // while release_diff, following ICTV's ids (both products got new ones), has it end by the split
      expect(r.species_added + r.species_split + r.species_formed_by_merge - r.species_ended_by_split).to.equal(ictv.New + ictv['New Splits']);
    });

    it('answers any pair of releases both ways, from the first list of 1971 to the latest', async () => {
      const last = real.latest.msl;
      for (const [a, b] of [[1, last], [1, 2], [17, 18], [22, 23], [last - 1, last], [10, 30]] as const) {
        const fwd = (await request(real.app).get(`/api/v1/compare/MSL${a}/MSL${b}`).expect(200)).body;
        const rev = (await request(real.app).get(`/api/v1/compare/MSL${b}/MSL${a}`).expect(200)).body;
        const total = (v: number) => real.db.count('SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = $1', [v]);
        expect([fwd.from_total, fwd.to_total], `MSL${a}->MSL${b}`).to.deep.equal([await total(a), await total(b)]);
        expect(fwd.from_total - fwd.species_removed - fwd.species_merged - fwd.species_ended_by_split + fwd.species_added
          + fwd.species_split + fwd.species_formed_by_merge).to.equal(fwd.to_total);
        expect([rev.species_added, rev.species_merged]).to.deep.equal([fwd.species_removed, fwd.species_split]);
      }
    });
  });

  describe('GET /api/v1/compare/:from/:to/details', () => {
    it('pages through every change of a pair, names taken from the two releases', async () => {
      // MSL17 -> MSL18 (1998 -> 1999a), the step of ICTV's new species definition
      const s = (await request(real.app).get('/api/v1/compare/MSL17/MSL18').expect(200)).body;
      const expected = s.species_added + s.species_removed + s.species_renamed + s.species_reclassified + s.species_merged
        + s.species_split + s.species_ended_by_split + s.species_formed_by_merge;
      const rows: Array<{ change_type: string; old_name: string | null; new_name: string | null }> = [];
      for (let offset = 0; ; offset += 1000) {
        const page = (await request(real.app).get(`/api/v1/compare/MSL17/MSL18/details?limit=1000&offset=${offset}`).expect(200)).body;
        expect(page.total).to.equal(expected);
        rows.push(...page.changes);
        if (page.changes.length < 1000) break;
      }
      expect(rows).to.have.length(expected);
      const names = async (msl: number) => new Set((await real.db.all<{ species: string }>('SELECT species FROM src.species WHERE msl = $1', [msl])).map((r) => r.species));
      const [in17, in18] = [await names(17), await names(18)];
      for (const r of rows) {
        if (r.old_name !== null) expect(in17.has(r.old_name), r.old_name).to.equal(true);
        if (r.new_name !== null) expect(in18.has(r.new_name), r.new_name).to.equal(true);
      }
      const merged = rows.filter((r) => r.change_type === 'merged');
      expect(merged).to.have.length(s.species_merged);
      // listed by change type, then name
      const order = rows.map((r) => r.change_type);
      expect(order).to.deep.equal([...order].sort());
    });

    it('lists as many rows of each type as the summary counts', async () => {
      const summary = (await request(real.app).get('/api/v1/compare/MSL36/MSL37').expect(200)).body;
      for (const type of ['added', 'removed', 'renamed', 'reclassified']) {
        const res = await request(real.app).get(`/api/v1/compare/MSL36/MSL37/details?change_type=${type}&limit=1`).expect(200);
        expect(res.body.total, type).to.equal(summary[`species_${type}`]);
      }
    });

    it('shows Tobacco mosaic virus renamed to Tobamovirus tabaci between MSL38 and MSL39', async () => {
      const res = await request(real.app).get('/api/v1/compare/MSL38/MSL39/details?change_type=renamed&limit=1000&offset=0').expect(200);
      const page = res.body.changes.concat(
        (await request(real.app).get('/api/v1/compare/MSL38/MSL39/details?change_type=renamed&limit=1000&offset=1000').expect(200)).body.changes,
        (await request(real.app).get('/api/v1/compare/MSL38/MSL39/details?change_type=renamed&limit=1000&offset=2000').expect(200)).body.changes,
      );
      const tmv = page.filter((c: { old_name: string }) => c.old_name === 'Tobacco mosaic virus');
      expect(tmv).to.have.length(1);
      expect(tmv[0].new_name).to.equal('Tobamovirus tabaci');
    });

    it('gives a page as an Arrow stream: the rows of the JSON page, the rest of its answer as metadata, the next page linked', async () => {
      const url = '/api/v1/compare/MSL38/MSL39/details?change_type=renamed&limit=50&offset=100';
      const json = (await request(real.app).get(url).expect(200)).body;
      const arrow = await request(real.app).get(`${url}&format=arrow`).buffer(true)
        .parse((r, cb) => { const chunks: Buffer[] = []; r.on('data', (c: Buffer) => chunks.push(c)); r.on('end', () => cb(null, Buffer.concat(chunks))); })
        .expect(200).expect('Content-Type', 'application/vnd.apache.arrow.stream');
      const table = tableFromIPC(arrow.body as Buffer);
      expect(table.toArray().map((r) => r.toJSON())).to.deep.equal(json.changes);
      const meta = Object.fromEntries(table.schema.metadata);
      expect(meta).to.deep.equal({ from_version: 'MSL38', to_version: 'MSL39', change_type: 'renamed', total: String(json.total), limit: '50', offset: '100', next: `${url}&format=arrow`.replace('offset=100', 'offset=150') });
      expect(arrow.headers.link).to.equal(`<${meta.next}>; rel="next"`);
    });

    it('reads a reversed pair from the forward rows', async () => {
      const res = await request(real.app).get('/api/v1/compare/MSL40/MSL39/details?change_type=added&limit=5').expect(200);
      const removed = (await request(real.app).get('/api/v1/compare/MSL39/MSL40').expect(200)).body.species_removed;
      expect(res.body.total).to.equal(removed);
      for (const c of res.body.changes) expect(c.change_type).to.equal('added');
    });
  });

  describe('GET /api/v1/history/:name', () => {
    it('follows Tobacco mosaic virus to Tobamovirus tabaci, by either name', async () => {
      for (const name of ['Tobacco%20mosaic%20virus', 'tobamovirus+tabaci']) {
        const res = await request(real.app).get(`/api/v1/history/${name}`).expect(200);
        expect(res.body.first_appearance).to.equal('MSL1');
        expect(res.body.last_appearance).to.equal(real.latest.version);
        expect(res.body.current_name).to.equal('Tobamovirus tabaci');
        expect(res.body.names).to.deep.equal(['Tobacco mosaic virus', 'Tobamovirus tabaci']);
        const renamed = res.body.lineages[0].timeline.filter((t: { change: string }) => t.change.startsWith('renamed'));
        expect(renamed.map((t: { version: string }) => t.version)).to.deep.equal(['MSL39']);
      }
    });

    it('follows a name used only before 2005 to the species it is today', async () => {
      const last = await real.db.count("SELECT max(msl)::INTEGER AS n FROM src.species WHERE species = 'Coliphage lambda'");
      expect(last).to.be.below(23);
      // by ICTV's stable id, which the phage kept from 1971 through every rename
      const [today] = await real.db.all<{ species: string }>(`SELECT n.species FROM src.species o JOIN src.species n ON n.ictv_id = o.ictv_id
        WHERE o.msl = 1 AND o.species = 'Coliphage lambda' AND n.msl = $1`, [real.latest.msl]);
      const res = await request(real.app).get('/api/v1/history/Coliphage%20lambda').expect(200);
      expect(res.body).to.include({ matched_name: 'Coliphage lambda', first_appearance: 'MSL1', last_appearance: real.latest.version, current_name: today!.species });
      expect(res.body.names[0]).to.equal('Coliphage lambda');
      const renames = res.body.lineages[0].timeline.filter((t: { change: string }) => t.change.startsWith('renamed')).map((t: { version: string }) => t.version);
      expect(renames[0]).to.equal(`MSL${last + 1}`);
    });

    it('finds a species by a VMR abbreviation', async () => {
      const res = await request(real.app).get('/api/v1/history/SARS-CoV-2').expect(200);
      expect(res.body.current_name).to.equal(
        (await real.db.all<{ s: string }>("SELECT any_value(species) AS s FROM src.isolates WHERE msl = $1 AND abbreviations LIKE '%SARS-CoV-2%'", [real.latest.msl]))[0]!.s);
    });

    it('answers 404 for a name never used', async () => {
      const res = await request(real.app).get('/api/v1/history/Not%20a%20virus%20name').expect(404);
      expect(res.body.detail).to.contain('Not a virus name');
    });
  });

  describe('POST /api/v1/citation', () => {
    it('cites a species of MSL37 with the Archives of Virology article', async () => {
      const res = await request(real.app).post('/api/v1/citation').send({ species_name: 'tobacco mosaic virus', version: 'MSL37', format: 'bibtex' }).expect(200);
      expect(res.body.citation).to.contain('@misc{').and.to.contain('10.1007/s00705-022-05516-5');
      expect(res.body.subject).to.deep.equal({ type: 'species', rank: 'species', name: 'Tobacco mosaic virus' });
    });

    it('cites a family in the standard and RIS formats', async () => {
      const std = await request(real.app).post('/api/v1/citation').send({ taxonomic_group: { rank: 'family', name: 'virgaviridae' } }).expect(200);
      expect(std.body.citation).to.match(new RegExp(`^International Committee on Taxonomy of Viruses \\(ICTV\\)\\. Virgaviridae \\(family\\)\\. Master Species List ${real.latest.version} \\(${real.latest.year}\\)`));
      const ris = await request(real.app).post('/api/v1/citation').send({ taxonomic_group: { rank: 'family', name: 'Virgaviridae' }, format: 'ris' }).expect(200);
      expect(ris.body.citation).to.match(/^TY {2}- DATA/).and.to.contain('ER  - ');
    });

    it('answers 422 when both or neither subject is given, as the contract says', async () => {
      await request(real.app).post('/api/v1/citation').send({ species_name: 'Tobamovirus tabaci', taxonomic_group: { rank: 'family', name: 'Virgaviridae' } }).expect(422);
      const res = await request(real.app).post('/api/v1/citation').send({ version: 'MSL40' }).expect(422);
      expect(res.body.detail).to.equal('the body must have exactly one of species_name and taxonomic_group');
    });

    it('answers 422 for a field of the wrong type and 404 for an unknown species', async () => {
      const res = await request(real.app).post('/api/v1/citation').send({ species_name: 42 }).expect(422);
      expect(Object.keys(res.body)).to.deep.equal(['detail']);
      await request(real.app).post('/api/v1/citation').send({ species_name: 'No such virus' }).expect(404);
    });
  });

  describe('GET /api/v1/bulk/species/:version', () => {
    it('downloads a family as CSV with one row per species and a header', async () => {
      const res = await request(real.app).get('/api/v1/bulk/species/MSL40?format=csv&family=Virgaviridae').expect(200)
        .expect('Content-Type', /text\/csv/).expect('Content-Disposition', /attachment; filename="?species_MSL40_Virgaviridae\.csv"?/);
      const lines = res.text.trim().split('\r\n');
      expect(lines[0]!.split(',')).to.include.members(['version', 'species', 'family', 'genus', 'lineage_id']);
      expect(lines.length - 1).to.equal(await real.db.count("SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = 40 AND family = 'Virgaviridae'"));
    });

    it('quotes CSV fields holding commas (MSL29 proposals such as "2009.010a,bB.v1.Myoviridae_phageG")', async () => {
      const [row] = await real.db.all<{ species: string; family: string; proposal: string }>(
        "SELECT species, family, proposal FROM src.species WHERE msl = 29 AND proposal LIKE '%,%' AND family IS NOT NULL ORDER BY species LIMIT 1");
      const res = await request(real.app).get(`/api/v1/bulk/species/MSL29?format=csv&family=${encodeURIComponent(row!.family)}`).expect(200);
      const line = res.text.split('\r\n').find((l) => l.includes(`,${row!.species},`))!;
      expect(line.endsWith(`,"${row!.proposal}"`)).to.equal(true);
    });

    it('gives the same columns as JSON and a Parquet file', async () => {
      const json = await request(real.app).get('/api/v1/bulk/species/MSL40?realm=Adnaviria').expect(200).expect('Content-Type', /json/);
      const expected = await real.db.count("SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = 40 AND realm = 'Adnaviria'");
      expect(json.body).to.have.length(expected);
      const csv = await request(real.app).get('/api/v1/bulk/species/MSL40?realm=Adnaviria&format=csv').expect(200);
      expect(Object.keys(json.body[0])).to.deep.equal(csv.text.split('\r\n')[0]!.split(','));
      const pq = await request(real.app).get('/api/v1/bulk/species/MSL40?realm=Adnaviria&format=parquet').buffer(true)
        .parse((res, cb) => { const chunks: Buffer[] = []; res.on('data', (c: Buffer) => chunks.push(c)); res.on('end', () => cb(null, Buffer.concat(chunks))); })
        .expect(200);
      expect((pq.body as Buffer).subarray(0, 4).toString()).to.equal('PAR1');
    });
  });

  describe('GET /api/v1/stats/diversity/:version', () => {
    it('answers the diversity of a release', async () => {
      const res = await request(real.app).get('/api/v1/stats/diversity/MSL40').expect(200);
      expect(res.body.version).to.equal('MSL40');
      expect(res.body.species).to.equal(16213);
    });
  });

  describe('/api/v1/resolve', () => {
    it('migrates Tobacco mosaic virus from MSL36 to MSL40 as a rename, with the chain', async () => {
      const res = await request(real.app).get('/api/v1/resolve?name=Tobacco+mosaic+virus&from_version=MSL36&to_version=MSL40').expect(200);
      expect(res.body.status).to.equal('renamed');
      expect(res.body.results).to.deep.equal(['Tobamovirus tabaci']);
      expect(res.body.chain.map((c: { version: string; change: string }) => `${c.version} ${c.change}`)).to.deep.equal(['MSL39 renamed']);
    });

    it('lets other requests run while it resolves 10,000 names, more often the more names', async function () {
      const { store } = await testApp();
      const names = (await real.db.all<{ species: string }>('SELECT DISTINCT species FROM src.species ORDER BY species LIMIT 10000')).map((r) => r.species);
      expect(names).to.have.length(10_000);
      const from = resolveVersion(store, 'MSL30');
      const to = resolveVersion(store, 'latest');
      // A callback queued with setImmediate stands in for other requests: it runs once a turn of the event
      // loop, so only when resolving yields. Slices are cut by time, so how many there are depends on the
      // machine; what does not is that ten times the names give several times the turns.
      const turnsResolving = async (batch: string[]): Promise<number> => {
        let turns = 0;
        let counting = true;
        const count = () => { turns += 1; if (counting) setImmediate(count); };
        setImmediate(count);
        try {
          expect(await resolveMany(store, batch, from, to)).to.have.length(batch.length);
        } finally {
          counting = false;
        }
        return turns;
      };
      await turnsResolving(names.slice(0, 1_000)); // warm: the first pass reads documents a later one finds parsed
      const few = await turnsResolving(names.slice(0, 1_000));
      const many = await turnsResolving(names);
      expect(many).to.be.at.least(2, `${many} turns for 10,000 names`);
      expect(many).to.be.greaterThan(2 * few, `${many} turns for 10,000 names, ${few} for 1,000`);
    });

    it('resolves a batch: renamed, unchanged, abolished and unknown with suggestions', async () => {
      const [abolished] = await real.db.all<{ old_name: string }>("SELECT old_name FROM src.renames WHERE msl = 40 AND rank = 'species' AND change = 'Abolished' ORDER BY old_name LIMIT 1");
      const abolishedName = abolished!.old_name.split(';').pop()!;
      const res = await request(real.app).post('/api/v1/resolve')
        .send({ names: ['Tobacco mosaic virus', 'Tobamovirus tabaci', abolishedName, 'Tobaco mosaic virus'], from_version: 'MSL38', to_version: 'MSL40' })
        .expect(200);
      const statuses = res.body.results.map((r: { status: string }) => r.status);
      expect(statuses).to.deep.equal(['renamed', 'unchanged', 'abolished', 'unknown']);
      // the current name was not used in MSL38: resolved from its own releases, and said so
      expect(res.body.results[1].note).to.contain('was not used in MSL38');
      expect(res.body.results[3].suggestions).to.include('Tobacco mosaic virus');
      expect(res.body.summary).to.deep.equal({ renamed: 1, unchanged: 1, abolished: 1, unknown: 1 });
    });

    it('answers CSV with CSV, keeping the other columns', async () => {
      const res = await request(real.app).post('/api/v1/resolve?to_version=MSL40').set('Content-Type', 'text/csv')
        .send('id,name\n1,Tobacco mosaic virus\n2,"Zika virus"\n').expect(200).expect('Content-Type', /text\/csv/);
      const lines = res.text.trim().split('\r\n');
      expect(lines[0]).to.equal('id,name,status,rank,matched_name,match_type,confidence,to_version,result,changes,note,suggestions');
      expect(lines[1]).to.match(/^1,Tobacco mosaic virus,renamed,species,Tobacco mosaic virus,former_name,1,MSL40,Tobamovirus tabaci,/);
      expect(lines[2]).to.match(/^2,Zika virus,/);
    });

    describe('a batch of several slices (resolved and written 500 names at a time)', () => {
      // names of three slices, with repeats far apart (in other slices), misspellings and a name of nothing late
      let names: string[];
      before(async () => {
        const species = (await real.db.all<{ species: string }>('SELECT DISTINCT species FROM src.species ORDER BY species LIMIT 1200')).map((r) => r.species);
        names = [...species, species[3]!, `${species[7]!}x`, species[7]!.slice(0, -1), 'qqzzqq virus', species[3]!, species[1100]!];
      });
      let store: Awaited<ReturnType<typeof testApp>>['store'];
      before(async () => { ({ store } = await testApp()); });
      // the app as served, which sends the bytes it builds (the shared one sends them through res.json, for the validator)
      const served = async () => createApp({ stores: { current: () => store }, logger: pino({ level: 'silent' }) });

      it('answers JSON as the whole batch resolved at once would be written, the summary of every result first', async () => {
        const to = resolveVersion(store, 'MSL40');
        const results = await resolveMany(store, names, null, to);
        const res = await request(await served()).post('/api/v1/resolve').send({ names, to_version: 'MSL40' }).expect(200).expect('Content-Type', /json/);
        expect(res.text).to.equal(JSON.stringify({ ...batchHead(null, to, results), results: results.map(shownResolution) }));
        expect(res.body.count).to.equal(names.length);
        expect(Object.values(res.body.summary as Record<string, number>).reduce((a, b) => a + b, 0)).to.equal(names.length);
        expect(res.body.results.map((r: { name: string }) => r.name)).to.deep.equal(names);
        // a repeat in another slice is answered as the first
        expect(res.body.results[names.length - 2]).to.deep.equal(res.body.results[3]);
        // a misspelling in the last slice has its suggestions
        expect(res.body.results[names.length - 5]).to.include({ status: 'unknown', match_type: 'fuzzy' });
        expect(res.body.results[names.length - 5].suggestions.length).to.be.greaterThan(0);
        // and the contract holds for it (the shared app validates every response)
        await request(real.app).post('/api/v1/resolve').send({ names, to_version: 'MSL40' }).expect(200);
      });

      it('answers CSV with the rows in order, as the whole batch resolved at once would be written', async () => {
        const to = resolveVersion(store, 'MSL40');
        const csv = `name,row\r\n${names.map((n, i) => `"${n.replaceAll('"', '""')}",${i}`).join('\r\n')}\r\n`;
        const res = await request(await served()).post('/api/v1/resolve?to_version=MSL40').set('Content-Type', 'text/csv').send(csv).expect(200);
        const table = { ...namesTable(names), columns: ['name', 'row'] };
        table.records.forEach((r, i) => { r.row = String(i); });
        let expected = '';
        for await (const piece of csvAnswer(table, [await resolveMany(store, names, null, to)])) expected += piece;
        expect(res.text).to.equal(expected);
        expect(res.text.trim().split('\r\n')).to.have.length(names.length + 1);
      });
    });

    describe('as CSV', () => {
      const post = (csv: string) => request(real.app).post('/api/v1/resolve?to_version=MSL40').set('Content-Type', 'text/csv').send(csv);
      const records = (text: string) => parseCsv(text, { record_delimiter: ['\r\n', '\n'], relax_column_count: false }) as string[][];

      it('quotes a cell holding a line break, CR or LF alone included, so every row reads back whole', async () => {
        const res = await post('name,note\r\n"Zika virus","one\ntwo"\r\n"Tobacco mosaic virus","three\rfour"\r\n').expect(200);
        const rows = records(res.text);
        expect(rows).to.have.length(3);
        expect(rows.slice(1).map((r) => r[1])).to.deep.equal(['one\ntwo', 'three\rfour']);
      });

      it('takes rows shorter and longer than the header, and LF lines as well as CRLF', async () => {
        const res = await post('name,a,b\nZika virus\nTobacco mosaic virus,1,2,3\n').expect(200);
        const rows = records(res.text);
        expect(rows[0]!.slice(0, 3)).to.deep.equal(['name', 'a', 'b']);
        expect(rows.slice(1).map((r) => r.slice(0, 4))).to.deep.equal([['Zika virus', '', '', 'renamed+moved'], ['Tobacco mosaic virus', '1', '2', 'renamed']]);
      });

      it('answers a header alone with the header of the answer', async () => {
        const res = await post('name,note\r\n').expect(200);
        expect(records(res.text)).to.deep.equal([['name', 'note', 'status', 'rank', 'matched_name', 'match_type', 'confidence', 'to_version', 'result', 'changes', 'resolve_note', 'suggestions']]);
      });

      it('refuses a text that is not CSV with a name column, in the contract\'s words', async () => {
        for (const csv of ['species\nZika virus\n', 'name\n"never closed\n', 'name\nab"c\n']) {
          const res = await post(csv).expect(422);
          expect(res.body.detail).to.match(/^the body must be CSV \(RFC 4180, lines ended by CRLF or LF\) with a header row holding a 'name' column/);
        }
      });
    });

    it('rejects a body without names with 422', async () => {
      const res = await request(real.app).post('/api/v1/resolve').send({ to_version: 'MSL40' }).expect(422);
      expect(Object.keys(res.body)).to.deep.equal(['detail']);
    });
  });

  describe('errors and hostile input', () => {
    it('answers unknown routes with a JSON 404 in the shape of their area', async () => {
      expect((await request(real.app).get('/api/v1/nothing-here').expect(404)).body).to.have.keys(['detail']);
      expect((await request(real.app).get('/nothing-here').expect(404)).body).to.have.keys(['error', 'detail', 'type']);
    });

    it('answers malformed JSON with 400 and a too large body with 413', async () => {
      const bad = await request(real.app).post('/api/v1/resolve').set('Content-Type', 'application/json').send('{"names": [').expect(400);
      expect(bad.body).to.deep.equal({ detail: 'request body is not valid JSON' });
      await request(real.app).post('/api/v1/resolve').set('Content-Type', 'application/json').send(`{"names": ["${'a'.repeat(3_000_000)}"]}`).expect(413);
    });

    it('never answers 500 to odd names, SQL fragments, NUL bytes or 10,000-character names', async () => {
      const nasty = ["' OR 1=1 --", 'x"); DROP TABLE species; --', 'a%00b', '%00', 'a'.repeat(10_000), '%F0%9F%A6%A0 virus', '..%2F..%2Fetc%2Fpasswd', '%25', 'null', '[]'];
      for (const n of nasty) {
        for (const path of [`/api/v1/species/MSL40/${n}`, `/api/v1/history/${n}`, `/api/v1/taxonomy/MSL40/family/${n}`, `/api/v1/search?q=${n}`, `/api/v1/resolve?name=${n}`]) {
          const res = await request(real.app).get(path);
          expect(res.status, path.slice(0, 80)).to.be.oneOf([200, 400, 404]);
          if (res.status !== 200) expect(Object.keys(res.body), path.slice(0, 80)).to.include('detail').and.to.satisfy((ks: string[]) => ks.every((k) => ['detail', 'suggestions', 'resolution'].includes(k)));
        }
      }
      const res = await request(real.app).post('/api/v1/resolve').send({ names: ["' OR 1=1 --", 'a\u0000b', 'x'.repeat(500)] }).expect(200);
      expect(res.body.results.map((r: { status: string }) => r.status)).to.deep.equal(['unknown', 'unknown', 'unknown']);
    });
  });

  describe('caching', () => {
    it('gives release-scoped answers a strong ETag and answers If-None-Match with 304', async () => {
      const first = await request(real.app).get('/api/v1/species/MSL40/Tobamovirus%20tabaci').expect(200);
      const etag = first.headers.etag as string;
      expect(etag).to.match(/^"[0-9a-f]{16}-[0-9a-f]{16}"$/);
      expect(first.headers['cache-control']).to.equal('public, max-age=86400');
      await request(real.app).get('/api/v1/species/MSL40/Tobamovirus%20tabaci').set('If-None-Match', etag).expect(304);
      const latest = await request(real.app).get('/api/v1/species/latest/Tobamovirus%20tabaci').expect(200);
      expect(latest.headers['cache-control']).to.equal('public, max-age=300');
      expect(latest.headers.etag).to.not.equal(etag);
    });

    it('caches a GET resolution as any lookup: an ETag, 304 on If-None-Match, a day when both releases are named', async () => {
      const named = '/api/v1/resolve?name=Tobacco+mosaic+virus&from_version=MSL36&to_version=MSL40';
      const first = await request(real.app).get(named).expect(200);
      const etag = first.headers.etag as string;
      expect(etag).to.match(/^"[0-9a-f]{16}-[0-9a-f]{16}"$/);
      expect(first.headers['cache-control']).to.equal('public, max-age=86400');
      await request(real.app).get(named).set('If-None-Match', etag).expect(304);
      // to the latest release, whether by default or by name, the answer changes with the next release
      for (const path of ['/api/v1/resolve?name=Tobacco+mosaic+virus', '/api/v1/resolve?name=TMV&to_version=latest',
        '/api/v1/resolve?name=TMV&from_version=latest&to_version=MSL40']) {
        const res = await request(real.app).get(path).expect(200);
        expect(res.headers['cache-control'], path).to.equal('public, max-age=300');
        expect(res.headers.etag, path).to.match(/^"[0-9a-f]{16}-[0-9a-f]{16}"$/).and.not.equal(etag);
      }
    });
  });
});

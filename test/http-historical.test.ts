// /historical on the real data set, every response checked against the contract. Expected values are read
// from the source tables (src.*), or from another endpoint that must agree, not from the read model an
// endpoint answers from.
import { expect } from 'chai';
import request from 'supertest';
import { onRealApp } from './support/http.js';

interface RankRow { rank: string; from_count: number; to_count: number; added: number; removed: number; renamed: number }
interface FamilyRow { family: string; species_changed: number; added: number; removed: number; renamed: number; reclassified: number }

describe('/historical', function () {
  const real = onRealApp();

  const expectError = (body: Record<string, unknown>, type: string) => {
    expect(body).to.include.keys('error', 'detail', 'type');
    expect(body.type).to.equal(type);
    expect(body.detail).to.be.a('string').and.not.equal('');
  };

  describe('GET /historical/releases', () => {
    it('lists every release, oldest first, each with its species counted from src.species', async () => {
      const res = await request(real.app).get('/historical/releases').expect(200).expect('Content-Type', /json/);
      expect(res.body).to.include({ total_releases: 41, first_version: 'MSL1', latest_version: real.latest.version });
      expect(res.body.releases.map((r: { version: string }) => r.version)).to.deep.equal(
        Array.from({ length: 41 }, (_, i) => `MSL${1 + i}`));
      for (const r of res.body.releases as Array<{ release_number: number; total_species: number; counts: { species: number; genus: number } }>) {
        const species = await real.db.count('SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = $1', [r.release_number]);
        expect(r.total_species, `MSL${r.release_number}`).to.equal(species);
        expect(r.counts.species).to.equal(species);
        expect(r.counts.genus).to.equal(await real.db.count("SELECT count(*)::INTEGER AS n FROM src.taxa WHERE msl = $1 AND rank = 'genus'", [r.release_number]));
      }
    });

    it('lists the cross-release source files once', async () => {
      const res = await request(real.app).get('/historical/releases').expect(200);
      expect(res.body.cross_release_sources).to.have.length(await real.db.count('SELECT count(*)::INTEGER AS n FROM src.inputs WHERE msl IS NULL'));
    });

    it('answers 304 to a request carrying its ETag', async () => {
      const first = await request(real.app).get('/historical/releases').expect(200);
      const etag = first.headers.etag as string;
      expect(etag).to.match(/^"[^"]+"$/);
      expect(first.headers['cache-control']).to.equal('public, max-age=300');
      const again = await request(real.app).get('/historical/releases').set('If-None-Match', etag).expect(304);
      expect(again.text).to.equal('');
    });
  });

  describe('GET /historical/releases/:msl_version', () => {
    it('answers MSL40 (the spec example) with counts, growth, changes from MSL39 and source files', async () => {
      const res = await request(real.app).get('/historical/releases/MSL40').expect(200);
      const species40 = await real.db.count('SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = 40');
      const species39 = await real.db.count('SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = 39');
      expect(res.body).to.include({ version: 'MSL40', release_number: 40, year: 2024, label: '2024', previous_version: 'MSL39', next_version: 'MSL41' });
      expect(res.body.total_species).to.equal(species40);
      expect(res.body.counts.family).to.equal(await real.db.count("SELECT count(DISTINCT name)::INTEGER AS n FROM src.taxa WHERE msl = 40 AND rank = 'family'"));
      expect(res.body.growth).to.deep.equal({
        previous_version: 'MSL39', previous_species: species39, species_delta: species40 - species39,
        species_growth_pct: Math.round((10000 * (species40 - species39)) / species39) / 100,
      });
      const v1 = (await request(real.app).get('/api/v1/compare/MSL39/MSL40').expect(200)).body;
      expect(res.body.changes).to.include({
        from_version: 'MSL39', added: v1.species_added, removed: v1.species_removed, renamed: v1.species_renamed,
        reclassified: v1.species_reclassified, merged: v1.species_merged, split: v1.species_split,
      });
      const inputs = await real.db.all<{ role: string; file: string; sha256: string; bytes: string }>(
        'SELECT role, file, sha256, bytes FROM src.inputs WHERE msl = 40 ORDER BY role, file');
      expect(res.body.sources.map((s: { role: string; file: string; sha256: string; bytes: number }) => [s.role, s.file, s.sha256, s.bytes]))
        .to.deep.equal(inputs.map((i) => [i.role, i.file, i.sha256, Number(i.bytes)]));
      expect(res.headers['cache-control']).to.equal('public, max-age=86400');
    });

    it('answers MSL1, the first release, without growth or changes, and the latest without a next one', async () => {
      const res = await request(real.app).get('/historical/releases/msl1').expect(200);
      expect(res.body).to.include({ version: 'MSL1', previous_version: null, growth: null, changes: null, year: 1971 });
      const latest = await request(real.app).get('/historical/releases/latest').expect(200);
      expect(latest.body).to.include({ version: real.latest.version, next_version: null });
    });

    it('answers an unknown version with 404 in the {error, detail, type} shape', async () => {
      const res = await request(real.app).get('/historical/releases/MSL99').expect(404);
      expectError(res.body, 'NotFound');
      expect(res.body.detail).to.equal('Version MSL99 not found');
    });

    it('answers a malformed version with 400 naming it', async () => {
      const res = await request(real.app).get('/historical/releases/forty').expect(400);
      expectError(res.body, 'BadRequest');
      expect(res.body.detail).to.contain("'forty'");
    });
  });

  describe('GET /historical/compare/:from_version/:to_version', () => {
    it('answers MSL35 -> MSL40 (the spec example) with the numbers of /api/v1/compare', async () => {
      const res = await request(real.app).get('/historical/compare/MSL35/MSL40').expect(200);
      const v1 = (await request(real.app).get('/api/v1/compare/MSL35/MSL40').expect(200)).body;
      const t = res.body.changes.by_type;
      expect(t).to.deep.equal({
        added: v1.species_added, removed: v1.species_removed, renamed: v1.species_renamed, reclassified: v1.species_reclassified,
        merged: v1.species_merged, split: v1.species_split, ended_by_split: v1.species_ended_by_split, formed_by_merge: v1.species_formed_by_merge,
      });
      const sum = t.added + t.removed + t.renamed + t.reclassified + t.merged + t.split + t.ended_by_split + t.formed_by_merge;
      expect(res.body.changes.total_changes).to.equal(sum).and.be.greaterThan(0);
      // one change per row of the details listing
      const details = (await request(real.app).get('/api/v1/compare/MSL35/MSL40/details?limit=1').expect(200)).body;
      expect(details.total).to.equal(sum);
      expect(res.body).to.include({ from_version: 'MSL35', to_version: 'MSL40',
        from_total: await real.db.count('SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = 35'),
        to_total: await real.db.count('SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = 40') });
    });

    it('counts taxa per rank so that from_count - removed + added = to_count, with counts from src.taxa', async () => {
      const res = await request(real.app).get('/historical/compare/MSL35/MSL40').expect(200);
      const byRank = res.body.by_rank as RankRow[];
      expect(byRank.map((r) => r.rank)).to.include.members(['realm', 'order', 'family', 'genus', 'species']);
      expect(byRank[byRank.length - 1]!.rank).to.equal('species');
      for (const r of byRank) {
        expect(r.from_count - r.removed + r.added, r.rank).to.equal(r.to_count);
        expect(r.from_count, r.rank).to.equal(await real.db.count('SELECT count(DISTINCT name)::INTEGER AS n FROM src.taxa WHERE msl = 35 AND rank = $1', [r.rank]));
        expect(r.to_count, r.rank).to.equal(await real.db.count('SELECT count(DISTINCT name)::INTEGER AS n FROM src.taxa WHERE msl = 40 AND rank = $1', [r.rank]));
      }
      // realms are never renamed or abolished: the new ones are the MSL40 names MSL35 lacks
      const realms = byRank.find((r) => r.rank === 'realm')!;
      const newRealms = await real.db.count(`SELECT count(*)::INTEGER AS n FROM src.taxa b WHERE b.msl = 40 AND b.rank = 'realm'
        AND NOT EXISTS (SELECT 1 FROM src.taxa a WHERE a.msl = 35 AND a.rank = 'realm' AND a.name = b.name)`);
      expect(realms).to.include({ added: newRealms, removed: 0, renamed: 0 });
    });

    it('names the 10 families with the most changed species, counted from the details of /api/v1/compare', async () => {
      const res = await request(real.app).get('/historical/compare/MSL36/MSL37').expect(200);
      const top = res.body.largest_families_affected as FamilyRow[];
      expect(top).to.have.length(10);
      const changed = top.map((f) => f.species_changed);
      expect(changed).to.deep.equal([...changed].sort((a, b) => b - a));
      // Siphoviridae, abolished in MSL37: every one of its MSL36 species changed (renamed or placed elsewhere)
      expect(top[0]).to.include({ family: 'Siphoviridae', species_changed: await real.db.count("SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = 36 AND family = 'Siphoviridae'") });
    });

    it('answers the pair in reverse order with added and removed exchanged', async () => {
      const fwd = (await request(real.app).get('/historical/compare/MSL35/MSL40').expect(200)).body;
      const rev = (await request(real.app).get('/historical/compare/MSL40/MSL35').expect(200)).body;
      const v1 = (await request(real.app).get('/api/v1/compare/MSL40/MSL35').expect(200)).body;
      expect(rev).to.include({ from_version: 'MSL40', to_version: 'MSL35', from_total: fwd.to_total, to_total: fwd.from_total });
      expect(rev.changes.total_changes).to.equal(fwd.changes.total_changes);
      expect(rev.changes.by_type).to.include({
        added: fwd.changes.by_type.removed, removed: fwd.changes.by_type.added, merged: fwd.changes.by_type.split,
        split: fwd.changes.by_type.merged, renamed: fwd.changes.by_type.renamed, reclassified: fwd.changes.by_type.reclassified,
      });
      expect(rev.changes.by_type.added).to.equal(v1.species_added);
      const family = (rows: RankRow[]) => rows.find((r) => r.rank === 'family')!;
      expect(family(rev.by_rank)).to.deep.equal({ ...family(fwd.by_rank), from_count: family(fwd.by_rank).to_count,
        to_count: family(fwd.by_rank).from_count, added: family(fwd.by_rank).removed, removed: family(fwd.by_rank).added });
      expect(rev.largest_families_affected[0].family).to.equal(fwd.largest_families_affected[0].family);
    });

    it('lists the source files added, deleted and modified between the two releases, from src.inputs', async () => {
      const res = await request(real.app).get('/historical/compare/MSL35/MSL40').expect(200);
      const roles = async (msl: number) => (await real.db.all<{ role: string }>('SELECT role FROM src.inputs WHERE msl = $1 ORDER BY role', [msl])).map((r) => r.role);
      const [from, to] = [await roles(35), await roles(40)];
      const files = res.body.source_files as Record<'added' | 'deleted' | 'modified', Array<{ role: string }>>;
      expect(files.added.map((f) => f.role)).to.deep.equal(to.filter((r) => !from.includes(r)));
      expect(files.deleted.map((f) => f.role)).to.deep.equal(from.filter((r) => !to.includes(r)));
      expect(files.modified.map((f) => f.role)).to.deep.equal(from.filter((r) => to.includes(r)));
      expect(files.modified[0]).to.include({ role: 'msl', to_file: 'MSL40/ICTV_Master_Species_List_2024_MSL40.v2.xlsx' });
    });

    it('answers the same release twice with 404: no such comparison', async () => {
      const res = await request(real.app).get('/historical/compare/MSL40/MSL40').expect(404);
      expectError(res.body, 'NotFound');
    });

    it('answers an unknown version with 404 and a malformed one with 400, in the {error, detail, type} shape', async () => {
      expectError((await request(real.app).get('/historical/compare/MSL35/MSL99').expect(404)).body, 'NotFound');
      expectError((await request(real.app).get('/historical/compare/35/MSL40').expect(400)).body, 'BadRequest');
    });
  });

  describe('GET /historical/species/:scientific_name/history', () => {
    it('follows Tobacco mosaic virus through every release, from the first list of 1971 to Tobamovirus tabaci', async () => {
      const res = await request(real.app).get('/historical/species/Tobacco%20mosaic%20virus/history').expect(200);
      expect(res.body).to.include({ query: 'Tobacco mosaic virus', matched_name: 'Tobacco mosaic virus', matched_kind: 'species' });
      expect(res.body.lineages).to.have.length(1);
      const lineage = res.body.lineages[0];
      expect(lineage).to.include({ current_name: 'Tobamovirus tabaci', first_appearance: 'MSL1', last_appearance: real.latest.version, releases_present: 41 });
      expect(lineage.releases).to.have.length(41);
      const names = await real.db.all<{ msl: number; species: string }>(`
        SELECT s.msl::INTEGER AS msl, s.species FROM src.species s
        WHERE s.ictv_id = (SELECT ictv_id FROM src.species WHERE msl = 40 AND species = 'Tobamovirus tabaci') ORDER BY s.msl`);
      // ICTV's id (19710322, the 1971 node) links the releases; MSL39's name comes from the ontology links, so compare where src has it
      expect(names.length).to.be.greaterThan(30);
      for (const n of names) {
        expect(lineage.releases.find((r: { version: string }) => r.version === `MSL${n.msl}`)).to.include({ present: true, name: n.species });
      }
      expect(lineage.releases[0]).to.include({ version: 'MSL1', year: 1971, present: true, name: 'Tobacco mosaic virus', change: 'present' });
      expect(lineage.releases[40]).to.include({ version: real.latest.version, present: true, name: 'Tobamovirus tabaci' });
    });

    it('answers every lineage an abbreviation leads to, in the order of the name index', async () => {
      const [row] = await real.db.all<{ name: string; ids: string[] }>(`
        SELECT any_value(h.name) AS name, list(h.lineage_id::VARCHAR ORDER BY h.i) AS ids
        FROM (SELECT n.name_norm, u.h.name AS name, u.h.lineage_id AS lineage_id, u.i AS i
              FROM main.name_lookup n,
                   unnest(from_json(n.doc, '[{"lineage_id":"BIGINT","name":"VARCHAR","kind":"VARCHAR"}]')) WITH ORDINALITY AS u(h, i)
              WHERE n.name_norm = 'aamv1') h`);
      expect(row!.ids.length).to.be.greaterThan(1);
      const res = await request(real.app).get(`/historical/species/${encodeURIComponent(row!.name)}/history`).expect(200);
      expect(res.body.matched_kind).to.equal('abbreviation');
      expect(res.body.lineages.map((l: { lineage_id: number }) => String(l.lineage_id))).to.deep.equal([...new Set(row!.ids)]);
    });

    it('answers the same history for the current name, in any letter case', async () => {
      const old = (await request(real.app).get('/historical/species/Tobacco%20mosaic%20virus/history').expect(200)).body;
      const cur = (await request(real.app).get('/historical/species/tobamovirus%20TABACI/history').expect(200)).body;
      expect(cur.lineages).to.deep.equal(old.lineages);
    });

    it('marks the releases a species is absent from', async () => {
      // a species ICTV lists as new in MSL40 (MSL39 has no ICTV ids of its own, so the ids cannot tell)
      const [row] = await real.db.all<{ species: string }>(`SELECT species FROM src.species WHERE msl = 40 AND msl_of_last_change = 40
        AND last_change LIKE 'New%' ORDER BY species LIMIT 1`);
      const res = await request(real.app).get(`/historical/species/${encodeURIComponent(row!.species)}/history`).expect(200);
      const releases = res.body.lineages[0].releases as Array<{ version: string; present: boolean; name: string | null; change: string | null }>;
      expect(releases.filter((r) => r.present).map((r) => r.version)).to.deep.equal(
        Array.from({ length: real.latest.msl - 39 }, (_, i) => `MSL${40 + i}`));
      expect(releases[0]).to.deep.include({ version: 'MSL1', present: false, name: null, change: null });
    });

    it('answers a name no species ever had with 404 and close names', async () => {
      const res = await request(real.app).get('/historical/species/Tobaco%20mosaic%20virus/history').expect(404);
      expectError(res.body, 'NotFound');
      expect(res.body.detail).to.contain("'Tobaco mosaic virus'");
      expect(res.body.suggestions).to.include('Tobacco mosaic virus');
    });
  });

  describe('GET /historical/family/:family_name/evolution', () => {
    it('answers Myoviridae, abolished in MSL37, with its size in each release and its abolition', async () => {
      const res = await request(real.app).get('/historical/family/Myoviridae/evolution').expect(200);
      const releases = await real.db.all<{ msl: number; n: number }>(`SELECT msl::INTEGER AS msl, count(*)::INTEGER AS n FROM src.species
        WHERE family = 'Myoviridae' GROUP BY msl ORDER BY msl`);
      const last = releases[releases.length - 1]!.msl;
      expect(last).to.equal(36);
      expect(res.body).to.include({ family: 'Myoviridae', status: 'ended', first_version: `MSL${releases[0]!.msl}`, last_version: 'MSL36', ended_in: 'MSL37' });
      expect(res.body.evolution.map((e: { msl_version: string; species: number }) => [e.msl_version, e.species]))
        .to.deep.equal(releases.map((r) => [`MSL${r.msl}`, r.n]));
      const abolished = (res.body.major_events as Array<{ msl_version: string; kind: string; description: string }>).find((e) => e.kind === 'abolished');
      expect(abolished).to.include({ msl_version: 'MSL37' });
      expect(abolished!.description).to.contain(`${releases[releases.length - 1]!.n} species`);
    });

    it('matches the name in any letter case', async () => {
      const res = await request(real.app).get('/historical/family/MYOVIRIDAE/evolution').expect(200);
      expect(res.body.family).to.equal('Myoviridae');
    });

    it('answers a renamed family under its old and its new name with the same history', async () => {
      const [rename] = await real.db.all<{ old_name: string; new_name: string; msl: number }>(`
        SELECT list_last(string_split(old_name, ';')) AS old_name, list_last(string_split(new_name, ';')) AS new_name, msl::INTEGER AS msl
        FROM src.renames WHERE rank = 'family' AND list_last(string_split(new_name, ';')) = 'Orthoherpesviridae'`);
      expect(rename).to.include({ old_name: 'Herpesviridae', msl: 38 });
      const old = (await request(real.app).get('/historical/family/Herpesviridae/evolution').expect(200)).body;
      const cur = (await request(real.app).get('/historical/family/Orthoherpesviridae/evolution').expect(200)).body;
      expect(old).to.deep.equal(cur);
      expect(cur).to.include({ family: 'Orthoherpesviridae', status: 'current' });
      // the family was Herpetoviridae until MSL4 (one ICTV id, 19750007, through both names)
      const [early] = await real.db.all(`SELECT list(DISTINCT name ORDER BY name) AS names FROM src.taxon_nodes WHERE ictv_id = 19750007 AND msl < 38`);
      expect(early).to.deep.equal({ names: ['Herpesviridae', 'Herpetoviridae'] });
      expect(cur.names).to.deep.equal(['Herpetoviridae', 'Herpesviridae', 'Orthoherpesviridae']);
      const species = await real.db.count("SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = 38 AND family = 'Orthoherpesviridae'");
      expect(cur.major_events).to.deep.include.members([{ msl_version: 'MSL38', kind: 'renamed',
        description: `Herpesviridae renamed Orthoherpesviridae in MSL38 (${species} species)`, species, related: ['Herpesviridae'] }]);
      const names = cur.evolution.map((e: { msl_version: string; name: string }) => `${e.msl_version} ${e.name}`);
      expect(names).to.include.members(['MSL37 Herpesviridae', 'MSL38 Orthoherpesviridae']);
    });

    it('answers a misspelt family with 404 and suggestions', async () => {
      const res = await request(real.app).get('/historical/family/Myovirdae/evolution').expect(404);
      expectError(res.body, 'NotFound');
      expect(res.body.suggestions[0]).to.equal('Myoviridae');
      expect(res.body.detail).to.contain("'Myovirdae' is not the name of any taxon, virus or identifier in MSL1..; did you mean 'Myoviridae'".replace('MSL1..', `${real.first.version}..${real.latest.version}`));
    });

    it('answers the name of an order with 404 saying so', async () => {
      const res = await request(real.app).get('/historical/family/Caudovirales/evolution').expect(404);
      expectError(res.body, 'NotFound');
      expect(res.body.detail).to.contain("'Caudovirales' is an order, not a family");
    });
  });

  describe('GET /historical/caudovirales-dissolution', () => {
    it('dates the abolition from src.taxa: last listed in MSL36, gone in MSL37', async () => {
      const res = await request(real.app).get('/historical/caudovirales-dissolution').expect(200);
      const last = await real.db.count("SELECT max(msl)::INTEGER AS n FROM src.taxa WHERE rank = 'order' AND name = 'Caudovirales'");
      expect(last).to.equal(36);
      expect(res.body).to.include({ order: 'Caudovirales', last_version: 'MSL36', last_year: 2020, abolished_in: 'MSL37', abolished_year: 2021 });
      expect(res.body.note).to.contain('2019').and.contain('MSL37');
    });

    it('says what the order held in MSL36, counted from src.taxa and src.species', async () => {
      const res = await request(real.app).get('/historical/caudovirales-dissolution').expect(200);
      const taxa = (rank: string) => real.db.count("SELECT count(*)::INTEGER AS n FROM src.taxa WHERE msl = 36 AND \"order\" = 'Caudovirales' AND rank = $1", [rank]);
      const species = await real.db.count("SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = 36 AND \"order\" = 'Caudovirales'");
      expect(res.body.last_release).to.include({ version: 'MSL36', families: await taxa('family'), genera: await taxa('genus'), species });
      expect(res.body.last_release.family_list).to.have.length(await taxa('family'));
      const abolished = await real.db.all<{ name: string }>(`SELECT name FROM src.taxa a WHERE msl = 36 AND rank = 'family' AND "order" = 'Caudovirales'
        AND NOT EXISTS (SELECT 1 FROM src.taxa b WHERE b.msl = 37 AND b.name = a.name) ORDER BY name`);
      expect(res.body.families_abolished.map((f: { family: string }) => f.family)).to.deep.equal(abolished.map((a) => a.name));
      expect(abolished.map((a) => a.name)).to.deep.equal(['Myoviridae', 'Podoviridae', 'Siphoviridae']);
    });

    it('accounts for every species of the order in MSL37, and names the new families', async () => {
      const res = await request(real.app).get('/historical/caudovirales-dissolution').expect(200);
      const d = res.body.destinations;
      const total = res.body.last_release.species;
      expect(d.species_continued + d.species_abolished + d.species_merged).to.equal(total);
      const sum = (rows: Array<{ species: number }>) => rows.reduce((n, r) => n + r.species, 0);
      expect(sum(d.by_family)).to.equal(d.species_continued);
      expect(sum(d.by_order)).to.equal(d.species_continued);
      expect(sum(d.by_class)).to.equal(d.species_continued);
      // the MSL36 species whose name is still listed unchanged in MSL37 sit where src.species says
      const kept = await real.db.count(`SELECT count(*)::INTEGER AS n FROM src.species a JOIN src.species b ON b.msl = 37 AND b.species = a.species
        WHERE a.msl = 36 AND a."order" = 'Caudovirales' AND b.family = 'Autographiviridae'`);
      const autographi = d.by_family.find((f: { family: string | null }) => f.family === 'Autographiviridae');
      expect(autographi.species).to.be.at.least(kept);
      expect(autographi.new).to.equal(false);
      const strabo = d.by_family.find((f: { family: string | null }) => f.family === 'Straboviridae');
      expect(strabo.new).to.equal(true);
      expect(await real.db.count("SELECT count(*)::INTEGER AS n FROM src.taxa WHERE msl = 36 AND name = 'Straboviridae'")).to.equal(0);
    });

    it('counts the renames of that step, with examples that are real MSL36 -> MSL37 names', async () => {
      const res = await request(real.app).get('/historical/caudovirales-dissolution').expect(200);
      const r = res.body.renames;
      expect(r.version).to.equal('MSL37');
      expect(r.species_renamed).to.be.greaterThan(0).and.at.most(res.body.last_release.species);
      expect(r.to_binomial).to.be.at.most(r.species_renamed);
      expect(r.examples.length).to.be.within(1, 10);
      for (const e of r.examples as Array<{ old_name: string; new_name: string }>) {
        expect(await real.db.count("SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = 36 AND species = $1 AND \"order\" = 'Caudovirales'", [e.old_name])).to.equal(1);
        expect(await real.db.count('SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = 37 AND species = $1', [e.new_name])).to.equal(1);
      }
    });
  });

  describe('GET /historical/timeline', () => {
    it('covers 1971 to the latest release with milestones and the size of every release', async () => {
      const res = await request(real.app).get('/historical/timeline').expect(200);
      expect(res.body).to.include({ first_version: 'MSL1', last_version: real.latest.version, first_year: 1971, last_year: real.latest.year,
        years_covered: real.latest.year - 1971 + 1, releases: 41 });
      const sizes = await real.db.all<{ msl: number; n: number }>('SELECT msl::INTEGER AS msl, count(*)::INTEGER AS n FROM src.species GROUP BY msl ORDER BY msl');
      expect(res.body.species_per_release.map((r: { version: string; species: number }) => [r.version, r.species]))
        .to.deep.equal(sizes.map((s) => [`MSL${s.msl}`, s.n]));
      const kinds = new Set((res.body.milestones as Array<{ kind: string }>).map((m) => m.kind));
      expect([...kinds]).to.include.members(['first_release', 'taxon_abolished', 'species_milestone']);
      const caudo = (res.body.milestones as Array<{ subject: string | null; msl_version: string }>).find((m) => m.subject === 'Caudovirales');
      expect(caudo).to.include({ msl_version: 'MSL37' });
      // the release that lost the most species against the one before, counted from src.species
      const [drop] = await real.db.all<{ version: string; delta: number }>(`
        WITH n AS (SELECT msl, count(*) AS n FROM src.species GROUP BY msl)
        SELECT 'MSL' || b.msl AS version, (b.n - a.n)::INTEGER AS delta FROM n a JOIN n b ON b.msl = a.msl + 1 ORDER BY delta LIMIT 1`);
      const decline = (res.body.milestones as Array<{ kind: string; msl_version: string; figures: { species_delta: number } }>).find((m) => m.kind === 'largest_decline');
      expect(decline).to.deep.include({ msl_version: drop!.version });
      expect(decline!.figures.species_delta).to.equal(drop!.delta);
    });
  });

  describe('hostile input', () => {
    const paths = [
      "/historical/species/'%3B%20DROP%20TABLE%20species%3B--/history",
      '/historical/species/%00/history',
      '/historical/species/%E2%80%8B%F0%9F%A6%A0/history',
      `/historical/species/${'a'.repeat(501)}/history`,
      '/historical/species/%25/history',
      "/historical/family/x'%20OR%20'1'%3D'1/evolution",
      `/historical/family/${'%C3%A9'.repeat(300)}/evolution`,
      '/historical/family/..%2F..%2Fetc%2Fpasswd/evolution',
      '/historical/releases/MSL99999999999999999999',
      '/historical/releases/MSL-1',
      '/historical/compare/latest/MSL%00',
      '/historical/timeline?x=1',
    ];
    for (const path of paths) {
      it(`answers ${path.slice(0, 70)} with a 4xx in the {error, detail, type} shape, never 500`, async () => {
        const res = await request(real.app).get(path);
        expect(res.status, `${res.status} ${JSON.stringify(res.body)}`).to.be.within(400, 499);
        expect(res.body).to.include.keys('error', 'detail', 'type');
      });
    }
  });
});

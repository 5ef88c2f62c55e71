// /taxonomy and /search on the real data set, every response checked against the contract. Expected values
// are read from the source tables (src.species, src.taxa, src.isolates), not from the read models the
// endpoints answer from.
import { expect } from 'chai';
import request from 'supertest';
import { onRealApp } from './support/http.js';

interface Count { value: string | null; count: number }
interface TreeNode { rank: string; name: string; species_count?: number; children?: TreeNode[] }

describe('/taxonomy and /search', function () {
  const real = onRealApp();

  /** The latest release's name of the species that had `name` in release `msl`, by ICTV's stable id. */
  const nameNow = async (name: string, msl: number) => (await real.db.all<{ species: string }>(
    'SELECT b.species FROM src.species a JOIN src.species b ON b.msl = (SELECT max(msl) FROM src.releases) AND b.ictv_id = a.ictv_id WHERE a.msl = $1 AND a.species = $2',
    [msl, name]))[0]?.species;
  const expectError = (res: request.Response, status: number, type: string) => {
    expect(res.status, res.text).to.equal(status);
    expect(res.headers['content-type']).to.match(/json/);
    expect(res.body).to.include.keys('error', 'detail', 'type');
    expect(res.body.type).to.equal(type);
    expect(res.body.error).to.be.a('string').and.not.equal('');
    expect(res.body.detail).to.be.a('string').and.not.equal('');
  };
  const sum = (xs: Count[]) => xs.reduce((a, x) => a + x.count, 0);
  /** ICTV's own count of the latest release's families (its Taxon Counts sheet). */
  const officialFamilies = () => real.db.count(`SELECT first(count ORDER BY own_release DESC, rowid) AS n FROM src.official_counts
    WHERE rank = 'family' AND msl = (SELECT max(msl) FROM src.releases)`);

  describe('GET /taxonomy/species/:scientific_name', () => {
    it('answers Tobacco Mosaic Virus (the spec example, any case) with Tobamovirus tabaci, a former name renamed in MSL39', async () => {
      const res = await request(real.app).get('/taxonomy/species/Tobacco%20Mosaic%20Virus').expect(200).expect('Content-Type', /json/);
      const now = await real.db.all<{ species: string; family: string; genus: string; realm: string; ictv_id: string }>(
        "SELECT species, family, genus, realm, ictv_id FROM src.species WHERE msl = (SELECT max(msl) FROM src.releases) AND species = 'Tobamovirus tabaci'");
      expect(await nameNow('Tobacco mosaic virus', 38)).to.equal('Tobamovirus tabaci');
      // the last release that called it Tobacco mosaic virus, plus one
      const lastOld = await real.db.count("SELECT max(msl)::INTEGER AS n FROM src.species WHERE species = 'Tobacco mosaic virus'");
      expect(res.body).to.include({
        scientific_name: 'Tobamovirus tabaci', query: 'Tobacco Mosaic Virus', matched_name: 'Tobacco mosaic virus',
        name_status: 'former', renamed_in: `MSL${lastOld + 1}`, ictv_id: Number(now[0]!.ictv_id),
      });
      expect(res.body.renamed_in).to.equal('MSL39');
      expect(res.body.taxonomy).to.include({ family: now[0]!.family, genus: now[0]!.genus, realm: now[0]!.realm });
      expect(res.body.classification).to.deep.equal({ msl_version: real.latest.version, msl_year: real.latest.year });
      expect(res.body.hosts).to.deep.equal(['plants']);
      expect(res.body.genome.type).to.equal('ssRNA(+)');
      expect(res.body.also_matches).to.deep.equal([]);
      expect(res.headers['cache-control']).to.equal('public, max-age=300');
    });

    it('answers the current name with name_status current and no rename', async () => {
      const res = await request(real.app).get('/taxonomy/species/tobamovirus+tabaci').expect(200);
      expect(res.body).to.include({ scientific_name: 'Tobamovirus tabaci', name_status: 'current', renamed_in: null, matched_name: 'Tobamovirus tabaci' });
    });

    it('finds SARS-CoV-2 by its VMR abbreviation', async () => {
      const res = await request(real.app).get('/taxonomy/species/SARS-CoV-2').expect(200);
      const [row] = await real.db.all<{ species: string }>(
        "SELECT species FROM src.isolates WHERE msl = (SELECT max(msl) FROM src.releases) AND abbreviations = 'SARS-CoV-2'");  // an additional isolate
      expect(res.body).to.include({ scientific_name: row!.species, name_status: 'abbreviation', matched_name: 'SARS-CoV-2' });
    });

    it('answers 304 to a request carrying its ETag', async () => {
      const first = await request(real.app).get('/taxonomy/species/Zika%20virus').expect(200);
      await request(real.app).get('/taxonomy/species/Zika%20virus').set('If-None-Match', first.headers.etag as string).expect(304);
    });

    it('answers an abolished species name with 404 saying when it was abolished', async () => {
      const last = await real.db.count("SELECT max(msl)::INTEGER AS n FROM src.species WHERE species = 'Abutilon Brazil virus'");
      expect(last).to.equal(29);
      const res = await request(real.app).get('/taxonomy/species/Abutilon%20Brazil%20virus');
      expectError(res, 404, 'NotFound');
      expect(res.body.detail).to.equal(
        `'Abutilon Brazil virus' is not in ${real.latest.version}: the species 'Abutilon Brazil virus' was abolished in MSL30`);
      expect(res.body.fate).to.deep.include({ change: 'abolished', version: 'MSL30', into: [], current_names: [] });
    });

    it('answers a merged species name with the species it went into, as it is named today', async () => {
      expect(await real.db.count("SELECT max(msl)::INTEGER AS n FROM src.species WHERE species = 'Torque teno virus 11'")).to.equal(35);
      const today = await nameNow('Torque teno virus 9', 36);
      const res = await request(real.app).get('/taxonomy/species/Torque%20teno%20virus%2011').expect(200);
      expect(res.body).to.include({ scientific_name: today, matched_name: 'Torque teno virus 11', name_status: 'former', status: 'merged', renamed_in: 'MSL36' });
    });

    it('answers a species split into several with 404 naming them', async () => {
      // a lineage that ended split, and whose products all reach the latest release
      const [split] = await real.db.all<{ name: string; version: string; into: string[] }>(`
        SELECT l.names[-1] AS name, 'MSL' || (l.last_msl + 1) AS version, l.split_into AS into
        FROM main.lineage_summary l
        WHERE l.ended = 'split' AND len(l.split_into) = 2
          AND (SELECT count(*) FROM main.name_index n WHERE n.name_norm = name_norm(l.names[-1])) = 1
        ORDER BY l.last_msl DESC, l.lineage_id LIMIT 1`);
      const res = await request(real.app).get(`/taxonomy/species/${encodeURIComponent(split!.name)}`);
      expectError(res, 404, 'NotFound');
      expect(res.body.fate).to.deep.include({ change: 'split', version: split!.version, into: [...split!.into].sort() });
      expect(res.body.detail).to.contain(`was split into ${[...split!.into].sort().map((n) => `'${n}'`).join(', ')} in ${split!.version}`);
    });

    it('answers an unknown name with 404 and up to 3 suggestions', async () => {
      const res = await request(real.app).get('/taxonomy/species/Tobaco%20mosaic%20virus');
      expectError(res, 404, 'NotFound');
      expect(res.body.detail).to.match(new RegExp(`^'Tobaco mosaic virus' is not the name of any taxon, virus or identifier in ${real.first.version}\\.\\.${real.latest.version}; did you mean 'Tobacco mosaic virus'`));
      expect(res.body.suggestions).to.be.an('array').with.length.within(1, 3);
      expect(res.body.suggestions[0]).to.equal('Tobacco mosaic virus');
    });

    it('answers a name without letters or digits with 404: no release used it', async () => {
      const res = await request(real.app).get('/taxonomy/species/---');
      expectError(res, 404, 'NotFound');
      expect(res.body.detail).to.contain("'---' is not the name of any taxon");
    });
  });

  describe('GET /taxonomy/family/:family_name', () => {
    it('answers Virgaviridae in any case with its lineage, genera and species, counted as in src.species', async () => {
      const res = await request(real.app).get('/taxonomy/family/virgaviridae').expect(200);
      const species = await real.db.all<{ species: string; genus: string }>("SELECT species, genus FROM src.species WHERE msl = (SELECT max(msl) FROM src.releases) AND family = 'Virgaviridae' ORDER BY species");
      const genera = await real.db.count("SELECT count(*)::INTEGER AS n FROM src.taxa WHERE msl = (SELECT max(msl) FROM src.releases) AND rank = 'genus' AND family = 'Virgaviridae'");
      expect(res.body).to.include({ family: 'Virgaviridae', msl_version: real.latest.version });
      expect(res.body.lineage).to.include({ realm: 'Riboviria', order: 'Martellivirales' });
      expect(res.body.counts).to.deep.equal({ subfamilies: 0, genera, subgenera: 0, species: species.length });
      const listed = (res.body.genera as Array<{ name: string; species: Array<{ scientific_name: string }> }>)
        .flatMap((g) => g.species.map((s) => [s.scientific_name, g.name])).sort((a, b) => a[0]!.localeCompare(b[0]!));
      expect(listed).to.deep.equal(species.map((s) => [s.species, s.genus]).sort((a, b) => a[0]!.localeCompare(b[0]!)));
    });

    it('says that Myoviridae was abolished in MSL37', async () => {
      expect(await real.db.count("SELECT max(msl)::INTEGER AS n FROM src.taxa WHERE rank = 'family' AND name = 'Myoviridae'")).to.equal(36);
      const res = await request(real.app).get('/taxonomy/family/Myoviridae');
      expectError(res, 404, 'NotFound');
      expect(res.body.detail).to.equal(`'Myoviridae' is not in ${real.latest.version}: the family 'Myoviridae' was abolished in MSL37`);
      expect(res.body.resolution).to.include({ status: 'abolished', rank: 'family' });
      expect(res.body.taxon).to.include({ name: 'Myoviridae', rank: 'family', current: false, last_version: 'MSL36' });
    });

    it('says what a genus given as a family is, and suggests families for a typo', async () => {
      const genus = await request(real.app).get('/taxonomy/family/Tobamovirus');
      expectError(genus, 404, 'NotFound');
      expect(genus.body.detail).to.equal("'Tobamovirus' is a genus, not a family");
      expect(genus.body.taxon).to.include({ name: 'Tobamovirus', rank: 'genus' });
      const typo = await request(real.app).get('/taxonomy/family/Virgaviridea');
      expectError(typo, 404, 'NotFound');
      expect(typo.body.suggestions[0]).to.equal('Virgaviridae');
    });
  });

  describe('GET /taxonomy/families', () => {
    it('lists every family of the latest release with species and genus counts equal to src.species and src.taxa', async () => {
      const res = await request(real.app).get('/taxonomy/families').expect(200);
      const expected = await real.db.all<{ family: string; species: number; genera: number }>(`
        SELECT t.name AS family,
               (SELECT count(*) FROM src.species s WHERE s.msl = (SELECT max(msl) FROM src.releases) AND s.family = t.name)::INTEGER AS species,
               (SELECT count(*) FROM src.taxa g WHERE g.msl = (SELECT max(msl) FROM src.releases) AND g.rank = 'genus' AND g.family = t.name)::INTEGER AS genera
        FROM src.taxa t WHERE t.msl = (SELECT max(msl) FROM src.releases) AND t.rank = 'family' ORDER BY t.name`);
      expect(res.body.total_families).to.equal(expected.length).and.equal(await officialFamilies());
      const got = (res.body.families as Array<{ family: string; species_count: number; genus_count: number }>)
        .map((f) => ({ family: f.family, species: f.species_count, genera: f.genus_count }));
      expect(got).to.deep.equal(expected);
      const total = await real.db.count('SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = (SELECT max(msl) FROM src.releases)');
      expect(res.body.species_in_families + res.body.species_without_family).to.equal(total);
    });

    it('lists the families of an older release when asked', async () => {
      const res = await request(real.app).get('/taxonomy/families?version=MSL23').expect(200);
      expect(res.body.total_families).to.equal(await real.db.count("SELECT count(*)::INTEGER AS n FROM src.taxa WHERE msl = 23 AND rank = 'family'"));
      expect(res.headers['cache-control']).to.equal('public, max-age=86400');
    });

    it('answers an unknown release with 404 and a malformed one with 400', async () => {
      expectError(await request(real.app).get('/taxonomy/families?version=MSL99'), 404, 'NotFound');
      expectError(await request(real.app).get('/taxonomy/families?version=forty'), 400, 'BadRequest');
    });
  });

  describe('GET /taxonomy/hierarchy', () => {
    const leaves = (n: TreeNode): number => (n.rank === 'species' ? 1 : (n.children ?? []).reduce((a, c) => a + leaves(c), 0));
    const deepest = (n: TreeNode, d = 0): number => Math.max(d, ...(n.children ?? []).map((c) => deepest(c, d + 1)));

    it('answers the whole tree of the latest release, every species a leaf', async () => {
      const res = await request(real.app).get('/taxonomy/hierarchy').expect(200);
      const species = await real.db.count('SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = (SELECT max(msl) FROM src.releases)');
      expect(res.body).to.include({ msl_version: real.latest.version, complete: true });
      expect(res.body.statistics.species).to.equal(species);
      expect(res.body.statistics.taxa.family).to.equal(await officialFamilies());
      expect(leaves(res.body.tree)).to.equal(species);
      expect(deepest(res.body.tree)).to.equal(res.body.max_depth);
    });

    it('cuts the tree after `depth` levels: the realms of the latest release at depth 1, without children', async () => {
      const res = await request(real.app).get('/taxonomy/hierarchy?depth=1').expect(200);
      expect(res.body).to.include({ depth: 1, complete: false });
      const realms = await real.db.all<{ realm: string; n: number }>(
        'SELECT realm, count(*)::INTEGER AS n FROM src.species WHERE msl = (SELECT max(msl) FROM src.releases) AND realm IS NOT NULL GROUP BY realm ORDER BY realm');
      const top = res.body.tree.children as TreeNode[];
      expect(top.filter((c) => c.rank === 'realm').map((c) => [c.name, c.species_count])).to.deep.equal(realms.map((r) => [r.realm, r.n]));
      expect(top.every((c) => c.children === undefined)).to.equal(true);
      expect(top.reduce((a, c) => a + (c.species_count ?? 0), 0)).to.equal(res.body.tree.species_count);
    });

    it('returns an older release whole when the depth is beyond its own', async () => {
      const res = await request(real.app).get('/taxonomy/hierarchy?version=MSL30&depth=15').expect(200);
      expect(res.body).to.include({ msl_version: 'MSL30', complete: true });
      expect(leaves(res.body.tree)).to.equal(await real.db.count('SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = 30'));
    });

    it('answers a depth out of 1..15 with 400', async () => {
      expectError(await request(real.app).get('/taxonomy/hierarchy?depth=0'), 400, 'BadRequest');
      expectError(await request(real.app).get('/taxonomy/hierarchy?depth=16'), 400, 'BadRequest');
      expectError(await request(real.app).get('/taxonomy/hierarchy?depth=deep'), 400, 'BadRequest');
    });
  });

  describe('POST /taxonomy/validate', () => {
    const validate = (body: unknown) => request(real.app).post('/taxonomy/validate').send(body as object);

    it('confirms a correct name and classification', async () => {
      const res = await validate({ scientific_name: 'Tobamovirus tabaci', taxonomy: { family: 'Virgaviridae', genus: 'tobamovirus' } }).expect(200);
      expect(res.body).to.include({ valid: true, msl_version: real.latest.version });
      expect(res.body.errors).to.deep.equal([]);
      expect(res.body.taxonomy.genus).to.deep.equal({ given: 'tobamovirus', valid: true, expected: 'Tobamovirus', message: "correct (ICTV writes 'Tobamovirus')" });
      expect(res.headers['cache-control']).to.equal('no-store');
    });

    it('flags a former name with the current name and the release of the change', async () => {
      const res = await validate({ scientific_name: 'Tobacco mosaic virus', taxonomy: { family: 'Virgaviridae', genus: 'Tobamovirus' } }).expect(200);
      expect(res.body.valid).to.equal(false);
      expect(res.body.scientific_name).to.deep.equal({
        given: 'Tobacco mosaic virus', valid: false, expected: 'Tobamovirus tabaci', status: 'former', renamed_in: 'MSL39',
        message: "'Tobacco mosaic virus' is a former name; the species has been 'Tobamovirus tabaci' since MSL39",
      });
      expect(res.body.taxonomy.family.valid).to.equal(true);
      expect(res.body.species.scientific_name).to.equal('Tobamovirus tabaci');
    });

    it('gives the right family for a wrong one, and says where a wrong genus belongs', async () => {
      const [cucumo] = await real.db.all<{ family: string }>("SELECT family FROM src.taxa WHERE msl = (SELECT max(msl) FROM src.releases) AND rank = 'genus' AND name = 'Cucumovirus'");
      const res = await validate({ scientific_name: 'Tobamovirus tabaci', taxonomy: { family: 'Bromoviridae', genus: 'Cucumovirus' } }).expect(200);
      expect(res.body.valid).to.equal(false);
      expect(res.body.taxonomy.family).to.deep.include({ valid: false, expected: 'Virgaviridae' });
      expect(res.body.taxonomy.genus).to.deep.include({ valid: false, expected: 'Tobamovirus' });
      expect(res.body.taxonomy.genus.message).to.contain(`'Cucumovirus' is in family '${cucumo!.family}'`);
      expect(res.body.errors).to.have.length(2);
    });

    it('flags a genus that is not in the family given when the species is unknown', async () => {
      const res = await validate({ scientific_name: 'Nonexistovirus imaginarius', taxonomy: { family: 'Virgaviridae', genus: 'Cucumovirus' } }).expect(200);
      expect(res.body.scientific_name).to.include({ status: 'unknown', valid: false });
      expect(res.body.taxonomy.family).to.deep.include({ valid: true, expected: 'Virgaviridae' });
      expect(res.body.taxonomy.genus).to.deep.equal({
        given: 'Cucumovirus', valid: false, expected: null, message: "genus 'Cucumovirus' is in family 'Bromoviridae', not in 'Virgaviridae'",
      });
      expect(res.body.species).to.equal(null);
    });

    it('says that a former family was abolished', async () => {
      const res = await validate({ scientific_name: 'Nonexistovirus imaginarius', taxonomy: { family: 'Myoviridae' } }).expect(200);
      expect(res.body.taxonomy.family).to.deep.equal({ given: 'Myoviridae', valid: false, expected: null, message: 'Myoviridae was abolished in MSL37 (last listed in MSL36)' });
    });

    it('answers 422 for a missing or mistyped field, and 400 for a body that is not JSON', async () => {
      expectError(await validate({ taxonomy: { family: 'Virgaviridae' } }), 422, 'ValidationError');
      expectError(await validate({ scientific_name: { name: 'x' } }), 422, 'ValidationError');
      expectError(await validate({ scientific_name: 'x', taxonomy: 'Virgaviridae' }), 422, 'ValidationError');
      expectError(await validate({ scientific_name: 'x', taxonomy: { tribe: 'x' } }), 422, 'ValidationError');
      expectError(await request(real.app).post('/taxonomy/validate').set('Content-Type', 'application/json').send('{"scientific_name": '), 400, 'BadRequest');
    });
  });

  describe('POST /search/species', () => {
    const search = (body: unknown) => request(real.app).post('/search/species').send(body as object);

    it('finds SARS-CoV-2 by its abbreviation, exactly', async () => {
      const [row] = await real.db.all<{ species: string }>(
        "SELECT species FROM src.isolates WHERE msl = (SELECT max(msl) FROM src.releases) AND abbreviations = 'SARS-CoV-2'");  // an additional isolate
      const res = await search({ query: 'SARS-CoV-2' }).expect(200);
      expect(res.body.total_matches).to.equal(1);
      expect(res.body.results[0]).to.deep.include({ scientific_name: row!.species, family: 'Coronaviridae' });
      expect(res.body.results[0].match).to.deep.equal({ name: 'SARS-CoV-2', kind: 'abbreviation', type: 'exact', similarity: 1 });
    });

    it('finds Zika virus by its former species name', async () => {
      const res = await search({ query: 'Zika virus' }).expect(200);
      expect(res.body.results[0].scientific_name).to.equal(await nameNow('Zika virus', 37));
      expect(res.body.results[0].match).to.include({ kind: 'former', type: 'exact' });
    });

    it('ranks exact before prefix before substring before typo matches', async () => {
      const res = await search({ query: 'tobamovirus', limit: 500 }).expect(200);
      const order = ['exact', 'prefix', 'substring', 'typo'];
      const types = (res.body.results as Array<{ match: { type: string } }>).map((r) => order.indexOf(r.match.type));
      expect(types).to.deep.equal([...types].sort((a, b) => a - b));
      expect(res.body.total_matches).to.be.at.least(await real.db.count(
        "SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = (SELECT max(msl) FROM src.releases) AND genus = 'Tobamovirus'"));
    });

    it('tolerates a typo', async () => {
      const res = await search({ query: 'Tobaco mosaic virus' }).expect(200);
      expect(res.body.results[0]).to.deep.include({ scientific_name: 'Tobamovirus tabaci' });
      expect(res.body.results[0].match).to.include({ name: 'Tobacco mosaic virus', type: 'typo' });
    });

    it('filters by family in any letter case, and exact_match keeps only equal names', async () => {
      const tobamo = await real.db.count("SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = (SELECT max(msl) FROM src.releases) AND genus = 'Tobamovirus'");
      const res = await search({ query: 'tobamovirus', family_filter: 'VIRGAVIRIDAE', genus_filter: 'tobamovirus', limit: 1 }).expect(200);
      expect(res.body.total_matches).to.equal(tobamo);
      expect(res.body.results).to.have.length(1);
      expect((await search({ query: 'tobamovirus', family_filter: 'Bromoviridae' }).expect(200)).body.total_matches).to.equal(0);
      const exact = await search({ query: 'tobacco mosaic virus', exact_match: true }).expect(200);
      expect(exact.body.total_matches).to.equal(1);
    });

    it('answers 422 for a missing query or a mistyped field', async () => {
      expectError(await search({ limit: 5 }), 422, 'ValidationError');
      // no letter or digit: a valid query that matches nothing
      expect((await search({ query: '!!!' })).body).to.include({ total_matches: 0 });
      expectError(await search({ query: 'zika', exact_match: 'maybe' }), 422, 'ValidationError');
      expectError(await search({ query: 'zika', limit: 0 }), 422, 'ValidationError');
    });
  });

  describe('GET /search/facets', () => {
    it('counts every species of the latest release once in each facet, family counts as in src.species', async () => {
      const res = await request(real.app).get('/search/facets').expect(200);
      const total = await real.db.count('SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = (SELECT max(msl) FROM src.releases)');
      expect(res.body.total_species).to.equal(total);
      for (const facet of ['family', 'genus', 'realm', 'genome_composition', 'host_source']) {
        expect(sum(res.body.facets[facet]), facet).to.equal(total);
      }
      const families = await real.db.all<{ family: string | null; n: number }>(
        'SELECT family, count(*)::INTEGER AS n FROM src.species WHERE msl = (SELECT max(msl) FROM src.releases) GROUP BY family ORDER BY n DESC, family NULLS LAST');
      expect((res.body.facets.family as Count[]).map((f) => [f.value, f.count])).to.deep.equal(families.map((f) => [f.family, f.n]));
      const releases = res.body.facets.release as Array<{ value: string; count: number }>;
      expect(releases).to.have.length(await real.db.count('SELECT count(*)::INTEGER AS n FROM src.releases'));
      expect(releases[0]).to.deep.include({ value: 'MSL1', count: await real.db.count('SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = 1') });
    });

    it('answers another release when asked', async () => {
      const res = await request(real.app).get('/search/facets?version=MSL30').expect(200);
      expect(res.body.total_species).to.equal(await real.db.count('SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = 30'));
      expect(res.body.facets.realm).to.deep.equal([{ value: null, count: res.body.total_species }]);
    });
  });

  describe('POST /search/faceted', () => {
    const faceted = (body: unknown) => request(real.app).post('/search/faceted').send(body as object);

    it('lists a family of a release with facet counts of the filtered species', async () => {
      const res = await faceted({ family: 'virgaviridae', msl_version: 'MSL30', limit: 5 }).expect(200);
      const members = await real.db.all<{ genus: string; n: number }>(
        "SELECT genus, count(*)::INTEGER AS n FROM src.species WHERE msl = 30 AND family = 'Virgaviridae' GROUP BY genus ORDER BY n DESC, genus");
      const total = members.reduce((a, m) => a + m.n, 0);
      expect(res.body).to.include({ msl_version: 'MSL30', family: 'Virgaviridae', total, limit: 5, offset: 0 });
      expect(res.body.results).to.have.length(5);
      expect((res.body.facets.genus as Count[]).map((g) => [g.value, g.count])).to.deep.equal(members.map((m) => [m.genus, m.n]));
    });

    it('narrows by genus and host source, and says when nothing is left', async () => {
      const tobamo = await real.db.count("SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = (SELECT max(msl) FROM src.releases) AND genus = 'Tobamovirus'");
      const res = await faceted({ family: 'Virgaviridae', msl_version: 'latest', genus: 'TOBAMOVIRUS', host_source: 'plants' }).expect(200);
      expect(res.body.total).to.equal(tobamo);
      const none = await faceted({ family: 'Virgaviridae', msl_version: 'MSL40', host_source: 'bacteria' }).expect(200);
      expect(none.body).to.deep.include({ total: 0, results: [] });
    });

    it('answers a family not in that release with 404, and a missing msl_version with 422', async () => {
      const res = await faceted({ family: 'Virgaviridae', msl_version: 'MSL23' });
      expectError(res, 404, 'NotFound');
      const first = await real.db.count("SELECT min(msl)::INTEGER AS n FROM src.taxa WHERE rank = 'family' AND name = 'Virgaviridae'");
      expect(res.body.detail).to.equal(`'Virgaviridae' is not in MSL23: the family 'Virgaviridae' was first listed in MSL${first}`);
      expectError(await faceted({ family: 'Virgaviridae' }), 422, 'ValidationError');
      expectError(await faceted({ family: 'Virgaviridae', msl_version: 'MSL99' }), 404, 'NotFound');
    });
  });

  describe('GET /search/family/:family_name/summary', () => {
    it('summarises Virgaviridae with its species list as in src.species', async () => {
      const res = await request(real.app).get('/search/family/VIRGAVIRIDAE/summary').expect(200);
      const species = await real.db.all<{ species: string }>("SELECT species FROM src.species WHERE msl = (SELECT max(msl) FROM src.releases) AND family = 'Virgaviridae' ORDER BY sort");
      expect(res.body.family).to.equal('Virgaviridae');
      expect(res.body.statistics.species).to.equal(species.length);
      expect(res.body.species.map((s: { scientific_name: string }) => s.scientific_name)).to.deep.equal(species.map((s) => s.species));
      expect(sum(res.body.statistics.genome_composition)).to.equal(species.length);
      expect(res.body.statistics.history.first_version).to.equal(
        `MSL${await real.db.count("SELECT min(msl)::INTEGER AS n FROM src.taxa WHERE rank = 'family' AND name = 'Virgaviridae'")}`);
    });

    it('answers a former family with 404 saying what became of it', async () => {
      const res = await request(real.app).get('/search/family/Herpesviridae/summary');
      expectError(res, 404, 'NotFound');
      expect(res.body.detail).to.equal(`'Herpesviridae' is not a family of ${real.latest.version}: it was renamed 'Orthoherpesviridae' in MSL38; in ${real.latest.version} it is 'Orthoherpesviridae'`);
    });
  });

  describe('POST /search/advanced', () => {
    const advanced = (body: unknown) => request(real.app).post('/search/advanced').send(body as object);

    it('searches an era: species present in MSL23-26, as listed in the last release of the era that has them', async () => {
      const res = await advanced({ query: 'mosaic', filters: { family: 'virgaviridae', era: '2005-2011' }, sort_by: 'alphabetical', limit: 500 }).expect(200);
      expect(res.body.era).to.deep.equal({ name: '2005-2011', from_year: 2005, to_year: 2011 });
      const names = res.body.results.map((r: { scientific_name: string }) => r.scientific_name);
      expect(names).to.deep.equal([...names].sort());
      // every Virgaviridae species of MSL26 (the era's last release) with "mosaic" in its name is there
      const expected = await real.db.all<{ species: string }>(
        "SELECT species FROM src.species WHERE msl = 26 AND family = 'Virgaviridae' AND species ILIKE '%mosaic%'");
      expect(names).to.include.members(expected.map((e) => e.species));
      for (const r of res.body.results as Array<{ msl_version: string; family: string; scientific_name: string }>) {
        expect(Number(r.msl_version.slice(3))).to.be.within(23, 26);
        expect(await real.db.count('SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = $1 AND species = $2 AND family = $3',
          [Number(r.msl_version.slice(3)), r.scientific_name, 'Virgaviridae'])).to.equal(1);
      }
    });

    it('searches the latest release by host and genome composition, most recently changed first', async () => {
      const res = await advanced({ filters: { host: 'Vertebrates', genome_composition: 'ssRNA(+)' }, sort_by: 'recently_changed', limit: 50 }).expect(200);
      const versions = (res.body.results as Array<{ last_change: { version: string }; hosts: string[]; msl_version: string }>);
      expect(versions.every((r) => r.msl_version === real.latest.version && r.hosts.includes('vertebrates'))).to.equal(true);
      const order = versions.map((r) => Number(r.last_change.version.slice(3)));
      expect(order).to.deep.equal([...order].sort((a, b) => b - a));
    });

    it('searches the first lists (1971-1989) and the open era that reaches the latest release', async () => {
      const old = await advanced({ query: 'tobacco mosaic', filters: { era: '1971-1989' }, sort_by: 'alphabetical', limit: 50 }).expect(200);
      expect(old.body.era).to.deep.equal({ name: '1971-1989', from_year: 1971, to_year: 1989 });
      const results = old.body.results as Array<{ scientific_name: string; msl_version: string }>;
      expect(results.map((r) => r.scientific_name)).to.include('Tobacco mosaic virus');
      const lastBefore1990 = await real.db.count('SELECT max(msl)::INTEGER AS n FROM src.releases WHERE year <= 1989');
      for (const r of results) expect(Number(r.msl_version.slice(3))).to.be.within(1, lastBefore1990);
      const now = await advanced({ filters: { era: '2021-present' }, limit: 1 }).expect(200);
      expect(now.body.era).to.deep.equal({ name: '2021-present', from_year: 2021, to_year: real.latest.year });
    });

    it('answers an unknown era with 422', async () => {
      expectError(await advanced({ filters: { era: '1999' } }), 422, 'ValidationError');
      expectError(await advanced({ sort_by: 'popularity' }), 422, 'ValidationError');
    });
  });

  describe('GET /search/statistics', () => {
    it('gives the latest release\'s totals and distributions that add up to the species of src.species', async () => {
      const res = await request(real.app).get('/search/statistics').expect(200);
      const total = await real.db.count('SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = (SELECT max(msl) FROM src.releases)');
      expect(res.body.totals).to.include({ species: total, families: await officialFamilies() });
      for (const d of ['realm', 'genome_composition', 'host_source']) expect(sum(res.body.distributions[d]), d).to.equal(total);
      const [largest] = await real.db.all<{ family: string; n: number }>(
        'SELECT family, count(*)::INTEGER AS n FROM src.species WHERE msl = (SELECT max(msl) FROM src.releases) AND family IS NOT NULL GROUP BY family ORDER BY n DESC LIMIT 1');
      expect(res.body.distributions.largest_families[0]).to.deep.equal({ name: largest!.family, species: largest!.n });
      const inFamilies = (res.body.distributions.family_size as Array<{ species: number }>).reduce((a, b) => a + b.species, 0);
      expect(inFamilies).to.equal(total - res.body.totals.species_without_family);
      expect(res.body.change).to.include({ previous_version: `MSL${real.latest.msl - 1}`,
        species_delta: total - await real.db.count('SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = $1', [real.latest.msl - 1]) });
    });
  });

  describe('hostile input', () => {
    it('never answers 500 to long names, SQL fragments, NUL bytes or broken JSON', async () => {
      const long = 'a'.repeat(10_000);
      const attempts: Array<[request.Test, number]> = [  // [request, expected status]
        [request(real.app).get(`/taxonomy/species/${long}`), 400],
        [request(real.app).get(`/taxonomy/family/${long}`), 400],
        [request(real.app).get(`/search/family/${long}/summary`), 400],
        [request(real.app).get("/taxonomy/species/x'%3B%20DROP%20TABLE%20species%3B--"), 404],
        [request(real.app).get("/taxonomy/family/Virgaviridae'%20OR%20'1'='1"), 404],
        [request(real.app).get('/taxonomy/species/Tobacco%00mosaic%00virus'), 200],
        [request(real.app).post('/search/species').send({ query: long }), 422],
        [request(real.app).post('/search/species').send({ query: "zika' OR 1=1 --" }), 200],
        [request(real.app).post('/search/species').send({ query: 'zika\u0000virus' }), 200],
        [request(real.app).post('/search/advanced').send({ query: 'zika', filters: { family: "x'); DROP TABLE taxa; --" } }), 200],
        [request(real.app).post('/search/advanced').send({ query: '%_%' }), 200],
        [request(real.app).post('/search/faceted').send({ family: '\u0000', msl_version: 'MSL40' }), 404],
        [request(real.app).post('/taxonomy/validate').send({ scientific_name: long }), 422],
        [request(real.app).post('/taxonomy/validate').set('Content-Type', 'application/json').send('{"scientific_name": "x",'), 400],
        [request(real.app).post('/search/species').set('Content-Type', 'application/json').send('[1, 2'), 400],
        [request(real.app).post('/search/species').set('Content-Type', 'application/json').send('[]'), 422],
      ];
      for (const [i, [req, status]] of attempts.entries()) {
        const res = await req;
        expect(res.status, `attempt ${i}: ${res.text.slice(0, 200)}`).to.equal(status);
        if (status !== 200) expectError(res, status, { 400: 'BadRequest', 404: 'NotFound', 422: 'ValidationError' }[status]!);
      }
      // the data are still there
      await request(real.app).get('/taxonomy/family/Virgaviridae').expect(200);
    });
  });
});

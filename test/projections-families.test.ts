// The family and release-statistics read models (family_evolution, family_stability, diversity_stats,
// hierarchy, timeline): exact values on a tiny three-release history written here, then the real data set.
import { expect } from 'chai';
import { fixtureDb, realDb, type Db } from './support/data.js';

// MSL23 -> MSL24: Betaviridae is renamed Gammaviridae (same ICTV id of the family node); Oldviridae is
// abolished, its genus Oldvirus moving to Alphaviridae and Oldervirus to Gammaviridae; Alphavirus three is new.
// MSL24 -> MSL25: the genus Deltavirus moves from Gammaviridae to Alphaviridae; Alphavirus one is renamed
// Alphavirus unus; Novaviridae is created with one new species and an empty genus. Floating virus never has
// a lineage. A species keeps its ICTV id from release to release.
const HISTORY = `
INSERT INTO releases (version, msl, year, label, species_source) VALUES
  ('MSL23', 23, 2005, '2005', 'tree'), ('MSL24', 24, 2008, '2008', 'tree'), ('MSL25', 25, 2009, '2009', 'tree');

INSERT INTO species (msl, sort, "order", family, genus, species, genome_composition, ictv_id, taxnode_id) VALUES
  (23, 1, 'Ordovirales', 'Alphaviridae', 'Alphavirus', 'Alphavirus one', NULL, 1, 2301),
  (23, 2, 'Ordovirales', 'Alphaviridae', 'Alphavirus', 'Alphavirus two', NULL, 2, 2302),
  (23, 3, 'Ordovirales', 'Betaviridae', 'Betavirus', 'Beta virus 1', NULL, 3, 2303),
  (23, 4, 'Ordovirales', 'Betaviridae', 'Deltavirus', 'Delta virus 1', NULL, 4, 2304),
  (23, 5, 'Ordovirales', 'Betaviridae', 'Deltavirus', 'Delta virus 2', NULL, 5, 2305),
  (23, 6, NULL, 'Oldviridae', 'Oldvirus', 'Old virus A', NULL, 6, 2306),
  (23, 7, NULL, 'Oldviridae', 'Oldvirus', 'Old virus B', NULL, 7, 2307),
  (23, 8, NULL, 'Oldviridae', 'Oldvirus', 'Old virus C', NULL, 8, 2308),
  (23, 9, NULL, 'Oldviridae', 'Oldervirus', 'Older virus D', NULL, 9, 2309),
  (23, 10, NULL, NULL, NULL, 'Floating virus', NULL, 10, 2310),
  (24, 1, 'Ordovirales', 'Alphaviridae', 'Alphavirus', 'Alphavirus one', 'ssRNA(+)', 1, 2401),
  (24, 2, 'Ordovirales', 'Alphaviridae', 'Alphavirus', 'Alphavirus two', 'ssRNA(+)', 2, 2402),
  (24, 3, 'Ordovirales', 'Alphaviridae', 'Alphavirus', 'Alphavirus three', 'ssRNA(+)', 11, 2411),
  (24, 4, 'Ordovirales', 'Alphaviridae', 'Oldvirus', 'Old virus A', 'ssRNA(+)', 6, 2406),
  (24, 5, 'Ordovirales', 'Alphaviridae', 'Oldvirus', 'Old virus B', 'ssRNA(+)', 7, 2407),
  (24, 6, 'Ordovirales', 'Alphaviridae', 'Oldvirus', 'Old virus C', 'ssRNA(+)', 8, 2408),
  (24, 7, 'Ordovirales', 'Gammaviridae', 'Betavirus', 'Beta virus 1', 'dsDNA', 3, 2403),
  (24, 8, 'Ordovirales', 'Gammaviridae', 'Deltavirus', 'Delta virus 1', 'dsDNA', 4, 2404),
  (24, 9, 'Ordovirales', 'Gammaviridae', 'Deltavirus', 'Delta virus 2', 'dsDNA', 5, 2405),
  (24, 10, 'Ordovirales', 'Gammaviridae', 'Oldervirus', 'Older virus D', 'dsDNA', 9, 2409),
  (24, 11, NULL, NULL, NULL, 'Floating virus', 'dsDNA', 10, 2410),
  (25, 1, 'Ordovirales', 'Alphaviridae', 'Alphavirus', 'Alphavirus unus', 'ssRNA(+)', 1, 2501),
  (25, 2, 'Ordovirales', 'Alphaviridae', 'Alphavirus', 'Alphavirus two', 'ssRNA(+)', 2, 2502),
  (25, 3, 'Ordovirales', 'Alphaviridae', 'Alphavirus', 'Alphavirus three', 'ssRNA(+)', 11, 2511),
  (25, 4, 'Ordovirales', 'Alphaviridae', 'Oldvirus', 'Old virus A', 'ssRNA(+)', 6, 2506),
  (25, 5, 'Ordovirales', 'Alphaviridae', 'Oldvirus', 'Old virus B', 'ssRNA(+)', 7, 2507),
  (25, 6, 'Ordovirales', 'Alphaviridae', 'Oldvirus', 'Old virus C', 'ssRNA(+)', 8, 2508),
  (25, 7, 'Ordovirales', 'Alphaviridae', 'Deltavirus', 'Delta virus 1', 'dsDNA', 4, 2504),
  (25, 8, 'Ordovirales', 'Alphaviridae', 'Deltavirus', 'Delta virus 2', 'dsDNA', 5, 2505),
  (25, 9, 'Ordovirales', 'Gammaviridae', 'Betavirus', 'Beta virus 1', 'dsDNA', 3, 2503),
  (25, 10, 'Ordovirales', 'Gammaviridae', 'Oldervirus', 'Older virus D', 'dsDNA', 9, 2509),
  (25, 11, NULL, 'Novaviridae', 'Novavirus', 'Novavirus primus', 'dsDNA', 12, 2512),
  (25, 12, NULL, NULL, NULL, 'Floating virus', 'dsDNA', 10, 2510);

-- every taxon of every release, lineage columns filled down to its own rank, and one genus without species
INSERT INTO taxa (msl, rank, name, "order")
  SELECT DISTINCT msl, 'order', "order", "order" FROM species WHERE "order" IS NOT NULL;
INSERT INTO taxa (msl, rank, name, "order", family)
  SELECT DISTINCT msl, 'family', family, "order", family FROM species WHERE family IS NOT NULL;
INSERT INTO taxa (msl, rank, name, "order", family, genus)
  SELECT DISTINCT msl, 'genus', genus, "order", family, genus FROM species WHERE genus IS NOT NULL;
INSERT INTO taxa (msl, rank, name, "order", family, genus, species, taxnode_id)
  SELECT msl, 'species', species, "order", family, genus, species, taxnode_id FROM species;
INSERT INTO taxa (msl, rank, name, family, genus) VALUES (25, 'genus', 'Emptyvirus', 'Novaviridae', 'Emptyvirus');

-- the family node keeps its ICTV id through the rename
INSERT INTO taxon_nodes (taxnode_id, ictv_id, rank, name, msl) VALUES
  (2390, 900, 'family', 'Betaviridae', 23), (2490, 900, 'family', 'Gammaviridae', 24), (2590, 900, 'family', 'Gammaviridae', 25);

-- VMR exemplars for MSL25 only, plus one additional isolate that host counts ignore
INSERT INTO isolates (msl, "row", isolate_id, species_sort, isolate_sort, "order", family, genus, species, ictv_id, exemplar, host_source, genome_composition)
  SELECT msl, sort, 'I' || sort, sort, 1, "order", family, genus, species, ictv_id, 'E',
         CASE WHEN family = 'Alphaviridae' THEN 'plants' ELSE 'bacteria' END, genome_composition
  FROM species WHERE msl = 25;
INSERT INTO isolates (msl, "row", isolate_id, species_sort, isolate_sort, "order", family, genus, species, ictv_id, exemplar, host_source)
  VALUES (25, 13, 'I13', 2, 2, 'Ordovirales', 'Alphaviridae', 'Alphavirus', 'Alphavirus two', 2, 'A', 'fungi');
`;

interface EvolutionRow {
  family: string; version: string; renamed_from: string | null; species: number; genera: number;
  species_prev: number | null; gained: number; lost: number; renamed: number; moved_in: number; moved_out: number;
  abolished: number; merged: number; split: number; events: string;
}

describe('family and release statistics read models', function () {

  describe('on a three-release fixture', () => {
    let db: Db;
    before(async () => { db = await fixtureDb(HISTORY); });
    after(() => db.close());

    describe('family_evolution', () => {
      let rows: EvolutionRow[];
      before(async () => {
        rows = await db.all<EvolutionRow>(`
          SELECT family, version, renamed_from, species::INT AS species, genera::INT AS genera, species_prev::INT AS species_prev,
                 gained::INT AS gained, lost::INT AS lost, renamed::INT AS renamed, moved_in::INT AS moved_in,
                 moved_out::INT AS moved_out, abolished::INT AS abolished, merged::INT AS merged, split::INT AS split,
                 to_json(events)::VARCHAR AS events
          FROM family_evolution ORDER BY family, msl`);
      });

      it('has one row per family and release it exists in, with the counts of the step into that release', () => {
        const counts = rows.map(({ events: _events, ...r }) => r);
        const row = (family: string, version: string, renamed_from: string | null, species: number, genera: number,
          species_prev: number | null, gained: number, lost: number, renamed: number, moved_in: number, moved_out: number) =>
          ({ family, version, renamed_from, species, genera, species_prev, gained, lost, renamed, moved_in, moved_out, abolished: 0, merged: 0, split: 0 });
        expect(counts).to.deep.equal([
          row('Alphaviridae', 'MSL23', null, 2, 1, null, 0, 0, 0, 0, 0),
          row('Alphaviridae', 'MSL24', null, 6, 2, 2, 1, 0, 0, 3, 0),
          row('Alphaviridae', 'MSL25', null, 8, 3, 6, 0, 0, 1, 2, 0),
          row('Betaviridae', 'MSL23', null, 3, 2, null, 0, 0, 0, 0, 0),
          row('Gammaviridae', 'MSL24', 'Betaviridae', 4, 3, 3, 0, 0, 0, 1, 0),
          row('Gammaviridae', 'MSL25', null, 2, 2, 4, 0, 2, 0, 0, 2),
          row('Novaviridae', 'MSL25', null, 1, 2, null, 1, 0, 0, 0, 0),
          row('Oldviridae', 'MSL23', null, 4, 2, null, 0, 0, 0, 0, 0),
        ]);
      });

      it('records the rename, the abolition, the merge and the creation, each on the right row', () => {
        const events = Object.fromEntries(rows.filter((r) => r.events !== '[]').map((r) => [`${r.family} ${r.version}`, JSON.parse(r.events)]));
        expect(events).to.deep.equal({
          'Betaviridae MSL23': [{ msl_version: 'MSL24', kind: 'renamed', species: 4, related: ['Gammaviridae'],
            description: 'Betaviridae renamed Gammaviridae in MSL24 (4 species)' }],
          'Gammaviridae MSL24': [{ msl_version: 'MSL24', kind: 'renamed', species: 4, related: ['Betaviridae'],
            description: 'Betaviridae renamed Gammaviridae in MSL24 (4 species)' }],
          'Oldviridae MSL23': [{ msl_version: 'MSL24', kind: 'abolished', species: 4, related: ['Alphaviridae', 'Gammaviridae'],
            description: 'Oldviridae abolished in MSL24: of its 4 species, 4 moved to 2 families, largest Alphaviridae (3), Gammaviridae (1)' }],
          'Alphaviridae MSL24': [{ msl_version: 'MSL24', kind: 'merged', species: 5, related: ['Oldviridae'],
            description: 'Oldviridae (3 of 4 species), Alphaviridae (2 of 2 species) merged into Alphaviridae in MSL24' }],
          'Novaviridae MSL25': [{ msl_version: 'MSL25', kind: 'created', species: 1, related: [],
            description: 'Novaviridae created in MSL25 with 1 species in 2 genera: 1 new' }],
        });
      });
    });

    describe('family_stability', () => {
      it('scores a family whose species only changed name above one that lost all its species', async () => {
        const rows = await db.all(`
          SELECT family, first_version, last_version, renamed_to, species_steps::INT AS steps, renamed::INT AS renamed,
                 moved::INT AS moved, stability, stability_rank::INT AS stability_rank, median_stability
          FROM family_stability ORDER BY family`);
        expect(rows).to.deep.equal([
          { family: 'Alphaviridae', first_version: 'MSL23', last_version: 'MSL25', renamed_to: null, steps: 8, renamed: 1, moved: 0, stability: 0.9375, stability_rank: 2, median_stability: 0.71875 },
          { family: 'Betaviridae', first_version: 'MSL23', last_version: 'MSL23', renamed_to: 'Gammaviridae', steps: 3, renamed: 0, moved: 0, stability: 1, stability_rank: 1, median_stability: 0.71875 },
          { family: 'Gammaviridae', first_version: 'MSL24', last_version: 'MSL25', renamed_to: null, steps: 4, renamed: 0, moved: 2, stability: 0.5, stability_rank: 3, median_stability: 0.71875 },
          { family: 'Novaviridae', first_version: 'MSL25', last_version: 'MSL25', renamed_to: null, steps: 0, renamed: 0, moved: 0, stability: null, stability_rank: null, median_stability: 0.71875 },
          { family: 'Oldviridae', first_version: 'MSL23', last_version: 'MSL23', renamed_to: null, steps: 4, renamed: 0, moved: 4, stability: 0, stability_rank: 4, median_stability: 0.71875 },
        ]);
      });
    });

    describe('diversity_stats', () => {
      it('computes Shannon and Simpson over families and genera, leaving out species without one', async () => {
        const [row] = await db.all<Record<string, number>>(`
          SELECT species::INT AS species, species_delta::INT AS delta, species_growth_pct AS pct,
                 families_with_species::INT AS families, species_without_family::INT AS unplaced,
                 family_shannon, family_simpson, genus_shannon, genus_simpson
          FROM diversity_stats WHERE version = 'MSL24'`);
        // families 6 + 4 species (Floating virus left out): p = 0.6, 0.4; genera 3, 3, 2, 1, 1 of 10
        const shannon = (p: number[]) => -p.reduce((s, x) => s + x * Math.log(x), 0);
        expect(row).to.include({ species: 11, delta: 1, pct: 10, families: 2, unplaced: 1 });
        expect(row!.family_shannon).to.be.closeTo(shannon([0.6, 0.4]), 1e-12);
        expect(row!.family_simpson).to.be.closeTo(0.48, 1e-12);
        expect(row!.genus_shannon).to.be.closeTo(shannon([0.3, 0.3, 0.2, 0.1, 0.1]), 1e-12);
        expect(row!.genus_simpson).to.be.closeTo(0.76, 1e-12);
      });

      it('counts taxa per rank, species per composition and host, and says which releases lack them', async () => {
        const rows = await db.all(`
          SELECT version, taxa.family::INT AS families, taxa.genus::INT AS genera, taxa.species::INT AS species,
                 to_json(species_per_genome_composition)::VARCHAR AS compositions, genome_composition_note,
                 to_json(species_per_host_source)::VARCHAR AS hosts, host_source_note,
                 to_json(top_families)::VARCHAR AS top
          FROM diversity_stats ORDER BY msl`);
        expect(rows).to.deep.equal([
          { version: 'MSL23', families: 3, genera: 5, species: 10, compositions: null,
            genome_composition_note: 'genome composition is not recorded in MSL23 (first recorded in MSL24)',
            hosts: null, host_source_note: 'host source is not recorded in MSL23 (the VMR exemplar rows start in MSL25)',
            top: '[{"family":"Oldviridae","species":4},{"family":"Betaviridae","species":3},{"family":"Alphaviridae","species":2}]' },
          { version: 'MSL24', families: 2, genera: 5, species: 11,
            compositions: '[{"genome_composition":"ssRNA(+)","species":6},{"genome_composition":"dsDNA","species":5}]', genome_composition_note: null,
            hosts: null, host_source_note: 'host source is not recorded in MSL24 (the VMR exemplar rows start in MSL25)',
            top: '[{"family":"Alphaviridae","species":6},{"family":"Gammaviridae","species":4}]' },
          { version: 'MSL25', families: 3, genera: 7, species: 12,
            compositions: '[{"genome_composition":"dsDNA","species":6},{"genome_composition":"ssRNA(+)","species":6}]', genome_composition_note: null,
            hosts: '[{"host_source":"plants","species":8},{"host_source":"bacteria","species":4}]', host_source_note: null,
            top: '[{"family":"Alphaviridae","species":8},{"family":"Gammaviridae","species":2},{"family":"Novaviridae","species":1}]' },
        ]);
      });
    });

    describe('hierarchy', () => {
      it('nests MSL25 from the root down to species, skipping unused ranks and keeping the empty genus', async () => {
        const [row] = await db.all<{ tree: string }>("SELECT tree::VARCHAR AS tree FROM hierarchy WHERE version = 'MSL25'");
        const sp = (name: string) => ({ rank: 'species', name });
        const node = (rank: string, name: string, species_count: number, children: unknown[]) => ({ rank, name, species_count, children });
        expect(JSON.parse(row!.tree)).to.deep.equal(
          node('root', 'MSL25', 12, [
            node('order', 'Ordovirales', 10, [
              node('family', 'Alphaviridae', 8, [
                node('genus', 'Alphavirus', 3, [sp('Alphavirus three'), sp('Alphavirus two'), sp('Alphavirus unus')]),
                node('genus', 'Deltavirus', 2, [sp('Delta virus 1'), sp('Delta virus 2')]),
                node('genus', 'Oldvirus', 3, [sp('Old virus A'), sp('Old virus B'), sp('Old virus C')]),
              ]),
              node('family', 'Gammaviridae', 2, [
                node('genus', 'Betavirus', 1, [sp('Beta virus 1')]),
                node('genus', 'Oldervirus', 1, [sp('Older virus D')]),
              ]),
            ]),
            node('family', 'Novaviridae', 1, [
              node('genus', 'Emptyvirus', 0, []),
              node('genus', 'Novavirus', 1, [sp('Novavirus primus')]),
            ]),
            sp('Floating virus'),
          ]),
        );
      });
    });
  });

  describe('on the real data set', () => {
    let db: Db;
    before(async () => { db = await realDb(); });
    after(() => db.close());

    const one = async <T>(sql: string, values: unknown[] = []): Promise<T> => (await db.all<T>(sql, values))[0]!;

    it('ends the order Caudovirales and the families Myoviridae, Podoviridae, Siphoviridae in MSL36', async () => {
      const rows = await db.all(`
        SELECT name, rank, max(msl)::INT AS last FROM src.taxa
        WHERE (rank = 'order' AND name = 'Caudovirales') OR (rank = 'family' AND name IN ('Myoviridae', 'Podoviridae', 'Siphoviridae'))
        GROUP BY ALL ORDER BY name`);
      expect(rows).to.deep.equal([
        { name: 'Caudovirales', rank: 'order', last: 36 },
        { name: 'Myoviridae', rank: 'family', last: 36 },
        { name: 'Podoviridae', rank: 'family', last: 36 },
        { name: 'Siphoviridae', rank: 'family', last: 36 },
      ]);
      const species = await db.all(`
        SELECT family, max(msl)::INT AS last FROM src.species WHERE family IN ('Myoviridae', 'Podoviridae', 'Siphoviridae')
        GROUP BY family ORDER BY family`);
      expect(species).to.deep.equal([{ family: 'Myoviridae', last: 36 }, { family: 'Podoviridae', last: 36 }, { family: 'Siphoviridae', last: 36 }]);
    });

    it('gives each of the three phage families an abolished event in MSL37 on its last row, MSL36', async () => {
      const rows = await db.all(`
        SELECT family, max(msl)::INT AS last,
               flatten(list(list_transform(list_filter(events, e -> e.kind = 'abolished'), e -> e.msl_version) ORDER BY msl)) AS abolished,
               flatten(list(list_transform(list_filter(events, e -> e.kind = 'abolished'), e -> e.description)))[1] AS description
        FROM family_evolution
        WHERE family IN ('Myoviridae', 'Podoviridae', 'Siphoviridae')
        GROUP BY family ORDER BY family`);
      expect(rows.map((r) => [r.family, r.last, r.abolished])).to.deep.equal([
        ['Myoviridae', 36, ['MSL37']], ['Podoviridae', 36, ['MSL37']], ['Siphoviridae', 36, ['MSL37']],
      ]);
      expect(rows[0]!.description).to.match(/^Myoviridae abolished in MSL37: of its 625 species, 278 moved to 6 families, largest Straboviridae \(160\)/);
      const lifetime = await one<{ kinds: string[] }>(
        "SELECT list_transform(list_filter(events, e -> e.msl_version = 'MSL37'), e -> e.kind) AS kinds FROM family_stability WHERE family = 'Myoviridae'");
      expect(lifetime.kinds).to.include('abolished');
    });

    it('creates Straboviridae in MSL37 from Myoviridae species', async () => {
      expect(await one("SELECT min(msl)::INT AS first FROM src.taxa WHERE rank = 'family' AND name = 'Straboviridae'")).to.deep.equal({ first: 37 });
      const first = await one<{ version: string; kinds: string[]; related: string[] }>(`
        SELECT version, list_transform(events, e -> e.kind) AS kinds, events[1].related AS related
        FROM family_evolution WHERE family = 'Straboviridae' ORDER BY msl LIMIT 1`);
      expect(first).to.deep.equal({ version: 'MSL37', kinds: ['created'], related: ['Myoviridae'] });
    });

    it('moves the genus Tequatrovirus from Myoviridae (MSL36) to Straboviridae (MSL37)', async () => {
      const genus = await db.all("SELECT msl::INT AS msl, family FROM src.taxa WHERE rank = 'genus' AND name = 'Tequatrovirus' AND msl IN (36, 37) ORDER BY msl");
      expect(genus).to.deep.equal([{ msl: 36, family: 'Myoviridae' }, { msl: 37, family: 'Straboviridae' }]);
      // every Tequatrovirus species of MSL36 carries on into Straboviridae
      const moves = await db.all(`
        SELECT p.family AS from_family, n.family AS to_family, count(*)::INT AS species
        FROM species_transition t
        JOIN src.species p ON p.msl = t.from_msl AND p.species = t.from_name
        LEFT JOIN src.species n ON n.msl = t.to_msl AND n.species = t.to_name
        WHERE t.from_msl = 36 AND p.genus = 'Tequatrovirus' GROUP BY ALL`);
      expect(moves).to.have.length(1);
      expect(moves[0]).to.include({ from_family: 'Myoviridae', to_family: 'Straboviridae' });
      const strabo = await one<{ moved_in: number; description: string }>(
        "SELECT moved_in::INT AS moved_in, events[1].description AS description FROM family_evolution WHERE family = 'Straboviridae' AND msl = 37");
      expect(strabo.moved_in).to.be.at.least(moves[0]!.species as number);
      expect(strabo.description).to.match(/moved from 1 family \(Myoviridae 160\)/);
    });

    it('counts in diversity_stats exactly the species of src.species, release by release', async () => {
      const rows = await db.all(`
        SELECT d.version, d.species::INT AS model, s.n::INT AS source
        FROM diversity_stats d JOIN (SELECT msl, count(*) AS n FROM src.species GROUP BY msl) s ON s.msl = d.msl ORDER BY d.msl`);
      expect(rows).to.have.length(await db.count('SELECT count(*) AS n FROM src.releases'));
      for (const r of rows) expect(r.model, r.version as string).to.equal(r.source);
    });

    it('roots every release tree at the release species count', async () => {
      const rows = await db.all(`
        SELECT r.version, (h.tree ->> '$.species_count')::INT AS root, s.n::INT AS species
        FROM src.releases r
        JOIN hierarchy h ON h.msl = r.msl
        JOIN (SELECT msl, count(*) AS n FROM src.species GROUP BY msl) s ON s.msl = r.msl
        ORDER BY r.msl`);
      expect(rows).to.have.length(await db.count('SELECT count(*) AS n FROM src.releases'));
      for (const r of rows) expect(r.root, r.version as string).to.equal(r.species);
    });

    it('puts the first realm in MSL34 and the abolition of Caudovirales in MSL37 on the timeline', async () => {
      const rows = await db.all(`
        SELECT version, kind, subject FROM timeline
        WHERE kind = 'first_realm' OR (kind = 'taxon_abolished' AND subject = 'Caudovirales') ORDER BY msl`);
      expect(rows).to.deep.equal([
        { version: 'MSL34', kind: 'first_realm', subject: 'realm' },
        { version: 'MSL37', kind: 'taxon_abolished', subject: 'Caudovirales' },
      ]);
    });
  });
});

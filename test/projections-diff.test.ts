// The release comparison and history read models (release_diff, release_diff_detail, species_timeline,
// lineage_summary): exact values on a tiny three-release history written here, then the real data set.
import { expect } from 'chai';
import { fixtureDb, realDb, type Db } from './support/data.js';

// Every species keeps its ICTV id (lineage_id = ICTV id); taxnode ids are msl * 100000 + ICTV id.
// MSL23 -> MSL24: Alpha rold is renamed Alpha rnew, Alpha t1 renamed Alpha t2; Alpha gone is abolished;
//   Beta f1 and Beta f2 merge into the new Beta fused (neither carries on); Gamma s splits off Gamma s2 and
//   carries on; Delta d1 is merged into Delta d2, which carries on; Beta brief is new.
// MSL24 -> MSL25: Alpha moved moves to Betavirus; Alpha rm is renamed Beta rm and moved to Betavirus; Alpha t2 is
//   renamed Alpha t3 (its second rename); Alpha m2 is merged into Alpha m1, which carries on; Gamma u splits
//   into Gamma u1 and Gamma u2 (neither carries it on); Beta brief and Delta d2 are abolished; Beta new is new.
// Merges and splits come from the ontology's "replaced by" taxnode ids, as in the real MSL23-38 data.
const HISTORY = `
INSERT INTO releases (version, msl, year, label, species_source) VALUES
  ('MSL23', 23, 2005, '2005', 'tree'), ('MSL24', 24, 2008, '2008', 'tree'), ('MSL25', 25, 2009, '2009', 'tree');

INSERT INTO species (msl, sort, family, genus, species, ictv_id, taxnode_id, proposal)
  SELECT msl, sort, 'Fooviridae', genus, species, ictv_id, msl * 100000 + ictv_id, proposal
  FROM (VALUES
    (23, 1, 'Alphavirus', 'Alpha one', 100, NULL),
    (23, 2, 'Alphavirus', 'Alpha rold', 200, NULL),
    (23, 3, 'Alphavirus', 'Alpha moved', 300, NULL),
    (23, 4, 'Alphavirus', 'Alpha rm', 400, NULL),
    (23, 5, 'Alphavirus', 'Alpha t1', 500, NULL),
    (23, 6, 'Alphavirus', 'Alpha gone', 600, NULL),
    (23, 7, 'Alphavirus', 'Alpha m1', 800, NULL),
    (23, 8, 'Alphavirus', 'Alpha m2', 810, NULL),
    (23, 9, 'Betavirus', 'Beta f1', 900, NULL),
    (23, 10, 'Betavirus', 'Beta f2', 910, NULL),
    (23, 11, 'Gammavirus', 'Gamma s', 1000, NULL),
    (23, 12, 'Gammavirus', 'Gamma u', 1100, NULL),
    (23, 13, 'Deltavirus', 'Delta d1', 1200, NULL),
    (23, 14, 'Deltavirus', 'Delta d2', 1210, NULL),
    (24, 1, 'Alphavirus', 'Alpha one', 100, NULL),
    (24, 2, 'Alphavirus', 'Alpha rnew', 200, 'P24.rnew'),
    (24, 3, 'Alphavirus', 'Alpha moved', 300, NULL),
    (24, 4, 'Alphavirus', 'Alpha rm', 400, NULL),
    (24, 5, 'Alphavirus', 'Alpha t2', 500, 'P24.t2'),
    (24, 6, 'Betavirus', 'Beta brief', 750, 'P24.brief'),
    (24, 7, 'Alphavirus', 'Alpha m1', 800, NULL),
    (24, 8, 'Alphavirus', 'Alpha m2', 810, NULL),
    (24, 9, 'Betavirus', 'Beta fused', 920, 'P24.fused'),
    (24, 10, 'Gammavirus', 'Gamma s', 1000, NULL),
    (24, 11, 'Gammavirus', 'Gamma s2', 1010, 'P24.s2'),
    (24, 12, 'Gammavirus', 'Gamma u', 1100, NULL),
    (24, 13, 'Deltavirus', 'Delta d2', 1210, 'P24.d2'),
    (25, 1, 'Alphavirus', 'Alpha one', 100, NULL),
    (25, 2, 'Alphavirus', 'Alpha rnew', 200, 'P24.rnew'),
    (25, 3, 'Betavirus', 'Alpha moved', 300, 'P25.moved'),
    (25, 4, 'Betavirus', 'Beta rm', 400, 'P25.rm'),
    (25, 5, 'Alphavirus', 'Alpha t3', 500, 'P25.t3'),
    (25, 6, 'Betavirus', 'Beta new', 700, 'P25.new'),
    (25, 7, 'Alphavirus', 'Alpha m1', 800, 'P25.m1'),
    (25, 8, 'Betavirus', 'Beta fused', 920, 'P24.fused'),
    (25, 9, 'Gammavirus', 'Gamma s', 1000, NULL),
    (25, 10, 'Gammavirus', 'Gamma s2', 1010, 'P24.s2'),
    (25, 11, 'Gammavirus', 'Gamma u1', 1110, 'P25.u'),
    (25, 12, 'Gammavirus', 'Gamma u2', 1120, 'P25.u')
  ) AS v(msl, sort, genus, species, ictv_id, proposal);

-- the ontology's "term replaced by" links of the species that merge or split (all the species of the
-- merge or split, the one carrying on included, as in the EVORA files)
INSERT INTO taxon_nodes (taxnode_id, ictv_id, rank, name, replaced_by, msl)
  SELECT msl * 100000 + ictv_id, ictv_id, 'species', name, list_transform(next_ids, i -> (msl + 1) * 100000 + i), msl
  FROM (VALUES
    (23, 900, 'Beta f1', [920]), (23, 910, 'Beta f2', [920]),
    (23, 1000, 'Gamma s', [1000, 1010]),
    (23, 1200, 'Delta d1', [1210]), (23, 1210, 'Delta d2', [1210]),
    (24, 800, 'Alpha m1', [800]), (24, 810, 'Alpha m2', [800]),
    (24, 1100, 'Gamma u', [1110, 1120])
  ) AS v(msl, ictv_id, name, next_ids);
`;

type Counts = Record<string, number | string | boolean>;

const DIFF_COLUMNS = `from_msl, to_msl, from_version, to_version, species_added, species_removed, species_renamed,
  species_reclassified, species_merged, species_split, species_unchanged, from_total, to_total,
  species_ended_by_split, species_formed_by_merge, species_renamed_and_reclassified, balance_ok`;

function diff(from: number, to: number, c: {
  added: number; removed: number; renamed: number; reclassified: number; merged: number; split: number;
  unchanged: number; from_total: number; to_total: number; ended_by_split: number; formed_by_merge: number; both: number;
}): Counts {
  return {
    from_msl: from, to_msl: to, from_version: `MSL${from}`, to_version: `MSL${to}`,
    species_added: c.added, species_removed: c.removed, species_renamed: c.renamed, species_reclassified: c.reclassified,
    species_merged: c.merged, species_split: c.split, species_unchanged: c.unchanged,
    from_total: c.from_total, to_total: c.to_total, species_ended_by_split: c.ended_by_split,
    species_formed_by_merge: c.formed_by_merge, species_renamed_and_reclassified: c.both, balance_ok: true,
  };
}

interface DetailRow {
  change_type: string; lineage_id: number; old_name: string | null; new_name: string | null;
  counterparts: string[] | null; proposal: string | null;
}

const detail = (change_type: string, lineage_id: number, old_name: string | null, new_name: string | null,
  counterparts: string[] | null, proposal: string | null): DetailRow =>
  ({ change_type, lineage_id, old_name, new_name, counterparts, proposal });

describe('release comparison and history read models', function () {

  describe('on a three-release fixture', () => {
    let db: Db;
    before(async () => { db = await fixtureDb(HISTORY); });
    after(() => db.close());

    describe('release_diff', () => {
      it('compares every ordered pair, the non-adjacent MSL23 -> MSL25 by its end states', async () => {
        const rows = await db.all<Counts>(`SELECT ${DIFF_COLUMNS} FROM release_diff ORDER BY from_msl, to_msl`);
        expect(rows).to.deep.equal([
          // persisting: 10 (Alpha one, rnew, moved, rm, t2, m1, m2, Gamma s, Gamma u, Delta d2)
          diff(23, 24, { added: 1, removed: 1, renamed: 2, reclassified: 0, merged: 3, split: 1, unchanged: 8,
            from_total: 14, to_total: 13, ended_by_split: 0, formed_by_merge: 1, both: 0 }),
          // Alpha t1 -> Alpha t3 is one rename; Beta brief is in neither release; Delta d1 was merged into
          // Delta d2, which did not reach MSL25, so nothing of it is there: removed, not merged
          diff(23, 25, { added: 1, removed: 3, renamed: 3, reclassified: 2, merged: 3, split: 3, unchanged: 3,
            from_total: 14, to_total: 12, ended_by_split: 1, formed_by_merge: 1, both: 1 }),
          diff(24, 25, { added: 1, removed: 2, renamed: 2, reclassified: 2, merged: 1, split: 2, unchanged: 6,
            from_total: 13, to_total: 12, ended_by_split: 1, formed_by_merge: 0, both: 1 }),
        ]);
      });
    });

    describe('release_diff_detail', () => {
      it('lists each changed species of MSL23 -> MSL25 once per change type it counts in', async () => {
        const rows = await db.all<DetailRow>(`
          SELECT change_type, lineage_id::INT AS lineage_id, old_name, new_name, counterparts, proposal
          FROM release_diff_detail WHERE from_msl = 23 AND to_msl = 25
          ORDER BY change_type, coalesce(new_name, old_name), old_name`);
        expect(rows).to.deep.equal([
          detail('added', 700, null, 'Beta new', null, 'P25.new'),
          detail('ended_by_split', 1100, 'Gamma u', null, ['Gamma u1', 'Gamma u2'], 'P25.u'),
          detail('formed_by_merge', 920, null, 'Beta fused', ['Beta f1', 'Beta f2'], 'P24.fused'),
          detail('merged', 810, 'Alpha m2', 'Alpha m1', ['Alpha m1'], 'P25.m1'),
          detail('merged', 900, 'Beta f1', 'Beta fused', ['Beta fused'], 'P24.fused'),
          detail('merged', 910, 'Beta f2', 'Beta fused', ['Beta fused'], 'P24.fused'),
          detail('reclassified', 300, 'Alpha moved', 'Alpha moved', null, 'P25.moved'),
          detail('reclassified', 400, 'Alpha rm', 'Beta rm', null, 'P25.rm'),
          detail('removed', 600, 'Alpha gone', null, null, null),
          // the proposal of the species it went into: Delta d1 was merged into Delta d2 in MSL24
          detail('removed', 1200, 'Delta d1', null, null, 'P24.d2'),
          detail('removed', 1210, 'Delta d2', null, null, null),
          detail('renamed', 200, 'Alpha rold', 'Alpha rnew', null, 'P24.rnew'),
          detail('renamed', 500, 'Alpha t1', 'Alpha t3', null, 'P25.t3'),
          detail('renamed', 400, 'Alpha rm', 'Beta rm', null, 'P25.rm'),
          detail('split', 1010, 'Gamma s', 'Gamma s2', ['Gamma s'], 'P24.s2'),
          detail('split', 1110, 'Gamma u', 'Gamma u1', ['Gamma u'], 'P25.u'),
          detail('split', 1120, 'Gamma u', 'Gamma u2', ['Gamma u'], 'P25.u'),
        ]);
      });

      it('describes both placements, as family, genus and the full lineage', async () => {
        const rows = await db.all(`
          SELECT old_family, old_genus, old_lineage, new_family, new_genus, new_lineage FROM release_diff_detail
          WHERE from_msl = 23 AND to_msl = 25 AND change_type = 'reclassified' AND old_name = 'Alpha rm'`);
        expect(rows).to.deep.equal([{
          old_family: 'Fooviridae', old_genus: 'Alphavirus', old_lineage: 'Fooviridae;Alphavirus;Alpha rm',
          new_family: 'Fooviridae', new_genus: 'Betavirus', new_lineage: 'Fooviridae;Betavirus;Beta rm',
        }]);
      });

      it('lists the merge of Delta d1 into Delta d2 between the neighbours MSL23 and MSL24', async () => {
        const rows = await db.all<DetailRow>(`
          SELECT change_type, lineage_id::INT AS lineage_id, old_name, new_name, counterparts, proposal
          FROM release_diff_detail WHERE from_msl = 23 AND to_msl = 24 AND change_type = 'merged'
          ORDER BY old_name`);
        expect(rows).to.deep.equal([
          detail('merged', 900, 'Beta f1', 'Beta fused', ['Beta fused'], 'P24.fused'),
          detail('merged', 910, 'Beta f2', 'Beta fused', ['Beta fused'], 'P24.fused'),
          detail('merged', 1200, 'Delta d1', 'Delta d2', ['Delta d2'], 'P24.d2'),
        ]);
      });
    });

    describe('lineage_summary', () => {
      it('gives every lineage its span, its names in order and how it began and ended', async () => {
        const rows = await db.all(`
          SELECT lineage_id::INT AS id, first_version, last_version, names, current_name, began, split_from,
                 merged_from, ended, abolished_in, merged_into, split_into
          FROM lineage_summary ORDER BY lineage_id`);
        const row = (id: number, first_version: string, last_version: string, names: string[], current_name: string | null,
          began: string | null, ended: string, more: Record<string, unknown> = {}) => ({
          id, first_version, last_version, names, current_name, began, split_from: null, merged_from: null, ended,
          abolished_in: null, merged_into: null, split_into: null, ...more,
        });
        expect(rows).to.deep.equal([
          row(100, 'MSL23', 'MSL25', ['Alpha one'], 'Alpha one', null, 'current'),
          row(200, 'MSL23', 'MSL25', ['Alpha rold', 'Alpha rnew'], 'Alpha rnew', null, 'current'),
          row(300, 'MSL23', 'MSL25', ['Alpha moved'], 'Alpha moved', null, 'current'),
          row(400, 'MSL23', 'MSL25', ['Alpha rm', 'Beta rm'], 'Beta rm', null, 'current'),
          row(500, 'MSL23', 'MSL25', ['Alpha t1', 'Alpha t2', 'Alpha t3'], 'Alpha t3', null, 'current'),
          row(600, 'MSL23', 'MSL23', ['Alpha gone'], null, null, 'abolished', { abolished_in: 'MSL24' }),
          row(700, 'MSL25', 'MSL25', ['Beta new'], 'Beta new', 'new', 'current'),
          row(750, 'MSL24', 'MSL24', ['Beta brief'], null, 'new', 'abolished', { abolished_in: 'MSL25' }),
          row(800, 'MSL23', 'MSL25', ['Alpha m1'], 'Alpha m1', null, 'current'),
          row(810, 'MSL23', 'MSL24', ['Alpha m2'], null, null, 'merged', { merged_into: ['Alpha m1'] }),
          row(900, 'MSL23', 'MSL23', ['Beta f1'], null, null, 'merged', { merged_into: ['Beta fused'] }),
          row(910, 'MSL23', 'MSL23', ['Beta f2'], null, null, 'merged', { merged_into: ['Beta fused'] }),
          row(920, 'MSL24', 'MSL25', ['Beta fused'], 'Beta fused', 'merged', 'current', { merged_from: ['Beta f1', 'Beta f2'] }),
          row(1000, 'MSL23', 'MSL25', ['Gamma s'], 'Gamma s', null, 'current'),
          row(1010, 'MSL24', 'MSL25', ['Gamma s2'], 'Gamma s2', 'split', 'current', { split_from: ['Gamma s'] }),
          row(1100, 'MSL23', 'MSL24', ['Gamma u'], null, null, 'split', { split_into: ['Gamma u1', 'Gamma u2'] }),
          row(1110, 'MSL25', 'MSL25', ['Gamma u1'], 'Gamma u1', 'split', 'current', { split_from: ['Gamma u'] }),
          row(1120, 'MSL25', 'MSL25', ['Gamma u2'], 'Gamma u2', 'split', 'current', { split_from: ['Gamma u'] }),
          row(1200, 'MSL23', 'MSL23', ['Delta d1'], null, null, 'merged', { merged_into: ['Delta d2'] }),
          row(1210, 'MSL23', 'MSL24', ['Delta d2'], null, null, 'abolished', { abolished_in: 'MSL25' }),
        ]);
      });
    });

    describe('species_timeline', () => {
      it('tells each lineage release by release, with the merges into it and the splits off it', async () => {
        const rows = await db.all(`
          SELECT lineage_id::INT AS id, version, name, change, from_names, merged_in, split_off, full_lineage
          FROM species_timeline WHERE lineage_id IN (400, 500, 800, 920, 1000) ORDER BY lineage_id, msl`);
        const row = (id: number, version: string, name: string, change: string | null, from_names: string[],
          genus: string, merged_in: string[] = [], split_off: string[] = []) =>
          ({ id, version, name, change, from_names, merged_in, split_off, full_lineage: `Fooviridae;${genus};${name}` });
        expect(rows).to.deep.equal([
          row(400, 'MSL23', 'Alpha rm', null, [], 'Alphavirus'),
          row(400, 'MSL24', 'Alpha rm', 'unchanged', ['Alpha rm'], 'Alphavirus'),
          row(400, 'MSL25', 'Beta rm', 'renamed+moved', ['Alpha rm'], 'Betavirus'),
          row(500, 'MSL23', 'Alpha t1', null, [], 'Alphavirus'),
          row(500, 'MSL24', 'Alpha t2', 'renamed', ['Alpha t1'], 'Alphavirus'),
          row(500, 'MSL25', 'Alpha t3', 'renamed', ['Alpha t2'], 'Alphavirus'),
          row(800, 'MSL23', 'Alpha m1', null, [], 'Alphavirus'),
          row(800, 'MSL24', 'Alpha m1', 'unchanged', ['Alpha m1'], 'Alphavirus'),
          row(800, 'MSL25', 'Alpha m1', 'unchanged', ['Alpha m1', 'Alpha m2'], 'Alphavirus', ['Alpha m2']),
          row(920, 'MSL24', 'Beta fused', 'merged', ['Beta f1', 'Beta f2'], 'Betavirus'),
          row(920, 'MSL25', 'Beta fused', 'unchanged', ['Beta fused'], 'Betavirus'),
          row(1000, 'MSL23', 'Gamma s', null, [], 'Gammavirus'),
          row(1000, 'MSL24', 'Gamma s', 'unchanged', ['Gamma s'], 'Gammavirus', [], ['Gamma s2']),
          row(1000, 'MSL25', 'Gamma s', 'unchanged', ['Gamma s'], 'Gammavirus'),
        ]);
      });

      it('calls a species new in the release after the first one it appears in', async () => {
        const rows = await db.all(`SELECT name, version, change FROM species_timeline WHERE change = 'new' ORDER BY name`);
        expect(rows).to.deep.equal([
          { name: 'Beta brief', version: 'MSL24', change: 'new' },
          { name: 'Beta new', version: 'MSL25', change: 'new' },
        ]);
      });
    });
  });

  describe('on the real data set', () => {
    let db: Db;
    before(async () => { db = await realDb(); });
    after(() => db.close());

    it('has one release_diff row for each ordered pair of releases (820 for MSL1..MSL41)', async () => {
      const [row] = await db.all<{ n: number; pairs: number; releases: number }>(`
        SELECT count(*)::INT AS n, count(DISTINCT (from_msl, to_msl)) FILTER (from_msl < to_msl)::INT AS pairs,
               (SELECT count(*) FROM src.releases)::INT AS releases FROM release_diff`);
      const pairs = (row!.releases * (row!.releases - 1)) / 2;
      expect(row).to.deep.equal({ n: pairs, pairs, releases: 41 });
    });

    it('balances every pair: from_total - removed - merged - ended_by_split + added + split + formed_by_merge = to_total', async () => {
      const broken = await db.all(`
        SELECT from_version, to_version FROM release_diff
        WHERE NOT balance_ok
           OR from_total - species_removed - species_merged - species_ended_by_split
              + species_added + species_split + species_formed_by_merge <> to_total
           OR species_unchanged + species_renamed + species_reclassified - species_renamed_and_reclassified
              <> from_total - species_removed - species_merged - species_ended_by_split`);
      expect(broken).to.deep.equal([]);
    });

    it('takes the totals and the persisting species straight from the source tables', async () => {
      const wrong = await db.all(`
        WITH n AS (SELECT msl, count(*) AS n FROM src.species GROUP BY msl),
        persisting AS (
          SELECT a.msl AS from_msl, b.msl AS to_msl, count(*) AS n
          FROM species_identity a JOIN species_identity b ON b.lineage_id = a.lineage_id AND b.msl > a.msl
          GROUP BY ALL)
        SELECT d.from_version, d.to_version FROM release_diff d
        JOIN n a ON a.msl = d.from_msl JOIN n b ON b.msl = d.to_msl
        LEFT JOIN persisting p ON p.from_msl = d.from_msl AND p.to_msl = d.to_msl
        WHERE d.from_total <> a.n OR d.to_total <> b.n
           OR d.species_unchanged + d.species_renamed + d.species_reclassified - d.species_renamed_and_reclassified <> coalesce(p.n, 0)`);
      expect(wrong).to.deep.equal([]);
    });

    it('rests on lineages with one species per release and no gaps', async () => {
      const [row] = await db.all<{ doubles: number; gaps: number }>(`
        SELECT (SELECT count(*) FROM (SELECT msl, lineage_id FROM species_identity GROUP BY ALL HAVING count(*) > 1))::INT AS doubles,
               (SELECT count(*) FROM (SELECT lineage_id FROM species_identity GROUP BY ALL
                                      HAVING count(*) <> max(msl) - min(msl) + 1))::INT AS gaps`);
      expect(row).to.deep.equal({ doubles: 0, gaps: 0 });
    });

    it('counts in release_diff exactly the release_diff_detail rows of each change type, for every pair', async () => {
      const mismatches = await db.all(`
        WITH d AS (
          SELECT from_msl, to_msl, change_type, count(*) AS n FROM release_diff_detail GROUP BY ALL),
        s AS (
          UNPIVOT (SELECT from_msl, to_msl, species_added AS added, species_removed AS removed, species_renamed AS renamed,
                          species_reclassified AS reclassified, species_merged AS merged, species_split AS split,
                          species_ended_by_split AS ended_by_split, species_formed_by_merge AS formed_by_merge
                   FROM release_diff)
          ON COLUMNS(* EXCLUDE (from_msl, to_msl)) INTO NAME change_type VALUE n)
        SELECT s.from_msl, s.to_msl, s.change_type, s.n, d.n AS detail_rows
        FROM s FULL JOIN d ON d.from_msl = s.from_msl AND d.to_msl = s.to_msl AND d.change_type = s.change_type
        WHERE coalesce(s.n, -1) <> coalesce(d.n, 0)`);
      expect(mismatches).to.deep.equal([]);
    });

    it('lists a species at most once per change type and pair', async () => {
      const [row] = await db.all<{ duplicates: number }>(`
        SELECT count(*)::INT AS duplicates FROM (
          SELECT from_msl, to_msl, change_type, lineage_id FROM release_diff_detail GROUP BY ALL HAVING count(*) > 1)`);
      expect(row).to.deep.equal({ duplicates: 0 });
    });

    it('agrees with species_transition on new and abolished species between neighbours', async () => {
      const disagreements = await db.all(`
        WITH t AS (
          SELECT from_msl, to_msl, count(*) FILTER (change = 'new') AS new_species,
                 count(*) FILTER (change = 'abolished') AS abolished
          FROM species_transition GROUP BY ALL)
        SELECT d.from_version, d.to_version FROM release_diff d JOIN t USING (from_msl, to_msl)
        WHERE d.species_added <> t.new_species OR d.species_removed <> t.abolished`);
      expect(disagreements).to.deep.equal([]);
      const [pairs] = await db.all<{ n: number; releases: number }>(`
        SELECT count(*)::INT AS n, (SELECT count(*) FROM src.releases)::INT AS releases FROM release_diff WHERE to_msl = from_msl + 1`);
      expect(pairs!.n).to.equal(pairs!.releases - 1);
    });

    it('shows Tobacco mosaic virus -> Tobamovirus tabaci as one rename in MSL23 -> MSL40 and MSL38 -> MSL39', async () => {
      const rows = await db.all(`
        SELECT from_version, to_version, old_name, new_name, proposal FROM release_diff_detail d
        JOIN release_diff USING (from_msl, to_msl)
        WHERE change_type = 'renamed' AND (old_name = 'Tobacco mosaic virus' OR new_name = 'Tobamovirus tabaci')
          AND ((from_msl = 23 AND to_msl = 40) OR (from_msl = 38 AND to_msl = 39))
        ORDER BY from_msl`);
      const rename = (from_version: string, to_version: string) => ({
        from_version, to_version, old_name: 'Tobacco mosaic virus', new_name: 'Tobamovirus tabaci',
        proposal: '2023.016P.Virgaviridae_and_Benyviridae_rename_sp.zip',
      });
      expect(rows).to.deep.equal([rename('MSL23', 'MSL40'), rename('MSL38', 'MSL39')]);
    });

    it('does not list Tobacco mosaic virus between MSL39 and MSL40, where nothing happened to it', async () => {
      const rows = await db.all(`
        SELECT change_type FROM release_diff_detail
        WHERE from_msl = 39 AND to_msl = 40 AND 'Tobamovirus tabaci' IN (old_name, new_name)`);
      expect(rows).to.deep.equal([]);
    });

    it('follows Tobacco mosaic virus from the first list of 1971 to Tobamovirus tabaci in lineage_summary', async () => {
      const rows = await db.all(`
        SELECT first_version, last_version = (SELECT 'MSL' || max(msl) FROM src.releases) AS reaches_latest, names, current_name, began, ended
        FROM lineage_summary WHERE list_contains(names, 'Tobacco mosaic virus')`);
      expect(rows).to.deep.equal([{
        first_version: 'MSL1', reaches_latest: true, names: ['Tobacco mosaic virus', 'Tobamovirus tabaci'],
        current_name: 'Tobamovirus tabaci', began: null, ended: 'current',
      }]);
    });

    it('keeps each of two same-named species of one release on its own lineage (MSL22 Chayote mosaic virus)', async () => {
      const rows = await db.all(`
        SELECT l.names, l.first_version, t.genus FROM species_timeline t JOIN lineage_summary l USING (lineage_id)
        WHERE t.msl = 22 AND t.name = 'Chayote mosaic virus' ORDER BY t.genus`);
      expect(rows).to.deep.equal([
        { names: ['Chayote mosaic virus', 'Chayote yellow mosaic virus', 'Begomovirus chayotis'], first_version: 'MSL22', genus: 'Begomovirus' },
        { names: ['Chayote mosaic virus', 'Tymovirus chayotis'], first_version: 'MSL22', genus: 'Tymovirus' },
      ]);
    });

    it('has one species_timeline row per species of every release', async () => {
      const [row] = await db.all<{ timeline: number; species: number; current: number; latest: number }>(`
        SELECT (SELECT count(*) FROM species_timeline)::INT AS timeline, (SELECT count(*) FROM src.species)::INT AS species,
               (SELECT count(*) FROM lineage_summary WHERE current_name IS NOT NULL)::INT AS current,
               (SELECT count(*) FROM src.species WHERE msl = (SELECT max(msl) FROM src.releases))::INT AS latest`);
      expect(row!.timeline).to.equal(row!.species);
      expect(row!.current).to.equal(row!.latest);
    });
  });
});

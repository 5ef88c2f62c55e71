import { expect } from 'chai';
import { existsSync, readFileSync, readdirSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from '../../build/index.js';
import { DB_FILE, REPORT_FILE } from '../../src/store/files.js';
import { silent } from '../../build/progress.js';
import { msl24Sheet, writeFixtureProject, writeWorkbook, type FixtureProject } from '../support/fixture-inputs.js';

const run = (p: FixtureProject) => build({
  manifest: p.manifest, rawDir: p.rawDir, dataDir: p.dataDir, projectionsDir: p.projectionsDir,
  mirror: p.mirror, progress: silent, download: false,
});

/** What a reader of the published data set sees: the database bytes and the report. */
function published(p: FixtureProject): { db: string; report: string } {
  return { db: readFileSync(join(p.dataDir, DB_FILE)).toString('base64'), report: readFileSync(join(p.dataDir, REPORT_FILE), 'utf8') };
}

describe('build pipeline on generated fixtures', function () {
  let p: FixtureProject;
  beforeEach(() => { p = writeFixtureProject(); });
  afterEach(() => rmSync(p.root, { recursive: true, force: true }));

  it('builds Parquet partitioned by release, the database and a report from every raw format', async () => {
    const report = await run(p);
    expect(report.releases.map((r) => [r.version, r.counts.species, r.official_counts.species, r.counts_match]))
      .to.deep.equal([['MSL23', 2, 2, true], ['MSL24', 3, 3, true]]);
    expect(report.releases[0]!.attribute_join).to.include({ species: 2, matched: 2, by_exact_name: 2 });
    expect(readdirSync(join(p.dataDir, 'parquet', 'species')).sort()).to.deep.equal(['msl=23', 'msl=24']);
    expect(report.parquet.tables).to.include.keys('species', 'taxa', 'isolates', 'taxon_nodes', 'genome_lengths', 'inputs');
    expect(report.parquet.tables.isolates!.rows).to.equal(3);
    expect(existsSync(join(p.dataDir, DB_FILE))).to.equal(true);
    expect(readdirSync(p.dataDir).filter((f) => f.startsWith('.staging'))).to.deep.equal([]);
  });

  it('skips every stage when inputs, code and projections are unchanged', async () => {
    const first = await run(p);
    const before = statSync(join(p.dataDir, DB_FILE)).mtimeMs;
    const second = await run(p);
    expect(second.build_id).to.equal(first.build_id);
    expect(statSync(join(p.dataDir, DB_FILE)).mtimeMs).to.equal(before);
  });

  it('reprojects without re-ingesting when only a projection changed', async () => {
    await run(p);
    writeFileSync(join(p.projectionsDir, 'species_count.sql'), '-- one row per release\nSELECT msl, count(*) AS n FROM src.species GROUP BY msl');
    const again = await run(p);
    expect(again.stages.ingest!.skipped).to.equal(true);
    expect(again.projections.models.species_count!.rows).to.equal(2);
  });

  describe('when an input is bad, the build stops and the last good data set survives', () => {
    async function expectFailure(mutate: () => void, ...messageParts: RegExp[]): Promise<void> {
      await run(p);
      const before = published(p);
      mutate();
      let error: Error | null = null;
      try {
        await run(p);
      } catch (err) {
        error = err as Error;
      }
      expect(error, 'the build should fail').to.be.instanceOf(Error);
      for (const part of messageParts) expect(error!.message).to.match(part);
      expect(published(p)).to.deep.equal(before);
      expect(readdirSync(p.dataDir).filter((f) => f.startsWith('.staging'))).to.deep.equal([]);
    }

    it('names a missing file, its checksum and where it looked', () => expectFailure(() => {
      unlinkSync(join(p.mirror, 'MSL24/vmr24.xlsx'));
      unlinkSync(join(p.rawDir, 'MSL24/vmr24.xlsx'));
    }, /MSL24\/vmr24\.xlsx/, /sha256 [0-9a-f]{64}/, /mirror\/MSL24\/vmr24\.xlsx \(missing\)/));

    it('names expected and actual checksums on a mismatch', () => expectFailure(() => {
      writeFileSync(join(p.mirror, 'MSL23/taxonomy_2005.json'), '{"tampered": true}');
      unlinkSync(join(p.rawDir, 'MSL23/taxonomy_2005.json'));
    }, /MSL23\/taxonomy_2005\.json: no copy with sha256 [0-9a-f]{64}/, /\(sha256 [0-9a-f]{64}\)/));

    it('names an unreadable spreadsheet', () => expectFailure(
      () => p.replace('MSL24/msl24.xlsx', Buffer.from('this is not a workbook')),
      /msl24\.xlsx/,
    ));

    it('names file, sheet and column when a required column is missing', () => expectFailure(() => {
      const rows = msl24Sheet().map((r) => r.filter((_, i) => i !== 13)); // drop Genus
      p.replace('MSL24/msl24.xlsx', writeWorkbook({ MSL: rows }));
    }, /msl24\.xlsx/, /sheet 'MSL'/, /Genus/i));

    it('names the file and the sheets seen when no sheet has a known layout', () => expectFailure(
      () => p.replace('MSL24/msl24.xlsx', writeWorkbook({ Notes: [['What', 'Ever'], ['a', 'b']] })),
      /msl24\.xlsx/, /layout/i, /Notes/,
    ));

    it('names file, sheet, row and column for a bad cell', () => expectFailure(() => {
      const rows = msl24Sheet();
      rows[2]![18] = 'twenty-four'; // MSL of Last Change of the second species
      p.replace('MSL24/msl24.xlsx', writeWorkbook({ MSL: rows }));
    }, /msl24\.xlsx/, /sheet 'MSL'/, /row 3/, /MSL of Last Change/));

    it('refuses a data set whose counts differ from ICTV official counts', () => expectFailure(() => {
      p.replace('MSL24/msl24.xlsx', writeWorkbook({
        MSL: msl24Sheet(), 'Taxon Counts': [['Rank', 'MSL24 Total'], ['Realm', 0], ['Order', 1], ['Family', 2], ['Genus', 2], ['Species', 4]],
      }));
    }, /MSL24 species 3 \(ICTV: 4\)/));
  });
});

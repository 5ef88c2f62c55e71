// A new ICTV release is one manifest entry: on a fixture record built with the real projections and served
// by the real server process, an operator puts the new release's files in the mirror, adds one entry to
// the manifest and rebuilds; the server, answering under load all along, switches to it without a failed
// request, and the release shows everywhere. A release whose file the readers do not understand fails the
// build with the file, sheet and column named, and the last good data set goes on being served.
import { expect } from 'chai';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as XLSX from '@e965/xlsx';
import { build, type BuildReport } from '../../build/index.js';
import { DB_FILE } from '../../src/store/files.js';
import { defaultPaths } from '../../build/paths.js';
import { silent } from '../../build/progress.js';
import { refreshDocSnapshot } from '../../src/read/documents.js';
import { writeFixtureProject, type FixtureProject } from '../support/fixture-inputs.js';
import { awaitSwitch, loadOn, startServer, type ServerProcess } from '../support/server-process.js';

const RANKS = ['Realm', 'Subrealm', 'Kingdom', 'Subkingdom', 'Phylum', 'Subphylum', 'Class', 'Subclass', 'Order',
  'Suborder', 'Family', 'Subfamily', 'Genus', 'Subgenus'];
const lineage = (family: string, genus: string) => [null, null, null, null, null, null, null, null, 'Testvirales', null, family, null, genus, null];

/**
 * A release as ICTV ships one today: the species list in the current layout (ICTV_ID linked to the
 * species' taxon page, whose URL carries its taxnode id; Taxa Renamed or Abolished; Taxon Counts with the
 * changes) and the isolates as ICTV's database table, each naming its species in the previous release.
 * MSL25 keeps Alphavirus one, renames Alphavirus two to Alphavirus secundus, abolishes Beta virus one and
 * adds Gammavirus primus in a new family.
 */
const HEADER = ['Sort', ...RANKS, 'Species', 'ICTV_ID', 'Genome', 'Last Change', 'MSL of Last Change', 'Proposal for Last Change '];

function msl25(renamedColumns: Record<string, string> = {}) {
  const header = HEADER.map((h) => renamedColumns[h] ?? h);
  const sheet = XLSX.utils.aoa_to_sheet([
    header,
    [1, ...lineage('Alphaviridae', 'Alphavirus'), 'Alphavirus one', 'ICTV20080011', 'dsDNA', 'Renamed,', 24, '2008.001'],
    [2, ...lineage('Alphaviridae', 'Alphavirus'), 'Alphavirus secundus', 'ICTV20080012', 'dsDNA', 'Renamed,', 25, '2009.001.zip'],
    [3, ...lineage('Gammaviridae', 'Gammavirus'), 'Gammavirus primus', 'ICTV20090013', 'ssRNA(+)', 'New,', 25, '2009.002.zip'],
  ]);
  const idColumn = header.indexOf('ICTV_ID');
  [20090011, 20090012, 20090013].forEach((taxnode, i) => {
    const cell = sheet[XLSX.utils.encode_cell({ r: i + 1, c: idColumn })] as XLSX.CellObject;
    cell.f = `HYPERLINK("https://ictv.global/taxonomy/taxondetails?taxnode_id=${taxnode}&ictv_id=${String(cell.v)}","${String(cell.v)}")`;
  });
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, sheet, 'MSL');
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([
    ['ICVD_ID', 'Rank', 'Change', 'Old Name', 'New Name', 'proposal'],
    ['ICTV20080012', 'species', 'Renamed', 'Testvirales;Alphaviridae;Alphavirus;Alphavirus two', 'Testvirales;Alphaviridae;Alphavirus;Alphavirus secundus', '2009.001.zip'],
    ['ICTV20080013', 'species', 'Abolished', 'Testvirales;Betaviridae;Betavirus;Beta virus one', null, '2009.003.zip'],
  ]), 'Taxa Renamed or Abolished');
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([
    [null, 'Rank', 'MSL24 Total', 'New', 'Abolished', 'Renamed', 'MSL.25 Total'],
    [null, 'Realm', 0, 0, 0, 0, 0], [null, 'Order', 1, 0, 0, 0, 1], [null, 'Family', 2, 1, -1, 0, 2],
    [null, 'Genus', 2, 1, -1, 0, 2], [null, 'Species', 3, 1, -1, 1, 3],
  ]), 'Taxon Counts');
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

function isolates25(): string {
  const header = ['isolate_id', 'taxnode_id', 'species_sort', 'isolate_sort', 'species_name', 'isolate_type', 'isolate_names',
    'isolate_abbrevs', 'isolate_designation', 'genbank_accessions', 'refseq_accessions', 'genome_coverage', 'molecule',
    'host_source', 'refseq_organism', 'refseq_taxids', 'update_change', 'update_prev_species', 'update_prev_taxnode_id',
    'update_change_proposal', 'notes'];
  const rows = [
    [1, 20090011, 1, 1, 'Alphavirus one', 'E', 'alpha virus 1', 'AV1', 'NULL', 'AB000001', 'NULL', 'Complete genome', 'dsDNA', 'bacteria', 'NULL', '11111', 'same', 'Alphavirus one', 20080011, 'NULL', 'NULL'],
    [2, 20090012, 2, 1, 'Alphavirus secundus', 'E', 'alpha virus 2', 'AV2', 'NULL', 'AB000003', 'NULL', 'Complete genome', 'dsDNA', 'bacteria', 'NULL', 'NULL', 'Renamed,', 'Alphavirus two', 20080012, '2009.001.zip', 'NULL'],
    [3, 20090013, 3, 1, 'Gammavirus primus', 'E', 'gamma virus 1', 'GV1', 'NULL', 'AB000005', 'NULL', 'Complete genome', 'ssRNA(+)', 'plants', 'NULL', 'NULL', 'created', 'NULL', 'NULL', '2009.002.zip', 'NULL'],
    [4, 'NULL', 4, 1, 'abolished', 'E', 'beta virus 1', 'BV1', 'NULL', 'AB000004', 'NULL', 'Complete genome', 'dsDNA', 'bacteria', 'NULL', 'NULL', 'abolished', 'Beta virus one', 20080013, '2009.003.zip', 'NULL'],
  ];
  return `${[header, ...rows].map((r) => r.join('\t')).join('\n')}\n`;
}

describe('a new release added by one manifest entry', function () {
  let p: FixtureProject;
  let server: ServerProcess;
  const run = (): Promise<BuildReport> => build({
    manifest: p.manifest, rawDir: p.rawDir, dataDir: p.dataDir, projectionsDir: defaultPaths().projectionsDir,
    mirror: p.mirror, progress: silent, download: false, snapshot: refreshDocSnapshot,
  });
  const get = async (path: string) => {
    const res = await fetch(`${server.base}${path}`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> & Array<Record<string, unknown>> };
  };

  before(async () => {
    p = writeFixtureProject();
    await run();
    server = await startServer(p.dataDir);
  });

  after(() => {
    server?.kill();
    rmSync(p.root, { recursive: true, force: true });
  });

  it('is served by a server that switches to it under load without a failed request', async () => {
    expect((await get('/api/v1/versions')).body.map((v) => v.version)).to.deep.equal(['MSL23', 'MSL24']);
    const before = await server.buildId();
    const load = loadOn(server.base, ['/api/v1/species/latest/Alphavirus%20one', '/api/v1/history/Alpha%20virus%20one',
      '/api/v1/compare/MSL23/MSL24', '/api/v1/search?q=alpha&limit=5', '/api/v1/versions'], 6);

    // what an operator does: the files in the mirror, one entry in the manifest, a build
    p.addRelease({
      version: 'MSL25', msl: 25, year: 2009, label: '2009', treeId: 20090000,
      files: { msl: { file: 'MSL25/msl25.xlsx', content: msl25() }, vmr: { file: 'MSL25/species_isolates.utf8.txt', content: isolates25() } },
    });
    const manifest = JSON.parse(readFileSync(p.manifest, 'utf8')) as { releases: Array<{ version: string }> };
    expect(manifest.releases.map((r) => r.version)).to.deep.equal(['MSL23', 'MSL24', 'MSL25']);
    const report = await run();
    expect(report.releases.map((r) => [r.version, r.counts.species, r.counts_match])).to.deep.equal([
      ['MSL23', 2, true], ['MSL24', 3, true], ['MSL25', 3, true],
    ]);

    const after = await awaitSwitch(server, before);
    await load.until(50);
    const statuses = await load.stop();
    expect(after).to.equal(report.build_id);
    const total = Object.values(statuses).reduce((a, b) => a + b, 0);
    expect(statuses).to.deep.equal({ 200: total });
  });

  it('shows the new release everywhere: versions, latest, histories, compare, search and /ai', async () => {
    const versions = (await get('/api/v1/versions')).body;
    expect(versions[versions.length - 1]).to.include({ version: 'MSL25', year: 2009, total_species: 3, total_families: 2 });
    expect((await get('/api/v1/species/latest/Gammavirus%20primus')).body).to.include({ scientific_name: 'Gammavirus primus', msl_version: 'MSL25', taxnode_id: 20090013 });
    expect((await get('/taxonomy/species/Alphavirus%20two')).body).to.include({ scientific_name: 'Alphavirus secundus', name_status: 'former', renamed_in: 'MSL25' });

    const renamed = (await get('/api/v1/history/Alphavirus%20two')).body;
    expect(renamed).to.include({ current_name: 'Alphavirus secundus', last_appearance: 'MSL25' });
    const oldest = (await get('/api/v1/history/Alpha%20virus%20one')).body;
    expect(oldest).to.include({ first_appearance: 'MSL23', last_appearance: 'MSL25', current_name: 'Alphavirus one' });
    const gone = (await get('/api/v1/history/Beta%20virus%20one')).body;
    expect((gone.lineages as Array<Record<string, unknown>>)[0]).to.include({ ended: 'abolished', abolished_in: 'MSL25' });

    expect((await get('/api/v1/compare/MSL24/MSL25')).body).to.include({ species_added: 1, species_removed: 1, species_renamed: 1, from_total: 3, to_total: 3 });
    expect((await get('/api/v1/compare/MSL23/latest')).body).to.include({ to_version: 'MSL25' });
    const details = (await get('/api/v1/compare/MSL24/MSL25/details?change_type=renamed')).body;
    expect(details.changes).to.deep.equal([{
      change_type: 'renamed', old_name: 'Alphavirus two', new_name: 'Alphavirus secundus', old_family: 'Alphaviridae', new_family: 'Alphaviridae',
      old_genus: 'Alphavirus', new_genus: 'Alphavirus', old_lineage: 'Testvirales;Alphaviridae;Alphavirus;Alphavirus two',
      new_lineage: 'Testvirales;Alphaviridae;Alphavirus;Alphavirus secundus', lineage_id: 20080012, proposal: '2009.001.zip',
    }]);

    const search = (await get('/api/v1/search?q=gamma')).body;
    expect(search).to.include({ version: 'MSL25', total_results: 1 });
    const byVirusName = (await get('/api/v1/history/GV1')).body;
    expect(byVirusName).to.include({ current_name: 'Gammavirus primus' });

    const ai = await fetch(`${server.base}/ai/query`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ query: 'What is the latest release?' }) });
    expect(((await ai.json()) as { response: string }).response).to.contain('MSL25');
    const aiHealth = (await get('/ai/health')).body;
    expect(aiHealth).to.include({ releases_loaded: 3, first_release: 'MSL23', latest_release: 'MSL25' });
  });

  it('refuses a release whose file the readers do not understand, naming file, sheet and column, and goes on serving the last good one', async () => {
    const served = await server.buildId();
    const published = readFileSync(join(p.dataDir, DB_FILE));
    p.addRelease({
      version: 'MSL26', msl: 26, year: 2011, label: '2011', treeId: 20110000,
      // ICTV renamed a column: "Genus" is gone
      files: { msl: { file: 'MSL26/msl26.xlsx', content: msl25({ Genus: 'Genus name' }) } },
    });
    let error: Error | null = null;
    try {
      await run();
    } catch (err) {
      error = err as Error;
    }
    expect(error?.message).to.contain('MSL26/msl26.xlsx').and.to.contain("sheet 'MSL'").and.to.contain("column 'Genus'");
    // the published file is untouched, so nothing could be swapped in
    expect(readFileSync(join(p.dataDir, DB_FILE)).equals(published)).to.equal(true);
    expect(await server.buildId()).to.equal(served);
    const versions = (await get('/api/v1/versions')).body;
    expect(versions[versions.length - 1]).to.include({ version: 'MSL25' });
  });
});

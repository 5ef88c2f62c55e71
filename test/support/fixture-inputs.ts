// A complete, tiny set of raw inputs in every format the build reads, plus a manifest over them: two
// releases (MSL23 from a tree export + ontology + spreadsheet, MSL24 from a spreadsheet with a Taxon
// Counts sheet + VMR) and the shared tables. Tests mutate single files to provoke each failure mode, and
// add releases the way an operator does: files in the mirror and one manifest entry.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as XLSX from '@e965/xlsx';

export interface FixtureProject {
  root: string;
  manifest: string;
  rawDir: string;
  dataDir: string;
  mirror: string;
  projectionsDir: string;
  /** Writes a file under the mirror and re-registers its checksum in the manifest. */
  replace(file: string, content: Buffer | string): void;
  /** Writes a release's files under the mirror and adds its entry to the manifest, after the others. */
  addRelease(release: NewRelease): void;
}

export interface NewRelease {
  version: string;
  msl: number;
  year: number;
  label: string;
  treeId: number;
  /** role (msl, tree, ontology, vmr) -> file under the mirror and its content */
  files: Record<string, { file: string; content: Buffer | string }>;
}

const RANK_HEADERS = ['Realm', 'Subrealm', 'Kingdom', 'Subkingdom', 'Phylum', 'Subphylum', 'Class', 'Subclass',
  'Order', 'Suborder', 'Family', 'Subfamily', 'Genus', 'Subgenus'];

function xlsx(sheets: Record<string, unknown[][]>, bookType: XLSX.BookType = 'xlsx'): Buffer {
  const wb = XLSX.utils.book_new();
  for (const [name, rows] of Object.entries(sheets)) XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), name);
  return XLSX.write(wb, { type: 'buffer', bookType }) as Buffer;
}

/** The MSL24 main sheet, exported for tests that rewrite it (a missing column, a bad cell). */
export function msl24Sheet(): unknown[][] {
  const lineage = (family: string, genus: string) => [null, null, null, null, null, null, null, null, 'Testvirales', null, family, null, genus, null];
  return [
    ['Sort', ...RANK_HEADERS, 'Species', 'Genome Composition', 'Last Change', 'MSL of Last Change', 'Proposal for Last Change ', 'Taxon History URL'],
    [1, ...lineage('Alphaviridae', 'Alphavirus'), 'Alphavirus one', 'dsDNA', 'Renamed,', 24, '2008.001', 'ICTVonline=20080011'],
    [2, ...lineage('Alphaviridae', 'Alphavirus'), 'Alphavirus two', 'dsDNA', 'New,', 24, '2008.002', 'ICTVonline=20080012'],
    [3, ...lineage('Betaviridae', 'Betavirus'), 'Beta virus one', 'ssRNA(+)', 'New,', 23, '2005.001', 'ICTVonline=20080013'],
  ];
}

function taxonCounts(): unknown[][] {
  return [
    ['Rank', 'MSL24 Total'],
    ['Realm', 0], ['Order', 1], ['Family', 2], ['Genus', 2], ['Species', 3],
  ];
}

export function writeFixtureProject(): FixtureProject {
  const root = mkdtempSync(join(tmpdir(), 'vtqs-build-'));
  const mirror = join(root, 'mirror');
  const files: Record<string, Buffer | string> = {};

  files['MSL23/msl23.xls'] = xlsx({
    'ICTV 2005 Master Species List': [
      ['Order', 'Family', 'Subfamily', 'Genus', 'Type_Species', 'Species'],
      ['Testvirales', 'Alphaviridae', null, 'Alphavirus', 1, 'Alpha virus one'],
      ['Testvirales', 'Betaviridae', null, 'Betavirus', 1, 'Beta virus one'],
    ],
  }, 'biff8');
  const node = (id: number, parent: number, rank: string, name: string, children: unknown[] = []) => ({
    child_counts: null, name, parentTaxNodeID: parent, rankName: rank, taxNodeID: id, children,
  });
  files['MSL23/taxonomy_2005.json'] = JSON.stringify({
    child_counts: '1 order, 2 families, 2 genera, 2 species', name: '2005', parentTaxNodeID: 20070000,
    rankName: 'tree', taxNodeID: 20070000,
    children: [
      node(20070001, 20070000, 'order', 'Testvirales', [
        node(20070002, 20070001, 'family', 'Alphaviridae', [node(20070003, 20070002, 'genus', 'Alphavirus', [node(20070004, 20070003, 'species', 'Alpha virus one')])]),
        node(20070005, 20070001, 'family', 'Betaviridae', [node(20070006, 20070005, 'genus', 'Betavirus', [node(20070007, 20070006, 'species', 'Beta virus one')])]),
      ]),
    ],
  });
  const cls = (id: number, label: string, parent: number | null, replacedBy: number[]) => [
    `ictv:${id} a owl:Class ;`,
    `    rdfs:label "${label}" ;`,
    `    ns1:ictv_id "${id}" ;`,
    ...replacedBy.map((r) => `    iao:0100001 ictv:${r} ;`),
    ...(parent ? [`    rdfs:subClassOf ictv:${parent} ;`] : []),
    '    rdfs:isDefinedBy ictv:ictv_2005 .',
    '',
  ].join('\n');
  files['MSL23/ictv_2005.owl.ttl'] = [
    '@prefix iao: <http://purl.obolibrary.org/obo/IAO_> .',
    '@prefix ictv: <https://ictv.global/taxonomy/taxondetails?taxnode_id=> .',
    '@prefix ns1: <http://ictv.global/> .',
    '@prefix owl: <http://www.w3.org/2002/07/owl#> .',
    '@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .',
    '',
    cls(20070001, 'Testvirales', null, [20080001]),
    cls(20070002, 'Alphaviridae', 20070001, [20080002]),
    cls(20070003, 'Alphavirus', 20070002, [20080003]),
    cls(20070004, 'Alpha virus one', 20070003, [20080011]),
    cls(20070005, 'Betaviridae', 20070001, [20080005]),
    cls(20070006, 'Betavirus', 20070005, [20080006]),
    cls(20070007, 'Beta virus one', 20070006, [20080013]),
  ].join('\n');

  files['MSL24/msl24.xlsx'] = xlsx({ MSL: msl24Sheet(), 'Taxon Counts': taxonCounts() });
  const vmrHeader = ['Sort', 'Isolate Sort', ...RANK_HEADERS, 'Species', 'Exemplar or additional isolate', 'Virus name(s)',
    'Virus name abbreviation(s)', 'Virus isolate designation', 'Virus GENBANK accession', 'Virus REFSEQ accession',
    'Genome coverage', 'Genome composition', 'Host source'];
  const vmrRow = (sort: number, family: string, genus: string, species: string, name: string, abbrev: string, acc: string) =>
    [sort, 1, null, null, null, null, null, null, null, null, 'Testvirales', null, family, null, genus, null, species, 'E', name, abbrev, null, acc, null, 'Complete genome', 'dsDNA', 'bacteria'];
  files['MSL24/vmr24.xlsx'] = xlsx({
    VMR: [
      vmrHeader,
      vmrRow(1, 'Alphaviridae', 'Alphavirus', 'Alphavirus one', 'alpha virus 1', 'AV1', 'L: AB000001.1; S: AB000002'),
      vmrRow(2, 'Alphaviridae', 'Alphavirus', 'Alphavirus two', 'alpha virus 2', 'AV2', 'AB000003'),
      vmrRow(3, 'Betaviridae', 'Betavirus', 'Beta virus one', 'beta virus 1', 'BV1', 'AB000004'),
    ],
  });

  const tsv = (rows: string[][]) => `${rows.map((r) => r.join('\t')).join('\n')}\n`;
  files['cross_release/taxonomy_node_merge_split.utf8.txt'] = tsv([
    ['prev_ictv_id', 'next_ictv_id', 'is_merged', 'is_split', 'is_recreated', 'dist', 'rev_count'],
    ['20070004', '20070004', '0', '0', '0', '0', '0'],
  ]);
  files['cross_release/taxonomy_toc.utf8.txt'] = tsv([
    ['tree_id', 'msl_release_num', 'version_tag', 'needs_reindex', 'comments'],
    ['20070000', '23', 'NULL', '0', 'NULL'], ['20080000', '24', 'NULL', '0', 'NULL'],
  ]);
  // the vocabularies with ICTV's own columns, which the read models use
  files['cross_release/taxonomy_molecule.utf8.txt'] = tsv([
    ['id', 'abbrev', 'name', 'balt_group', 'balt_roman', 'description', 'left_idx', 'right_idx'],
    ['1', 'dsDNA', 'Double-stranded DNA', '1', 'I', 'NULL', '1', '2'],
    ['2', 'ssRNA(+)', 'Single-stranded RNA - Positive-sense', '4', 'IV', 'NULL', '3', '4'],
  ]);
  files['cross_release/taxonomy_level.utf8.txt'] = tsv([
    ['id', 'parent_id', 'name', 'plural', 'suffix', 'suffix_viroid', 'suffix_nuc_acid', 'suffix_viriform', 'notes'],
    ['500', 'NULL', 'species', 'species', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL'],
  ]);
  files['cross_release/taxonomy_host_source.utf8.txt'] = tsv([['host_source'], ['bacteria']]);
  files['cross_release/taxonomy_genome_coverage.utf8.txt'] = tsv([['genome_coverage', 'name', 'priority'], ['CG', 'Complete genome', '400']]);
  files['cross_release/taxonomy_change_in.utf8.txt'] = tsv([['change', 'notes'], ['new', 'NULL']]);
  files['cross_release/taxonomy_change_out.utf8.txt'] = tsv([['change', 'notes'], ['abolish', 'NULL']]);
  files['cross_release/releases.json'] = '{"data": {}}\n';
  files['enrichment/genbank_refseq_map_wide.txt'] = tsv([
    ['#refseq', 'genbank', 'VirusName', 'ncbi_taxid', 'refseq_slen', 'mol_type', 'circ_lin', 'complete', 'strand'],
    ['NC_000001', 'AB000001', 'alpha virus 1', '1', '1000', 'dna', 'linear', 'complete', 'ds'],
    ['NC_000002', 'AB000002', 'alpha virus 1', '1', '500', 'dna', 'linear', 'complete', 'ds'],
  ]);
  files['enrichment/24Jan2021_itol_length_annotations.txt'] = 'DATASET_SIMPLEBAR\nDATA\nAB000003\t40.5\n';

  for (const [file, content] of Object.entries(files)) {
    mkdirSync(dirname(join(mirror, file)), { recursive: true });
    writeFileSync(join(mirror, file), content);
  }

  const entry = (file: string) => {
    const body = readFileSync(join(mirror, file));
    return {
      file, sha256: createHash('sha256').update(body).digest('hex'), bytes: body.length,
      source: { repository: 'fixture/fixture', commit: '0'.repeat(40), path: file },
      url: `https://fixture.invalid/${file}`,
    };
  };
  const added: NewRelease[] = [];
  const manifestObject = () => ({
    description: 'fixture', licence: 'fixture',
    releases: [
      { version: 'MSL23', msl: 23, year: 2005, label: '2005', treeId: 20070000,
        files: { msl: entry('MSL23/msl23.xls'), tree: entry('MSL23/taxonomy_2005.json'), ontology: entry('MSL23/ictv_2005.owl.ttl') } },
      { version: 'MSL24', msl: 24, year: 2008, label: '2008', treeId: 20080000,
        files: { msl: entry('MSL24/msl24.xlsx'), vmr: entry('MSL24/vmr24.xlsx') } },
      ...added.map(({ files: roles, ...release }) => ({
        ...release, files: Object.fromEntries(Object.entries(roles).map(([role, f]) => [role, entry(f.file)])),
      })),
    ],
    crossRelease: {
      node_merge_split: entry('cross_release/taxonomy_node_merge_split.utf8.txt'),
      toc: entry('cross_release/taxonomy_toc.utf8.txt'),
      molecule: entry('cross_release/taxonomy_molecule.utf8.txt'),
      level: entry('cross_release/taxonomy_level.utf8.txt'),
      host_source: entry('cross_release/taxonomy_host_source.utf8.txt'),
      genome_coverage: entry('cross_release/taxonomy_genome_coverage.utf8.txt'),
      change_in: entry('cross_release/taxonomy_change_in.utf8.txt'),
      change_out: entry('cross_release/taxonomy_change_out.utf8.txt'),
      releases: entry('cross_release/releases.json'),
    },
    enrichment: {
      refseq_map: entry('enrichment/genbank_refseq_map_wide.txt'),
      itol_lengths: entry('enrichment/24Jan2021_itol_length_annotations.txt'),
    },
  });
  const manifest = join(root, 'releases.json');
  writeFileSync(manifest, JSON.stringify(manifestObject(), null, 2));
  const projectionsDir = join(root, 'projections');
  mkdirSync(projectionsDir);

  return {
    root, manifest, mirror, projectionsDir,
    rawDir: join(root, 'data', 'raw'),
    dataDir: join(root, 'data'),
    replace(file, content) {
      writeFileSync(join(mirror, file), content);
      writeFileSync(manifest, JSON.stringify(manifestObject(), null, 2));
    },
    addRelease(release) {
      for (const { file, content } of Object.values(release.files)) {
        mkdirSync(dirname(join(mirror, file)), { recursive: true });
        writeFileSync(join(mirror, file), content);
      }
      added.push(release);
      writeFileSync(manifest, JSON.stringify(manifestObject(), null, 2));
    },
  };
}

export { xlsx as writeWorkbook };

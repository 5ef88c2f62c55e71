// Readers for the tree export, the ontology, the database tables and the genome-length files, each on a
// tiny fixture written here, so the expected values can be read straight off the fixture.
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAccessionList, readItolLengths, readRefseqMap } from '../../build/ingest/genome-lengths.js';
import { readOntology } from '../../build/ingest/ontology.js';
import { parseChildCounts, readTreeExport } from '../../build/ingest/tree-json.js';
import { readMergeSplit, readToc, readTsv } from '../../build/ingest/tsv.js';
import { readVmrTable } from '../../build/ingest/vmr-table.js';
import { InputError, type Lineage } from '../../build/ingest/types.js';
import { RANKS } from '../../src/shared/ranks.js';

let dir: string;
before(() => { dir = mkdtempSync(join(tmpdir(), 'ingest-readers-')); });
after(() => { rmSync(dir, { recursive: true, force: true }); });

function fixture(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** The error a call throws, so tests can compare its whole message. */
function thrown(fn: () => unknown): InputError {
  try {
    fn();
  } catch (e) {
    expect(e).to.be.instanceOf(InputError);
    return e as InputError;
  }
  throw new Error('expected an InputError, nothing was thrown');
}

function lineage(ranks: Partial<Lineage>): Lineage {
  return { ...Object.fromEntries(RANKS.map((r) => [r, null])), ...ranks } as Lineage;
}

// Minimal export node; the display-only fields of the real export are left out.
function node(taxNodeID: number | string | null, parentTaxNodeID: number | null, rankName: string, name: string, children: unknown[] | null = []) {
  return { taxNodeID, parentTaxNodeID, rankName, name, children };
}

const ROOT = 20070000;
function tree(childCounts: string | null, children: unknown[]) {
  return { ...node(ROOT, ROOT, 'tree', '2005', children), child_counts: childCounts };
}

describe('readTreeExport', () => {
  const legend = node('legend', null, 'order', 'Unassigned', [node('legend', null, 'family', 'Unassigned', [node('legend', null, 'species', 'Unassigned')])]);
  const duplicateRoot = { ...node(ROOT, ROOT, 'tree', '2005', null), child_counts: '1 order' };
  const file = () => fixture('taxonomy_2005.json', JSON.stringify(tree('1 order, 2 families, 1 genus, 3 species', [
    legend,
    duplicateRoot,
    node(20070001, ROOT, 'order', 'Mononegavirales', [
      node(20070002, 20070001, 'family', 'Rhabdoviridae', [
        node(20070003, 20070002, 'genus', 'Lyssavirus', [node(20070004, 20070003, 'species', 'Rabies virus', null)]),
      ]),
    ]),
    node(null, ROOT, 'order', 'Unassigned', [
      node(20070005, ROOT, 'family', 'Tectiviridae', [
        node(null, 20070005, 'genus', 'Unassigned', [node(20070006, 20070005, 'species', 'Enterobacteria phage PRD1')]),
      ]),
      node(null, ROOT, 'family', 'Unassigned', [
        node(null, ROOT, 'genus', 'Unassigned', [node(20070007, ROOT, 'species', 'Tomato top virus')]),
      ]),
    ]),
  ])));

  it('returns the real taxa in document order, each with its lineage down to itself', () => {
    const result = readTreeExport(file());
    expect(result.rootTaxnodeId).to.equal(ROOT);
    expect(result.nodes).to.deep.equal([
      { taxnodeId: 20070001, parentTaxnodeId: ROOT, rank: 'order', name: 'Mononegavirales', lineage: lineage({ order: 'Mononegavirales' }) },
      { taxnodeId: 20070002, parentTaxnodeId: 20070001, rank: 'family', name: 'Rhabdoviridae', lineage: lineage({ order: 'Mononegavirales', family: 'Rhabdoviridae' }) },
      { taxnodeId: 20070003, parentTaxnodeId: 20070002, rank: 'genus', name: 'Lyssavirus', lineage: lineage({ order: 'Mononegavirales', family: 'Rhabdoviridae', genus: 'Lyssavirus' }) },
      { taxnodeId: 20070004, parentTaxnodeId: 20070003, rank: 'species', name: 'Rabies virus', lineage: lineage({ order: 'Mononegavirales', family: 'Rhabdoviridae', genus: 'Lyssavirus', species: 'Rabies virus' }) },
      { taxnodeId: 20070005, parentTaxnodeId: ROOT, rank: 'family', name: 'Tectiviridae', lineage: lineage({ family: 'Tectiviridae' }) },
      { taxnodeId: 20070006, parentTaxnodeId: 20070005, rank: 'species', name: 'Enterobacteria phage PRD1', lineage: lineage({ family: 'Tectiviridae', species: 'Enterobacteria phage PRD1' }) },
      { taxnodeId: 20070007, parentTaxnodeId: ROOT, rank: 'species', name: 'Tomato top virus', lineage: lineage({ species: 'Tomato top virus' }) },
    ]);
  });

  it('skips the legend chain, the Unassigned placeholders and the childless duplicate root without warnings', () => {
    const result = readTreeExport(file());
    expect(result.nodes.map((n) => n.name)).to.not.include('Unassigned');
    expect(result.nodes.map((n) => n.taxnodeId)).to.not.include(ROOT);
    expect(result.warnings).to.deep.equal([]);
  });

  it("parses the root's child_counts into official counts per rank", () => {
    expect(readTreeExport(file()).officialCounts).to.deep.equal({ order: 1, family: 2, genus: 1, species: 3 });
  });

  it('reads plural and singular rank words in child_counts', () => {
    expect(parseChildCounts('6 realms, 10 kingdoms, 17 phyla, 2 subphyla, 39 classes, 59 orders, 8 suborders, 189 families, 136 subfamilies, 2224 genera, 70 subgenera, 9110 species', 'f'))
      .to.deep.equal({ realm: 6, kingdom: 10, phylum: 17, subphylum: 2, class: 39, order: 59, suborder: 8, family: 189, subfamily: 136, genus: 2224, subgenus: 70, species: 9110 });
    expect(parseChildCounts('1 realm, 1 phylum, 1 subphylum, 1 class, 1 order, 1 family, 1 genus, 1 species', 'f'))
      .to.deep.equal({ realm: 1, phylum: 1, subphylum: 1, class: 1, order: 1, family: 1, genus: 1, species: 1 });
  });

  it('rejects a child_counts word that is not a rank, naming the file', () => {
    expect(thrown(() => parseChildCounts('3 orders, 5 clades', 'x.json')).message)
      .to.equal('x.json: root child_counts "3 orders, 5 clades": cannot read "5 clades" as "<count> <rank>"');
  });

  it('trims names but reports surrounding whitespace, duplicate names and a parent id that disagrees with the nesting', () => {
    const path = fixture('warnings.json', JSON.stringify(tree('1 genus, 2 species', [
      node(20070001, ROOT, 'genus', 'Lyssavirus', [
        node(20070002, 20070001, 'species', ' Rabies virus\u00a0'),
        node(20070003, 20070001, 'species', 'Rabies virus'),
        node(20070004, 20079999, 'species', 'Mokola virus'),
      ]),
    ])));
    const result = readTreeExport(path);
    expect(result.nodes.map((n) => [n.name, n.parentTaxnodeId])).to.deep.equal([
      ['Lyssavirus', ROOT], ['Rabies virus', 20070001], ['Rabies virus', 20070001], ['Mokola virus', 20070001],
    ]);
    expect(result.warnings).to.deep.equal([
      'species node 20070002 \' Rabies virus\u00a0\': leading/trailing whitespace trimmed from " Rabies virus\u00a0"',
      "species node 20070004 'Mokola virus': parentTaxNodeID 20079999 but nested under 20070001; using 20070001",
      "species name 'Rabies virus' occurs 2 times (taxNodeIDs 20070002, 20070003)",
    ]);
    // 3 species nodes where the root declares 2: one more than declared, at the root
    expect(result.shortfalls).to.deep.equal([
      { taxnodeId: ROOT, taxonRank: null, taxon: null, rank: 'species', declared: 2, found: 3, missing: -1 },
    ]);
  });

  it('finds where the export holds fewer taxa than its own child_counts declare, at the deepest node that says so', () => {
    // Myoviridae declares 2 genera and holds 1 (a genus without species the export left out); the order
    // and the root declare the same genus again, which is not counted twice.
    const path = fixture('shortfall.json', JSON.stringify(tree('1 order, 2 families, 3 genera, 3 species', [
      { ...node(20070001, ROOT, 'order', 'Caudovirales', [
        { ...node(20070002, 20070001, 'family', 'Myoviridae', [
          node(20070003, 20070002, 'genus', 'T4likevirus', [node(20070004, 20070003, 'species', 'Enterobacteria phage T4')]),
        ]), child_counts: '2 genera, 1 species' },
        { ...node(20070005, 20070001, 'family', 'Siphoviridae', [
          node(20070006, 20070005, 'genus', 'Lambdalikevirus', [
            node(20070007, 20070006, 'species', 'Enterobacteria phage lambda'), node(20070008, 20070006, 'species', 'Enterobacteria phage HK97'),
          ]),
        ]), child_counts: '1 genus, 2 species' },
      ]), child_counts: '2 families, 3 genera, 3 species' },
    ])));
    expect(readTreeExport(path).shortfalls).to.deep.equal([
      { taxnodeId: 20070002, taxonRank: 'family', taxon: 'Myoviridae', rank: 'genus', declared: 2, found: 1, missing: 1 },
    ]);
  });

  it('rejects a rankName that is not an ICTV rank, naming the file and the node', () => {
    const path = fixture('bad-rank.json', JSON.stringify(tree('1 species', [node(20070009, ROOT, 'clade', 'Foo')])));
    const error = thrown(() => readTreeExport(path));
    expect(error.message).to.equal(`${path}: node 20070009 'Foo': rankName "clade" is not one of the ICTV ranks`);
    expect(error.file).to.equal(path);
  });

  it('rejects a node ranked at or above its parent, naming the node', () => {
    const path = fixture('bad-order.json', JSON.stringify(tree('1 genus, 1 family', [
      node(20070001, ROOT, 'genus', 'Lyssavirus', [node(20070002, 20070001, 'family', 'Rhabdoviridae')]),
    ])));
    expect(thrown(() => readTreeExport(path)).message)
      .to.equal(`${path}: node 20070002 'Rhabdoviridae': rank family is not below its parent's rank genus`);
  });

  it('rejects a root without child_counts', () => {
    const path = fixture('no-counts.json', JSON.stringify(tree(null, [])));
    expect(thrown(() => readTreeExport(path)).message).to.equal(`${path}: the root node has no child_counts string (the official counts)`);
  });
});

describe('readOntology', () => {
  const PREFIXES = `@prefix iao: <http://purl.obolibrary.org/obo/IAO_> .
@prefix ictv: <https://ictv.global/taxonomy/taxondetails?taxnode_id=> .
@prefix ns1: <http://ictv.global/> .
@prefix oio: <http://www.geneontology.org/formats/oboInOwl#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
`;
  const TAXA = `${PREFIXES}
ns1:ds_rna a owl:Class ;
    rdfs:label "dsRNA" ;
    rdfs:subClassOf ns1:MolecularType .

ictv:19710022 a owl:Class ;
    rdfs:label "Coronavirus" ;
    ns1:ictv_id "19710022" ;
    iao:0100001 ictv:20084001 ;
    rdfs:isDefinedBy ictv:ictv_2005 .

ictv:19710155 a owl:Class ;
    rdfs:label "Infectious bronchitis virus" ;
    ns1:ictv_id "19710155" ;
    iao:0000225 iao:0000227 ;
    iao:0100001 ictv:20093530 ;
    oio:hasExactSynonym "IBV " ;
    rdfs:isDefinedBy ictv:ictv_2005 ;
    rdfs:subClassOf ictv:19710022 .

ictv:20132553 a owl:Class ;
    rdfs:label "Amdoparvovirus carnivoran1" ;
    ns1:ictv_id "20132553" ;
    iao:0000225 iao:0000229 ;
    iao:0100001 ictv:202304237,
        ictv:202317844 ;
    rdfs:subClassOf ictv:19710022, ns1:ds_rna .

ictv:ictv_2005 a owl:Ontology ;
    rdfs:label "ICTV Taxonomy (2005)" .
`;

  it('returns one taxon per class with an ictv_id, with parent, replaced-by links, obsolescence and synonyms', () => {
    expect(readOntology(fixture('ictv_2005.owl.ttl', TAXA))).to.deep.equal([
      { ictvId: 19710022, name: 'Coronavirus', parentIctvId: null, replacedBy: [20084001], obsolescence: null, synonyms: [] },
      { ictvId: 19710155, name: 'Infectious bronchitis virus', parentIctvId: 19710022, replacedBy: [20093530], obsolescence: 'merged', synonyms: ['IBV'] },
      { ictvId: 20132553, name: 'Amdoparvovirus carnivoran1', parentIctvId: 19710022, replacedBy: [202304237, 202317844], obsolescence: 'split', synonyms: [] },
    ]);
  });

  it('turns a Turtle syntax error into an InputError naming the file and the line', () => {
    const path = fixture('broken.ttl', `${PREFIXES}\nictv:1 a owl:Class ;\n    rdfs:label "x" ;\n    foo:bar "y" .\n`);
    const error = thrown(() => readOntology(path));
    expect(error.message).to.equal(`${path} (row 10): Turtle syntax error: Undefined prefix "foo:" on line 10.`);
    expect(error.where).to.deep.equal({ row: 10 });
  });

  it('rejects an obsolescence reason other than merged or split, naming the taxon', () => {
    const path = fixture('reason.ttl', `${PREFIXES}\nictv:7 rdfs:label "x" ; ns1:ictv_id "7" ; iao:0000225 iao:0000226 .\n`);
    expect(thrown(() => readOntology(path)).message).to.equal(`${path}: <https://ictv.global/taxonomy/taxondetails?taxnode_id=7> has obsolescence reason `
      + '<http://purl.obolibrary.org/obo/IAO_0000226>, expected IAO_0000227 (merged) or IAO_0000229 (split)');
  });

  it('rejects an ictv_id that differs from the id in the IRI', () => {
    const path = fixture('mismatch.ttl', `${PREFIXES}\nictv:7 rdfs:label "x" ; ns1:ictv_id "8" .\n`);
    expect(thrown(() => readOntology(path)).message)
      .to.equal(`${path}: <https://ictv.global/taxonomy/taxondetails?taxnode_id=7> has ictv_id "8", which does not match its IRI`);
  });
});

describe('readTsv', () => {
  it('returns every column by header name, with the literal NULL as null and empty text kept', () => {
    const path = fixture('vocab.utf8.txt', 'id\tname\tnotes\n1\tdsDNA\tNULL\n2\t\tsecond\n');
    expect(readTsv(path, ['id', 'name'])).to.deep.equal([
      { id: '1', name: 'dsDNA', notes: null },
      { id: '2', name: '', notes: 'second' },
    ]);
  });

  it('rejects a file without a required column, naming the file and the column', () => {
    const path = fixture('missing.utf8.txt', 'id\tname\n1\tx\n');
    const error = thrown(() => readTsv(path, ['id', 'plural']));
    expect(error.message).to.equal(`${path} (column 'plural'): required column 'plural' is missing (header: id, name)`);
  });

  it('rejects a row with the wrong number of fields, naming the file and the line', () => {
    const path = fixture('short.utf8.txt', 'a\tb\tc\n1\t2\t3\n4\t5\n');
    const error = thrown(() => readTsv(path, []));
    expect(error.message).to.equal(`${path} (row 3): line 3 has 2 fields, the header has 3`);
    expect(error.where).to.deep.equal({ row: 3 });
  });
});

describe('readVmrTable', () => {
  const HEADER = 'isolate_id\ttaxnode_id\tspecies_sort\tisolate_sort\tspecies_name\tisolate_type\tisolate_names\tisolate_abbrevs\t'
    + 'isolate_designation\tgenbank_accessions\trefseq_accessions\tgenome_coverage\tmolecule\thost_source\trefseq_organism\t'
    + 'refseq_taxids\tupdate_change\tupdate_prev_species\tupdate_prev_taxnode_id\tupdate_change_proposal\tnotes';
  const line = (...cells: Array<string | number>) => cells.join('\t');

  it('reads one row per isolate with the previous release\'s species, skipping the isolates of abolished species', () => {
    const path = fixture('species_isolates.utf8.txt', [
      HEADER,
      line(1004166, 202504295, 16584, 1, 'Chlorovirus vanettense', 'E', 'Paramecium bursaria chlorella virus NY2A', 'NY-2A', 'NULL',
        'DQ491002', 'NC_009898', 'Complete genome', 'dsDNA', 'algae', 'NULL', '46021', 'Merged,Moved,', 'Chlorovirus vanettense', 202404295, '2025.010F.zip', 'NULL'),
      line(1004173, 202504295, 16584, 2, 'Chlorovirus vanettense', 'A', 'Paramecium bursaria chlorella virus IL3A', 'NULL', 'NULL',
        'NULL', 'NULL', 'Complete genome', 'dsDNA', 'algae', 'NULL', 'NULL', 'Merged,Moved,', 'Chlorovirus illinoense', 202404302, '2025.010F.zip', 'NULL'),
      line(1000473, 'NULL', 12025, 1, 'abolished', 'E', 'hemipteran phasma-related virus OKIAV247', 'HeFV', 'NULL', 'MT153364', 'NULL',
        'Coding-complete genome', 'ssRNA(-)', 'invertebrates', 'NULL', 'NULL', 'abolished', 'Feravirus hemipterus', 202309613, '2024.013M.zip', 'NULL'),
      '',
    ].join('\n'));
    const vmr = readVmrTable(path);
    expect(vmr.rows.map((r) => [r.row, r.species, r.exemplar, r.taxnodeId, r.speciesSort, r.abbreviations, r.refseqTaxids, r.prevChange, r.prevSpecies, r.prevTaxnodeId, r.family]))
      .to.deep.equal([
        [2, 'Chlorovirus vanettense', 'E', 202504295, 16584, 'NY-2A', '46021', 'Merged,Moved,', 'Chlorovirus vanettense', 202404295, null],
        [3, 'Chlorovirus vanettense', 'A', 202504295, 16584, null, null, 'Merged,Moved,', 'Chlorovirus illinoense', 202404302, null],
      ]);
    expect(vmr.warnings).to.deep.equal(['1 isolate rows of species abolished in this release (no taxnode_id) skipped']);
  });

  it('rejects a row without a taxnode that is not an abolished species\' isolate, naming line and column', () => {
    const path = fixture('species_isolates_bad.utf8.txt', [HEADER,
      line(1, 'NULL', 1, 1, 'Some species', 'E', 'v', 'NULL', 'NULL', 'X1', 'NULL', 'NULL', 'dsDNA', 'plants', 'NULL', 'NULL', 'same', 'Some species', 1, 'NULL', 'NULL'),
    ].join('\n'));
    expect(thrown(() => readVmrTable(path)).where).to.deep.equal({ row: 2, column: 'taxnode_id' });
  });
});

describe('readMergeSplit', () => {
  const HEADER = 'prev_ictv_id\tnext_ictv_id\tis_merged\tis_split\tis_recreated\tdist\trev_count\n';

  it('reads ids and distances as numbers, and the merge/split/recreate counts as flags plus the counts', () => {
    const path = fixture('merge_split.utf8.txt', `${HEADER}19710018\t19710018\t0\t0\t0\t0\t0\n19710018\t20081089\t1\t2\t0\t3\t4\n`);
    expect(readMergeSplit(path)).to.deep.equal([
      { prevIctvId: 19710018, nextIctvId: 19710018, isMerged: false, isSplit: false, isRecreated: false, mergedCount: 0, splitCount: 0, recreatedCount: 0, dist: 0, revCount: 0 },
      { prevIctvId: 19710018, nextIctvId: 20081089, isMerged: true, isSplit: true, isRecreated: false, mergedCount: 1, splitCount: 2, recreatedCount: 0, dist: 3, revCount: 4 },
    ]);
  });

  it('rejects a value that is not a count, naming the line and the column', () => {
    const path = fixture('merge_split_bad.utf8.txt', `${HEADER}1\t1\t0\t0\t0\t0\t0\n1\t2\tyes\t0\t0\t1\t0\n`);
    expect(thrown(() => readMergeSplit(path)).message).to.equal(`${path} (row 3, column 'is_merged'): line 3: expected an integer, found "yes"`);
  });
});

describe('readToc', () => {
  it('reads tree ids and release numbers as numbers and NULL tags and comments as null', () => {
    const path = fixture('toc.utf8.txt', 'tree_id\tmsl_release_num\tversion_tag\tneeds_reindex\tcomments\n'
      + '20070000\t23\tNULL\t0\tNULL\n202300000\t39\tMSL39v4\t0\tNULL\n201850000\t34\tNULL\t0\t2nd release in same year \n');
    expect(readToc(path)).to.deep.equal([
      { treeId: 20070000, msl: 23, versionTag: null, comments: null },
      { treeId: 202300000, msl: 39, versionTag: 'MSL39v4', comments: null },
      { treeId: 201850000, msl: 34, versionTag: null, comments: '2nd release in same year ' },
    ]);
  });
});

describe('readRefseqMap', () => {
  const HEADER = '#refseq\tgenbank\tVirusName\tncbi_taxid\trefseq_slen\tmol_type\tcirc_lin\tcomplete\tstrand\n';

  it('gives the RefSeq length to both the RefSeq and the GenBank accession, only for rows that have a length', () => {
    const path = fixture('genbank_refseq_map_wide.txt', HEADER
      + 'NC_000852\tJF411744\tParamecium bursaria Chlorella virus 1\t10506\t330611\tdna\tlinear\tcomplete\tds\n'
      + 'NC_000855\ty18263.1\tViral hemorrhagic septicemia virus Fil3\t1147160\t11158\trna\tlinear\tcomplete\n'
      + 'NC_043413\tAX025830\tTorque teno virus 17\t687356\t3249\tdna\tlinear\n'
      + 'NC_075802\tEU349274\n');
    expect(readRefseqMap(path)).to.deep.equal([
      { accession: 'NC_000852', lengthBp: 330611, source: 'ictv_refseq_map' },
      { accession: 'JF411744', lengthBp: 330611, source: 'ictv_refseq_map' },
      { accession: 'NC_000855', lengthBp: 11158, source: 'ictv_refseq_map' },
      { accession: 'Y18263', lengthBp: 11158, source: 'ictv_refseq_map' },
      { accession: 'NC_043413', lengthBp: 3249, source: 'ictv_refseq_map' },
      { accession: 'AX025830', lengthBp: 3249, source: 'ictv_refseq_map' },
    ]);
  });

  it('rejects a file whose header is not the expected one', () => {
    const path = fixture('not-a-map.txt', 'refseq\tgenbank\n');
    expect(thrown(() => readRefseqMap(path)).message).to.equal(`${path} (row 1): header is not "#refseq\tgenbank\tVirusName\tncbi_taxid\trefseq_slen..."`);
  });

  it('rejects a line with a single field, naming the line', () => {
    const path = fixture('map-short.txt', `${HEADER}NC_000852\n`);
    expect(thrown(() => readRefseqMap(path)).message).to.equal(`${path} (row 2): line 2 has 1 fields, expected 2 to 9`);
  });
});

describe('readItolLengths', () => {
  const PREAMBLE = '#This annotation file adds bars\n\nDATASET_SIMPLEBAR\n\nSEPARATOR TAB\n\nDATASET_LABEL\tGenome Length (KB)\n\nDATA\n\n';

  it('reads the lines after DATA as accession and kb, giving exact bp', () => {
    const path = fixture('itol.txt', `${PREAMBLE}LR756511\t595.163\nnc_001416.1\t48.502\n\nMN136198\t40.5\n`);
    expect(readItolLengths(path)).to.deep.equal([
      { accession: 'LR756511', lengthBp: 595163, source: 'inphared_itol' },
      { accession: 'NC_001416', lengthBp: 48502, source: 'inphared_itol' },
      { accession: 'MN136198', lengthBp: 40500, source: 'inphared_itol' },
    ]);
  });

  it('rejects a data line that is not accession and kb, naming the line', () => {
    const path = fixture('itol-bad.txt', `${PREAMBLE}LR756511\t595.163\nLR756508 484.177\n`);
    expect(thrown(() => readItolLengths(path)).message).to.equal(`${path} (row 12): line 12 is not "accession<TAB>length_kb": "LR756508 484.177"`);
  });

  it('rejects a file without a DATA line', () => {
    const path = fixture('itol-nodata.txt', 'DATASET_SIMPLEBAR\nLR756511\t595.163\n');
    expect(thrown(() => readItolLengths(path)).message).to.equal(`${path}: no DATA line (not an iTOL annotation file?)`);
  });
});

describe('parseAccessionList', () => {
  it('splits segmented accessions and drops the segment labels', () => {
    expect(parseAccessionList('L: MT270834; M: MT270835')).to.deep.equal([
      { accession: 'MT270834', lengthBp: null, fromCoordinates: false },
      { accession: 'MT270835', lengthBp: null, fromCoordinates: false },
    ]);
  });

  it('drops everything up to the last colon, the version suffix and lower case', () => {
    expect(parseAccessionList('DNA-A: X12345.1')).to.deep.equal([{ accession: 'X12345', lengthBp: null, fromCoordinates: false }]);
    expect(parseAccessionList('seg 1: a: ab123456.2, CD000001')).to.deep.equal([
      { accession: 'AB123456', lengthBp: null, fromCoordinates: false },
      { accession: 'CD000001', lengthBp: null, fromCoordinates: false },
    ]);
  });

  it('takes a length from a coordinate suffix, written with one or two dots', () => {
    expect(parseAccessionList('CP000830 (100.200)')).to.deep.equal([{ accession: 'CP000830', lengthBp: 101, fromCoordinates: true }]);
    expect(parseAccessionList('AE006468 (2844298..2877981)')).to.deep.equal([{ accession: 'AE006468', lengthBp: 33684, fromCoordinates: true }]);
  });

  it('gives no length for a malformed range (end before start) but still marks the part as coordinates', () => {
    expect(parseAccessionList('AE006468 (2844298.877981)')).to.deep.equal([{ accession: 'AE006468', lengthBp: null, fromCoordinates: true }]);
    expect(parseAccessionList('LK928904 (2253.0260)')).to.deep.equal([{ accession: 'LK928904', lengthBp: null, fromCoordinates: true }]);
  });

  it('returns no parts for an empty cell or empty separators', () => {
    expect(parseAccessionList('')).to.deep.equal([]);
    expect(parseAccessionList(' ; ,')).to.deep.equal([]);
  });
});

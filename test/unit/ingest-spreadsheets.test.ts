import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as XLSX from '@e965/xlsx';
import { readMslSpreadsheet } from '../../build/ingest/msl-spreadsheet.js';
import { InputError, type Lineage, type MslRow } from '../../build/ingest/types.js';
import { readVmr } from '../../build/ingest/vmr.js';

// Fixture workbooks are written with SheetJS itself, as .xlsx and as BIFF8 .xls (the MSL23-29 format).
let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'ingest-spreadsheets-'));
});
after(() => {
  rmSync(dir, { recursive: true, force: true });
});

function writeBook(name: string, sheets: Record<string, unknown[][]>, bookType: XLSX.BookType = 'xlsx'): string {
  const wb = XLSX.utils.book_new();
  for (const [sheet, aoa] of Object.entries(sheets)) XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(aoa), sheet);
  const path = join(dir, name);
  writeFileSync(path, XLSX.write(wb, { type: 'buffer', bookType }));
  return path;
}

function errorOf(fn: () => unknown): InputError {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(InputError);
    return err as InputError;
  }
  throw new Error('expected an InputError');
}

const NO_LINEAGE: Lineage = {
  realm: null, subrealm: null, kingdom: null, subkingdom: null, phylum: null, subphylum: null, class: null,
  subclass: null, order: null, suborder: null, family: null, subfamily: null, genus: null, subgenus: null,
  species: null,
};

const NO_EXTRAS: Omit<MslRow, keyof Lineage | 'row'> = {
  sort: null, typeSpecies: null, genomeComposition: null, lastChange: null, mslOfLastChange: null, proposal: null,
  taxnodeId: null, ictvId: null,
};

const REALM_HEADER = [
  'Sort', 'Realm', 'Subrealm', 'Kingdom', 'Subkingdom', 'Phylum', 'Subphylum', 'Class', 'Subclass', 'Order',
  'Suborder', 'Family', 'Subfamily', 'Genus', 'Subgenus', 'Species',
];

describe('readMslSpreadsheet', () => {
  describe('on an MSL23-style .xls (Order..Genus, Type_Species, Species)', () => {
    let path: string;
    before(() => {
      path = writeBook('msl23.xls', {
        Version: [['Version', 'Date'], ['v1', '2005-06-01']],
        'ICTV 2005 Master Species List': [
          ['Order', 'Family', 'Subfamily', 'Genus', 'Type_Species', 'Species'],
          ['Caudovirales', 'Myoviridae', '', 'Mu-like viruses', 1, 'Enterobacteria phage Mu'],
          ['Unassigned', 'UNASSIGNED', null, 'unassigned', 0, '  Some\u00a0floating virus\u00a0'],
          ['', '', '', '', '', ''],
        ],
      }, 'biff8');
    });

    it('finds the list sheet by its header and names the layout by its recognised columns', () => {
      const wb = readMslSpreadsheet(path, 23);
      expect(wb.file).to.equal(path);
      expect(wb.sheet).to.equal('ICTV 2005 Master Species List');
      expect(wb.layout).to.equal('order,family,subfamily,genus,typeSpecies,species');
    });

    it('turns empty cells and "Unassigned" placeholders into null, no-break spaces into spaces, and skips blank trailing rows', () => {
      const wb = readMslSpreadsheet(path, 23);
      expect(wb.rows).to.deep.equal([
        {
          ...NO_LINEAGE, ...NO_EXTRAS, row: 2, order: 'Caudovirales', family: 'Myoviridae', genus: 'Mu-like viruses',
          species: 'Enterobacteria phage Mu', typeSpecies: true,
        },
        { ...NO_LINEAGE, ...NO_EXTRAS, row: 3, species: 'Some floating virus', typeSpecies: false },
      ]);
      expect(wb.warnings).to.deep.equal([]);
      expect(wb.taxonCounts).to.deep.equal([]);
      expect(wb.renames).to.deep.equal([]);
    });
  });

  describe('on an MSL24-style list (quoted genus names, one species listed twice)', () => {
    let path: string;
    before(() => {
      path = writeBook('msl24.xls', {
        'Master Species List': [
          ['Order', 'Family', 'Subfamily', 'Genus', 'SID', 'Type_Species', 'Species'],
          ['Caudovirales', 'Myoviridae', '', '"Mu-like viruses"', 1907, 1, 'Enterobacteria phage Mu'],
          ['Unassigned', 'Ophioviridae', '', 'Ophiovirus', 1908, 0, 'Lettuce big-vein associated virus'],
          ['Unassigned', 'Unassigned', '', 'Varicosavirus', 1909, 1, 'Lettuce big-vein associated virus'],
        ],
      }, 'biff8');
    });

    it('strips the quotes around genus names', () => {
      expect(readMslSpreadsheet(path, 24).rows[0]?.genus).to.equal('Mu-like viruses');
    });

    it('keeps the first row of a duplicated species and warns with both row numbers', () => {
      const wb = readMslSpreadsheet(path, 24);
      expect(wb.rows.map((r) => [r.row, r.species, r.family])).to.deep.equal([
        [2, 'Enterobacteria phage Mu', 'Myoviridae'],
        [3, 'Lettuce big-vein associated virus', 'Ophioviridae'],
      ]);
      expect(wb.warnings).to.deep.equal([
        "species 'Lettuce big-vein associated virus' is listed twice (rows 3 and 4); row 4 dropped",
      ]);
    });
  });

  describe('on an MSL29-39-style list (realm columns, messy headers, Taxon History URLs)', () => {
    let path: string;
    before(() => {
      path = writeBook('msl38.xlsx', {
        'Column Definitions': [['Column', 'Definition'], ['Species', 'the species']],
        MSL: [
          [
            ...REALM_HEADER, ' Type Species? ', 'Exemplar RefSeq\nAccession Number', 'Genome Composition',
            'Rank of Last Change', 'Last Change', 'MSL of Last Changed', 'Proposal for Last Change ',
            'Taxon History URL', null,
          ],
          [
            1, 'Riboviria', '', 'Orthornavirae', '', 'Negarnaviricota', 'Haploviricotina', 'Monjiviricetes', '',
            'Mononegavirales', '', 'Filoviridae', '', 'Orthoebolavirus', '', 'Orthoebolavirus zairense', 1,
            'NC_002549', 'ssRNA(-)', 'species', 'Renamed,', 38, '2022.001M.zip',
            'http://ictvonline.org/taxonomyHistory.asp?taxnode_id=20140119', 'stray note',
          ],
          [
            2, '', '', '', '', '', '', '', '', '', '', 'Anelloviridae', '', 'Alphatorquevirus', '',
            'Alphatorquevirus homin1', '1', '', 'ssDNA(-)', '', 'New,', '36.0', '', 'ICTVonline=20150005',
          ],
          [
            3, 'Riboviria', '', '', '', '', '', '', '', '', '', 'Fakeviridae', '', 'Fakevirus', '', 'Fakevirus one', 0,
            '', 'dsRNA', '', 'Moved,', ' 35 ', 'x.zip', 'ictv.global=202208644',
          ],
        ],
        'Taxa Renamed in MSL38': [
          ['Rank', 'Old Name', 'New Name', 'proposal'],
          ['genus', 'Riboviria;Filoviridae;Ebolavirus', 'Riboviria;Filoviridae;Orthoebolavirus', '2022.001M.zip'],
          [],
          ['', '', '', ''],
          ['species', 'A;B;Old one', 'A;B;New one', ''],
        ],
        'Taxon Counts': [
          [],
          [null, 'Rank', 'MSL37 Total', 'New', 'Abolished', 'MSL.38 Total'],
          [null, 'Realm', 6, 0, 0, 6],
          [null, 'Genus', 2606, 214, -2, 2818],
          [null, 'Species', 10434, 858, -19, 11273],
        ],
      });
    });

    it('matches headers after trimming and collapsing whitespace, ignoring unknown and empty header cells', () => {
      expect(readMslSpreadsheet(path, 38).layout).to.equal(
        'sort,realm,subrealm,kingdom,subkingdom,phylum,subphylum,class,subclass,order,suborder,family,subfamily,' +
          'genus,subgenus,species,typeSpecies,genomeComposition,lastChange,mslOfLastChange,proposal,taxnodeId',
      );
    });

    it('reads every rank and the change columns, with MSL numbers written as text', () => {
      const wb = readMslSpreadsheet(path, 38);
      expect(wb.rows[0]).to.deep.equal({
        ...NO_LINEAGE, row: 2, sort: 1, realm: 'Riboviria', kingdom: 'Orthornavirae', phylum: 'Negarnaviricota',
        subphylum: 'Haploviricotina', class: 'Monjiviricetes', order: 'Mononegavirales', family: 'Filoviridae',
        genus: 'Orthoebolavirus', species: 'Orthoebolavirus zairense', typeSpecies: true,
        genomeComposition: 'ssRNA(-)', lastChange: 'Renamed,', mslOfLastChange: 38, proposal: '2022.001M.zip',
        taxnodeId: 20140119, ictvId: null,
      });
      expect(wb.rows.map((r) => [r.typeSpecies, r.mslOfLastChange, r.proposal])).to.deep.equal([
        [true, 38, '2022.001M.zip'], [true, 36, null], [false, 35, 'x.zip'],
      ]);
    });

    it('takes the taxnode id from each of the three Taxon History URL forms', () => {
      expect(readMslSpreadsheet(path, 38).rows.map((r) => r.taxnodeId)).to.deep.equal([20140119, 20150005, 202208644]);
    });

    it('reads the rename sheet, skipping rows without an old name', () => {
      expect(readMslSpreadsheet(path, 38).renames).to.deep.equal([
        {
          row: 2, ictvId: null, rank: 'genus', change: null, oldName: 'Riboviria;Filoviridae;Ebolavirus',
          newName: 'Riboviria;Filoviridae;Orthoebolavirus', proposal: '2022.001M.zip',
        },
        { row: 5, ictvId: null, rank: 'species', change: null, oldName: 'A;B;Old one', newName: 'A;B;New one', proposal: null },
      ]);
    });

    it('reads each total column of the Taxon Counts sheet, and the change columns with the total they lead to', () => {
      expect(readMslSpreadsheet(path, 38).taxonCounts).to.deep.equal([
        { msl: 37, column: 'MSL37 Total', counts: { realm: 6, genus: 2606, species: 10434 }, changes: {} },
        {
          msl: 38, column: 'MSL.38 Total', counts: { realm: 6, genus: 2818, species: 11273 },
          changes: { New: { realm: 0, genus: 214, species: 858 }, Abolished: { realm: 0, genus: -2, species: -19 } },
        },
      ]);
    });

    it('warns when a species was last changed after the release being read', () => {
      expect(readMslSpreadsheet(path, 37).warnings).to.deep.equal([
        "species 'Orthoebolavirus zairense' (row 2): MSL of last change 38 is after MSL37",
      ]);
    });

    it('warns when the Taxon Counts sheet has no total for the release being read', () => {
      expect(readMslSpreadsheet(path, 39).warnings).to.deep.equal(["sheet 'Taxon Counts' has no total column for MSL39"]);
    });
  });

  describe('on an MSL40-style workbook (ICTV_ID, Genome, two Taxon Counts tables)', () => {
    let path: string;
    before(() => {
      path = writeBook('msl40.xlsx', {
        MSL: [
          [...REALM_HEADER, 'ICTV_ID', 'Genome', 'Last Change', 'MSL of Last Change', 'Proposal for Last Change '],
          [
            1, 'Adnaviria', null, 'Zilligvirae', null, 'Taleaviricota', null, 'Tokiviricetes', null, 'Ligamenvirales',
            null, 'Chiyouviridae', null, 'Wargodvirus', null, 'Wargodvirus xiongnu', 'ICTV202420188', 'dsDNA', 'New,', 40,
            '2024.005A.zip',
          ],
        ],
        'Taxa Renamed or Abolished': [
          ['ICVD_ID', 'Rank', 'Change', 'Old Name', 'New Name', 'proposal'],
          ['ICTV201908714', 'class', 'Renamed,Moved', 'V;B;P;Maveriviricetes', 'V;B;P;S;Virophaviricetes', '2024.010D.zip'],
          [],
          ['ICTV20140114', 'subfamily', 'Abolished', 'D;H;U;C;Eucampyvirinae', null, '2024.009B.zip'],
        ],
        'Taxon Counts': [
          [null, 'MSL40v2'],
          [null, 'Rank', 'MSL39 Total', 'New', 'Renamed', 'MSL.40v2Total', 'MSL40v2 vs MSL40v1'],
          [null, 'Realm', 6, 1, 0, 7, 0],
          [null, 'Species', 14690, 1561, 279, 16213, -2],
          [null, 'Total Taxa', 18979, 1903, 289, 20846, -3],
          [],
          [null, 'MSL40v1'],
          [null, 'Rank', 'MSL39 Total', 'New', 'Renamed', 'MSL.40 Total'],
          [null, 'Realm', 6, 1, 0, 7],
          [null, 'Species', 14690, 1563, 273, 16215],
          [null, 'Total Taxa', 18979, 1906, 283, 20849],
        ],
      });
    });

    it('reads the ICTV_ID column as a number and "Genome" as the genome composition', () => {
      const wb = readMslSpreadsheet(path, 40);
      expect(wb.rows).to.have.length(1);
      expect(wb.rows[0]).to.include({ ictvId: 202420188, taxnodeId: null, genomeComposition: 'dsDNA', typeSpecies: null });
      expect(wb.rows[0]).to.include({ realm: 'Adnaviria', subrealm: null, family: 'Chiyouviridae', species: 'Wargodvirus xiongnu' });
    });

    it('returns one entry per total column of each Taxon Counts table, skipping "Total Taxa"', () => {
      // "MSL40v2 vs MSL40v1" follows the last total: it leads to no release
      expect(readMslSpreadsheet(path, 40).taxonCounts).to.deep.equal([
        { msl: 39, column: 'MSL39 Total', counts: { realm: 6, species: 14690 }, changes: {} },
        { msl: 40, column: 'MSL.40v2Total', counts: { realm: 7, species: 16213 }, changes: { New: { realm: 1, species: 1561 }, Renamed: { realm: 0, species: 279 } } },
        { msl: 39, column: 'MSL39 Total', counts: { realm: 6, species: 14690 }, changes: {} },
        { msl: 40, column: 'MSL.40 Total', counts: { realm: 7, species: 16215 }, changes: { New: { realm: 1, species: 1563 }, Renamed: { realm: 0, species: 273 } } },
      ]);
    });

    it('reads renames and abolitions with their ICTV ids and change kind', () => {
      expect(readMslSpreadsheet(path, 40).renames).to.deep.equal([
        {
          row: 2, ictvId: 201908714, rank: 'class', change: 'Renamed,Moved', oldName: 'V;B;P;Maveriviricetes',
          newName: 'V;B;P;S;Virophaviricetes', proposal: '2024.010D.zip',
        },
        {
          row: 4, ictvId: 20140114, rank: 'subfamily', change: 'Abolished', oldName: 'D;H;U;C;Eucampyvirinae',
          newName: null, proposal: '2024.009B.zip',
        },
      ]);
      expect(readMslSpreadsheet(path, 40).warnings).to.deep.equal([]);
    });
  });

  describe('on an MSL41-style workbook (the taxnode id in the ICTV_ID hyperlink)', () => {
    it('reads the taxnode id from the HYPERLINK formula of the ICTV_ID cell', () => {
      const sheet = XLSX.utils.aoa_to_sheet([
        [...REALM_HEADER, 'ICTV_ID', 'Genome', 'Last Change', 'MSL of Last Change', 'Proposal for Last Change '],
        [1, 'Adnaviria', null, null, null, null, null, null, null, null, null, 'Chiyouviridae', null, 'Wargodvirus', null,
          'Wargodvirus xiongnu', 'ICTV202420188', 'dsDNA', 'New,', 40, '2024.005A.zip'],
        [2, 'Adnaviria', null, null, null, null, null, null, null, null, null, 'Chiyouviridae', null, 'Wargodvirus', null,
          'Wargodvirus other', 'ICTV202420189', 'dsDNA', 'New,', 41, '2025.001A.zip'],
      ]);
      sheet.Q2!.f = 'HYPERLINK("https://ictv.global/taxonomy/taxondetails?taxnode_id=202520188&ictv_id=ICTV202420188","ICTV202420188")';
      const wb = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(wb, sheet, 'MSL');
      const path = join(dir, 'msl41.xlsx');
      writeFileSync(path, XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }));
      expect(readMslSpreadsheet(path, 41).rows.map((r) => [r.species, r.ictvId, r.taxnodeId])).to.deep.equal([
        ['Wargodvirus xiongnu', 202420188, 202520188],
        ['Wargodvirus other', 202420189, null],
      ]);
    });
  });

  describe('rejects', () => {
    it('a list without a required column, naming file, sheet and column', () => {
      const path = writeBook('no-family.xlsx', { MSL: [['Order', 'Genus', 'Species'], ['O', 'G', 'S']] });
      const err = errorOf(() => readMslSpreadsheet(path, 30));
      expect(err.where).to.deep.equal({ sheet: 'MSL', column: 'Family' });
      expect(err.message).to.equal(`${path} (sheet 'MSL', column 'Family'): required column is missing`);
    });

    it('a workbook with no species list as an unknown layout, naming the sheets seen', () => {
      const path = writeBook('other.xlsx', { Version: [['Version']], Notes: [['Species', 'Comment']] });
      const err = errorOf(() => readMslSpreadsheet(path, 30));
      expect(err.file).to.equal(path);
      expect(err.message).to.equal(
        `${path}: unknown layout: no sheet has a header with Species, Genus and Family (MSL30 species list); ` +
          "sheets seen: 'Version', 'Notes'",
      );
    });

    it('a non-numeric MSL of Last Change, naming row and column', () => {
      const path = writeBook('bad-number.xlsx', {
        MSL: [
          ['Family', 'Genus', 'Species', 'MSL of Last Change'],
          ['F', 'G', 'S1', 31],
          ['F', 'G', 'S2', 'thirty'],
        ],
      });
      const err = errorOf(() => readMslSpreadsheet(path, 31));
      expect(err.where).to.deep.equal({ sheet: 'MSL', row: 3, column: 'MSL of Last Change' });
      expect(err.message).to.equal(`${path} (sheet 'MSL', row 3, column 'MSL of Last Change'): value "thirty" is not a whole number`);
    });

    it('a Taxon History URL without a taxnode number', () => {
      const path = writeBook('bad-url.xlsx', {
        MSL: [['Family', 'Genus', 'Species', 'Taxon History URL'], ['F', 'G', 'S', 'https://ictv.global/taxonomy']],
      });
      expect(errorOf(() => readMslSpreadsheet(path, 31)).where).to.deep.equal({
        sheet: 'MSL', row: 2, column: 'Taxon History URL',
      });
    });

    it('a file that is not there', () => {
      const path = join(dir, 'missing.xlsx');
      expect(errorOf(() => readMslSpreadsheet(path, 31)).file).to.equal(path);
    });
  });
});

const VMR37_HEADER = [
  'Sort', 'Isolate Sort', 'Realm', 'Subrealm', 'Kingdom', 'Subkingdom', 'Phylum', 'Subphylum', 'Class', 'Subclass',
  'Order', 'Suborder', 'Family', 'Subfamily', 'Genus', 'Subgenus', 'Species', 'Exemplar or additional isolate',
  'Virus name(s)', 'Virus name abbreviation(s)', 'Virus isolate designation', 'Virus GENBANK accession',
  'Virus REFSEQ accession', 'Genome coverage', 'Genome composition', 'Host source',
];
/** What only ICTV's database table of isolates has: null from a workbook. */
const NO_DATABASE_COLUMNS = {
  taxnodeId: null, refseqOrganism: null, refseqTaxids: null, prevChange: null, prevSpecies: null, prevTaxnodeId: null, prevProposal: null,
};

const LINEAGE_CELLS = ['Adnaviria', '', 'Zilligvirae', '', 'Taleaviricota', '', 'Tokiviricetes', '', 'Ligamenvirales', '',
  'Lipothrixviridae', '', 'Alphalipothrixvirus', ''];

describe('readVmr', () => {
  it('reads an MSL37/38-style VMR, one row per isolate', () => {
    const path = writeBook('vmr37.xlsx', {
      VMRb37: [
        VMR37_HEADER,
        [1, 1, ...LINEAGE_CELLS, 'Alphalipothrixvirus SBFV2', 'E', 'Sulfolobales Beppu filamentous virus 2', 'SBFV2',
          'SBFV2 clone B', 'MK064563', 'NC_048128', 'Complete coding genome', 'dsDNA', 'archaea'],
        [1, 2, ...LINEAGE_CELLS, 'Alphalipothrixvirus SBFV2', ' a ', 'Another isolate ', '', 1950, 'MK000001', '',
          'Partial genome', 'dsDNA', 'archaea'],
        [],
      ],
      'Column definitions': [['Column', 'Heading', 'Definition']],
    });
    const vmr = readVmr(path, 37);
    expect(vmr.sheet).to.equal('VMRb37');
    expect(vmr.layout).to.equal(
      'speciesSort,isolateSort,realm,subrealm,kingdom,subkingdom,phylum,subphylum,class,subclass,order,suborder,' +
        'family,subfamily,genus,subgenus,species,exemplar,virusNames,abbreviations,isolateDesignation,genbank,refseq,' +
        'genomeCoverage,genomeComposition,hostSource',
    );
    expect(vmr.rows).to.deep.equal([
      {
        ...NO_LINEAGE, realm: 'Adnaviria', kingdom: 'Zilligvirae', phylum: 'Taleaviricota', class: 'Tokiviricetes',
        order: 'Ligamenvirales', family: 'Lipothrixviridae', genus: 'Alphalipothrixvirus',
        species: 'Alphalipothrixvirus SBFV2', row: 2, isolateId: null, speciesSort: 1, isolateSort: 1, ictvId: null,
        exemplar: 'E', virusNames: 'Sulfolobales Beppu filamentous virus 2', abbreviations: 'SBFV2',
        isolateDesignation: 'SBFV2 clone B', genbank: 'MK064563', refseq: 'NC_048128',
        genomeCoverage: 'Complete coding genome', genomeComposition: 'dsDNA', hostSource: 'archaea', ...NO_DATABASE_COLUMNS,
      },
      {
        ...NO_LINEAGE, realm: 'Adnaviria', kingdom: 'Zilligvirae', phylum: 'Taleaviricota', class: 'Tokiviricetes',
        order: 'Ligamenvirales', family: 'Lipothrixviridae', genus: 'Alphalipothrixvirus',
        species: 'Alphalipothrixvirus SBFV2', row: 3, isolateId: null, speciesSort: 1, isolateSort: 2, ictvId: null,
        exemplar: 'A', virusNames: 'Another isolate', abbreviations: null, isolateDesignation: '1950',
        genbank: 'MK000001', refseq: null, genomeCoverage: 'Partial genome', genomeComposition: 'dsDNA',
        hostSource: 'archaea', ...NO_DATABASE_COLUMNS,
      },
    ]);
    expect(vmr.warnings).to.deep.equal([]);
  });

  it('reads numeric (MSL39) and VMR-prefixed (MSL40) isolate ids as text and ICTV_ID as a number', () => {
    const header = ['Isolate ID', 'Species Sort', 'Isolate Sort', 'Genus', 'Species', 'ICTV_ID',
      'Exemplar or additional isolate', 'Virus GENBANK accession', 'Genome', 'Host source', 'Accessions Link'];
    const path = writeBook('vmr40.xlsx', {
      'VMR MSL40': [
        header,
        [1000002, 1, 1, 'Wargodvirus', 'Wargodvirus xiongnu', 'ICTV202420188', 'E', 'PP467602', 'dsDNA', 'archaea', 'NCBI Nucleotide'],
        ['VMR1028127', 2, 1, 'Unassigned', 'Other species', 'ICTV201908643', 'e', '', 'ssDNA', 'plants', ''],
      ],
    });
    const vmr = readVmr(path, 40);
    expect(vmr.rows.map((r) => [r.isolateId, r.ictvId, r.exemplar, r.genus, r.genbank, r.genomeComposition, r.refseq]))
      .to.deep.equal([
        ['1000002', 202420188, 'E', 'Wargodvirus', 'PP467602', 'dsDNA', null],
        ['VMR1028127', 201908643, 'E', null, null, 'ssDNA', null],
      ]);
  });

  it('warns about a species without exactly one exemplar', () => {
    const path = writeBook('vmr-exemplars.xlsx', {
      VMR: [
        ['Species', 'Exemplar or additional isolate', 'Virus GENBANK accession', 'Host source'],
        ['S1', 'A', 'X1', 'plants'],
        ['S2', 'E', 'X2', 'plants'],
        ['S2', 'E', 'X3', 'plants'],
      ],
    });
    expect(readVmr(path, 40).warnings).to.deep.equal([
      "species 'S1' has no exemplar (E) isolate",
      "species 'S2' has 2 exemplar (E) isolates (rows 3, 4)",
    ]);
  });

  it('rejects an exemplar flag other than E or A, naming row and column', () => {
    const path = writeBook('vmr-bad-flag.xlsx', {
      VMR: [
        ['Species', 'Exemplar or additional isolate', 'Virus GENBANK accession', 'Host source'],
        ['S1', 'E', 'X1', 'plants'],
        ['S1', 'X', 'X2', 'plants'],
      ],
    });
    const err = errorOf(() => readVmr(path, 40));
    expect(err.where).to.deep.equal({ sheet: 'VMR', row: 3, column: 'Exemplar or additional isolate' });
  });

  it('rejects a VMR without a Host source column, naming file, sheet and column', () => {
    const path = writeBook('vmr-no-host.xlsx', {
      VMR: [['Species', 'Exemplar or additional isolate', 'Virus GENBANK accession'], ['S1', 'E', 'X1']],
    });
    const err = errorOf(() => readVmr(path, 40));
    expect(err.message).to.equal(`${path} (sheet 'VMR', column 'Host source'): required column is missing`);
  });

  it('rejects a workbook without an isolate sheet as an unknown layout', () => {
    const path = writeBook('vmr-other.xlsx', { MSL: [['Family', 'Genus', 'Species']] });
    expect(errorOf(() => readVmr(path, 39)).message).to.equal(
      `${path}: unknown layout: no sheet has a header with Species and Exemplar or additional isolate (MSL39 VMR); ` +
        "sheets seen: 'MSL'",
    );
  });
});

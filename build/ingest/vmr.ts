// Reader for ICTV's Virus Metadata Resource workbooks: one row per isolate, the exemplar ("E") plus any
// additional isolates ("A") of each species. Columns are found by header name because the layout changed
// twice (MSL39 added Isolate ID and dropped the RefSeq column, MSL40 added ICTV_ID). The same isolates
// published as ICTV's database table are read by vmr-table.ts.
import { RANK_ALIASES, Table, findSheet, readWorkbook, sheetRows, unknownLayout } from './sheet.js';
import { exemplarWarnings } from './vmr-table.js';
import type { VmrRow, VmrWorkbook } from './types.js';
import type { Rank } from '../../src/shared/ranks.js';

type VmrField =
  | Rank | 'isolateId' | 'speciesSort' | 'isolateSort' | 'ictvId' | 'exemplar' | 'virusNames' | 'abbreviations'
  | 'isolateDesignation' | 'genbank' | 'refseq' | 'genomeCoverage' | 'genomeComposition' | 'hostSource';

const VMR_ALIASES: Readonly<Record<string, VmrField>> = {
  ...RANK_ALIASES,
  'isolate id': 'isolateId',
  // MSL37/38 call the species sort key just "Sort".
  sort: 'speciesSort',
  'species sort': 'speciesSort',
  'isolate sort': 'isolateSort',
  ictv_id: 'ictvId',
  'exemplar or additional isolate': 'exemplar',
  'virus name(s)': 'virusNames',
  'virus name abbreviation(s)': 'abbreviations',
  'virus isolate designation': 'isolateDesignation',
  'virus genbank accession': 'genbank',
  'virus refseq accession': 'refseq',
  'genome coverage': 'genomeCoverage',
  'genome composition': 'genomeComposition',
  genome: 'genomeComposition',
  'host source': 'hostSource',
};

const REQUIRED: readonly VmrField[] = ['species', 'exemplar', 'genbank', 'hostSource'];
const HEADER_NAMES: Partial<Record<VmrField, string>> = {
  species: 'Species',
  exemplar: 'Exemplar or additional isolate',
  genbank: 'Virus GENBANK accession',
  hostSource: 'Host source',
};

export function readVmr(path: string, msl: number): VmrWorkbook {
  const wb = readWorkbook(path);
  const sheet = findSheet(wb, (h) => h.has('species') && h.has('exemplar or additional isolate'));
  if (sheet === undefined) {
    throw unknownLayout(path, wb, `Species and Exemplar or additional isolate (MSL${msl} VMR)`);
  }
  const t = new Table(path, sheet, sheetRows(wb, sheet), VMR_ALIASES);
  t.require(REQUIRED, HEADER_NAMES);

  const rows: VmrRow[] = [];
  for (let i = 1; i < t.rows.length; i++) {
    if (t.rank(i, 'species') !== null) rows.push(readRow(t, i));
  }
  return { file: path, sheet, layout: t.layout(), rows, warnings: exemplarWarnings(rows) };
}

function readRow(t: Table<VmrField>, i: number): VmrRow {
  return {
    ...t.lineage(i),
    row: i + 1,
    isolateId: t.text(i, 'isolateId'),
    speciesSort: t.int(i, 'speciesSort'),
    isolateSort: t.int(i, 'isolateSort'),
    ictvId: t.ictvId(i, 'ictvId'),
    exemplar: exemplar(t, i),
    virusNames: t.text(i, 'virusNames'),
    abbreviations: t.text(i, 'abbreviations'),
    isolateDesignation: t.text(i, 'isolateDesignation'),
    genbank: t.text(i, 'genbank'),
    refseq: t.text(i, 'refseq'),
    genomeCoverage: t.text(i, 'genomeCoverage'),
    genomeComposition: t.text(i, 'genomeComposition'),
    hostSource: t.text(i, 'hostSource'),
    taxnodeId: null,
    refseqOrganism: null,
    refseqTaxids: null,
    prevChange: null,
    prevSpecies: null,
    prevTaxnodeId: null,
    prevProposal: null,
  };
}

function exemplar(t: Table<VmrField>, i: number): 'E' | 'A' {
  const value = t.text(i, 'exemplar')?.toUpperCase();
  if (value === 'E' || value === 'A') return value;
  throw t.badCell(i, 'exemplar', "is not 'E' or 'A'");
}

// Reader for ICTV's official Master Species List workbooks (.xls and .xlsx, from 2005 on).
// Eleven header layouts exist; columns are found by header name through an alias table rather than by
// position, so a release that adds, drops or reorders columns still reads as long as the names are known.
import type * as XLSX from '@e965/xlsx';
import {
  RANK_ALIASES, Table, cellInt, cellSignedInt, findSheet, normaliseHeader, readWorkbook, sheetRows, unknownLayout,
} from './sheet.js';
import { InputError, type MslRow, type MslWorkbook, type RenameRow, type TaxonCounts } from './types.js';
import { RANKS, type Rank } from '../../src/shared/ranks.js';

type MslField =
  | Rank | 'sort' | 'typeSpecies' | 'genomeComposition' | 'lastChange' | 'mslOfLastChange' | 'proposal'
  | 'taxnodeId' | 'ictvId';

const MSL_ALIASES: Readonly<Record<string, MslField>> = {
  ...RANK_ALIASES,
  sort: 'sort',
  type_species: 'typeSpecies',
  'type species?': 'typeSpecies',
  'type species': 'typeSpecies',
  'genome composition': 'genomeComposition',
  genome: 'genomeComposition',
  'last change': 'lastChange',
  'msl of last change': 'mslOfLastChange',
  'msl of last changed': 'mslOfLastChange',
  proposal: 'proposal',
  'proposal for last change': 'proposal',
  'taxon history url': 'taxnodeId',
  ictv_id: 'ictvId',
};

const REQUIRED: readonly MslField[] = ['species', 'genus', 'family'];
const HEADER_NAMES: Partial<Record<MslField, string>> = { species: 'Species', genus: 'Genus', family: 'Family' };

// MSL29 links to ictvonline.org/taxonomyHistory.asp?taxnode_id=N, MSL30-37 write "ICTVonline=N",
// MSL38-39 "ictv.global=N". From MSL40 on the ICTV_ID cell is a HYPERLINK formula whose URL carries the
// species' taxnode id of that release (taxondetails?taxnode_id=202520188&ictv_id=ICTV202420188).
const TAXNODE_IN_URL = /(?:taxnode_id|ICTVonline|ictv\.global)=(\d+)/i;

// "MSL37 Total", "MSL.38 Total", "MSL.40v2Total", "MSL39 Total": dot, space and version suffix all optional.
const TOTAL_COLUMN = /^MSL\.?\s*(\d+)\s*(?:v\d+)?\s*Total$/i;

const RANK_SET: ReadonlySet<string> = new Set(RANKS);

export function readMslSpreadsheet(path: string, msl: number): MslWorkbook {
  const wb = readWorkbook(path);
  const table = mainTable(path, wb, msl);
  table.require(REQUIRED, HEADER_NAMES);

  const warnings: string[] = [];
  const rows: MslRow[] = [];
  const firstRowOf = new Map<string, number>();
  for (let i = 1; i < table.rows.length; i++) {
    const species = table.rank(i, 'species');
    // Blank rows below the list (and holes in dense sheets) carry no species.
    if (species === null) continue;
    const row = readRow(table, i);
    const first = firstRowOf.get(species);
    if (first !== undefined) {
      // MSL24 lists "Lettuce big-vein associated virus" twice and MSL29 "Pseudomonas phage F116".
      warnings.push(`species '${species}' is listed twice (rows ${first} and ${row.row}); row ${row.row} dropped`);
      continue;
    }
    firstRowOf.set(species, row.row);
    if (row.mslOfLastChange !== null && row.mslOfLastChange > msl) {
      warnings.push(`species '${species}' (row ${row.row}): MSL of last change ${row.mslOfLastChange} is after MSL${msl}`);
    }
    rows.push(row);
  }

  const taxonCounts = readTaxonCounts(path, wb);
  if (taxonCounts.length > 0 && !taxonCounts.some((t) => t.msl === msl)) {
    warnings.push(`sheet 'Taxon Counts' has no total column for MSL${msl}`);
  }

  return {
    file: path,
    sheet: table.sheet,
    layout: table.layout(),
    rows,
    warnings,
    taxonCounts,
    renames: readRenames(path, wb),
  };
}

function mainTable(file: string, wb: XLSX.WorkBook, msl: number): Table<MslField> {
  // A sheet with a Species column and some other rank column is the list even when Family or Genus is
  // missing, so that case reports the missing column instead of "unknown layout".
  const sheet =
    findSheet(wb, (h) => REQUIRED.every((f) => h.has(f))) ??
    findSheet(wb, (h) => h.has('species') && RANKS.some((r) => r !== 'species' && h.has(r)));
  if (sheet === undefined) throw unknownLayout(file, wb, `Species, Genus and Family (MSL${msl} species list)`);
  return new Table(file, sheet, sheetRows(wb, sheet), MSL_ALIASES);
}

function readRow(t: Table<MslField>, i: number): MslRow {
  return {
    ...t.lineage(i),
    row: i + 1,
    sort: t.int(i, 'sort'),
    typeSpecies: typeSpecies(t, i),
    genomeComposition: t.text(i, 'genomeComposition'),
    lastChange: t.text(i, 'lastChange'),
    mslOfLastChange: t.int(i, 'mslOfLastChange'),
    proposal: t.text(i, 'proposal'),
    taxnodeId: taxnodeId(t, i),
    ictvId: t.ictvId(i, 'ictvId'),
  };
}

function typeSpecies(t: Table<MslField>, i: number): boolean | null {
  const n = t.int(i, 'typeSpecies');
  if (n === null) return null;
  if (n !== 0 && n !== 1) throw t.badCell(i, 'typeSpecies', 'is not 0 or 1');
  return n === 1;
}

function taxnodeId(t: Table<MslField>, i: number): number | null {
  const url = t.text(i, 'taxnodeId');
  if (url === null) {
    const link = t.cell(i, 'ictvId')?.f;
    const m = link === undefined ? null : TAXNODE_IN_URL.exec(link);
    return m ? Number(m[1]) : null;
  }
  const m = TAXNODE_IN_URL.exec(url);
  if (m === null) throw t.badCell(i, 'taxnodeId', 'has no taxnode_id=, ICTVonline= or ictv.global= number');
  return Number(m[1]);
}

/**
 * The "Taxon Counts" sheet (MSL38 on) is a small report, not a table: it may start in column B, and MSL40's
 * holds two tables (MSL40v2, then MSL40v1) each under its own "Rank" header row.
 */
function readTaxonCounts(file: string, wb: XLSX.WorkBook): TaxonCounts[] {
  const sheet = wb.SheetNames.find((s) => normaliseHeader(s).toLowerCase() === 'taxon counts');
  if (sheet === undefined) return [];
  const out: TaxonCounts[] = [];
  let rankCol = -1;
  let totals: { index: number; entry: TaxonCounts }[] = [];
  let changes: { index: number; name: string; entry: TaxonCounts }[] = [];
  sheetRows(wb, sheet).forEach((cells, r) => {
    // Array.from, not map: dense rows have holes where cells are empty.
    const texts = Array.from(cells ?? [], (c) => normaliseHeader(c?.v));
    const headerAt = texts.findIndex((s) => s.toLowerCase() === 'rank');
    if (headerAt >= 0) {
      rankCol = headerAt;
      totals = [];
      changes = [];
      texts.forEach((header, index) => {
        const m = TOTAL_COLUMN.exec(header);
        if (m === null) return;
        const entry: TaxonCounts = { msl: Number(m[1]), column: header, counts: {}, changes: {} };
        out.push(entry);
        totals.push({ index, entry });
      });
      // "MSL39 Total | New | ... | Renamed | MSL.40 Total": the columns between two totals lead to the second.
      for (let k = 1; k < totals.length; k++) {
        for (let index = totals[k - 1]!.index + 1; index < totals[k]!.index; index++) {
          const name = texts[index] ?? '';
          if (name !== '') changes.push({ index, name, entry: totals[k]!.entry });
        }
      }
      return;
    }
    const label = (texts[rankCol] ?? '').toLowerCase();
    // Skips the "Total Taxa" row, blank separator rows and the table titles ("MSL40v2").
    if (rankCol < 0 || !RANK_SET.has(label)) return;
    for (const { index, entry } of totals) {
      const n = cellInt(cells?.[index]);
      if (n === undefined) {
        throw new InputError(`count ${JSON.stringify(cells?.[index]?.v)} is not a whole number`, file, {
          sheet, row: r + 1, column: entry.column,
        });
      }
      if (n !== null) entry.counts[label as Rank] = n;
    }
    for (const { index, name, entry } of changes) {
      const n = cellSignedInt(cells?.[index]);
      if (n === undefined) {
        throw new InputError(`count ${JSON.stringify(cells?.[index]?.v)} is not a whole number`, file, { sheet, row: r + 1, column: name });
      }
      if (n !== null) (entry.changes[name] ??= {})[label as Rank] = n;
    }
  });
  return out;
}

type RenameField = 'ictvId' | 'rank' | 'change' | 'oldName' | 'newName' | 'proposal';

const RENAME_ALIASES: Readonly<Record<string, RenameField>> = {
  // MSL40 spells the id column "ICVD_ID".
  icvd_id: 'ictvId',
  ictv_id: 'ictvId',
  rank: 'rank',
  change: 'change',
  'old name': 'oldName',
  'new name': 'newName',
  proposal: 'proposal',
};

/** "Taxa Renamed in MSL38", "Taxa Renamed in MSL39", "Taxa Renamed or Abolished" (MSL40 on). */
function readRenames(file: string, wb: XLSX.WorkBook): RenameRow[] {
  const out: RenameRow[] = [];
  for (const sheet of wb.SheetNames) {
    if (!normaliseHeader(sheet).toLowerCase().startsWith('taxa renamed')) continue;
    const t = new Table(file, sheet, sheetRows(wb, sheet), RENAME_ALIASES);
    t.require(['rank', 'oldName', 'newName'], { rank: 'Rank', oldName: 'Old Name', newName: 'New Name' });
    for (let i = 1; i < t.rows.length; i++) {
      const oldName = t.text(i, 'oldName');
      // MSL39's sheet is padded with ~1600 empty rows.
      if (oldName === null) continue;
      const rank = t.text(i, 'rank');
      if (rank === null) throw t.badCell(i, 'rank', 'is empty on a renamed taxon');
      out.push({
        row: i + 1,
        ictvId: t.ictvId(i, 'ictvId'),
        rank,
        change: t.text(i, 'change'),
        oldName,
        newName: t.text(i, 'newName'),
        proposal: t.text(i, 'proposal'),
      });
    }
  }
  return out;
}

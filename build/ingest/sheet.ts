// Spreadsheet plumbing shared by the MSL and VMR readers. ICTV's workbooks were hand-edited over two decades,
// so headers and cells are normalised here once, and every bad cell becomes an InputError naming where it is.
import { readFileSync } from 'node:fs';
import * as XLSX from '@e965/xlsx';
import { type Rank, RANKS } from '../../src/shared/ranks.js';
import { InputError, type Lineage } from './types.js';

export type Cell = XLSX.CellObject | undefined;
export type Row = Cell[] | undefined;

export function readWorkbook(path: string): XLSX.WorkBook {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    throw new InputError(`cannot read file: ${(err as Error).message}`, path);
  }
  try {
    // Dense mode keeps 15k-row sheets as plain arrays instead of one object key per cell.
    return XLSX.read(bytes, { dense: true });
  } catch (err) {
    throw new InputError(`not a readable spreadsheet: ${(err as Error).message}`, path);
  }
}

/** The sheet's rows, indexed from sheet row 1 (header); rows and cells may be holes. */
export function sheetRows(wb: XLSX.WorkBook, sheet: string): Row[] {
  return (wb.Sheets[sheet]?.['!data'] ?? []) as Row[];
}

/** Headers carry trailing spaces ("Proposal for Last Change ") and line breaks ("Exemplar RefSeq\nAccession Number"). */
export function normaliseHeader(value: unknown): string {
  return String(value ?? '').replace(/\s+/g, ' ').trim();
}

/** Cell as trimmed text, null when empty. No-break spaces (MSL34-36 "Shigella\u00a0virus ISF002") become plain spaces. */
export function cellText(cell: Cell): string | null {
  if (cell === undefined || cell.v === undefined || cell.v === null) return null;
  // The raw value, not the formatted text (cell.w), so a number format cannot change what is read.
  const text = String(cell.v).replace(/\u00a0/g, ' ').trim();
  return text === '' ? null : text;
}

/** Integer cell; whole floats (36.0) and digit strings ("36") are accepted, anything else is undefined. */
export function cellInt(cell: Cell): number | null | undefined {
  if (cell === undefined || cell.v === undefined || cell.v === null) return null;
  if (typeof cell.v === 'number') return Number.isInteger(cell.v) ? cell.v : undefined;
  const text = cellText(cell);
  if (text === null) return null;
  return /^\d+(\.0*)?$/.test(text) ? Number.parseInt(text, 10) : undefined;
}

/** cellInt, where a count may be negative (the removals of a Taxon Counts sheet: "-11"). */
export function cellSignedInt(cell: Cell): number | null | undefined {
  if (typeof cell?.v === 'number') return Number.isInteger(cell.v) ? cell.v : undefined;
  const text = cellText(cell);
  if (text === null) return null;
  return /^-?\d+(\.0*)?$/.test(text) ? Number.parseInt(text, 10) : undefined;
}

/** Lineage cell: MSL23-32 write "Unassigned" for a missing order/family/genus, MSL24 quotes genus names. */
export function rankText(cell: Cell): string | null {
  let text = cellText(cell);
  if (text !== null && text.length >= 2 && text.startsWith('"') && text.endsWith('"')) text = text.slice(1, -1).trim();
  if (text === null || text === '' || /^unassigned$/i.test(text)) return null;
  return text;
}

/** "ICTV202420188" -> 202420188; the same ids also appear as bare numbers. */
export function parseIctvId(text: string): number | undefined {
  const m = /^(?:ICTV)?(\d+)$/i.exec(text);
  return m ? Number(m[1]) : undefined;
}

/** Header aliases for the fifteen rank columns, shared by both layouts. */
export const RANK_ALIASES: Readonly<Record<string, Rank>> = Object.fromEntries(RANKS.map((r) => [r, r]));

export interface Column {
  index: number;
  /** Header as written (normalised), for messages. */
  header: string;
}

/** A located sheet: its header mapped to fields through an alias table (lower-case normalised header -> field). */
export class Table<F extends string> {
  readonly columns = new Map<F, Column>();
  /** Headers that name no known column: where a renamed column shows up. */
  readonly unknownHeaders: string[] = [];

  constructor(
    readonly file: string,
    readonly sheet: string,
    readonly rows: Row[],
    aliases: Readonly<Record<string, F>>,
    headerIndex = 0,
  ) {
    (rows[headerIndex] ?? []).forEach((cell, index) => {
      const header = normaliseHeader(cell?.v);
      const field = aliases[header.toLowerCase()];
      if (field === undefined) {
        if (header !== '') this.unknownHeaders.push(header);
        return;
      }
      const seen = this.columns.get(field);
      if (seen !== undefined) {
        throw this.error(`column '${header}' duplicates column '${seen.header}'`, { row: headerIndex + 1 });
      }
      this.columns.set(field, { index, header });
    });
  }

  has(field: F): boolean {
    return this.columns.has(field);
  }

  require(fields: readonly F[], names: Readonly<Partial<Record<F, string>>>): void {
    const unknown = this.unknownHeaders.length > 0 ? ` (headers not recognised: ${this.unknownHeaders.map((h) => `'${h}'`).join(', ')})` : '';
    for (const f of fields) if (!this.has(f)) throw this.error(`required column is missing${unknown}`, { column: names[f] ?? f });
  }

  /** Recognised fields in sheet order: a stable name for the header layout. */
  layout(): string {
    return [...this.columns].sort((a, b) => a[1].index - b[1].index).map(([f]) => f).join(',');
  }

  cell(rowIndex: number, field: F): Cell {
    return this.cellIn(rowIndex, this.columns.get(field));
  }

  text(rowIndex: number, field: F): string | null {
    return cellText(this.cell(rowIndex, field));
  }

  rank(rowIndex: number, field: F): string | null {
    return rankText(this.cell(rowIndex, field));
  }

  /** All fifteen ranks; those the layout lacks (realm.. before MSL33) are null. */
  lineage(rowIndex: number): Lineage {
    const byName: ReadonlyMap<string, Column> = this.columns;
    return Object.fromEntries(RANKS.map((r) => [r, rankText(this.cellIn(rowIndex, byName.get(r)))])) as Lineage;
  }

  int(rowIndex: number, field: F): number | null {
    const n = cellInt(this.cell(rowIndex, field));
    if (n === undefined) throw this.badCell(rowIndex, field, 'is not a whole number');
    return n;
  }

  ictvId(rowIndex: number, field: F): number | null {
    const text = this.text(rowIndex, field);
    if (text === null) return null;
    const id = parseIctvId(text);
    if (id === undefined) throw this.badCell(rowIndex, field, 'is not an ICTV id (ICTV<digits>)');
    return id;
  }

  badCell(rowIndex: number, field: F, problem: string): InputError {
    const value = this.cell(rowIndex, field)?.v;
    return this.error(`value ${JSON.stringify(value)} ${problem}`, {
      row: rowIndex + 1,
      column: this.columns.get(field)?.header ?? field,
    });
  }

  private cellIn(rowIndex: number, col: Column | undefined): Cell {
    return col === undefined ? undefined : this.rows[rowIndex]?.[col.index];
  }

  error(message: string, where: { row?: number; column?: string } = {}): InputError {
    return new InputError(message, this.file, { sheet: this.sheet, ...where });
  }
}

/** First sheet whose header row (row 1) satisfies `accept`; the test sees lower-case normalised headers. */
export function findSheet(wb: XLSX.WorkBook, accept: (headers: Set<string>) => boolean): string | undefined {
  return wb.SheetNames.find((name) => {
    const header = sheetRows(wb, name)[0] ?? [];
    return accept(new Set(Array.from(header, (c) => normaliseHeader(c?.v).toLowerCase())));
  });
}

export function unknownLayout(file: string, wb: XLSX.WorkBook, what: string): InputError {
  const seen = wb.SheetNames.map((s) => `'${s}'`).join(', ');
  return new InputError(`unknown layout: no sheet has a header with ${what}; sheets seen: ${seen}`, file);
}

// Shapes shared by the readers (one per raw format) and the stages that turn their output into Parquet.
// Readers return plain rows; they never decide which source is authoritative (that is build/species.ts).

import type { Rank } from '../../src/shared/ranks.js';

/** One value per ICTV rank; null where the taxon has no ancestor at that rank (never "Unassigned"). */
export type Lineage = Record<Rank, string | null>;

/** Thrown by readers for anything that must stop the build; the message names file, sheet, row and column. */
export class InputError extends Error {
  constructor(
    message: string,
    readonly file: string,
    readonly where: { sheet?: string; row?: number; column?: string } = {},
  ) {
    const at = [
      where.sheet !== undefined ? `sheet '${where.sheet}'` : '',
      where.row !== undefined ? `row ${where.row}` : '',
      where.column !== undefined ? `column '${where.column}'` : '',
    ].filter(Boolean).join(', ');
    super(`${file}${at ? ` (${at})` : ''}: ${message}`);
    this.name = 'InputError';
  }
}

/** One species row of an official MSL spreadsheet's main sheet. */
export interface MslRow extends Lineage {
  /** 1-based row number in the sheet (header is row 1), for messages. */
  row: number;
  sort: number | null;
  /** null where the release's layout has no type-species column (MSL36 on). */
  typeSpecies: boolean | null;
  genomeComposition: string | null;
  lastChange: string | null;
  mslOfLastChange: number | null;
  proposal: string | null;
  /** From the Taxon History URL (MSL29-39). */
  taxnodeId: number | null;
  /** From the ICTV_ID column (MSL40 on). */
  ictvId: number | null;
}

/** Official counts from a `Taxon Counts` sheet: one entry per total column ("MSL37 Total", "MSL.38 Total", ...). */
export interface TaxonCounts {
  msl: number;
  /** The column header it came from, e.g. "MSL.40v2Total". */
  column: string;
  counts: Partial<Record<Rank, number>>;
  /**
   * The change columns between the previous release's total and this one ("New", "Abolished", "Renamed",
   * "New Splits", ...), as written (removals are negative); empty for a total that no changes lead to.
   */
  changes: Record<string, Partial<Record<Rank, number>>>;
}

/** A row of "Taxa Renamed in MSLnn" (MSL38, MSL39) or "Taxa Renamed or Abolished" (MSL40 on). */
export interface RenameRow {
  row: number;
  /** MSL40 on (ICVD_ID column). */
  ictvId: number | null;
  /** As written: "species", "genus", "family>order" (promotion), ... */
  rank: string;
  /** MSL40 on: "Renamed", "Renamed,Moved", "Abolished", ... */
  change: string | null;
  /** Full ';'-joined lineages as written. */
  oldName: string;
  newName: string | null;
  proposal: string | null;
}

export interface MslWorkbook {
  file: string;
  sheet: string;
  /** Which known header layout matched (for the build report). */
  layout: string;
  rows: MslRow[];
  warnings: string[];
  taxonCounts: TaxonCounts[];
  renames: RenameRow[];
}

/** One isolate row of a VMR (Virus Metadata Resource) spreadsheet. */
export interface VmrRow extends Lineage {
  row: number;
  isolateId: string | null;
  speciesSort: number | null;
  isolateSort: number | null;
  ictvId: number | null;
  /** "E" exemplar or "A" additional isolate. */
  exemplar: 'E' | 'A';
  virusNames: string | null;
  abbreviations: string | null;
  isolateDesignation: string | null;
  genbank: string | null;
  refseq: string | null;
  genomeCoverage: string | null;
  genomeComposition: string | null;
  hostSource: string | null;
  /** The columns only ICTV's database table species_isolates has (null from a VMR workbook). */
  taxnodeId: number | null;
  refseqOrganism: string | null;
  /** NCBI taxids of the RefSeq records, as written (several separated by ';' or ','). */
  refseqTaxids: string | null;
  /** How the isolate's species came from the previous release: same, created, split, "Renamed,", ... */
  prevChange: string | null;
  prevSpecies: string | null;
  prevTaxnodeId: number | null;
  prevProposal: string | null;
}

export interface VmrWorkbook {
  file: string;
  sheet: string;
  layout: string;
  rows: VmrRow[];
  warnings: string[];
}

/** One node of ICTV's database tree export (taxonomy_<year>.json), below the root. */
export interface TreeNode {
  taxnodeId: number;
  parentTaxnodeId: number;
  rank: Rank;
  name: string;
  /** Names of the node's ancestors by rank, plus the node itself at its own rank. */
  lineage: Lineage;
}

export interface TreeExport {
  file: string;
  rootTaxnodeId: number;
  /** The root's `child_counts` string, parsed: rank -> count ("3 orders, 73 families" -> {order: 3, family: 73}). */
  officialCounts: Partial<Record<Rank, number>>;
  nodes: TreeNode[];
  warnings: string[];
  /** Where the export holds a different number of taxa than its own child_counts declare. */
  shortfalls: TreeShortfall[];
}

/**
 * A node (or the root, taxon null) whose child_counts declare `declared` taxa of `rank` below it while the
 * export holds `found`; `missing` is the part not already explained by a shortfall further down.
 */
export interface TreeShortfall {
  taxnodeId: number;
  taxonRank: Rank | null;
  taxon: string | null;
  rank: Rank;
  declared: number;
  found: number;
  missing: number;
}

/** One taxon (owl:Class with an ictv_id) of an EVORA ontology file. */
export interface OntologyTaxon {
  ictvId: number;
  name: string;
  parentIctvId: number | null;
  /** "term replaced by": taxnode ids of the same taxon in the next release. */
  replacedBy: number[];
  obsolescence: 'merged' | 'split' | null;
  synonyms: string[];
}

/** accession (upper case, no version) -> genome length in bp, with the file it came from. */
export interface GenomeLength {
  accession: string;
  lengthBp: number;
  source: 'ictv_refseq_map' | 'inphared_itol';
}

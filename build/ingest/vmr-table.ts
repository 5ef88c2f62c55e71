// Reader for the VMR as ICTV's database table species_isolates (tab-separated text, `NULL` for missing):
// the form in which the isolates of a release come when its VMR workbook is not published with it. One row
// per isolate like the workbook, without the lineage columns (the species' lineage is the MSL's), and with
// what only the database holds: the species' taxnode id, the NCBI taxids of the RefSeq records, and how
// the species came from the previous release (update_change, update_prev_species, update_prev_taxnode_id).
import { readTsv, type TsvRow } from './tsv.js';
import { RANKS } from '../../src/shared/ranks.js';
import { InputError, type Lineage, type VmrRow, type VmrWorkbook } from './types.js';

const COLUMNS = [
  'isolate_id', 'taxnode_id', 'species_sort', 'isolate_sort', 'species_name', 'isolate_type', 'isolate_names',
  'isolate_abbrevs', 'isolate_designation', 'genbank_accessions', 'refseq_accessions', 'genome_coverage',
  'molecule', 'host_source', 'refseq_organism', 'refseq_taxids', 'update_change', 'update_prev_species',
  'update_prev_taxnode_id', 'update_change_proposal',
];

export function readVmrTable(path: string): VmrWorkbook {
  const rows: VmrRow[] = [];
  let abolished = 0;
  readTsv(path, COLUMNS).forEach((r, i) => {
    const line = i + 2;
    // The table keeps the isolates of species abolished by this release, with no taxnode (species_name
    // 'abolished'): they belong to no species of the release.
    if (r.taxnode_id === null) {
      if (r.update_change !== 'abolished') throw new InputError(`line ${line}: no taxnode_id, and update_change is not 'abolished'`, path, { row: line, column: 'taxnode_id' });
      abolished += 1;
      return;
    }
    const species = text(r.species_name);
    if (species === null) throw new InputError(`line ${line}: species_name is empty`, path, { row: line, column: 'species_name' });
    const exemplar = r.isolate_type?.toUpperCase();
    if (exemplar !== 'E' && exemplar !== 'A') throw new InputError(`line ${line}: isolate_type ${JSON.stringify(r.isolate_type)} is not 'E' or 'A'`, path, { row: line, column: 'isolate_type' });
    rows.push({
      ...(Object.fromEntries(RANKS.map((rank) => [rank, null])) as Lineage),
      species,
      row: line,
      isolateId: text(r.isolate_id),
      speciesSort: int(r, 'species_sort', path, line),
      isolateSort: int(r, 'isolate_sort', path, line),
      ictvId: null,
      exemplar,
      virusNames: text(r.isolate_names),
      abbreviations: text(r.isolate_abbrevs),
      isolateDesignation: text(r.isolate_designation),
      genbank: text(r.genbank_accessions),
      refseq: text(r.refseq_accessions),
      genomeCoverage: text(r.genome_coverage),
      genomeComposition: text(r.molecule),
      hostSource: text(r.host_source),
      taxnodeId: int(r, 'taxnode_id', path, line),
      refseqOrganism: text(r.refseq_organism),
      refseqTaxids: text(r.refseq_taxids),
      prevChange: text(r.update_change),
      prevSpecies: text(r.update_prev_species),
      prevTaxnodeId: int(r, 'update_prev_taxnode_id', path, line),
      prevProposal: text(r.update_change_proposal),
    });
  });
  const warnings = exemplarWarnings(rows);
  if (abolished > 0) warnings.push(`${abolished} isolate rows of species abolished in this release (no taxnode_id) skipped`);
  return { file: path, sheet: '', layout: 'species_isolates', rows, warnings };
}

/** Downstream joins (genome length, host) take a species' single exemplar; say so when there is not one. */
export function exemplarWarnings(rows: readonly VmrRow[]): string[] {
  const exemplars = new Map<string, number[]>();
  for (const row of rows) {
    const at = exemplars.get(row.species!) ?? [];
    if (row.exemplar === 'E') at.push(row.row);
    exemplars.set(row.species!, at);
  }
  const warnings: string[] = [];
  for (const [species, at] of exemplars) {
    if (at.length === 0) warnings.push(`species '${species}' has no exemplar (E) isolate`);
    if (at.length > 1) warnings.push(`species '${species}' has ${at.length} exemplar (E) isolates (rows ${at.join(', ')})`);
  }
  return warnings;
}

function text(value: string | null | undefined): string | null {
  const t = value?.replace(/\u00a0/g, ' ').trim();
  return t ? t : null;
}

function int(r: TsvRow, column: string, path: string, line: number): number | null {
  const value = r[column];
  if (value === null || value === undefined) return null;
  if (!/^\d+$/.test(value)) throw new InputError(`line ${line}: expected a whole number, found ${JSON.stringify(value)}`, path, { row: line, column });
  return Number(value);
}

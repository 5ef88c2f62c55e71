// Readers for the two genome-length tables in enrichment/ (ICTV's GenBank-to-RefSeq map and INPHARED's
// iTOL bar file), and the parser for VMR accession cells that are looked up in them (SOURCES.md,
// "Join recipe"). ICTV's own files give no genome length; these are the only source.
import { readFileSync } from 'node:fs';
import { InputError, type GenomeLength } from './types.js';

/** Lookup key for an accession: both tables and the VMR mix versions (".1") and letter case. */
export function normalizeAccession(text: string): string {
  return text.trim().replace(/\.\d+$/, '').toUpperCase();
}

function lines(path: string): string[] {
  const all = readFileSync(path, 'utf8').split('\n').map((line) => line.replace(/\r$/, ''));
  if (all[all.length - 1] === '') all.pop();
  return all;
}

const REFSEQ_MAP_COLUMNS = ['refseq', 'genbank', 'VirusName', 'ncbi_taxid', 'refseq_slen'];

/**
 * `genbank_refseq_map_wide.txt`. Rows whose RefSeq record had no docsum stop after the two accessions
 * (2 fields) and give no length; the RefSeq length also stands for the GenBank record it was derived
 * from, which is how the VMR's GenBank accessions reach a length.
 */
export function readRefseqMap(path: string): GenomeLength[] {
  const all = lines(path);
  const header = (all[0] ?? '').replace(/^#/, '').split('\t').map((c) => c.trim());
  if (!(all[0] ?? '').startsWith('#') || REFSEQ_MAP_COLUMNS.some((c, i) => header[i] !== c)) {
    throw new InputError(`header is not "#${REFSEQ_MAP_COLUMNS.join('\t')}..."`, path, { row: 1 });
  }
  const out: GenomeLength[] = [];
  for (let i = 1; i < all.length; i++) {
    const fields = all[i].split('\t');
    if (fields.length < 2 || fields.length > header.length) {
      throw new InputError(`line ${i + 1} has ${fields.length} fields, expected 2 to ${header.length}`, path, { row: i + 1 });
    }
    const slen = fields[4];
    if (slen === undefined || !/^\d+$/.test(slen) || Number(slen) === 0) continue;
    for (const cell of [fields[0], fields[1]]) {
      if (cell.trim() !== '') out.push({ accession: normalizeAccession(cell), lengthBp: Number(slen), source: 'ictv_refseq_map' });
    }
  }
  return out;
}

/** `24Jan2021_itol_length_annotations.txt`: an iTOL DATASET_SIMPLEBAR file whose values are genome lengths in kb. */
export function readItolLengths(path: string): GenomeLength[] {
  const all = lines(path);
  const dataAt = all.findIndex((line) => line.trim() === 'DATA');
  if (dataAt < 0) throw new InputError('no DATA line (not an iTOL annotation file?)', path);
  const out: GenomeLength[] = [];
  for (let i = dataAt + 1; i < all.length; i++) {
    if (all[i].trim() === '') continue;
    const fields = all[i].split('\t');
    // kb carries at most 3 decimals, so kb * 1000 rounds back to the exact bp count.
    if (fields.length !== 2 || fields[0].trim() === '' || !/^\d+(\.\d+)?$/.test(fields[1].trim())) {
      throw new InputError(`line ${i + 1} is not "accession<TAB>length_kb": ${JSON.stringify(all[i])}`, path, { row: i + 1 });
    }
    const lengthBp = Math.round(Number(fields[1]) * 1000);
    if (lengthBp > 0) out.push({ accession: normalizeAccession(fields[0]), lengthBp, source: 'inphared_itol' });
  }
  return out;
}

export interface AccessionPart {
  /** Upper case, no version, no segment label; null only when a part is a bare coordinate range. */
  accession: string | null;
  /** From a coordinate suffix `(start..end)` only; null when there is none or it is malformed (end <= start). */
  lengthBp: number | null;
  /**
   * True when the part carried a coordinate suffix. Such an accession is a whole host chromosome or
   * contig, so it must not be looked up in the length tables even when lengthBp is null.
   */
  fromCoordinates: boolean;
}

/**
 * One VMR accession cell (e.g. "L: MT270834; M: MT270835", "CP000830 (1649803.2306161)") as its parts,
 * in order. Step 2 of the join recipe in SOURCES.md. The MSL37 VMR writes ranges as `start..end`,
 * later VMRs as `start.end`; both are accepted.
 */
export function parseAccessionList(cell: string): AccessionPart[] {
  const parts: AccessionPart[] = [];
  for (const raw of cell.split(/[;,]/)) {
    // Segment labels ("DNA-A:", "L:") name the segment, not the record; keep what follows the last colon.
    const text = raw.slice(raw.lastIndexOf(':') + 1).trim();
    if (text === '') continue;
    const range = /^(.*?)\s*\(\s*(\d+)\s*\.\.?\s*(\d+)\s*\)$/.exec(text);
    if (range) {
      const start = Number(range[2]);
      const end = Number(range[3]);
      parts.push({
        accession: range[1] === '' ? null : normalizeAccession(range[1]),
        // The MSL38 VMR lost digits in two ranges (end < start); no length beats a wrong one.
        lengthBp: end > start ? end - start + 1 : null,
        fromCoordinates: true,
      });
    } else {
      parts.push({ accession: normalizeAccession(text), lengthBp: null, fromCoordinates: false });
    }
  }
  return parts;
}

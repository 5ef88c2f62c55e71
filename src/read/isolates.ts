// A virus of the VMR by its own row (src.isolates): a virus that is not its species' exemplar (SARS-CoV-2, of the
// species whose exemplar is SARS-CoV) has accessions, a genome length and a host source of its own, which the
// species' documents (the exemplar's) do not hold. One small query of the source tables, asked only for such a virus.
import type { Store } from '../store/store.js';

export interface OwnIsolate {
  /** The accessions of its sequence, one per segment. */
  accessions: string[];
  /** Their lengths summed, when each is known. */
  length_bp: number | null;
  host_source: string | null;
}

/** The cell's accessions, segment labels ("DNA-A: X") dropped; null when one is given by coordinates ("X (1..900)"). */
function accessionsOf(cell: string | null): string[] | null {
  const parts = (cell ?? '').split(/[;,]/).map((p) => p.replace(/^.*:/, '').trim()).filter(Boolean);
  if (parts.length === 0 || parts.some((p) => p.includes('('))) return null;
  return parts.map((p) => p.replace(/\.\d+$/, ''));
}

/**
 * The one row of the release's VMR that is not an exemplar and is named so (a virus name or abbreviation, as
 * written, or an accession of its sequence); null when none or several are.
 */
export async function ownIsolate(store: Store, msl: number, written: string, byAccession: boolean): Promise<OwnIsolate | null> {
  const rows = await store.query<{ genbank: string | null; refseq: string | null; host_source: string | null }>(byAccession
    ? `SELECT genbank, refseq, host_source FROM src.isolates WHERE msl = $1 AND exemplar IS DISTINCT FROM 'E'
         AND regexp_matches(coalesce(genbank, '') || ';' || coalesce(refseq, ''), '(^|[^A-Za-z0-9_])' || $2 || '([^0-9]|$)') LIMIT 2`
    : `SELECT genbank, refseq, host_source FROM src.isolates WHERE msl = $1 AND exemplar IS DISTINCT FROM 'E'
         AND (list_contains(list_transform(string_split(coalesce(virus_names, ''), ';'), x -> lower(trim(x))), lower($2))
              OR list_contains(list_transform(string_split(coalesce(abbreviations, ''), ';'), x -> trim(x)), $2)) LIMIT 2`,
  [msl, byAccession ? written.replace(/\.\d+$/, '').replace(/[^A-Za-z0-9_]/g, '') : written]);
  if (rows.length !== 1) return null;
  const row = rows[0]!;
  const accessions = accessionsOf(row.genbank) ?? accessionsOf(row.refseq) ?? [];
  let length: number | null = null;
  if (accessions.length > 0) {
    // both tables hold an accession at most once; where both have it, ICTV's own map wins (as species_genome reads them)
    const found = await store.query<{ accession: string; length_bp: number | bigint }>(`
      SELECT accession, arg_min(length_bp, CASE source WHEN 'ictv_refseq_map' THEN 1 ELSE 2 END) AS length_bp
      FROM src.genome_lengths WHERE list_contains($1::VARCHAR[], accession) GROUP BY accession`, [accessions]);
    if (found.length === accessions.length) length = found.reduce((n, x) => n + Number(x.length_bp), 0);
  }
  return { accessions, length_bp: length, host_source: row.host_source };
}

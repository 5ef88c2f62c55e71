// Identifiers users hold instead of names: GenBank and RefSeq accessions and NCBI taxids of VMR isolates,
// ICTV ids and taxnode ids (identifier_index). Looked up with one keyed query for a whole batch: the index has
// ~250k rows, which the memory budget keeps in DuckDB rather than in the in-memory documents.
import type { Store } from '../store/store.js';

export type IdentifierKind = 'accession' | 'taxid' | 'ictv_id' | 'taxnode_id';

/** What each kind of identifier is, for sentences ("'NC_001367' is a GenBank or RefSeq accession of ..."). */
export const IDENTIFIER_KINDS: Record<IdentifierKind, string> = {
  accession: 'a GenBank or RefSeq accession of a VMR isolate',
  taxid: 'an NCBI taxonomy id of a VMR isolate',
  ictv_id: 'an ICTV id',
  taxnode_id: 'an ICTV taxnode id',
};

export interface IdentifierHit {
  kind: IdentifierKind;
  id_key: string;
  lineage_id: number;
  /** species, or the higher taxon's rank. */
  rank: string;
  name: string;
  first_msl: number;
  last_msl: number;
}

/**
 * What an input can be as an identifier: "NC_001367.1" an accession (version dropped), "ICTV19710322" an ICTV
 * id, "txid12242" / "NCBI:txid12242" / "taxid:12242" a taxid, "taxnode:202300123" a taxnode id, and a bare
 * number any of the numeric kinds. Null when it looks like none (a name).
 */
export function identifierKeys(input: string): Array<{ kind: IdentifierKind; key: string }> | null {
  const s = input.trim();
  let m: RegExpExecArray | null;
  if ((m = /^ictv[\s:_-]*(\d{4,10})$/i.exec(s))) return [{ kind: 'ictv_id', key: m[1]! }];
  if ((m = /^(?:ncbi[\s:_-]*)?(?:txid|taxid|taxon)[\s:_-]*(\d{1,10})$/i.exec(s))) return [{ kind: 'taxid', key: m[1]! }];
  if ((m = /^taxnode(?:_?id)?[\s:_-]*(\d{4,10})$/i.exec(s))) return [{ kind: 'taxnode_id', key: m[1]! }];
  if (/^\d{1,10}$/.test(s)) return (['taxid', 'ictv_id', 'taxnode_id'] as const).map((kind) => ({ kind, key: s }));
  if ((m = /^([a-z]{1,6}_?\d{5,9})(?:\.\d{1,3})?$/i.exec(s))) return [{ kind: 'accession', key: m[1]!.toUpperCase() }];
  return null;
}

/** The identifier hits of each input that looks like an identifier (inputs that do not are left out). */
export async function lookupIdentifiers(store: Store, inputs: string[]): Promise<Map<string, IdentifierHit[]>> {
  const wanted = new Map<string, Array<{ kind: IdentifierKind; key: string }>>();
  for (const input of inputs) {
    const keys = identifierKeys(input);
    if (keys) wanted.set(input, keys);
  }
  const out = new Map<string, IdentifierHit[]>();
  if (wanted.size === 0) return out;
  const allKeys = [...new Set([...wanted.values()].flatMap((ks) => ks.map((k) => k.key)))];
  const rows = await store.query<IdentifierHit>(`
    SELECT kind, id_key, lineage_id::BIGINT AS lineage_id, rank, name, first_msl::INTEGER AS first_msl, last_msl::INTEGER AS last_msl
    FROM main.identifier_index WHERE id_key IN (SELECT unnest($1::VARCHAR[]))`, [allKeys]);
  // the rows of each key, in the order the query gave them (a batch of thousands: no scan per input)
  const byKey = new Map<string, IdentifierHit[]>();
  for (const r of rows) {
    const list = byKey.get(r.id_key);
    if (list) list.push(r);
    else byKey.set(r.id_key, [r]);
  }
  for (const [input, keys] of wanted) {
    // an input's keys all have the same key text (a bare number is one of three kinds)
    const hits = (byKey.get(keys[0]!.key) ?? []).filter((r) => keys.some((k) => k.kind === r.kind && k.key === r.id_key))
      .map((r) => ({ ...r, lineage_id: Number(r.lineage_id) }));
    out.set(input, hits);
  }
  return out;
}

// The pre-rendered documents of one read model, held as UTF-8 bytes in large buffers: how a store holds the
// documents it read from the database (when its snapshot could not be used, and while the build writes the
// snapshot). A store opened from its snapshot reads them from that file instead (snapshot-docs.ts).
// Why not a Map of strings: ~200 MB of JSON as JS strings lives on the V8 heap, where every major GC walks
// it (GC was ~15% of a point lookup's CPU) and every response re-encodes the string to UTF-8. Bytes sit
// outside the heap, and a document is sent as a zero-copy view of them.
//
// Documents arrive in batches of a few thousand, one buffer each, laid out as entries
// "key NUL byte-length NUL document" (store.ts builds them in SQL). The batch is kept as it came and each
// document is a view into it: reading a value out of DuckDB is a native call and a copy, so one per batch
// instead of one per document took loading from ~1.9 s to ~0.7 s.
//
// A table may hold its documents compressed (raw deflate with a dictionary of the table's own documents,
// which compresses small JSON documents sharing most of their keys and values many times better than
// deflate alone): get() then inflates. Worth it for large tables read rarely; a hot table would pay the
// inflation on every read (npm run bench).
//
// Documents are found by key through a hash table of typed arrays over the keys' bytes in the batches, not a
// Map of key strings: half a million keys as strings and Map entries were ~35 MB of V8 heap that every major
// GC walked; the table and slots are a third of that, outside the heap.
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/** zlib reads at most the last 32 KB of a dictionary. */
const DICTIONARY_BYTES = 32 * 1024;

/** A dictionary for a table: samples of its documents, the most typical last, cut to what zlib reads. */
export function dictionaryOf(samples: readonly Buffer[]): Buffer {
  const all = Buffer.concat(samples);
  return all.subarray(Math.max(0, all.length - DICTIONARY_BYTES));
}

/** Fields of a document's slot: batch number, key start and end, document start and length (bytes). */
const SLOT = 5;

/** FNV-1a over bytes: keys are short, and this spreads them well enough for linear probing. */
export function fnv1a(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

/**
 * An open-addressing table over n documents' keys: at each key's hash and on, its document's number (-1:
 * empty). A key given twice keeps its last document, as a Map would. sameKey is asked only of two
 * documents whose keys' hashes land in one run of the table.
 */
export function hashTable(n: number, hash: (doc: number) => number, sameKey: (a: number, b: number) => boolean): { table: Int32Array; count: number } {
  let size = 1;
  while (size < 2 * n) size *= 2;
  const table = new Int32Array(size).fill(-1);
  const mask = size - 1;
  let count = 0;
  for (let doc = 0; doc < n; doc++) {
    for (let i = hash(doc) & mask; ; i = (i + 1) & mask) {
      const other = table[i]!;
      if (other < 0) {
        table[i] = doc;
        count++;
        break;
      }
      if (sameKey(doc, other)) {
        table[i] = doc;
        break;
      }
    }
  }
  return { table, count };
}

/**
 * A read model's documents by key, wherever they are held: PackedDocs in memory (documents read from the
 * database), SnapshotDocs in the snapshot file (snapshot-docs.ts).
 */
export interface DocTable {
  /** The deflate dictionary the documents are stored with, if they are stored deflated. */
  readonly dictionary: Buffer | null;
  readonly size: number;
  /** Bytes of the batches (documents and keys, as stored). */
  readonly bytes: number;
  /** Of those, the bytes held in memory. */
  readonly heldBytes: number;
  get(key: string): Buffer | undefined;
  /** The batches in the layout addBatch takes, in order (doc-snapshot.ts writes them to a file as they are). */
  batches(): Iterable<Buffer>;
}

export class PackedDocs implements DocTable {
  private readonly buffers: Buffer[] = [];
  /** Per document, while loading: SLOT numbers (see SLOT). */
  private slots: number[] = [];
  private packed: Uint32Array | null = null;
  /** Open addressing over the keys: document numbers (-1: empty), at their key's hash and on. */
  private table: Int32Array | null = null;
  private count = 0;

  /** dictionary: the documents' deflate dictionary, when they are held compressed. */
  constructor(readonly dictionary: Buffer | null = null) {}

  /** A batch of plain documents in the same layout with each document deflated with this table's dictionary. */
  compressBatch(batch: Buffer): Buffer {
    if (!this.dictionary) return batch;
    const parts: Buffer[] = [];
    forEachEntry(batch, (key, start, length) => {
      const z = deflateRawSync(batch.subarray(start, start + length), { level: 9, dictionary: this.dictionary! });
      parts.push(batch.subarray(key.start, key.end), Buffer.from(`\0${z.length}\0`, 'latin1'), z);
    });
    return Buffer.concat(parts);
  }

  /** Takes a batch (the caller must not change it afterwards); returns how many documents it held. */
  addBatch(batch: Buffer): number {
    if (this.packed) throw new Error('PackedDocs: batch added after seal');
    const b = this.buffers.push(batch) - 1;
    return forEachEntry(batch, (key, start, length) => {
      this.slots.push(b, key.start, key.end, start, length);
    });
  }

  /** Ends loading: the slots are packed into a typed array and the keys hashed into the table. */
  seal(): this {
    const packed = Uint32Array.from(this.slots);
    this.slots = [];
    const key = (doc: number): [Buffer, number, number] => [this.buffers[packed[SLOT * doc]!]!, packed[SLOT * doc + 1]!, packed[SLOT * doc + 2]!];
    ({ table: this.table, count: this.count } = hashTable(packed.length / SLOT, (doc) => fnv1a(...key(doc)), (a, b) => {
      const [batch, start, end] = key(a);
      const [other, otherStart, otherEnd] = key(b);
      return other.compare(batch, start, end, otherStart, otherEnd) === 0;
    }));
    this.packed = packed;
    return this;
  }

  get(key: string): Buffer | undefined {
    const { packed, table } = this;
    if (!packed || !table) return undefined;
    const bytes = Buffer.from(key);
    const mask = table.length - 1;
    for (let i = fnv1a(bytes, 0, bytes.length) & mask; ; i = (i + 1) & mask) {
      const doc = table[i]!;
      if (doc < 0) return undefined;
      const batch = this.buffers[packed[SLOT * doc]!]!;
      if (batch.compare(bytes, 0, bytes.length, packed[SLOT * doc + 1]!, packed[SLOT * doc + 2]!) !== 0) continue;
      const offset = packed[SLOT * doc + 3]!;
      const found = batch.subarray(offset, offset + packed[SLOT * doc + 4]!);
      return this.dictionary ? inflateRawSync(found, { dictionary: this.dictionary }) : found;
    }
  }

  /** The batches as they were added, in order (doc-snapshot.ts writes them to a file as they are). */
  *batches(): Iterable<Buffer> {
    yield* this.buffers;
  }

  /** Bytes of the batches (documents and keys, as stored). */
  get bytes(): number {
    return this.buffers.reduce((n, b) => n + b.length, 0);
  }

  /** All of them are held in memory. */
  get heldBytes(): number {
    return this.bytes;
  }

  get size(): number {
    return this.count;
  }
}

/**
 * Walks a batch's entries "key NUL byte-length NUL document", calling `fn` with each key's byte range and
 * the document's; returns how many there were. The length's ASCII digits are read in place (a string per
 * document cost ~15% of loading).
 */
export function forEachEntry(batch: Buffer, fn: (key: { start: number; end: number }, start: number, length: number) => void): number {
  let count = 0;
  for (let p = 0; p < batch.length; count++) {
    const keyEnd = batch.indexOf(0, p);
    let length = 0;
    let q = keyEnd + 1;
    for (; keyEnd >= 0 && q < batch.length && batch[q] !== 0; q++) {
      const digit = batch[q]! - 48;
      if (digit < 0 || digit > 9) break;
      length = length * 10 + digit;
    }
    const start = q + 1;
    if (keyEnd < 0 || q === keyEnd + 1 || batch[q] !== 0 || start + length > batch.length) {
      throw new Error(`PackedDocs: malformed batch entry at byte ${p}`);
    }
    fn({ start: p, end: keyEnd }, start, length);
    p = start + length;
  }
  return count;
}

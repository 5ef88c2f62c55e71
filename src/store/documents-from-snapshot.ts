// The documents of one read model served from the snapshot file they were read from: only their index
// (a hash table of typed arrays: each key's hash, its entry's place in the file and lengths) is held in
// memory, and a document is read from the file (one pread) when asked for.
// Why not hold them: the documents are ~150 MB, the largest part of the server's memory, and every request
// reads only a few KB of them. The file is immutable (a build writes a new one and renames it in), and read
// back this way the bytes stay in the operating system's page cache, which every process shares and the
// system can reclaim, instead of in the server's RSS; a pread of a cached page costs a few microseconds,
// next to the hundreds a lookup costs. A file renamed away or deleted by a later build stays readable as
// long as it is open: the store that serves from it keeps it open until it closes.
import { closeSync, readSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { fnv1a, forEachEntry, hashTable, type DocTable } from './documents-in-memory.js';

/** A snapshot file held open for the stores serving from it; closed when the last one lets it go. */
export class OpenFile {
  private refs = 1;
  private fd: number | null;

  constructor(fd: number) {
    this.fd = fd;
  }

  /** `length` bytes at `position`; throws when the file has been closed or is shorter than that. */
  read(position: number, length: number): Buffer {
    // A closed descriptor's number may already be another file's: never read through it.
    if (this.fd === null) throw new Error('snapshot file read after it was closed');
    const bytes = Buffer.allocUnsafe(length);
    const read = readSync(this.fd, bytes, 0, length, position);
    if (read !== length) throw new Error(`snapshot file: ${read} bytes at ${position}, ${length} expected`);
    return bytes;
  }

  retain(): this {
    this.refs += 1;
    return this;
  }

  release(): void {
    this.refs -= 1;
    if (this.refs === 0 && this.fd !== null) {
      closeSync(this.fd);
      this.fd = null;
    }
  }
}

/** Fields of a document's slot: its key's length, its document's offset from the key and its length. */
const SLOT = 3;

export class SnapshotDocs implements DocTable {
  /** Per document, while loading: its entry's position in the file, key hash and SLOT numbers. */
  private loading: { positions: number[]; hashes: number[]; slots: number[] } | null = { positions: [], hashes: [], slots: [] };
  private positions = new Float64Array(0);
  private hashes = new Uint32Array(0);
  private slots = new Uint32Array(0);
  /** Open addressing over the keys' hashes: document numbers (-1: empty), at their hash and on. */
  private table: Int32Array = new Int32Array(0);
  private count = 0;
  /** Each batch's place in the file: position and length. */
  private readonly spans: Array<[number, number]> = [];

  /** dictionary: the documents' deflate dictionary, when they are stored compressed. */
  constructor(private readonly file: OpenFile, readonly dictionary: Buffer | null) {}

  /**
   * Indexes a batch read from the file at `position` (its bytes are only scanned, not kept); returns how
   * many documents it held.
   */
  addBatch(batch: Buffer, position: number): number {
    const loading = this.loading;
    if (!loading) throw new Error('SnapshotDocs: batch added after seal');
    this.spans.push([position, batch.length]);
    return forEachEntry(batch, (key, start, length) => {
      loading.positions.push(position + key.start);
      loading.hashes.push(fnv1a(batch, key.start, key.end));
      loading.slots.push(key.end - key.start, start - key.start, length);
    });
  }

  /** Ends loading: the slots are packed into typed arrays and the keys' hashes into the table. */
  seal(): this {
    const loading = this.loading;
    if (!loading) return this;
    this.positions = Float64Array.from(loading.positions);
    this.hashes = Uint32Array.from(loading.hashes);
    this.slots = Uint32Array.from(loading.slots);
    this.loading = null;
    ({ table: this.table, count: this.count } = hashTable(this.hashes.length, (doc) => this.hashes[doc]!, (a, b) => this.sameKey(a, b)));
    return this;
  }

  get(key: string): Buffer | undefined {
    const { table, hashes, slots } = this;
    if (table.length === 0) return undefined;
    const bytes = Buffer.from(key);
    const hash = fnv1a(bytes, 0, bytes.length);
    const mask = table.length - 1;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const doc = table[i]!;
      if (doc < 0) return undefined;
      // the hash and length tell other keys apart before anything is read; the bytes then confirm
      if (hashes[doc] !== hash || slots[SLOT * doc] !== bytes.length) continue;
      const offset = slots[SLOT * doc + 1]!;
      const entry = this.file.read(this.positions[doc]!, offset + slots[SLOT * doc + 2]!);
      if (entry.compare(bytes, 0, bytes.length, 0, bytes.length) !== 0) continue;
      const found = entry.subarray(offset);
      return this.dictionary ? inflateRawSync(found, { dictionary: this.dictionary }) : found;
    }
  }

  /** Whether documents a and b have the same key (read from the file: only for keys of the same hash). */
  private sameKey(a: number, b: number): boolean {
    const { hashes, slots } = this;
    if (hashes[a] !== hashes[b] || slots[SLOT * a] !== slots[SLOT * b]) return false;
    const length = slots[SLOT * a]!;
    return this.file.read(this.positions[a]!, length).equals(this.file.read(this.positions[b]!, length));
  }

  /** The batches, read from the file again. */
  *batches(): Iterable<Buffer> {
    for (const [position, length] of this.spans) yield this.file.read(position, length);
  }

  get bytes(): number {
    return this.spans.reduce((n, [, length]) => n + length, 0);
  }

  /** Only the dictionary: documents are read from the file. */
  get heldBytes(): number {
    return this.dictionary?.length ?? 0;
  }

  get size(): number {
    return this.count;
  }
}

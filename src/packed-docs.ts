// The pre-rendered documents of one read model, held as UTF-8 bytes packed into large buffers.
// Why not a Map of strings: ~280 MB of JSON as JS strings lives on the V8 heap, where every major GC walks
// it (GC was ~15% of a point lookup's CPU) and every response re-encodes the string to UTF-8. Packed
// bytes sit outside the heap, and a document is sent as a zero-copy view of them.

const CHUNK_BYTES = 1 << 20;

export class PackedDocs {
  private readonly index = new Map<string, number>();
  private readonly chunks: Buffer[] = [];
  /** Per document: chunk number, byte offset, byte length. */
  private slots: number[] = [];
  private packed: Uint32Array | null = null;
  private current = Buffer.allocUnsafeSlow(CHUNK_BYTES);
  private used = 0;

  /** Copies the bytes in; the caller may reuse its array afterwards. */
  add(key: string, bytes: Uint8Array): void {
    if (this.packed) throw new Error('PackedDocs: add after seal');
    if (this.used + bytes.byteLength > this.current.length) {
      this.chunks.push(this.current.subarray(0, this.used));
      this.current = Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, bytes.byteLength));
      this.used = 0;
    }
    this.current.set(bytes, this.used);
    this.index.set(key, this.slots.length / 3);
    this.slots.push(this.chunks.length, this.used, bytes.byteLength);
    this.used += bytes.byteLength;
  }

  /** Ends loading: the last chunk is trimmed and the slot table packed into a typed array. */
  seal(): this {
    this.chunks.push(Buffer.from(this.current.subarray(0, this.used)));
    this.current = Buffer.alloc(0);
    this.packed = Uint32Array.from(this.slots);
    this.slots = [];
    return this;
  }

  get(key: string): Buffer | undefined {
    const i = this.index.get(key);
    if (i === undefined || !this.packed) return undefined;
    const offset = this.packed[3 * i + 1]!;
    return this.chunks[this.packed[3 * i]!]!.subarray(offset, offset + this.packed[3 * i + 2]!);
  }

  get size(): number {
    return this.index.size;
  }

  get bytes(): number {
    return this.chunks.reduce((n, c) => n + c.byteLength, 0);
  }
}

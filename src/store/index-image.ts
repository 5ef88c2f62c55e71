// An in-memory index as bytes, read back as it was built: its typed arrays come back as views of the bytes
// read (no copy, no parse, outside the V8 heap), anything else as JSON. The search index, the name matcher
// and the typeahead are saved this way in the document snapshot (doc-snapshot.ts), so a server starts
// without querying DuckDB for them and building them again: those queries left a couple of hundred MB of
// native memory behind and the building took seconds of CPU on every start.
//
// Layout: a little-endian u32 giving the header's length, the header (JSON: [name, kind, bytes] per field),
// then each field's bytes; every part starts at a multiple of 8 bytes, so that a typed array can be a view.

export type Typed = Int32Array | Int16Array | Uint8Array;
export type Field = Typed | Buffer | string | number | null | readonly unknown[] | { readonly [k: string]: unknown };

const TYPED = { i32: Int32Array, i16: Int16Array, u8: Uint8Array } as const;
type Kind = keyof typeof TYPED | 'bytes' | 'json';

const ALIGN = 8;
const padded = (n: number) => Math.ceil(n / ALIGN) * ALIGN;

function kindOf(value: Field): Kind {
  if (Buffer.isBuffer(value)) return 'bytes';
  if (value instanceof Int32Array) return 'i32';
  if (value instanceof Int16Array) return 'i16';
  if (value instanceof Uint8Array) return 'u8';
  return 'json';
}

/** The bytes of an index's fields. */
export function writeImage(fields: Readonly<Record<string, Field>>): Buffer {
  const header: Array<[string, Kind, number]> = [];
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    const kind = kindOf(value);
    const bytes = kind === 'json' ? Buffer.from(JSON.stringify(value))
      : Buffer.from((value as Typed).buffer, (value as Typed).byteOffset, (value as Typed).byteLength);
    header.push([name, kind, bytes.length]);
    parts.push(bytes);
  }
  const head = Buffer.from(JSON.stringify(header));
  const out = Buffer.alloc(padded(4 + head.length) + parts.reduce((n, p) => n + padded(p.length), 0));
  out.writeUInt32LE(head.length, 0);
  head.copy(out, 4);
  let at = padded(4 + head.length);
  for (const p of parts) {
    p.copy(out, at);
    at += padded(p.length);
  }
  return out;
}

/** The fields of an image; reading one as another kind than it was written, or one it lacks, throws. */
export class Image {
  private readonly fields = new Map<string, { kind: Kind; at: number; bytes: number }>();
  private readonly buf: Buffer;

  constructor(buf: Buffer) {
    // a view needs its offset aligned to its element size: bytes read into a buffer of their own are
    this.buf = buf.byteOffset % ALIGN === 0 ? buf : Buffer.from(buf);
    const length = this.buf.readUInt32LE(0);
    let at = padded(4 + length);
    for (const [name, kind, bytes] of JSON.parse(this.buf.toString('utf8', 4, 4 + length)) as Array<[string, Kind, number]>) {
      this.fields.set(name, { kind, at, bytes });
      at += padded(bytes);
    }
    if (at !== this.buf.length) throw new Error(`index image of ${this.buf.length} bytes, its header says ${at}`);
  }

  private field(name: string, kind: Kind): { at: number; bytes: number } {
    const f = this.fields.get(name);
    if (!f) throw new Error(`index image has no field ${name}`);
    if (f.kind !== kind) throw new Error(`index image field ${name} is ${f.kind}, not ${kind}`);
    return f;
  }

  private typed<K extends keyof typeof TYPED>(name: string, kind: K): InstanceType<(typeof TYPED)[K]> {
    const { at, bytes } = this.field(name, kind);
    const T = TYPED[kind];
    return new T(this.buf.buffer as ArrayBuffer, this.buf.byteOffset + at, bytes / T.BYTES_PER_ELEMENT) as InstanceType<(typeof TYPED)[K]>;
  }

  i32(name: string): Int32Array { return this.typed(name, 'i32'); }
  i16(name: string): Int16Array { return this.typed(name, 'i16'); }
  u8(name: string): Uint8Array { return this.typed(name, 'u8'); }

  bytes(name: string): Buffer {
    const { at, bytes } = this.field(name, 'bytes');
    return this.buf.subarray(at, at + bytes);
  }

  /** A JSON field, as the caller says it was written (its shape is the writer's, not checked here). */
  json<T>(name: string): T {
    const { at, bytes } = this.field(name, 'json');
    return JSON.parse(this.buf.toString('utf8', at, at + bytes)) as T;
  }
}

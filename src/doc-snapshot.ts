// A snapshot of a build's documents as one file beside the database, so a server starts without
// re-deriving them. Loading them from DuckDB aggregates ~180 MB of JSON in SQL on every start (about a
// second on two cores) and fills DuckDB's cache with blocks no request reads again (the start-up peak
// RSS went ~250 MB over the steady state); reading them back from this file costs one sequential read.
//
// Layout: one JSON header line, then per table its compression dictionary (if any) and every batch, byte
// for byte as PackedDocs holds them; then the images of the in-memory indexes (index-image.ts). The header gives each batch's length and hash: a server swapping in a
// new build reads only the batches the data set it serves does not hold already (a rebuild of the same
// data reads none).
// The header names the build and a fingerprint of the document definitions: a snapshot of another build,
// or of documents defined differently (a code change), is not used, and the server loads from the
// database instead. It also holds the body's length and CRC-32: a file cut short or with bytes changed
// anywhere (a disk or copy fault) is refused as well, since a changed byte inside a document would
// otherwise parse and be served. Nothing is ever answered from a snapshot that does not match.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, read, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { promisify } from 'node:util';
import { crc32 } from 'node:zlib';
import { PackedDocs } from './packed-docs.js';

const FORMAT = 'vtqs-documents/5';
/** The header is a few KB (a length per batch); more than this means the file is not a snapshot. */
const MAX_HEADER = 1 << 20;
const READ_CHUNK = 8 << 20;
const readAt = promisify(read);

interface Header {
  format: string;
  build_id: string;
  definitions: string;
  /** CRC-32 of the body (everything after the header line), 8 hex digits: the header's length does not vary with it. */
  crc32: string;
  tables: Array<{ table: string; documents: number; dictionary: number; batches: number[]; hashes: string[] }>;
  images: Array<{ name: string; bytes: number }>;
}

/**
 * Fingerprint of what the documents and index images are: any change to a table's key or document SQL, or
 * to imageLayout (the version of the images' fields), changes it.
 */
export function definitionsKey(specs: ReadonlyArray<{ table: string; key: readonly string[]; doc: string; compressed?: boolean; dictionaryBytes?: number }>,
  imageLayout = ''): string {
  return createHash('sha256').update(JSON.stringify(specs.map((s) => [s.table, s.key, s.doc, s.compressed ?? false, ...(s.dictionaryBytes ? [s.dictionaryBytes] : [])])))
    .update(imageLayout).digest('hex').slice(0, 16);
}

/** Writes the snapshot next to its final name and renames it in, so a reader never sees half a file. */
export function writeSnapshot(file: string, buildId: string, definitions: string, docs: ReadonlyMap<string, PackedDocs>,
  images: ReadonlyMap<string, Buffer>): void {
  let body = 0;
  for (const d of docs.values()) {
    if (d.dictionary) body = crc32(d.dictionary, body);
    for (const b of d.batchBuffers) body = crc32(b, body);
  }
  for (const b of images.values()) body = crc32(b, body);
  const header: Header = {
    format: FORMAT,
    build_id: buildId,
    definitions,
    crc32: hex(body),
    tables: [...docs].map(([table, d]) => ({
      table, documents: d.size, dictionary: d.dictionary?.length ?? 0, batches: d.batchBuffers.map((b) => b.length), hashes: [...d.batchHashes],
    })),
    images: [...images].map(([name, b]) => ({ name, bytes: b.length })),
  };
  const temp = `${file}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w');
  try {
    writeSync(fd, `${JSON.stringify(header)}\n`);
    for (const d of docs.values()) {
      if (d.dictionary) writeSync(fd, d.dictionary);
      for (const b of d.batchBuffers) writeSync(fd, b);
    }
    for (const b of images.values()) writeSync(fd, b);
  } catch (err) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw err;
  }
  closeSync(fd);
  renameSync(temp, file);
}

export type SnapshotRead = { docs: Map<string, PackedDocs>; images: Map<string, Buffer>; reusedBytes: number } | { reason: string };

/** Why the snapshot in `file` is not this build's documents, or null when it is (reads the header only). */
export function snapshotMismatch(file: string, buildId: string, definitions: string): string | null {
  const opened = openSnapshot(file, buildId, definitions);
  if ('reason' in opened) return opened.reason;
  closeSync(opened.fd);
  return null;
}

/**
 * Reads a snapshot if it belongs to this build and these definitions; otherwise says why not. Only the
 * header is read before that is known, so a stale snapshot costs nothing. `previous`: the documents of the
 * data set being replaced. A table whose batches all have a hash found there is taken over whole (its
 * index too); any other batch found there is taken over rather than read. The index images are read whole,
 * each into a buffer of its own (its typed arrays become views of it).
 */
export async function readSnapshot(file: string, buildId: string, definitions: string,
  previous?: ReadonlyMap<string, PackedDocs>): Promise<SnapshotRead> {
  const opened = openSnapshot(file, buildId, definitions);
  if ('reason' in opened) return opened;
  const { fd, header, bodyStart, bodyBytes } = opened;
  try {
    const plans = planTables(header, bodyStart, previous);
    const ranges = coalesce(plans.flatMap((t) => t.parts).filter((p): p is FilePart => 'position' in p));
    // One buffer for all bytes to keep; batches are views of it, as they would be of DuckDB's blobs. The
    // whole body is read in file order, in chunks on libuv's threads (the first touch of each fresh page
    // then happens off the main thread, which meanwhile prepares the request validator at start-up or keeps
    // serving on a swap), and its CRC-32 taken as each chunk arrives: the bytes taken over from the data set
    // being replaced are read only for the checksum, into one scratch chunk, and not kept.
    const body = Buffer.allocUnsafeSlow(ranges.reduce((n, r) => n + r.length, 0));
    let scratch: Buffer | null = null;
    let sum = 0;
    let position = bodyStart;
    // keep: the buffer the bytes go to, from its start; null: read for the checksum only
    const readSpan = async (until: number, keep: Buffer | null): Promise<boolean> => {
      let filled = 0;
      while (position < until) {
        const length = Math.min(READ_CHUNK, until - position);
        const target = keep ?? (scratch ??= Buffer.allocUnsafeSlow(READ_CHUNK));
        const at = keep ? filled : 0;
        const { bytesRead } = await readAt(fd, target, at, length, position);
        if (bytesRead === 0) return false;
        sum = crc32(target.subarray(at, at + bytesRead), sum);
        position += bytesRead;
        filled += bytesRead;
      }
      return true;
    };
    let kept = 0;
    for (const r of ranges) {
      if (!(await readSpan(r.position, null)) || !(await readSpan(r.position + r.length, body.subarray(kept, kept + r.length)))) {
        return { reason: 'file shrank while being read' };
      }
      kept += r.length;
    }
    const imagesBytes = header.images.reduce((n, i) => n + i.bytes, 0);
    if (!(await readSpan(bodyStart + bodyBytes - imagesBytes, null))) return { reason: 'file shrank while being read' };
    const images = new Map<string, Buffer>();
    for (const { name, bytes } of header.images) {
      const image = Buffer.allocUnsafeSlow(bytes);
      if (!(await readSpan(position + bytes, image))) return { reason: 'file shrank while being read' };
      images.set(name, image);
    }
    if (hex(sum) !== header.crc32) return { reason: `damaged (body CRC-32 ${hex(sum)}, header says ${header.crc32})` };
    let offset = 0;
    let reusedBytes = 0;
    const bytesOf = (p: Part): Buffer => {
      if ('buffer' in p) {
        reusedBytes += p.buffer.length;
        return p.buffer;
      }
      offset += p.length;
      return body.subarray(offset - p.length, offset);
    };
    const docs = new Map<string, PackedDocs>();
    for (const t of plans) {
      if (t.whole) {
        reusedBytes += t.whole.batchBuffers.reduce((n, b) => n + b.length, 0);
        docs.set(t.table, t.whole);
        continue;
      }
      const [dictionary, ...batches] = t.dictionary ? t.parts : [null, ...t.parts];
      const d = new PackedDocs(dictionary ? bytesOf(dictionary) : null);
      let count = 0;
      for (const [i, part] of batches.entries()) count += d.addBatch(bytesOf(part!), t.hashes[i]);
      if (count !== t.documents) return { reason: `table ${t.table}: ${count} documents, header says ${t.documents}` };
      docs.set(t.table, d.seal());
    }
    return { docs, images, reusedBytes };
  } catch (err) {
    return { reason: `unreadable: ${(err as Error).message}` };
  } finally {
    closeSync(fd);
  }
}

/** Bytes of the file to read, or a batch the previous data set holds (same hash: same bytes). */
type FilePart = { position: number; length: number };
type Part = FilePart | { buffer: Buffer };

interface TablePlan {
  table: string;
  documents: number;
  dictionary: boolean;
  hashes: string[];
  /** The previous data set's table when it holds exactly these batches, taken over whole. */
  whole: PackedDocs | null;
  /** The dictionary (when there is one), then each batch. */
  parts: Part[];
}

function planTables(header: Header, bodyStart: number, previous?: ReadonlyMap<string, PackedDocs>): TablePlan[] {
  let position = bodyStart;
  return header.tables.map((t) => {
    const held = previous?.get(t.table);
    const plan: TablePlan = { table: t.table, documents: t.documents, dictionary: t.dictionary > 0, hashes: t.hashes, whole: null, parts: [] };
    if (t.dictionary > 0) plan.parts.push({ position, length: t.dictionary });
    position += t.dictionary;
    for (const [i, length] of t.batches.entries()) {
      const buffer = held?.batchByHash(t.hashes[i]!);
      plan.parts.push(buffer?.length === length ? { buffer } : { position, length });
      position += length;
    }
    if (held && held.size === t.documents && held.sameBatches(t.hashes)) plan.whole = held;
    if (plan.whole) plan.parts = [];
    return plan;
  });
}

/** Adjacent file ranges merged, so that the file is read in as few calls as it can be. */
function coalesce(ranges: readonly FilePart[]): FilePart[] {
  const out: FilePart[] = [];
  for (const r of ranges) {
    const last = out[out.length - 1];
    if (last && last.position + last.length === r.position) last.length += r.length;
    else out.push({ ...r });
  }
  return out;
}

interface Opened { fd: number; header: Header; bodyStart: number; bodyBytes: number }

/** Opens a snapshot whose header matches, or says why not (the file is then closed again). */
function openSnapshot(file: string, buildId: string, definitions: string): Opened | { reason: string } {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return { reason: 'no snapshot' };
  }
  let checked: Omit<Opened, 'fd'> | { reason: string };
  try {
    checked = checkHeader(fd, buildId, definitions);
  } catch (err) {
    checked = { reason: `unreadable: ${(err as Error).message}` };
  }
  if ('reason' in checked) {
    closeSync(fd);
    return checked;
  }
  return { fd, ...checked };
}

function checkHeader(fd: number, buildId: string, definitions: string): { header: Header; bodyStart: number; bodyBytes: number } | { reason: string } {
  const size = fstatSync(fd).size;
  const head = Buffer.alloc(Math.min(MAX_HEADER, size));
  readSync(fd, head, 0, head.length, 0);
  const end = head.indexOf(10);
  if (end < 0) return { reason: 'not a snapshot (no header)' };
  let header: Header;
  try {
    header = JSON.parse(head.toString('utf8', 0, end)) as Header;
  } catch {
    return { reason: 'not a snapshot (header is not JSON)' };
  }
  if (header.format !== FORMAT) return { reason: `format ${String(header.format)}, not ${FORMAT}` };
  if (header.build_id !== buildId) return { reason: `snapshot of build ${header.build_id}, not ${buildId}` };
  if (header.definitions !== definitions) return { reason: 'documents are defined differently since the snapshot' };
  if (!/^[0-9a-f]{8}$/.test(String(header.crc32))) return { reason: 'no body checksum in the header' };
  if (!Array.isArray(header.images)) return { reason: 'no index images in the header' };
  const bodyBytes = header.tables.reduce((n, t) => n + t.dictionary + t.batches.reduce((a, b) => a + b, 0), 0)
    + header.images.reduce((n, i) => n + i.bytes, 0);
  if (size !== end + 1 + bodyBytes) return { reason: `truncated or padded (${size} bytes, header says ${end + 1 + bodyBytes})` };
  return { header, bodyStart: end + 1, bodyBytes };
}

const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0');

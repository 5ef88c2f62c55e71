// A snapshot of a build's documents as one file beside the database, so a server starts without
// re-deriving them. Loading them from DuckDB aggregates ~180 MB of JSON in SQL on every start (about a
// second on two cores) and fills DuckDB's cache with blocks no request reads again (the start-up peak
// RSS went ~250 MB over the steady state); from this file, a server reads it once in order (for its
// checksum and to index the keys) and then serves each document from it (snapshot-docs.ts).
//
// Layout: one JSON header line, then per table its compression dictionary (if any) and every batch, byte
// for byte in PackedDocs' layout; then the images of the in-memory indexes (index-image.ts).
// The header names the build and a fingerprint of the document definitions: a snapshot of another build,
// or of documents defined differently (a code change), is not used, and the server loads from the
// database instead. It also holds the body's length and CRC-32: a file cut short or with bytes changed
// anywhere (a disk or copy fault) is refused as well, since a changed byte inside a document would
// otherwise parse and be served. Nothing is ever answered from a snapshot that does not match.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, read, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { promisify } from 'node:util';
import { crc32 } from 'node:zlib';
import { killPoint } from './kill-points.js';
import type { DocTable } from './documents-in-memory.js';
import { OpenFile, SnapshotDocs } from './documents-from-snapshot.js';

const FORMAT = 'vtqs-documents/6';
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
  tables: Array<{ table: string; documents: number; dictionary: number; batches: number[] }>;
  images: Array<{ name: string; bytes: number }>;
}

/**
 * Fingerprint of what the documents and index images are: any change to a table's key or document SQL, or
 * to imageLayout (the version of the images' fields), changes it.
 */
export function definitionsKey(specs: ReadonlyArray<{ table: string; key: readonly string[]; doc: string; compressed?: boolean }>,
  imageLayout = ''): string {
  return createHash('sha256').update(JSON.stringify(specs.map((s) => [s.table, s.key, s.doc, s.compressed ?? false])))
    .update(imageLayout).digest('hex').slice(0, 16);
}

/** Writes the snapshot next to its final name and renames it in, so a reader never sees half a file. */
export function writeSnapshot(file: string, buildId: string, definitions: string, docs: ReadonlyMap<string, DocTable>,
  images: ReadonlyMap<string, Buffer>): void {
  let body = 0;
  const batches = new Map<string, number[]>();
  for (const [table, d] of docs) {
    if (d.dictionary) body = crc32(d.dictionary, body);
    const lengths: number[] = [];
    for (const b of d.batches()) {
      body = crc32(b, body);
      lengths.push(b.length);
    }
    batches.set(table, lengths);
  }
  for (const b of images.values()) body = crc32(b, body);
  const header: Header = {
    format: FORMAT,
    build_id: buildId,
    definitions,
    crc32: hex(body),
    tables: [...docs].map(([table, d]) => ({ table, documents: d.size, dictionary: d.dictionary?.length ?? 0, batches: batches.get(table)! })),
    images: [...images].map(([name, b]) => ({ name, bytes: b.length })),
  };
  const temp = `${file}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w');
  try {
    writeSync(fd, `${JSON.stringify(header)}\n`);
    for (const d of docs.values()) {
      if (d.dictionary) writeSync(fd, d.dictionary);
      for (const b of d.batches()) writeSync(fd, b);
      killPoint('snapshot:one-table-written');
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

/** A snapshot read: its documents (served from `file`, which the caller releases when done) and index images. */
export type SnapshotRead = { docs: Map<string, DocTable>; images: Map<string, Buffer>; file: OpenFile } | { reason: string };

/** Why the snapshot in `file` is not this build's documents, or null when it is (reads the header only). */
export function snapshotMismatch(file: string, buildId: string, definitions: string): string | null {
  const opened = openSnapshot(file, buildId, definitions);
  if ('reason' in opened) return opened.reason;
  closeSync(opened.fd);
  return null;
}

/**
 * Reads a snapshot if it belongs to this build and these definitions; otherwise says why not. Only the
 * header is read before that is known, so a stale snapshot costs nothing. The body is then read once, in
 * file order, on libuv's threads (the main thread meanwhile prepares the request validator at start-up,
 * or keeps serving on a swap): its CRC-32 taken and each table's keys indexed as its batches go by (a
 * batch is held only while it is indexed); the index images are kept, each in a buffer of its own (their
 * typed arrays become views of it). The file stays open for the documents' reads.
 */
export async function readSnapshot(file: string, buildId: string, definitions: string): Promise<SnapshotRead> {
  const opened = openSnapshot(file, buildId, definitions);
  if ('reason' in opened) return opened;
  const { fd, header, bodyStart } = opened;
  const open = new OpenFile(fd);
  try {
    let sum = 0;
    let position = bodyStart;
    const readNext = async (length: number, into?: Buffer): Promise<Buffer> => {
      const bytes = into?.subarray(0, length) ?? Buffer.allocUnsafeSlow(length);
      for (let filled = 0; filled < length;) {
        const { bytesRead } = await readAt(fd, bytes, filled, Math.min(READ_CHUNK, length - filled), position + filled);
        if (bytesRead === 0) throw new Error('file shrank while being read');
        filled += bytesRead;
      }
      sum = crc32(bytes, sum);
      position += length;
      return bytes;
    };
    const largest = Math.max(0, ...header.tables.flatMap((t) => t.batches));
    const scratch = Buffer.allocUnsafeSlow(largest);
    const docs = new Map<string, DocTable>();
    // A fault that makes a batch unreadable is told by the checksum first, so the body is read to its end.
    let problem: string | null = null;
    for (const t of header.tables) {
      const d = new SnapshotDocs(open, t.dictionary > 0 ? await readNext(t.dictionary) : null);
      let count = 0;
      for (const length of t.batches) {
        const at = position;
        const batch = await readNext(length, scratch);
        try {
          if (!problem) count += d.addBatch(batch, at);
        } catch (err) {
          problem = `unreadable: ${(err as Error).message}`;
        }
      }
      if (!problem && count !== t.documents) problem = `table ${t.table}: ${count} documents, header says ${t.documents}`;
      docs.set(t.table, d.seal());
    }
    const images = new Map<string, Buffer>();
    for (const { name, bytes } of header.images) images.set(name, await readNext(bytes));
    if (hex(sum) !== header.crc32) return fail(open, `damaged (body CRC-32 ${hex(sum)}, header says ${header.crc32})`);
    if (problem) return fail(open, problem);
    return { docs, images, file: open };
  } catch (err) {
    return fail(open, `unreadable: ${(err as Error).message}`);
  }
}

function fail(file: OpenFile, reason: string): { reason: string } {
  file.release();
  return { reason };
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

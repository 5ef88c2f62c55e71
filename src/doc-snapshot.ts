// A snapshot of a build's documents as one file beside the database, so a server starts without
// re-deriving them. Loading them from DuckDB aggregates ~180 MB of JSON in SQL on every start (about a
// second on two cores) and fills DuckDB's cache with blocks no request reads again (the start-up peak
// RSS went ~250 MB over the steady state); reading them back from this file costs one sequential read.
//
// Layout: one JSON header line, then per table its compression dictionary (if any) and every batch, byte
// for byte as PackedDocs holds them.
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

const FORMAT = 'vtqs-documents/3';
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
}

/** Fingerprint of what the documents are: any change to a table's key or document SQL changes it. */
export function definitionsKey(specs: ReadonlyArray<{ table: string; key: readonly string[]; doc: string; compressed?: boolean }>): string {
  return createHash('sha256').update(JSON.stringify(specs.map((s) => [s.table, s.key, s.doc, s.compressed ?? false]))).digest('hex').slice(0, 16);
}

/** Writes the snapshot next to its final name and renames it in, so a reader never sees half a file. */
export function writeSnapshot(file: string, buildId: string, definitions: string, docs: ReadonlyMap<string, PackedDocs>): void {
  let body = 0;
  for (const d of docs.values()) {
    if (d.dictionary) body = crc32(d.dictionary, body);
    for (const b of d.batchBuffers) body = crc32(b, body);
  }
  const header: Header = {
    format: FORMAT,
    build_id: buildId,
    definitions,
    crc32: hex(body),
    tables: [...docs].map(([table, d]) => ({
      table, documents: d.size, dictionary: d.dictionary?.length ?? 0, batches: d.batchBuffers.map((b) => b.length),
    })),
  };
  const temp = `${file}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w');
  try {
    writeSync(fd, `${JSON.stringify(header)}\n`);
    for (const d of docs.values()) {
      if (d.dictionary) writeSync(fd, d.dictionary);
      for (const b of d.batchBuffers) writeSync(fd, b);
    }
  } catch (err) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw err;
  }
  closeSync(fd);
  renameSync(temp, file);
}

export type SnapshotRead = { docs: Map<string, PackedDocs> } | { reason: string };

/** Why the snapshot in `file` is not this build's documents, or null when it is (reads the header only). */
export function snapshotMismatch(file: string, buildId: string, definitions: string): string | null {
  const opened = openSnapshot(file, buildId, definitions);
  if ('reason' in opened) return opened.reason;
  closeSync(opened.fd);
  return null;
}

/**
 * Reads a snapshot if it belongs to this build and these definitions; otherwise says why not. Only the
 * header is read before that is known, so a stale snapshot costs nothing.
 */
export async function readSnapshot(file: string, buildId: string, definitions: string): Promise<SnapshotRead> {
  const opened = openSnapshot(file, buildId, definitions);
  if ('reason' in opened) return opened;
  const { fd, header, bodyStart, bodyBytes } = opened;
  try {
    // One buffer for all documents; batches are views of it, as they would be of DuckDB's blobs. Read in
    // chunks on libuv's threads: the first touch of each fresh page (~0.5 s for 180 MB on this machine)
    // then happens off the main thread, which meanwhile prepares the request validator.
    // The checksum is taken chunk by chunk as each arrives, between the reads.
    const body = Buffer.allocUnsafeSlow(bodyBytes);
    let sum = 0;
    for (let read = 0; read < bodyBytes;) {
      const { bytesRead } = await readAt(fd, body, read, Math.min(READ_CHUNK, bodyBytes - read), bodyStart + read);
      if (bytesRead === 0) return { reason: 'file shrank while being read' };
      sum = crc32(body.subarray(read, read + bytesRead), sum);
      read += bytesRead;
    }
    if (hex(sum) !== header.crc32) return { reason: `damaged (body CRC-32 ${hex(sum)}, header says ${header.crc32})` };
    const docs = new Map<string, PackedDocs>();
    let offset = 0;
    for (const t of header.tables) {
      const d = new PackedDocs(t.dictionary > 0 ? body.subarray(offset, offset + t.dictionary) : null);
      offset += t.dictionary;
      let count = 0;
      for (const length of t.batches) {
        count += d.addBatch(body.subarray(offset, offset + length));
        offset += length;
      }
      if (count !== t.documents) return { reason: `table ${t.table}: ${count} documents, header says ${t.documents}` };
      docs.set(t.table, d.seal());
    }
    return { docs };
  } catch (err) {
    return { reason: `unreadable: ${(err as Error).message}` };
  } finally {
    closeSync(fd);
  }
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
  const bodyBytes = header.tables.reduce((n, t) => n + t.dictionary + t.batches.reduce((a, b) => a + b, 0), 0);
  if (size !== end + 1 + bodyBytes) return { reason: `truncated or padded (${size} bytes, header says ${end + 1 + bodyBytes})` };
  return { header, bodyStart: end + 1, bodyBytes };
}

const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0');

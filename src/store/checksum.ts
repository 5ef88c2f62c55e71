// The database's checksum, recorded by the build that wrote the file and checked by the server before it
// serves it. DuckDB checks a block's own checksum only when a query reads that block, and opening a file
// reads few of them: a copy cut short by a few blocks, or with bytes changed in the middle, opens and
// answers lookups, and fails later on whichever query reaches the damage. A CRC-32 over the whole file
// finds that before the file is served (a disk or copy fault, not tampering: nothing here is secret).
import { closeSync, openSync, read, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { crc32 } from 'node:zlib';


export interface FileChecksum {
  bytes: number;
  crc32: string;
}

export interface RecordedChecksum extends FileChecksum {
  build_id: string;
}

const CHUNK = 8 << 20;
const readAt = promisify(read);

/**
 * The file's size and CRC-32, summed on a thread of its own: the server sums its database (hundreds of MB)
 * while its main thread opens the store and reads the document snapshot, on the machine's other core.
 */
export function fileChecksum(path: string): Promise<FileChecksum> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { checksumOf: path } });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the checksum thread of ${path} exited with code ${code} before it answered`)));
  });
}

/** Reads the file in chunks, adding each to the sum. */
async function sumFile(path: string): Promise<FileChecksum> {
  const fd = openSync(path, 'r');
  try {
    const chunk = Buffer.allocUnsafe(CHUNK);
    let sum = 0;
    let bytes = 0;
    for (;;) {
      const { bytesRead } = await readAt(fd, chunk, 0, CHUNK, bytes);
      if (bytesRead === 0) break;
      sum = crc32(chunk.subarray(0, bytesRead), sum);
      bytes += bytesRead;
    }
    return { bytes, crc32: (sum >>> 0).toString(16).padStart(8, '0') };
  } finally {
    closeSync(fd);
  }
}

const job = workerData as { checksumOf?: string } | null;
if (!isMainThread && typeof job?.checksumOf === 'string') parentPort!.postMessage(await sumFile(job.checksumOf));

/** The recorded checksum, or null when there is none or it is not readable as one. */
export function readRecordedChecksum(path: string): RecordedChecksum | null {
  try {
    const r = JSON.parse(readFileSync(path, 'utf8')) as Partial<RecordedChecksum>;
    return typeof r.build_id === 'string' && typeof r.bytes === 'number' && typeof r.crc32 === 'string'
      ? { build_id: r.build_id, bytes: r.bytes, crc32: r.crc32 } : null;
  } catch {
    return null;
  }
}

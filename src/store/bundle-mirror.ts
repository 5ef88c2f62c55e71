// A replica's copy of published bundles (bundle-format.ts): the pointer read over HTTP, the bundle it names
// downloaded into a folder of its own under the data directory, and every file checked against SHA256SUMS,
// and SHA256SUMS against the pointer, before the folder is given its bundle's name. Only a folder so named
// is ever opened; a download cut short, damaged or refused leaves a partial folder that the next start
// removes. The bundle served last is kept (with the pointer that named it) so that a restart serves it again
// after checking it once more, without waiting for the store.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import { parsePointer, parseSums, SUMS_FILE, UPDATE_STATUS_FILE, type Pointer, type SumLine } from './bundle-format.js';
import { parseUpdateStatus, type UpdateStatus } from './update-status.js';

/** How a look at the store ended (the metric vtqs_bundle_downloads_total counts them). */
export type DownloadOutcome = 'verified' | 'unreachable' | 'truncated' | 'corrupt' | 'invalid';

/** A bundle refused, and why, in one line. */
export class BundleError extends Error {
  override name = 'BundleError';
  constructor(readonly outcome: Exclude<DownloadOutcome, 'verified'>, message: string) {
    super(message);
  }
}

export interface LocalBundle {
  id: string;
  buildId: string;
  /** The folder holding the bundle's files: a data set's folder (taxonomy.duckdb, documents.bin, parquet/). */
  dir: string;
  bytes: number;
}

/** Inside the mirror's folder: the bundle served last, by name. */
const CURRENT = 'current';
/** Inside a bundle's folder: the pointer that named it. */
const POINTER_COPY = 'pointer.json';
const PARTIAL = /^\.partial-/;

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

export class BundleMirror {
  constructor(
    /** The pointer's URL, `<store>/latest`; bundles are beside it. */
    private readonly pointerUrl: string,
    /** The mirror's own folder (DATA_DIR/bundles). */
    readonly dir: string,
    /** ms a transfer may go without a byte. */
    private readonly idleMs: number,
  ) {
    mkdirSync(dir, { recursive: true });
  }

  /**
   * The bundle served last, checked again file by file, or null when there is none. A bundle that fails
   * its checks is removed, and the error says why.
   */
  async local(): Promise<LocalBundle | null> {
    for (const name of readdirSync(this.dir)) if (PARTIAL.test(name)) rmSync(join(this.dir, name), { recursive: true, force: true });
    let id: string;
    try {
      id = readFileSync(join(this.dir, CURRENT), 'utf8').trim();
    } catch {
      return null;
    }
    const dir = join(this.dir, id);
    try {
      if (!existsSync(dir)) throw new BundleError('truncated', `its folder ${dir} is missing`);
      const pointer = parsePointer(readFileSync(join(dir, POINTER_COPY), 'utf8'));
      const sums = readFileSync(join(dir, SUMS_FILE));
      if (sha256(sums) !== pointer.sha256sums) throw new BundleError('corrupt', `${SUMS_FILE} has sha256 ${sha256(sums)}, its pointer says ${pointer.sha256sums}`);
      let bytes = 0;
      for (const line of parseSums(sums.toString('utf8'))) {
        const got = await hashFile(join(dir, line.path));
        if (got === null) throw new BundleError('truncated', `${line.path} is missing`);
        if (got.sha256 !== line.sha256) throw new BundleError('corrupt', `${line.path}: sha256 ${got.sha256} over ${got.bytes} bytes, ${SUMS_FILE} says ${line.sha256}`);
        bytes += got.bytes;
      }
      return { id, buildId: pointer.build_id, dir, bytes };
    } catch (err) {
      this.discard(id);
      throw err instanceof BundleError ? err : new BundleError('corrupt', (err as Error).message);
    }
  }

  /** The pointer as the store has it now. */
  async pointer(): Promise<Pointer> {
    const text = (await this.fetchSmall(this.pointerUrl, 'the pointer')).toString('utf8');
    try {
      return parsePointer(text);
    } catch (err) {
      throw new BundleError('invalid', `${this.pointerUrl}: ${(err as Error).message}`);
    }
  }

  /** What the update job last did, as the store has it; null when it says nothing readable. */
  async updateStatus(): Promise<UpdateStatus | null> {
    try {
      return parseUpdateStatus((await this.fetchSmall(new URL(UPDATE_STATUS_FILE, this.pointerUrl).href, UPDATE_STATUS_FILE)).toString('utf8'));
    } catch {
      return null;
    }
  }

  /** Downloads the bundle `pointer` names and checks every file; throws a BundleError when it is refused. */
  async download(pointer: Pointer): Promise<LocalBundle> {
    const base = new URL(`${pointer.bundle}/`, this.pointerUrl);
    const sums = await this.fetchSmall(new URL(SUMS_FILE, base).href, `bundle ${pointer.bundle}'s ${SUMS_FILE}`);
    if (sha256(sums) !== pointer.sha256sums) {
      throw new BundleError('corrupt', `bundle ${pointer.bundle}: ${SUMS_FILE} has sha256 ${sha256(sums)}, the pointer says ${pointer.sha256sums}`);
    }
    let lines: SumLine[];
    try {
      lines = parseSums(sums.toString('utf8'));
    } catch (err) {
      throw new BundleError('invalid', `bundle ${pointer.bundle}: ${(err as Error).message}`);
    }
    if (lines.length !== pointer.files) {
      throw new BundleError('corrupt', `bundle ${pointer.bundle}: ${SUMS_FILE} lists ${lines.length} files, the pointer says ${pointer.files}`);
    }
    const partial = join(this.dir, `.partial-${pointer.bundle}-${process.pid}`);
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial, { recursive: true });
    try {
      let bytes = 0;
      for (const line of lines) {
        const got = await this.fetchFile(new URL(line.path, base).href, join(partial, line.path), `bundle ${pointer.bundle}: ${line.path}`);
        if (got.sha256 !== line.sha256) {
          throw new BundleError('corrupt', `bundle ${pointer.bundle}: ${line.path} has sha256 ${got.sha256} over ${got.bytes} bytes, ${SUMS_FILE} says ${line.sha256}`);
        }
        bytes += got.bytes;
      }
      if (bytes !== pointer.bytes) throw new BundleError(bytes < pointer.bytes ? 'truncated' : 'corrupt', `bundle ${pointer.bundle}: ${bytes} bytes in all, the pointer says ${pointer.bytes}`);
      writeFileSync(join(partial, SUMS_FILE), sums);
      writeFileSync(join(partial, POINTER_COPY), `${JSON.stringify(pointer)}\n`);
      const dir = join(this.dir, pointer.bundle);
      rmSync(dir, { recursive: true, force: true });
      renameSync(partial, dir);
      return { id: pointer.bundle, buildId: pointer.build_id, dir, bytes };
    } finally {
      rmSync(partial, { recursive: true, force: true });
    }
  }

  /** Records `id` as the bundle served, and removes every other. */
  keep(id: string): void {
    const tmp = join(this.dir, `${CURRENT}.${process.pid}.tmp`);
    writeFileSync(tmp, `${id}\n`);
    renameSync(tmp, join(this.dir, CURRENT));
    for (const name of readdirSync(this.dir)) {
      if (name !== id && name !== CURRENT && !PARTIAL.test(name)) rmSync(join(this.dir, name), { recursive: true, force: true });
    }
  }

  /** Removes a bundle's folder (one refused when opened). */
  discard(id: string): void {
    rmSync(join(this.dir, id), { recursive: true, force: true });
  }

  /** A small file whole, or a BundleError: unreachable when the store does not answer it with a 200. */
  private async fetchSmall(url: string, what: string): Promise<Buffer> {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(this.idleMs), headers: { 'Cache-Control': 'no-cache' } });
      if (!res.ok) {
        await res.arrayBuffer().catch(() => undefined);
        throw new BundleError('unreachable', `${what} (${url}): HTTP ${res.status}`);
      }
      return Buffer.from(await res.arrayBuffer());
    } catch (err) {
      if (err instanceof BundleError) throw err;
      throw new BundleError('unreachable', `${what} (${url}): ${reason(err)}`);
    }
  }

  /**
   * Streams a file to `to`, hashing it on the way. Refused as unreachable when the store does not answer or
   * goes quiet for idleMs, as truncated when the file is missing from the bundle or its transfer ends before
   * the length the store announced.
   */
  private async fetchFile(url: string, to: string, what: string): Promise<{ sha256: string; bytes: number }> {
    const abort = new AbortController();
    let idle = setTimeout(() => abort.abort(), this.idleMs);
    const alive = () => {
      clearTimeout(idle);
      idle = setTimeout(() => abort.abort(), this.idleMs);
    };
    let res: Response;
    try {
      res = await fetch(url, { signal: abort.signal });
    } catch (err) {
      clearTimeout(idle);
      throw new BundleError('unreachable', `${what}: ${abort.signal.aborted ? `no answer in ${this.idleMs} ms` : reason(err)}`);
    }
    if (!res.ok || !res.body) {
      clearTimeout(idle);
      await res.arrayBuffer().catch(() => undefined);
      throw new BundleError(res.status === 404 ? 'truncated' : 'unreachable', `${what}: HTTP ${res.status}${res.status === 404 ? ' (the bundle is incomplete)' : ''}`);
    }
    const announced = res.headers.get('content-length');
    const hash = createHash('sha256');
    let bytes = 0;
    mkdirSync(dirname(to), { recursive: true });
    try {
      await pipeline(Readable.fromWeb(res.body as ReadableStream<Uint8Array>), async function* (chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          alive();
          hash.update(chunk);
          bytes += chunk.length;
          yield chunk;
        }
      }, createWriteStream(to));
    } catch (err) {
      throw new BundleError(abort.signal.aborted ? 'unreachable' : 'truncated',
        `${what}: the transfer ended after ${bytes} bytes${announced ? ` of ${announced}` : ''}: ${abort.signal.aborted ? `no byte for ${this.idleMs} ms` : reason(err)}`);
    } finally {
      clearTimeout(idle);
    }
    if (announced !== null && Number(announced) !== bytes) throw new BundleError('truncated', `${what}: ${bytes} bytes received, the store announced ${announced}`);
    return { sha256: hash.digest('hex'), bytes };
  }
}

/** A file's sha256 and size, read in chunks; null when it does not exist. */
async function hashFile(path: string): Promise<{ sha256: string; bytes: number } | null> {
  if (!existsSync(path)) return null;
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** A fetch failure in words: undici puts the system's reason (ECONNREFUSED ...) in the cause. */
function reason(err: unknown): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  return e.cause?.code ?? e.cause?.message ?? e.message;
}

// Files derived from one build (bulk downloads), each written once and then served from disk. A build is
// read-only, so a download's bytes depend only on its key; writing them again for every request cost a
// query's worth of native memory each time, which DuckDB's bindings free only when V8 next collects.
import { mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';

export interface DerivedFile {
  path: string;
  bytes: number;
}

type Writer = (path: string) => Promise<void>;

export class DerivedFiles {
  private readonly dir = mkdtempSync(join(tmpdir(), 'vtqs-derived-'));
  private serial = 0;
  /**
   * The files by key, the least recently used removed past the budget. A key asked for while its file is
   * being written waits for that write (lru-cache's fetch); a failed write leaves nothing behind. A file
   * evicted while a response still reads it stays readable through the open descriptor (POSIX unlink).
   */
  private readonly files: LRUCache<string, DerivedFile, Writer>;
  /** The last file larger than the whole budget: served, not kept among the others (the next one replaces it). */
  private oversized: DerivedFile | null = null;

  constructor(maxBytes: number) {
    this.files = new LRUCache<string, DerivedFile, Writer>({
      maxSize: maxBytes,
      sizeCalculation: (file) => Math.max(1, file.bytes),
      dispose: (file) => rmSync(file.path, { force: true }),
      fetchMethod: (_key, _stale, { context }) => this.write(context),
    });
  }

  /** The file for `key`, written by `write(path)` on first use. */
  async get(key: string, write: Writer): Promise<DerivedFile> {
    const file = await this.files.fetch(key, { context: write });
    if (!file) throw new Error(`derived file ${key}: not written`);
    if (!this.files.has(key) && this.oversized?.path !== file.path) {
      if (this.oversized) rmSync(this.oversized.path, { force: true });
      this.oversized = file;
    }
    return file;
  }

  /** Removes every file (the store closes). */
  clear(): void {
    this.files.clear();
    this.oversized = null;
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async write(write: Writer): Promise<DerivedFile> {
    // Written under a name of its own and renamed into place: a reader never sees half a file.
    const n = ++this.serial;
    const partial = join(this.dir, `${n}.partial`);
    const path = join(this.dir, String(n));
    try {
      await write(partial);
      renameSync(partial, path);
    } catch (err) {
      rmSync(partial, { force: true });
      throw err;
    }
    return { path, bytes: statSync(path).size };
  }
}

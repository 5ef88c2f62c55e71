// Files derived from one build (bulk downloads), each written once and then served from disk. A build is
// read-only, so a download's bytes depend only on its key; writing them again for every request cost a
// query's worth of native memory each time, which DuckDB's bindings free only when V8 next collects.
import { mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface DerivedFile {
  path: string;
  bytes: number;
}

interface Entry {
  ready: Promise<DerivedFile>;
  /** Known once written; entries still being written are never evicted. */
  file?: DerivedFile;
}

export class DerivedFiles {
  private readonly dir = mkdtempSync(join(tmpdir(), 'vtqs-derived-'));
  /** In order of last use: a Map iterates in insertion order and a hit is moved to the end. */
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private serial = 0;

  constructor(private readonly maxBytes: number) {}

  /**
   * The file for `key`, written by `write(path)` on first use. Requests for a key being written wait for
   * the same write. A file evicted while a response still reads it stays readable through the open
   * descriptor (POSIX unlink semantics).
   */
  get(key: string, write: (path: string) => Promise<void>): Promise<DerivedFile> {
    const known = this.entries.get(key);
    if (known) {
      this.entries.delete(key);
      this.entries.set(key, known);
      return known.ready;
    }
    const entry: Entry = { ready: this.write(write) };
    this.entries.set(key, entry);
    entry.ready.then((file) => {
      entry.file = file;
      this.bytes += file.bytes;
      this.evict();
    }, () => this.entries.delete(key));
    return entry.ready;
  }

  /** Removes every file (the store closes). */
  clear(): void {
    this.entries.clear();
    this.bytes = 0;
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async write(write: (path: string) => Promise<void>): Promise<DerivedFile> {
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

  /** The least recently used files go until the rest fit (the newest always stays, however large). */
  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.maxBytes || this.entries.size <= 1) return;
      if (!entry.file) continue;
      this.entries.delete(key);
      this.bytes -= entry.file.bytes;
      rmSync(entry.file.path, { force: true });
    }
  }
}


// Which data set the server serves: the published one, opened (documents.ts) once its database file has
// been checked against the checksum its build recorded and its read models found; when it is refused at
// start-up, the generation the last build kept in previous/ (build/publish.ts), checked the same way.
import { join } from 'node:path';
import { fileChecksum, readRecordedChecksum, type FileChecksum } from '../store/checksum.js';
import { DB_CHECKSUM_FILE, DB_FILE, DOC_SNAPSHOT_FILE, PREVIOUS_DIR } from '../store/files.js';
import { openStore } from './documents.js';
import type { Store } from '../store/store.js';

export interface DataSet {
  /** 'published', or 'previous' for the generation kept by the last build. */
  name: 'published' | 'previous';
  dbFile: string;
  snapshotFile: string;
  checksumFile: string;
}

export function dataSet(dataDir: string, name: DataSet['name'] = 'published'): DataSet {
  const dir = name === 'published' ? dataDir : join(dataDir, PREVIOUS_DIR);
  return { name, dbFile: join(dir, DB_FILE), snapshotFile: join(dir, DOC_SNAPSHOT_FILE), checksumFile: join(dir, DB_CHECKSUM_FILE) };
}

export interface Opened {
  store: Store;
  /** What was checked of the database file: its recorded checksum, or why there was none to check. */
  verified: string;
}

/**
 * Opens a data set, or throws saying why it is refused. previous: the store it is to replace, whose
 * documents it takes over when it is the same build. The checksum is taken while DuckDB opens the file
 * and the snapshot is read: both wait on the disk, on libuv's threads.
 */
export async function openDataSet(set: DataSet, pool: number, previous?: Store): Promise<Opened> {
  const recorded = readRecordedChecksum(set.checksumFile);
  const [opened, summed] = await Promise.allSettled([
    openStore(set.dbFile, pool, set.snapshotFile, previous),
    recorded ? fileChecksum(set.dbFile) : Promise.resolve(null),
  ]);
  if (opened.status === 'rejected') throw opened.reason;
  const store = opened.value;
  try {
    if (!recorded) return { store, verified: `no checksum recorded (${DB_CHECKSUM_FILE} missing or unreadable)` };
    // Only a checksum of this very build tells: one of another build is beside it for a moment while
    // a build publishes (the checksum is renamed in before the database).
    if (recorded.build_id !== store.buildId) return { store, verified: `no checksum recorded for build ${store.buildId} (the one beside it is build ${recorded.build_id}'s)` };
    if (summed.status === 'rejected') throw summed.reason;
    const actual = summed.value as FileChecksum;
    if (actual.bytes !== recorded.bytes || actual.crc32 !== recorded.crc32) {
      throw new Error(`damaged: ${actual.bytes} bytes with CRC-32 ${actual.crc32}, its build wrote ${recorded.bytes} bytes with CRC-32 ${recorded.crc32}`);
    }
    return { store, verified: `CRC-32 ${actual.crc32} as its build recorded` };
  } catch (err) {
    await store.close();
    throw err;
  }
}

/** When the build a store serves was made (its build_info), or null when the data set does not say. */
export async function builtAt(store: Store): Promise<Date | null> {
  try {
    const [row] = await store.query<{ ms: number | null }>('SELECT epoch_ms(built_at)::DOUBLE AS ms FROM src.build_info');
    return row?.ms == null ? null : new Date(row.ms);
  } catch {
    return null;
  }
}

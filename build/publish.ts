// Publishing a staged build, keeping the generation it replaces, and clearing what killed builds left.
//
// The database rename is the commit point for the server: it reads nothing else of the data set except
// the document snapshot, which it checks against the database's build (src/store/snapshot-file.ts). Every step is a
// rename within one file system, so a build killed anywhere leaves each file whole, old or new; at worst
// the snapshot is newer than the database (the server then reads the documents from the database) or
// previous/ is missing until the next build.
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileChecksum, readRecordedChecksum } from '../src/store/checksum.js';
import { DB_CHECKSUM_FILE, DB_FILE, DOC_SNAPSHOT_FILE, PREVIOUS_DIR, REPORT_FILE, SUMMARY_FILE } from '../src/store/files.js';
import { killPoint } from '../src/store/kill-points.js';


/** Where a build stages its outputs: beside the published data set, so the final renames stay atomic. */
export const stagingName = (pid: number, at: number) => `.staging-${pid}-${at}`;
const STAGING = /^\.staging-(\d+)-\d+$/;
// The up-to-date path rewrites the snapshot in place through a temporary file (src/store/snapshot-file.ts).
const SNAPSHOT_TEMP = new RegExp(`^${DOC_SNAPSHOT_FILE.replaceAll('.', '\\.')}\\.(\\d+)\\.tmp$`);

/**
 * Swaps the staged outputs in. The database file is replaced by one rename (atomic: a server watching it
 * sees the old or the new file, never half of one); the Parquet folder is moved aside first, then replaced.
 */
export async function publish(staging: string, dataDir: string, withParquet: boolean, log: (line: string) => void): Promise<void> {
  const trash = join(staging, 'replaced');
  mkdirSync(trash, { recursive: true });
  killPoint('publish:start');
  await keepPrevious(staging, dataDir, trash, log);
  killPoint('publish:previous-kept');
  if (withParquet) {
    const live = join(dataDir, 'parquet');
    if (existsSync(live)) renameSync(live, join(trash, 'parquet'));
    killPoint('publish:parquet-moved-aside');
    renameSync(join(staging, 'parquet'), live);
  }
  killPoint('publish:parquet');
  // The snapshot before the database: a server that sees the new database finds its snapshot ready
  // (and one that sees a snapshot of a newer build than its database ignores it).
  if (existsSync(join(staging, DOC_SNAPSHOT_FILE))) renameSync(join(staging, DOC_SNAPSHOT_FILE), join(dataDir, DOC_SNAPSHOT_FILE));
  killPoint('publish:snapshot');
  // The checksum names its build: beside an older database, it is known not to be that file's.
  renameSync(join(staging, DB_CHECKSUM_FILE), join(dataDir, DB_CHECKSUM_FILE));
  killPoint('publish:checksum');
  renameSync(join(staging, DB_FILE), join(dataDir, DB_FILE));
  killPoint('publish:database');
  renameSync(join(staging, SUMMARY_FILE), join(dataDir, SUMMARY_FILE));
  renameSync(join(staging, REPORT_FILE), join(dataDir, REPORT_FILE));
}

/**
 * Makes previous/ hold the published generation (database, its checksum, its snapshot) before it is
 * replaced. Hard links, not copies: instant, and once the new files are renamed over the published names,
 * previous/ holds the only links to the old ones, so damage done later to a published file in place
 * never reaches them. A published database that does not match its recorded checksum is not kept: the
 * generation already in previous/ is better than a damaged one.
 */
async function keepPrevious(staging: string, dataDir: string, trash: string, log: (line: string) => void): Promise<void> {
  const db = join(dataDir, DB_FILE);
  if (!existsSync(db)) return;
  const recorded = readRecordedChecksum(join(dataDir, DB_CHECKSUM_FILE));
  if (recorded) {
    const actual = await fileChecksum(db);
    if (actual.bytes !== recorded.bytes || actual.crc32 !== recorded.crc32) {
      log(`${db} is not the file its checksum describes (${actual.bytes} bytes, CRC-32 ${actual.crc32}; build ${recorded.build_id}'s: `
        + `${recorded.bytes} bytes, ${recorded.crc32}): not kept as the previous generation`);
      return;
    }
  }
  const next = join(staging, PREVIOUS_DIR);
  mkdirSync(next);
  for (const file of [DB_FILE, DB_CHECKSUM_FILE, DOC_SNAPSHOT_FILE]) {
    if (existsSync(join(dataDir, file))) linkOrCopy(join(dataDir, file), join(next, file));
  }
  const kept = join(dataDir, PREVIOUS_DIR);
  if (existsSync(kept)) renameSync(kept, join(trash, PREVIOUS_DIR));
  renameSync(next, kept);
}

function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    // file systems without hard links
    copyFileSync(from, to);
  }
}

/**
 * Removes the staging folders and snapshot temporaries of builds that are no longer running (killed, or
 * the machine went down): a staging folder holds up to a whole data set. A folder whose process is alive
 * belongs to a build running beside this one and is left alone.
 */
export function removeStale(dataDir: string, log: (line: string) => void): void {
  if (!existsSync(dataDir)) return;
  for (const name of readdirSync(dataDir)) {
    const pid = STAGING.exec(name)?.[1] ?? SNAPSHOT_TEMP.exec(name)?.[1];
    // This build has staged nothing yet: a folder under its own pid is a dead process's whose pid came back.
    if (pid === undefined || (Number(pid) !== process.pid && alive(Number(pid)))) continue;
    // Killed between the two renames of the Parquet swap: the folder moved aside is the one that goes
    // with the published database (renamed only after the swap).
    const parquet = join(dataDir, 'parquet');
    const asideParquet = join(dataDir, name, 'replaced', 'parquet');
    if (!existsSync(parquet) && existsSync(asideParquet)) {
      renameSync(asideParquet, parquet);
      log(`restored ${parquet} from ${name}`);
    }
    rmSync(join(dataDir, name), { recursive: true, force: true });
    log(`removed ${name}, left by build process ${pid}, which is no longer running`);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

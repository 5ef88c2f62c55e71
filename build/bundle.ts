// `npm run publish -- DEST`: a finished build (DATA_DIR) published as one bundle (src/store/bundle-format.ts)
// into DEST, a folder any static HTTP server or object store can serve, then the pointer `latest` moved to it.
// A bundle is written beside its final name and renamed into it, and the pointer is renamed over the old one
// last: a server that reads the pointer finds its bundle whole. Publishing the same files again is a no-op.
// The newest bundles are kept (--keep, default 3) so that a server still downloading the one before finds it.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { fileChecksum, readRecordedChecksum } from '../src/store/checksum.js';
import {
  BUNDLE_MANIFEST_FILE, bundleName, formatSums, parsePointer, POINTER_FILE, SUMS_FILE, type Pointer, type SumLine,
} from '../src/store/bundle-format.js';
import { DB_CHECKSUM_FILE, DB_FILE, DOC_SNAPSHOT_FILE, REPORT_FILE, SUMMARY_FILE } from '../src/store/files.js';
import { defaultPaths } from './paths.js';

export interface PublishOptions {
  /** The finished build: DATA_DIR of the build that made it. */
  dataDir: string;
  /** The manifest it was built from, published with it. */
  manifest: string;
  /** Bundles to keep in DEST, the new one included. */
  keep?: number;
  log?: (line: string) => void;
}

export interface Published {
  pointer: Pointer;
  /** False when DEST held this very bundle already, and the pointer named it. */
  changed: boolean;
}

/** The files of a build that a bundle holds, relative to its data directory. */
function buildFiles(dataDir: string): string[] {
  const required = [DB_FILE, DB_CHECKSUM_FILE, REPORT_FILE, SUMMARY_FILE];
  const missing = required.filter((f) => !existsSync(join(dataDir, f)));
  if (missing.length > 0) throw new Error(`${dataDir} holds no finished build: ${missing.join(', ')} missing ('npm run build' makes one)`);
  const parquet = join(dataDir, 'parquet');
  const tables = existsSync(parquet) ? [...walk(parquet)].map((f) => relative(dataDir, f)) : [];
  if (tables.length === 0) throw new Error(`${dataDir} holds no Parquet tables (parquet/ is missing or empty)`);
  return [...required, ...(existsSync(join(dataDir, DOC_SNAPSHOT_FILE)) ? [DOC_SNAPSHOT_FILE] : []), ...tables.sort()];
}

/**
 * Publishes the build in `opts.dataDir` into `dest`. Refuses a database that is not the file its build
 * recorded (a damaged data set is never published).
 */
export async function publishBundle(dest: string, opts: PublishOptions): Promise<Published> {
  const log = opts.log ?? (() => undefined);
  const keep = opts.keep ?? 3;
  const files = buildFiles(opts.dataDir);
  const report = JSON.parse(readFileSync(join(opts.dataDir, REPORT_FILE), 'utf8')) as { build_id: string };
  const recorded = readRecordedChecksum(join(opts.dataDir, DB_CHECKSUM_FILE));
  const actual = await fileChecksum(join(opts.dataDir, DB_FILE));
  if (!recorded || recorded.build_id !== report.build_id || recorded.bytes !== actual.bytes || recorded.crc32 !== actual.crc32) {
    throw new Error(`${join(opts.dataDir, DB_FILE)} is not the database build ${report.build_id} recorded `
      + `(${actual.bytes} bytes, CRC-32 ${actual.crc32}; recorded: ${recorded ? `build ${recorded.build_id}, ${recorded.bytes} bytes, ${recorded.crc32}` : 'nothing'}): not published`);
  }

  mkdirSync(dest, { recursive: true });
  const staging = join(dest, `.publishing-${process.pid}-${Date.now()}`);
  mkdirSync(staging);
  try {
    const sums: SumLine[] = [];
    let bytes = 0;
    for (const file of files) {
      const copied = await copyHashed(join(opts.dataDir, file), join(staging, file));
      sums.push({ sha256: copied.sha256, path: file });
      bytes += copied.bytes;
    }
    const manifest = await copyHashed(opts.manifest, join(staging, BUNDLE_MANIFEST_FILE));
    sums.push({ sha256: manifest.sha256, path: BUNDLE_MANIFEST_FILE });
    bytes += manifest.bytes;
    const list = formatSums(sums);
    writeFileSync(join(staging, SUMS_FILE), list);
    const sumsSha = createHash('sha256').update(list).digest('hex');
    const name = bundleName(report.build_id, sumsSha);
    const pointer: Pointer = { bundle: name, build_id: report.build_id, sha256sums: sumsSha, files: sums.length, bytes, published_at: new Date().toISOString() };

    const current = readPointer(dest);
    if (current?.bundle === name && existsSync(join(dest, name, SUMS_FILE))) {
      log(`bundle ${name} (build ${report.build_id}) is published already and ${POINTER_FILE} names it: nothing to do`);
      return { pointer: current, changed: false };
    }
    // Immutable once named: a folder of this name holds these very files already (its name is their checksum).
    if (existsSync(join(dest, name))) log(`bundle ${name} is in ${dest} already; ${POINTER_FILE} moved back to it`);
    else renameSync(staging, join(dest, name));
    const tmp = join(dest, `.${POINTER_FILE}.${process.pid}.tmp`);
    writeFileSync(tmp, `${JSON.stringify(pointer)}\n`);
    renameSync(tmp, join(dest, POINTER_FILE));
    log(`published build ${report.build_id} as bundle ${name}: ${sums.length} files, ${(bytes / 1e6).toFixed(1)} MB; ${POINTER_FILE} names it`);
    prune(dest, name, keep, log);
    return { pointer, changed: true };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** The pointer DEST holds now, or null. */
export function readPointer(dest: string): Pointer | null {
  try {
    return parsePointer(readFileSync(join(dest, POINTER_FILE), 'utf8'));
  } catch {
    return null;
  }
}

/** Removes all but the `keep` newest bundles (the one the pointer names always stays). */
function prune(dest: string, current: string, keep: number, log: (line: string) => void): void {
  const bundles = readdirSync(dest, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.') && existsSync(join(dest, e.name, SUMS_FILE)))
    .map((e) => ({ name: e.name, at: statSync(join(dest, e.name, SUMS_FILE)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const b of bundles.filter((x) => x.name !== current).slice(Math.max(0, keep - 1))) {
    rmSync(join(dest, b.name), { recursive: true, force: true });
    log(`removed bundle ${b.name} (more than ${keep} kept)`);
  }
}

async function copyHashed(from: string, to: string): Promise<{ sha256: string; bytes: number }> {
  mkdirSync(dirname(to), { recursive: true });
  const hash = createHash('sha256');
  let bytes = 0;
  await pipeline(createReadStream(from, { highWaterMark: 1 << 20 }), async function* (chunks: AsyncIterable<Buffer>) {
    for await (const chunk of chunks) {
      hash.update(chunk);
      bytes += chunk.length;
      yield chunk;
    }
  }, createWriteStream(to));
  return { sha256: hash.digest('hex'), bytes };
}

function* walk(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else yield p;
  }
}

const USAGE = `npm run publish -- DEST [--keep N]

Publishes the finished build in DATA_DIR (default data/) as a bundle in the folder DEST and points DEST/${POINTER_FILE}
at it; servers started with DATA_URL=<where DEST is served>/${POINTER_FILE} pull it. --keep: bundles kept in DEST
(default 3). MANIFEST_FILE names the manifest the build was made from (default data/releases.json).`;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  let values: { keep?: string; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ allowPositionals: true, options: { keep: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }));
  } catch (err) {
    console.error(`publish: ${(err as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const keep = values.keep === undefined ? 3 : Number(values.keep);
  if (positionals.length !== 1 || !Number.isInteger(keep) || keep < 1) {
    console.error(`publish: give one destination folder${values.keep !== undefined ? ' and --keep as a whole number of at least 1' : ''}\n\n${USAGE}`);
    process.exit(2);
  }
  const paths = defaultPaths();
  publishBundle(resolve(positionals[0]!), { dataDir: paths.dataDir, manifest: paths.manifest, keep, log: (l) => console.log(l) })
    .catch((err: Error) => {
      console.error(`publish failed: ${err.message}`);
      process.exit(1);
    });
}

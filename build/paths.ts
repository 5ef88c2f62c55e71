// Where the build reads and writes. Every stage takes these as arguments so tests can point them at fixtures;
// only the command-line entry points call defaultPaths().
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The build's snapshot of the server's documents, beside the database (src/doc-snapshot.ts). */
export const DOC_SNAPSHOT_FILE = 'documents.bin';

export interface BuildPaths {
  manifest: string;
  rawDir: string;
  /** Where the published data set lives: parquet/, taxonomy.duckdb, documents.bin, build-report.json. */
  dataDir: string;
  projectionsDir: string;
  /** Mirror of the raw files (air-gapped sites); null when there is none. */
  mirror: string | null;
}

// Compiled files run from dist/build, sources from build/: walk up to the folder holding package.json.
export function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
  return dir;
}

export function defaultPaths(env: NodeJS.ProcessEnv = process.env): BuildPaths {
  const root = projectRoot();
  const dataDir = resolve(env.DATA_DIR ?? join(root, 'data'));
  const sharedMirror = resolve(root, '..', 'shared', 'msl');
  return {
    manifest: join(root, 'data', 'releases.json'),
    rawDir: join(dataDir, 'raw'),
    dataDir,
    projectionsDir: join(root, 'projections'),
    mirror: env.MSL_MIRROR ? resolve(env.MSL_MIRROR) : existsSync(sharedMirror) ? sharedMirror : null,
  };
}

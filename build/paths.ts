// Where the build reads and writes. Every stage takes these as arguments so tests can point them at fixtures;
// only the command-line entry points call defaultPaths().
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { projectRoot } from '../src/shared/project-root.js';


export interface BuildPaths {
  manifest: string;
  rawDir: string;
  /** Where the published data set lives: parquet/, taxonomy.duckdb, documents.bin, build-report.json. */
  dataDir: string;
  projectionsDir: string;
  /** Mirror of the raw files (air-gapped sites); null when there is none. */
  mirror: string | null;
}

export function defaultPaths(env: NodeJS.ProcessEnv = process.env): BuildPaths {
  const root = projectRoot();
  const dataDir = resolve(env.DATA_DIR ?? join(root, 'data'));
  const sharedMirror = resolve(root, '..', 'shared', 'msl');
  return {
    // The update job (update.ts) keeps the manifest it extends where it may write (MANIFEST_FILE), not in the project.
    manifest: env.MANIFEST_FILE ? resolve(env.MANIFEST_FILE) : join(root, 'data', 'releases.json'),
    rawDir: join(dataDir, 'raw'),
    dataDir,
    projectionsDir: join(root, 'projections'),
    mirror: env.MSL_MIRROR ? resolve(env.MSL_MIRROR) : existsSync(sharedMirror) ? sharedMirror : null,
  };
}

// Real builds of the first few releases of the manifest (as `npm run build -- --releases=N` makes them), each
// in a data directory of its own under the system's temporary folder, made once per test run and shared by
// the tests that publish and serve bundles: two of them are two successive builds to publish.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type BuildReport } from '../../build/index.js';
import { defaultPaths } from '../../build/paths.js';
import { silent } from '../../build/progress.js';
import { refreshDocSnapshot } from '../../src/read/documents.js';

export interface SmallBuild {
  dataDir: string;
  manifest: string;
  report: BuildReport;
}

const made = new Map<number, Promise<SmallBuild>>();
const dirs: string[] = [];
process.once('exit', () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The build of the manifest's first `releases` releases (the raw files read from data/raw, else the mirror). */
export function smallBuild(releases: number): Promise<SmallBuild> {
  let b = made.get(releases);
  if (!b) {
    const dataDir = mkdtempSync(join(tmpdir(), `vtqs-first${releases}-`));
    dirs.push(dataDir);
    const paths = defaultPaths();
    b = build({ ...paths, dataDir, progress: silent, download: false, snapshot: refreshDocSnapshot, releases })
      .then((report) => ({ dataDir, manifest: paths.manifest, report }));
    made.set(releases, b);
  }
  return b;
}

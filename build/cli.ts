// `npm run build`: the offline build with its last step, the server's document snapshot, written by the
// server's own code (src/read/documents.ts): the one place build/ reaches into src/ beyond the names and
// constants both share. `--if-missing` builds only when there is no data set yet (what `npm start` runs
// before the server, which never builds: a server answers from a finished build or not at all).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from './index.js';
import { defaultPaths } from './paths.js';
import { consoleProgress } from './progress.js';
import { DB_FILE, SUMMARY_FILE } from '../src/store/files.js';
import { refreshDocSnapshot } from '../src/read/documents.js';

const force = process.argv.includes('--force');
const paths = defaultPaths();
if (process.argv.includes('--if-missing') && existsSync(join(paths.dataDir, DB_FILE))) process.exit(0);
// --releases=N (or BUILD_RELEASES=N): the first N releases of the manifest only, for measuring a smaller
// record; give it a DATA_DIR of its own, or it replaces the data set served.
const releasesArg = process.argv.find((a) => a.startsWith('--releases='))?.slice('--releases='.length) ?? process.env.BUILD_RELEASES;
const releases = releasesArg === undefined ? undefined : Number(releasesArg);
build({ ...paths, progress: consoleProgress(), force, snapshot: refreshDocSnapshot, ...(releases === undefined ? {} : { releases }) })
  .then(() => process.stderr.write(readFileSync(join(paths.dataDir, SUMMARY_FILE), 'utf8')))
  .catch((err: Error) => {
    console.error(`build failed: ${err.message}`);
    console.error('the previous data set (if any) is unchanged');
    process.exit(1);
  });

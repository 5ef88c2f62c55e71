// `npm run build`: the offline build with its last step, the server's document snapshot. The pipeline
// (build/) knows nothing of the server; this entry point joins the two.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from '../../build/index.js';
import { defaultPaths } from '../../build/paths.js';
import { consoleProgress } from '../../build/progress.js';
import { SUMMARY_FILE } from '../../build/publish.js';
import { refreshDocSnapshot } from '../read/documents.js';

const force = process.argv.includes('--force');
// --releases=N (or BUILD_RELEASES=N): the first N releases of the manifest only, for measuring a smaller
// record; give it a DATA_DIR of its own, or it replaces the data set served.
const releasesArg = process.argv.find((a) => a.startsWith('--releases='))?.slice('--releases='.length) ?? process.env.BUILD_RELEASES;
const releases = releasesArg === undefined ? undefined : Number(releasesArg);
build({ ...defaultPaths(), progress: consoleProgress(), force, snapshot: refreshDocSnapshot, ...(releases === undefined ? {} : { releases }) })
  .then(() => process.stderr.write(readFileSync(join(defaultPaths().dataDir, SUMMARY_FILE), 'utf8')))
  .catch((err: Error) => {
    console.error(`build failed: ${err.message}`);
    console.error('the previous data set (if any) is unchanged');
    process.exit(1);
  });

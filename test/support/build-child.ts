// A build of a fixture record in a process of its own, for the drills that kill builds: argv[2] holds the
// build paths as JSON. The fixture's projections define no documents, so the snapshot step writes the
// build id in their place, enough to see which build a published snapshot belongs to.
import { writeFileSync } from 'node:fs';
import { build, type BuildOptions } from '../../build/index.js';
import { consoleProgress } from '../../build/progress.js';

const paths = JSON.parse(process.argv[2]!) as Omit<BuildOptions, 'progress'>;
build({
  ...paths, progress: consoleProgress(), download: false,
  snapshot: async (_db, out, buildId) => writeFileSync(out, buildId),
}).catch((err: Error) => {
  console.error(`build failed: ${err.message}`);
  process.exit(1);
});

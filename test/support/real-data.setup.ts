// The full tier's one global step (.mocharc.json): the real data set built from ../shared/msl, or an
// up-to-date build reused, once before any test, so that no test's own time limit has to allow for it.
import { realBuild } from './data.js';

export async function mochaGlobalSetup(): Promise<void> {
  await realBuild();
}

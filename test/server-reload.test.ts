// The real server process: a rebuilt data set published under load (its snapshot renamed in, then its
// database, as a build publishes) is picked up without a single failed request, and SIGTERM drains and
// exits cleanly.
import { expect } from 'chai';
import { copyFileSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DB_FILE, DOC_SNAPSHOT_FILE } from '../src/store/files.js';
import { defaultPaths } from '../build/paths.js';
import { realBuild, republished } from './support/data.js';
import { awaitSwitch, loadOn, startServer, type ServerProcess } from './support/server-process.js';

describe('the server process', function () {
  let dir: string;
  let server: ServerProcess;

  before(async () => {
    await realBuild();
    dir = mkdtempSync(join(tmpdir(), 'vtqs-server-'));
    copyFileSync(join(defaultPaths().dataDir, DB_FILE), join(dir, DB_FILE));
    copyFileSync(join(defaultPaths().dataDir, DOC_SNAPSHOT_FILE), join(dir, DOC_SNAPSHOT_FILE));
    server = await startServer(dir);
  });

  after(() => {
    server?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  const health = async () => (await (await fetch(`${server.base}/health`)).json()) as { build_id: string; documents: string };

  it('swaps in a rebuilt data set under load with zero failed requests, its documents from its own snapshot', async () => {
    const before = await server.buildId();
    expect((await health()).documents).to.equal('snapshot');
    const next = await republished(dir, 'rebuilt-under-load');
    const load = loadOn(server.base, ['/api/v1/species/MSL40/Tobamovirus%20tabaci', '/api/v1/search?q=virus&limit=5',
      '/api/v1/compare/MSL35/MSL40', '/api/v1/history/SARS-CoV-2'], 8);
    // some answers from the old build first, then the new one published as a build publishes it
    await load.until(100);
    renameSync(next.snapshot, join(dir, DOC_SNAPSHOT_FILE));
    renameSync(next.db, join(dir, DB_FILE));

    const after = await awaitSwitch(server, before);
    await load.until(200);
    const statuses = await load.stop();

    expect(after).to.equal('rebuilt-under-load');
    expect((await health()).documents).to.equal('snapshot');
    const total = Object.values(statuses).reduce((a, b) => a + b, 0);
    expect(statuses).to.deep.equal({ 200: total });
  });

  it('drains and exits with status 0 on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
    server.child.kill('SIGTERM');
    expect(await exited).to.equal(0);
  });
});

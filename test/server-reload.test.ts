// The real server process: a rebuilt database swapped in under load is picked up without a single failed
// request, and SIGTERM drains and exits cleanly.
import { expect } from 'chai';
import { copyFileSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { DB_FILE, DOC_SNAPSHOT_FILE } from '../src/store/files.js';
import { defaultPaths } from '../build/paths.js';
import { realBuild } from './support/data.js';
import { awaitSwitch, loadOn, sleep, startServer, type ServerProcess } from './support/server-process.js';

describe('the server process', function () {
  this.timeout(300_000);
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

  it('swaps in a rebuilt database under load with zero failed requests', async () => {
    const before = await server.buildId();
    expect((await health()).documents).to.equal('snapshot');
    const load = loadOn(server.base, ['/api/v1/species/MSL40/Tobamovirus%20tabaci', '/api/v1/search?q=virus&limit=5',
      '/api/v1/compare/MSL35/MSL40', '/api/v1/history/SARS-CoV-2'], 8);

    await sleep(500);
    // A "rebuild": a copy of the database with another build id, renamed over the live file as the build does.
    const next = join(dir, 'next.duckdb');
    copyFileSync(join(dir, DB_FILE), next);
    const instance = await DuckDBInstance.create(next);
    const conn = await instance.connect();
    await conn.run("UPDATE src.build_info SET build_id = 'rebuilt-under-load'");
    conn.closeSync();
    instance.closeSync();
    renameSync(next, join(dir, DB_FILE));

    const after = await awaitSwitch(server, before, 10_000);
    await sleep(500);
    const statuses = await load.stop();

    expect(after).to.equal('rebuilt-under-load');
    // The snapshot beside it is of the first build: the new one's documents come from its database.
    expect((await health()).documents).to.equal(`database (snapshot of build ${before}, not rebuilt-under-load)`);
    const total = Object.values(statuses).reduce((a, b) => a + b, 0);
    expect(total).to.be.greaterThan(100);
    expect(statuses).to.deep.equal({ 200: total });
  });

  it('drains and exits with status 0 on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
    server.child.kill('SIGTERM');
    expect(await exited).to.equal(0);
  });
});

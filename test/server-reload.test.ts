// The real server process: a rebuilt database swapped in under load is picked up without a single failed
// request, and SIGTERM drains and exits cleanly.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { DB_FILE } from '../build/index.js';
import { defaultPaths, DOC_SNAPSHOT_FILE, projectRoot } from '../build/paths.js';
import { realBuild } from './support/data.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the server process', function () {
  this.timeout(300_000);
  let dir: string;
  let server: ChildProcess;
  let base: string;

  before(async () => {
    await realBuild();
    dir = mkdtempSync(join(tmpdir(), 'vtqs-server-'));
    copyFileSync(join(defaultPaths().dataDir, DB_FILE), join(dir, DB_FILE));
    copyFileSync(join(defaultPaths().dataDir, DOC_SNAPSHOT_FILE), join(dir, DOC_SNAPSHOT_FILE));
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    base = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, [join(projectRoot(), 'dist', 'src', 'server.js')], {
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    for (let i = 0; i < 200; i++) {
      try {
        if ((await fetch(`${base}/health`)).ok) return;
      } catch {
        // not listening yet
      }
      await sleep(100);
    }
    throw new Error('server did not start');
  });

  after(() => {
    if (server.exitCode === null) server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  const health = async () => (await (await fetch(`${base}/health`)).json()) as { build_id: string; documents: string };
  const buildId = async () => (await health()).build_id;

  it('swaps in a rebuilt database under load with zero failed requests', async () => {
    const before = await buildId();
    expect((await health()).documents).to.equal('snapshot');
    const statuses = new Map<number, number>();
    let stop = false;
    const paths = ['/api/v1/species/MSL40/Tobamovirus%20tabaci', '/api/v1/search?q=virus&limit=5', '/api/v1/compare/MSL35/MSL40', '/api/v1/history/SARS-CoV-2'];
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        let status = 0;
        try {
          const res = await fetch(`${base}${paths[(w + i) % paths.length]}`);
          await res.arrayBuffer();
          status = res.status;
        } catch {
          status = -1; // connection refused or reset: a failed request
        }
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    const load = Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));

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

    let after = before;
    for (let i = 0; i < 100 && after === before; i++) {
      await sleep(100);
      after = await buildId();
    }
    await sleep(500);
    stop = true;
    await load;

    expect(after).to.equal('rebuilt-under-load');
    // The snapshot beside it is of the first build: the new one's documents come from its database.
    expect((await health()).documents).to.equal(`database (snapshot of build ${before}, not rebuilt-under-load)`);
    const total = [...statuses.values()].reduce((a, b) => a + b, 0);
    expect(total).to.be.greaterThan(100);
    expect(Object.fromEntries(statuses)).to.deep.equal({ 200: total });
  });

  it('drains and exits with status 0 on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    server.kill('SIGTERM');
    expect(await exited).to.equal(0);
  });
});

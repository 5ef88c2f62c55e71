// One build, many readers: real builds (the manifest's first releases) published as bundles into a folder
// served by a plain static file server, and the real server process started with DATA_URL pulling them: it
// is alive but not ready until its first bundle is verified and loaded, swaps to the next one under load
// with no failed request, refuses a bundle cut short, damaged or unreachable with one log line each while
// it goes on serving, serves again after a restart the bundle it had without asking the store, and on
// SIGTERM stops being ready before it stops answering.
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publishBundle } from '../build/bundle.js';
import { DOC_SNAPSHOT_FILE } from '../src/store/files.js';
import { POINTER_FILE, SUMS_FILE } from '../src/store/bundle-format.js';
import { sample, scrape } from './support/ops.js';
import { waitUntil } from './support/wait.js';
import { awaitSwitch, loadOn, startServer, type ServerProcess } from './support/server-process.js';
import { smallBuild, type SmallBuild } from './support/small-builds.js';
import { serveFiles, type StaticFiles } from './support/static-files.js';

describe('published bundles served with DATA_URL', function () {
  this.timeout(600_000);
  let first: SmallBuild;
  let second: SmallBuild;
  let dest: string;
  let dataDir: string;
  let store: StaticFiles;
  let server: ServerProcess;
  const env = () => ({ DATA_URL: `${store.base}/${POINTER_FILE}`, DATA_POLL_SECONDS: '0.3', DATA_IDLE_TIMEOUT_MS: '5000' });
  const versions = async () => ((await (await fetch(`${server.base}/api/v1/versions`)).json()) as Array<{ version: string }>).map((v) => v.version);
  const refusals = () => server.logs.filter((l) => /^refused /.test(l.msg));

  before(async () => {
    [first, second] = await Promise.all([smallBuild(3), smallBuild(4)]);
    dest = mkdtempSync(join(tmpdir(), 'vtqs-bundles-'));
    dataDir = mkdtempSync(join(tmpdir(), 'vtqs-replica-'));
    store = await serveFiles(dest);
  });

  after(async () => {
    server?.kill();
    await store?.close();
    rmSync(dest, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is alive and not ready while the store has no bundle, and serves the first one published', async () => {
    server = await startServer(dataDir, { logs: true, until: 'health', env: env() });
    const health = (await (await fetch(`${server.base}/health`)).json()) as { status: string };
    expect(health.status).to.equal('starting');
    const ready = await fetch(`${server.base}/ready`);
    expect(ready.status).to.equal(503);
    expect(await ready.json()).to.deep.equal({ ready: false, status: 'loading', build_id: null });
    expect((await fetch(`${server.base}/api/v1/versions`)).status).to.equal(503);
    await waitUntil('the refusal of the missing pointer', () => refusals()[0]);
    expect(refusals()[0]!.msg).to.match(/^refused the bundle .*latest names: the pointer .*: HTTP 404; no build served yet$/);

    const { pointer } = await publishBundle(dest, { dataDir: first.dataDir, manifest: first.manifest });
    expect(pointer.build_id).to.equal(first.report.build_id);
    const sums = readFileSync(join(dest, pointer.bundle, SUMS_FILE), 'utf8');
    expect(sums).to.match(/^[0-9a-f]{64} {2}taxonomy\.duckdb$/m).and.match(/ {2}documents\.bin$/m).and.match(/ {2}releases\.json$/m).and.match(/ {2}parquet\/releases\.parquet$/m)
      .and.match(/ {2}parquet\/species\/msl=1\/data_0\.parquet$/m);

    await waitUntil('/ready', async () => ((await fetch(`${server.base}/ready`)).status === 200 ? true : undefined));
    expect(await server.buildId()).to.equal(first.report.build_id);
    expect(await versions()).to.deep.equal(first.report.releases.map((r) => r.version));
    const metrics = await scrape(server.base);
    expect(sample(metrics, 'vtqs_bundle_downloads_total', { outcome: 'verified' })).to.equal(1);
    expect(sample(metrics, 'vtqs_build_info', { build_id: first.report.build_id })).to.equal(1);
  });

  it('publishing the same build again changes nothing', async () => {
    const again = await publishBundle(dest, { dataDir: first.dataDir, manifest: first.manifest });
    expect(again.changed).to.equal(false);
  });

  it('swaps to the next bundle under load with no failed request', async () => {
    const load = loadOn(server.base, ['/api/v1/versions', '/api/v1/search?q=virus&limit=3', '/health'], 6);
    const { pointer } = await publishBundle(dest, { dataDir: second.dataDir, manifest: second.manifest });
    const now = await awaitSwitch(server, first.report.build_id, 60_000);
    await waitUntil('a few answers from the new build', async () => ((await versions()).length === 4 ? true : undefined));
    const statuses = await load.stop();
    expect(now).to.equal(second.report.build_id);
    const total = Object.values(statuses).reduce((a, b) => a + b, 0);
    expect(total).to.be.greaterThan(50);
    expect(statuses).to.deep.equal({ 200: total });
    expect(await versions()).to.deep.equal(second.report.releases.map((r) => r.version));
    expect(server.logs.map((l) => l.msg)).to.include(`bundle ${pointer.bundle} downloaded and verified`);
    const metrics = await scrape(server.base);
    expect(sample(metrics, 'vtqs_data_swaps_total', { outcome: 'swapped' })).to.equal(2);
    expect(sample(metrics, 'vtqs_build_age_seconds')).to.be.within(0, 3600);
  });

  let firstPointer: string;

  it('refuses a bundle whose transfer is cut short, naming the file and the bytes, and goes on serving', async () => {
    const latest = readFileSync(join(dest, POINTER_FILE), 'utf8');
    // the first build published again: the pointer moves back to its bundle, which the server no longer has
    store.cut(DOC_SNAPSHOT_FILE, 100_000);
    try {
      const { pointer } = await publishBundle(dest, { dataDir: first.dataDir, manifest: first.manifest });
      firstPointer = JSON.stringify(pointer);
      const line = await waitUntil('the refusal', () => refusals().find((l) => l.outcome === 'truncated'));
      expect(line.msg).to.match(new RegExp(`^refused the bundle .* names: bundle ${pointer.bundle}: documents\\.bin: (the transfer ended after \\d+ bytes of \\d+|\\d+ bytes received, the store announced \\d+)`))
        .and.match(new RegExp(`; still serving build ${second.report.build_id}$`));
      expect(await server.buildId()).to.equal(second.report.build_id);
      expect((await fetch(`${server.base}/ready`)).status).to.equal(200);
    } finally {
      writeFileSync(join(dest, POINTER_FILE), latest);
      store.cut(null);
    }
  });

  it('refuses a bundle with a damaged file, naming it and both checksums, and goes on serving', async () => {
    const pointer = JSON.parse(firstPointer) as { bundle: string };
    const damaged = join(dest, pointer.bundle, 'parquet', 'releases.parquet');
    const bytes = readFileSync(damaged);
    bytes[Math.floor(bytes.length / 2)] ^= 0xff;
    writeFileSync(damaged, bytes);
    writeFileSync(join(dest, POINTER_FILE), `${firstPointer}\n`);
    const line = await waitUntil('the refusal', () => refusals().find((l) => l.outcome === 'corrupt'));
    expect(line.msg).to.match(new RegExp(`bundle ${pointer.bundle}: parquet/releases\\.parquet has sha256 [0-9a-f]{64} over ${bytes.length} bytes, SHA256SUMS says [0-9a-f]{64}; still serving build ${second.report.build_id}$`));
    expect(await server.buildId()).to.equal(second.report.build_id);
    expect(await versions()).to.have.length(4);
  });

  it('refuses an unreachable store and goes on serving; restarted, serves the bundle it had, checked again', async () => {
    await store.close();
    await waitUntil('the refusal', () => refusals().find((l) => l.outcome === 'unreachable' && /ECONNREFUSED/.test(l.msg)));
    expect((await fetch(`${server.base}/ready`)).status).to.equal(200);
    expect(sample(await scrape(server.base), 'vtqs_bundle_downloads_total', { outcome: 'unreachable' })).to.be.greaterThan(0);

    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    expect(await exited).to.equal(0);
    server = await startServer(dataDir, { logs: true, env: env() });
    expect(await server.buildId()).to.equal(second.report.build_id);
    const loaded = server.logs.find((l) => l.msg === 'data set loaded');
    expect(loaded?.reason).to.match(/^start: bundle \S+, served before this start, checked again$/);
    expect(loaded?.build_id).to.equal(second.report.build_id);
  });

  it('on SIGTERM is no longer ready at once, answers what it is asked until it closes, and exits with 0', async () => {
    server.kill();
    server = await startServer(dataDir, { logs: true, env: { ...env(), SHUTDOWN_DELAY_MS: '2000' } });
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    await waitUntil('/ready to say draining', async () => ((await fetch(`${server.base}/ready`)).status === 503 ? true : undefined), 10_000);
    expect(await (await fetch(`${server.base}/ready`)).json()).to.deep.equal({ ready: false, status: 'draining', build_id: second.report.build_id });
    expect((await fetch(`${server.base}/api/v1/versions`)).status).to.equal(200);
    expect(await exited).to.equal(0);
  });
});

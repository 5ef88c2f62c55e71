// GET /metrics of the real server process over a real build: every request counted once under the
// contract's operation and its status, with its latency; the build served and its age; the update job's last results from its status file; and
// Node's own figures.
import { expect } from 'chai';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UPDATE_STATUS_FILE } from '../src/store/bundle-format.js';
import type { UpdateStatus } from '../src/store/update-status.js';
import { sample, scrape } from './support/ops.js';
import { startServer, type ServerProcess } from './support/server-process.js';
import { smallBuild, type SmallBuild } from './support/small-builds.js';

describe('GET /metrics', function () {
  this.timeout(300_000);
  let build: SmallBuild;
  let server: ServerProcess;

  before(async () => {
    build = await smallBuild(3);
    server = await startServer(build.dataDir);
  });

  after(() => {
    server?.kill();
    rmSync(join(build.dataDir, UPDATE_STATUS_FILE), { force: true });
  });

  const count = (text: string, operation: string, code: string) => sample(text, 'vtqs_http_requests_total', { operation, code }) ?? 0;

  it('counts each request once by operation and status, HEAD as its GET, a path outside the contract as unmatched', async () => {
    const before = await scrape(server.base);
    const latest = build.report.releases.at(-1)!.version;
    for (let i = 0; i < 7; i++) await (await fetch(`${server.base}/api/v1/versions`)).arrayBuffer();
    await (await fetch(`${server.base}/api/v1/versions`, { method: 'HEAD' })).arrayBuffer();
    for (let i = 0; i < 3; i++) await (await fetch(`${server.base}/api/v1/species/${latest}/No%20such%20virus`)).arrayBuffer();
    await (await fetch(`${server.base}/api/v1/species/MSL99/No%20such%20virus`)).arrayBuffer();
    await (await fetch(`${server.base}/no/such/path`)).arrayBuffer();
    await (await fetch(`${server.base}/api/v1/versions?verbose=1`)).arrayBuffer();
    const after = await scrape(server.base);

    expect(count(after, 'listVersions', '200') - count(before, 'listVersions', '200')).to.equal(8);
    expect(count(after, 'listVersions', '400') - count(before, 'listVersions', '400')).to.equal(1);
    expect(count(after, 'getSpecies', '404') - count(before, 'getSpecies', '404')).to.equal(4);
    expect(count(after, 'unmatched', '404') - count(before, 'unmatched', '404')).to.equal(1);
    // the scrape before this one
    expect(count(after, 'metrics', '200') - count(before, 'metrics', '200')).to.equal(1);
    const timed = (text: string) => sample(text, 'vtqs_http_request_duration_seconds_count', { operation: 'listVersions' }) ?? 0;
    expect(timed(after) - timed(before)).to.equal(9);
    expect(sample(after, 'vtqs_http_request_duration_seconds_bucket', { operation: 'listVersions', le: '+Inf' })).to.equal(timed(after));
  });

  it('names the build served and its age, and Node\'s event-loop lag and resident memory', async () => {
    const text = await scrape(server.base);
    expect(sample(text, 'vtqs_build_info', { build_id: build.report.build_id })).to.equal(1);
    const age = sample(text, 'vtqs_build_age_seconds')!;
    const made = (Date.now() - Date.parse(build.report.started_at)) / 1000;
    expect(age).to.be.within(0, made + 5);
    expect(sample(text, 'vtqs_data_swaps_total', { outcome: 'swapped' })).to.equal(1);
    expect(sample(text, 'process_resident_memory_bytes')).to.be.greaterThan(20e6);
    expect(sample(text, 'nodejs_eventloop_lag_seconds')).to.be.at.least(0);
    const res = await fetch(`${server.base}/metrics`);
    expect(res.headers.get('content-type')).to.equal('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers.get('cache-control')).to.equal('no-store');
  });

  it('shows what the update job last did, from the status file beside the data set', async () => {
    expect(sample(await scrape(server.base), 'vtqs_update_runs', { outcome: 'published' })).to.equal(undefined);
    const status: UpdateStatus = {
      last: { outcome: 'refused', at: '2026-03-21T04:00:00.000Z', source: 'http://example.org/msl.xlsx', release: 'MSL42', build_id: null, detail: 'a check failed' },
      runs: { published: 2, unchanged: 5, refused: 1, failed: 0 },
      last_published_at: '2026-03-20T04:00:00.000Z',
    };
    writeFileSync(join(build.dataDir, UPDATE_STATUS_FILE), JSON.stringify(status));
    const text = await scrape(server.base);
    expect(['published', 'unchanged', 'refused', 'failed'].map((o) => sample(text, 'vtqs_update_runs', { outcome: o }))).to.deep.equal([2, 5, 1, 0]);
    expect(sample(text, 'vtqs_update_last_run_timestamp_seconds', { outcome: 'refused' })).to.equal(Date.parse(status.last.at) / 1000);
    expect(sample(text, 'vtqs_update_last_published_timestamp_seconds')).to.equal(Date.parse(status.last_published_at!) / 1000);
  });
});

describe('METRICS=off', function () {
  this.timeout(300_000);

  it('answers /metrics 404 in the error shape, and every other request as before', async () => {
    const build = await smallBuild(3);
    const server = await startServer(build.dataDir, { env: { METRICS: 'off' } });
    try {
      await (await fetch(`${server.base}/api/v1/versions`)).arrayBuffer();
      const res = await fetch(`${server.base}/metrics`);
      expect(res.status).to.equal(404);
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      const body = await res.json() as { error: string; detail: string; type: string };
      expect(body.type).to.equal('NotFound');
      expect(body.detail).to.contain('METRICS=off');
      const versions = await fetch(`${server.base}/api/v1/versions`);
      expect(versions.status).to.equal(200);
      expect(await versions.json() as unknown[]).to.have.length(build.report.releases.length);
    } finally {
      server.kill();
    }
  });
});

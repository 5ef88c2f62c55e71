// The rate limit counted at the load balancer (deploy/haproxy/vtqs.cfg with VTQS_RATE_LIMIT_PER_MINUTE): one
// count per client address for the whole site, whatever replica answers, refused with the body and headers
// the replicas themselves send over a limit; the service's own probes never counted. HAProxy from Debian's
// package (.ci/run installs it) in front of one real server.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { defaultPaths } from '../build/paths.js';
import { projectRoot } from '../src/shared/project-root.js';
import { DB_FILE, DOC_SNAPSHOT_FILE } from '../src/store/files.js';
import { freePort, startServer, type ServerProcess } from './support/server-process.js';
import { waitUntil } from './support/wait.js';

describe('a rate limit counted at HAProxy (deploy/haproxy/vtqs.cfg)', function () {
  let dir: string;
  let server: ServerProcess;
  let haproxy: ChildProcess;
  let base = '';

  before(async function () {
    if (!existsSync('/usr/sbin/haproxy')) this.skip();
    dir = mkdtempSync(join(tmpdir(), 'vtqs-haproxy-'));
    for (const f of [DB_FILE, DOC_SNAPSHOT_FILE]) copyFileSync(join(defaultPaths().dataDir, f), join(dir, f));
    server = await startServer(dir);
    const replica = new URL(server.base).host;
    const [listen, stats] = [await freePort(), await freePort()];
    haproxy = spawn('/usr/sbin/haproxy', ['-db', '-f', join(projectRoot(), 'deploy', 'haproxy', 'vtqs.cfg')], {
      env: {
        ...process.env, VTQS_LISTEN: `127.0.0.1:${listen}`, VTQS_STATS: `127.0.0.1:${stats}`, VTQS_RATE_LIMIT_PER_MINUTE: '4',
        VTQS_REPLICA_1: replica, VTQS_REPLICA_2: replica, VTQS_REPLICA_3: replica,
      },
      stdio: 'ignore',
    });
    base = `http://127.0.0.1:${listen}`;
    await waitUntil('HAProxy to pass requests to the replica', async () => ((await fetch(`${base}/ready`)).status === 200 ? true : undefined));
  });

  after(() => {
    haproxy?.kill('SIGKILL');
    server?.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a client past its limit with 429, Retry-After and the RateLimit headers, in the shape of each area', async () => {
    // the probe above counted nothing: /ready is never counted
    for (let i = 0; i < 4; i++) expect((await fetch(`${base}/api/v1/versions`)).status).to.equal(200);
    const over = await fetch(`${base}/api/v1/versions`);
    expect(over.status).to.equal(429);
    expect(over.headers.get('content-type')).to.match(/^application\/json/);
    expect(over.headers.get('retry-after')).to.equal('60');
    expect(over.headers.get('ratelimit-policy')).to.equal('"site"; q=4; w=60');
    expect(over.headers.get('ratelimit')).to.match(/^"site"; r=0; t=\d+$/);
    expect(await over.json()).to.have.keys(['detail']);
    const elsewhere = await fetch(`${base}/taxonomy/families`);
    expect(elsewhere.status).to.equal(429);
    expect(await elsewhere.json()).to.include({ error: 'Too many requests', type: 'TooManyRequests' });
    // the probes of the service and preflights are never refused
    for (const path of ['/health', '/ready', '/metrics']) expect((await fetch(`${base}${path}`)).status, path).to.equal(200);
    expect((await fetch(`${base}/api/v1/versions`, { method: 'OPTIONS', headers: { Origin: 'https://example.org', 'Access-Control-Request-Method': 'GET' } })).status).to.equal(204);
  });
});

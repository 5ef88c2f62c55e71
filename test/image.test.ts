// The image (Dockerfile, `npm run image`): built with podman from a Debian base made here (debootstrap), it
// adds less than its budget to that base, runs as a non-root user on a read-only root file system with a
// tmpfs for /tmp and one for its data, pulls a published bundle (DATA_URL) and answers /ready,
// /api/v1/versions and a species lookup; its HEALTHCHECK passes, and it starts the server with the node
// flags of `npm start`. Needs root, podman and debootstrap (.ci/run installs them).
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { publishBundle } from '../build/bundle.js';
import { projectRoot } from '../src/shared/project-root.js';
import { POINTER_FILE } from '../src/store/bundle-format.js';
import { debianBase, type Podman } from './support/debian-base.js';
import { waitUntil } from './support/wait.js';
import { freePort } from './support/server-process.js';
import { smallBuild, type SmallBuild } from './support/small-builds.js';
import { serveFiles, type StaticFiles } from './support/static-files.js';

const run = promisify(execFile);
/** What the image may add to its base, without data (issue 38). */
const BUDGET_MB = 400;

describe('the image (npm run image)', function () {
  this.timeout(1_200_000);
  let p: Podman;
  let build: SmallBuild;
  let dest: string;
  let store: StaticFiles;
  const image = `localhost/vtqs-test:${process.pid}`;
  const container = `vtqs-test-${process.pid}`;
  let base = '';

  before(async function () {
    if (process.getuid?.() !== 0 || !existsSync('/usr/bin/podman') || !existsSync('/usr/sbin/debootstrap')) {
      console.log('      skipped: needs root, podman and debootstrap (.ci/run installs them)');
      this.skip();
    }
    [p, build] = await Promise.all([debianBase(), smallBuild(3)]);
    dest = mkdtempSync(join(tmpdir(), 'vtqs-image-store-'));
    await publishBundle(dest, { dataDir: build.dataDir, manifest: build.manifest });
    store = await serveFiles(dest);
  });

  after(async () => {
    await p?.podman('rm', '--force', container).catch(() => undefined);
    await p?.remove();
    await store?.close();
    if (dest) rmSync(dest, { recursive: true, force: true });
  });

  it(`builds from the Debian base, adding less than ${BUDGET_MB} MB to it, with the node flags of npm start`, async () => {
    const t0 = Date.now();
    await run('sh', [join(projectRoot(), 'deploy', 'image.sh'), '--build-arg', `BASE=${p.base}`], { env: { ...p.env, IMAGE: image }, maxBuffer: 256 << 20 });
    const size = async (name: string) => Number((await p.podman('image', 'inspect', '--format', '{{.Size}}', name)).trim());
    const added = (await size(image)) - (await size(p.base));
    console.log(`      built in ${((Date.now() - t0) / 1000).toFixed(0)} s; adds ${(added / 1e6).toFixed(0)} MB to the base (${((await size(p.base)) / 1e6).toFixed(0)} MB)`);
    expect(added).to.be.below(BUDGET_MB * 1e6);
    const cmd = JSON.parse(await p.podman('image', 'inspect', '--format', '{{json .Config.Cmd}}', image)) as string[];
    const start = (JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
    const flags = /node ((?:--\S+ )*)dist\/src\/server\.js/.exec(start)![1]!.trim().split(' ');
    expect(cmd).to.deep.equal(['node', ...flags, 'dist/src/server.js']);
    expect((await p.podman('image', 'inspect', '--format', '{{.Config.User}}', image)).trim()).to.equal('10001:10001');
  });

  it('runs as a non-root user on a read-only root, pulls a published bundle and answers', async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    await p.podman('run', '--detach', '--name', container, '--network', 'host', '--read-only',
      '--tmpfs', '/tmp:rw,mode=1777', '--tmpfs', '/data:rw,mode=1777',
      '--env', `PORT=${port}`, '--env', `DATA_URL=${store.base}/${POINTER_FILE}`, '--env', 'DATA_POLL_SECONDS=2', image);
    await waitUntil('/ready', async () => ((await fetch(`${base}/ready`)).status === 200 ? true : undefined), 180_000);
    expect(((await (await fetch(`${base}/ready`)).json()) as { build_id: string }).build_id).to.equal(build.report.build_id);
    const versions = (await (await fetch(`${base}/api/v1/versions`)).json()) as Array<{ version: string }>;
    expect(versions.map((v) => v.version)).to.deep.equal(build.report.releases.map((r) => r.version));
    const latest = versions.at(-1)!.version;
    const found = (await (await fetch(`${base}/api/v1/search?q=virus&limit=1&version=${latest}`)).json()) as { results: Array<{ scientific_name: string }> };
    const name = found.results[0]!.scientific_name;
    const species = await fetch(`${base}/api/v1/species/${latest}/${encodeURIComponent(name)}`);
    expect(species.status).to.equal(200);
    expect(await species.json()).to.include({ scientific_name: name, msl_version: latest });
    expect((await p.podman('exec', container, 'id', '-u')).trim()).to.equal('10001');
    // the root file system refuses a write; /tmp takes one
    const write = await p.podman('exec', container, 'sh', '-c', 'touch /app/x 2>&1; touch /tmp/x && echo tmp-ok').catch((e: { stdout: string }) => e.stdout);
    expect(write).to.match(/Read-only file system/).and.match(/tmp-ok/);
    // the HEALTHCHECK (liveness) runs and passes
    await p.podman('healthcheck', 'run', container);
  });
});

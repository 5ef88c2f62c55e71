// A container base image made here, since no registry is reachable: deploy/base-image.sh (Debian trixie, whose
// own nodejs is Node 20, put in a folder by debootstrap and imported into podman). Made once per test run, in a
// podman storage of its own under the system's temporary folder (CONTAINERS_STORAGE_CONF), which `remove`
// deletes with everything built in it. Podman reads the project's containers.conf (deploy/).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../../src/shared/project-root.js';

const run = promisify(execFile);

export interface Podman {
  /** The environment podman and `npm run image` run with: this storage, the project's containers.conf. */
  env: NodeJS.ProcessEnv;
  /** The base image's name. */
  base: string;
  podman(...args: string[]): Promise<string>;
  remove(): Promise<void>;
}

let made: Promise<Podman> | null = null;

/** The Debian base image, debootstrapped and imported on first use. */
export function debianBase(): Promise<Podman> {
  made ??= make();
  return made;
}

async function make(): Promise<Podman> {
  const dir = mkdtempSync(join(tmpdir(), 'vtqs-podman-'));
  const storage = join(dir, 'storage.conf');
  writeFileSync(storage, `[storage]\ndriver = "overlay"\ngraphroot = "${join(dir, 'graph')}"\nrunroot = "${join(dir, 'run')}"\n`);
  const env = { ...process.env, CONTAINERS_STORAGE_CONF: storage, CONTAINERS_CONF: join(projectRoot(), 'deploy', 'containers.conf') };
  const podman = async (...args: string[]) => (await run('podman', args, { env, maxBuffer: 64 << 20 })).stdout;
  // made as an operator makes it (docs/operations.md, The image), into this storage
  const base = `localhost/vtqs-test-debian:${process.pid}`;
  await run('sh', [join(projectRoot(), 'deploy', 'base-image.sh')], { env: { ...env, BASE_IMAGE: base, TMPDIR: dir }, maxBuffer: 64 << 20 });
  return {
    env, base, podman,
    async remove() {
      await podman('system', 'reset', '--force').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// Fills data/raw from a mirror directory or the manifest URLs, and proves every file's sha256 before any
// reader sees it: the parsers (SheetJS, N3) then only ever read bytes that match the published checksums.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { allInputs, loadManifest, type InputFile, type Manifest } from './manifest.js';
import { defaultPaths } from './paths.js';

export class FetchError extends Error {
  override name = 'FetchError';
}

export function sha256File(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

export interface FetchOptions {
  rawDir: string;
  mirror: string | null;
  /** Set to false to forbid downloads (tests, air-gapped sites that want a hard failure). */
  download?: boolean;
  log?: (line: string) => void;
}

export interface FetchResult {
  file: string;
  from: 'cache' | 'mirror' | 'url';
  sha256: string;
}

/** Makes rawDir hold every input with the right checksum; throws FetchError naming what is wrong. */
export async function fetchInputs(manifest: Manifest, opts: FetchOptions): Promise<FetchResult[]> {
  const results: FetchResult[] = [];
  for (const input of allInputs(manifest)) results.push(await fetchOne(input, opts));
  return results;
}

async function fetchOne(input: InputFile, opts: FetchOptions): Promise<FetchResult> {
  const target = join(opts.rawDir, input.file);
  const tried: string[] = [];

  if (existsSync(target)) {
    const actual = sha256File(target);
    if (actual === input.sha256) return { file: input.file, from: 'cache', sha256: actual };
    tried.push(`${target} (sha256 ${actual})`);
  }

  if (opts.mirror) {
    const candidate = join(opts.mirror, input.file);
    if (existsSync(candidate)) {
      const actual = sha256File(candidate);
      if (actual === input.sha256) {
        install(target, (tmp) => copyFileSync(candidate, tmp));
        opts.log?.(`fetched ${input.file} from mirror`);
        return { file: input.file, from: 'mirror', sha256: actual };
      }
      tried.push(`${candidate} (sha256 ${actual})`);
    } else {
      tried.push(`${candidate} (missing)`);
    }
  }

  if (opts.download !== false) {
    try {
      const res = await fetch(input.url, { signal: AbortSignal.timeout(120_000) });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const body = Buffer.from(await res.arrayBuffer());
      const actual = createHash('sha256').update(body).digest('hex');
      if (actual === input.sha256) {
        install(target, (tmp) => writeFileSync(tmp, body));
        opts.log?.(`downloaded ${input.file}`);
        return { file: input.file, from: 'url', sha256: actual };
      }
      tried.push(`${input.url} (sha256 ${actual})`);
    } catch (err) {
      tried.push(`${input.url} (${(err as Error).message})`);
    }
  }

  throw new FetchError(
    `input ${input.file}: no copy with sha256 ${input.sha256} found; looked at: ${tried.join('; ') || 'nowhere (no mirror, downloads off)'}`,
  );
}

// Written beside the target and renamed, so an interrupted fetch never leaves a truncated file behind.
function install(target: string, write: (tmp: string) => void): void {
  mkdirSync(dirname(target), { recursive: true });
  const tmp = `${target}.part`;
  write(tmp);
  renameSync(tmp, target);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const paths = defaultPaths();
  const manifest = loadManifest(paths.manifest);
  fetchInputs(manifest, { rawDir: paths.rawDir, mirror: paths.mirror, log: (l) => console.log(l) })
    .then((r) => {
      const by = (k: string) => r.filter((x) => x.from === k).length;
      console.log(`${r.length} inputs verified (${by('cache')} already present, ${by('mirror')} from mirror, ${by('url')} downloaded)`);
    })
    .catch((err: Error) => {
      console.error(err.message);
      process.exit(1);
    });
}

// A published bundle: the files of one finished build (database and its checksum, document snapshot, Parquet,
// manifest, build report) in a folder of their own that never changes once written, named after the build
// and the checksum of its file list, `SHA256SUMS` (the format `sha256sum -c` reads). Beside the bundles, a
// pointer `latest` names the one to serve. build/bundle.ts writes them; bundle-mirror.ts pulls and checks them.
// Nothing here is secret: the checksums find a copy cut short or damaged, not tampering.
import { z } from 'zod';

/** The list of a bundle's files with their sha256, one `<sha256>  <path>` line each. */
export const SUMS_FILE = 'SHA256SUMS';
/** The pointer a store's servers poll: the bundle to serve now. */
export const POINTER_FILE = 'latest';
/** Beside the pointer: what the last runs of the update job did (build/update.ts writes it). */
export const UPDATE_STATUS_FILE = 'update-status.json';
/** The manifest a bundle's build was made from, as it is in the bundle. */
export const BUNDLE_MANIFEST_FILE = 'releases.json';

const Pointer = z.object({
  /** The bundle's folder beside the pointer. */
  bundle: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/),
  build_id: z.string().min(1),
  /** sha256 of the bundle's SHA256SUMS: the one checksum the others hang from. */
  sha256sums: z.string().regex(/^[0-9a-f]{64}$/),
  files: z.number().int().positive(),
  bytes: z.number().int().positive(),
  published_at: z.string(),
});
export type Pointer = z.infer<typeof Pointer>;

/** A pointer read from its text, or an Error saying what is wrong with it. */
export function parsePointer(text: string): Pointer {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`pointer is not JSON: '${text.slice(0, 80)}'`);
  }
  const parsed = Pointer.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`pointer: ${issue.path.join('.') || 'the whole'}: ${issue.message}`);
  }
  return parsed.data;
}

export interface SumLine {
  sha256: string;
  /** Relative to the bundle's folder, `/`-separated. */
  path: string;
}

/**
 * A path a bundle may hold: relative, no `.` or `..` segment, no empty one, characters safe in a URL and a
 * file name (`=` for the Parquet tables' partitions, `species/msl=41/`).
 */
const SAFE_PATH = /^(?!.*(^|\/)\.\.?(\/|$))[A-Za-z0-9._=-]+(\/[A-Za-z0-9._=-]+)*$/;

export function formatSums(lines: readonly SumLine[]): string {
  return lines.map((l) => `${l.sha256}  ${l.path}\n`).join('');
}

/** SHA256SUMS read back, or an Error naming the first line that is not a checksum of a safe path. */
export function parseSums(text: string): SumLine[] {
  const lines = text.split('\n').filter((l) => l !== '');
  if (lines.length === 0) throw new Error(`${SUMS_FILE} lists no file`);
  return lines.map((line, i) => {
    const m = /^([0-9a-f]{64}) [ *](.+)$/.exec(line);
    if (!m || !SAFE_PATH.test(m[2]!)) throw new Error(`${SUMS_FILE} line ${i + 1} is not '<sha256>  <relative path>': '${line.slice(0, 120)}'`);
    return { sha256: m[1]!, path: m[2]! };
  });
}

/** The folder name of a bundle: its build, then the start of its file list's checksum. */
export const bundleName = (buildId: string, sumsSha256: string) => `${buildId}-${sumsSha256.slice(0, 16)}`;

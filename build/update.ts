// `npm run update -- --source URL [--publish DEST]` (and `vtqs update`): a new ICTV release without a hand
// edit. The candidate spreadsheet is fetched and read for what it says of itself (its Version sheet names the
// release and year, its Taxon Counts sheet the release it totals); its manifest entry (sha256, bytes, URL) is
// written beside the manifest; the data set is built from the manifest with it; and the build's figures are
// checked before it replaces anything: every count equals the file's own Taxon Counts, the step from the
// release before links its species forward, and ICTV's change log agrees with the changes the data shows.
// Only then is the entry kept in the manifest, the data set published in DATA_DIR and, with --publish, as a
// bundle in DEST. Otherwise the job exits non-zero with its report and nothing served changes. A file seen
// before (by its sha256: in the manifest, or refused already) is not built again. The systemd timer and the
// Kubernetes CronJob (deploy/) run it.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import * as XLSX from '@e965/xlsx';
import { UPDATE_STATUS_FILE } from '../src/store/bundle-format.js';
import { readUpdateStatus, UPDATE_OUTCOMES, type UpdateOutcome, type UpdateStatus } from '../src/store/update-status.js';
import { projectRoot } from '../src/shared/project-root.js';
import { refreshDocSnapshot } from '../src/read/documents.js';
import { publishBundle, readPointer } from './bundle.js';
import { build, type BuildReport } from './index.js';
import { allInputs, loadManifest, type Manifest, type Release } from './manifest.js';
import { defaultPaths, type BuildPaths } from './paths.js';
import { consoleProgress, type Progress } from './progress.js';

/** The checks' thresholds. Every release of the record since MSL29 clears them (docs/operations.md). */
export interface Thresholds {
  /** Share of the previous release's species that continue into the new one (identity coverage). */
  minCoverage: number;
  /** Share of the species ICTV's "Last Change" column names in the new release whose change the data agrees with. */
  minAgreement: number;
  /** Tolerated gap between ICTV's count of new and of abolished species (Taxon Counts) and the data's: at most this share, or 2. */
  changeTolerance: number;
}

export const DEFAULT_THRESHOLDS: Thresholds = { minCoverage: 0.95, minAgreement: 0.98, changeTolerance: 0.01 };

export interface UpdateOptions extends BuildPaths {
  source: string;
  /** A bundle store to publish to (build/bundle.ts), or null. */
  publish: string | null;
  progress: Progress;
  thresholds?: Thresholds;
  /** The server's document snapshot writer (src/read/documents.ts), as `npm run build` passes it. */
  snapshot?: (dbFile: string, out: string, buildId: string) => Promise<unknown>;
  /** Download the other inputs missing from the raw folder and the mirror (default true). */
  download?: boolean;
}

export interface UpdateResult {
  outcome: UpdateOutcome;
  release: string | null;
  build_id: string | null;
  /** One line: what was published, or why nothing was. */
  detail: string;
  /** The checks, one line each, when the candidate was built. */
  checks: string[];
}

/** What a candidate spreadsheet says of itself. */
export interface Candidate {
  msl: number;
  year: number;
  /** The main sheet (the one with a Species column) and its columns. */
  layout: { sheet: string; columns: string[] };
  /** ICTV's totals by rank from the Taxon Counts sheet (lower-case rank names). */
  totals: Record<string, number>;
}

/** Files refused before, by sha256, kept beside the data set so that the same file is not built again. */
const REFUSED_FILE = 'update-refused.json';

/** Reads the release, year and layout from the workbook itself; throws saying what it lacks. */
export function readCandidate(bytes: Buffer, name: string): Candidate {
  let wb: XLSX.WorkBook;
  try {
    wb = XLSX.read(bytes, { type: 'buffer', sheetRows: 2 });
  } catch (err) {
    throw new Error(`${name} is not a spreadsheet: ${(err as Error).message}`);
  }
  const full = (sheet: string) => XLSX.utils.sheet_to_json<unknown[]>(XLSX.read(bytes, { type: 'buffer', sheets: [sheet] }).Sheets[sheet]!, { header: 1, blankrows: false });
  const cells = (rows: unknown[][]) => rows.flat().filter((c) => c !== null && c !== undefined).map(String);

  const versionSheet = wb.SheetNames.find((s) => /^version$/i.test(s.trim()));
  if (!versionSheet) throw new Error(`${name} has no Version sheet to read its release from (sheets: ${wb.SheetNames.join(', ')})`);
  const title = cells(full(versionSheet)).find((c) => /Master Species List/i.test(c) && /\bMSL\s*#?\s*\d+/i.test(c));
  const msl = title ? Number(/\bMSL\s*#?\s*(\d+)/i.exec(title)![1]) : NaN;
  const year = title ? Number(/\b((?:19|20)\d\d)\b/.exec(title)?.[1]) : NaN;
  if (!title || !Number.isInteger(msl) || !Number.isInteger(year)) {
    throw new Error(`${name}: its Version sheet names no release and year (a title such as 'ICTV 2025 Master Species List (MSL41)')`);
  }

  const countsSheet = wb.SheetNames.find((s) => /^taxon counts$/i.test(s.trim()));
  if (!countsSheet) throw new Error(`${name} has no Taxon Counts sheet to check the release's totals against`);
  const counts = full(countsSheet);
  const headerRow = counts.findIndex((r) => r.some((c) => /^rank$/i.test(String(c ?? '').trim())));
  const header = (counts[headerRow] ?? []).map((c) => String(c ?? '').trim());
  const totalCol = header.findIndex((h) => new RegExp(`^MSL\\.?\\s*${msl}\\s+Total$`, 'i').test(h));
  if (headerRow < 0 || totalCol < 0) {
    throw new Error(`${name}: its Taxon Counts sheet has no 'MSL.${msl} Total' column for the release its Version sheet names (columns: ${header.filter(Boolean).join(', ')})`);
  }
  const rankCol = header.findIndex((h) => /^rank$/i.test(h));
  const totals: Record<string, number> = {};
  for (const row of counts.slice(headerRow + 1)) {
    const rank = String(row[rankCol] ?? '').trim().toLowerCase();
    const n = Number(row[totalCol]);
    if (rank && Number.isInteger(n)) totals[rank] = n;
  }
  if (totals.species === undefined) throw new Error(`${name}: its Taxon Counts sheet gives no Species total`);

  const main = wb.SheetNames.map((s) => ({ sheet: s, columns: (XLSX.utils.sheet_to_json<unknown[]>(wb.Sheets[s]!, { header: 1 })[0] ?? []).map((c) => String(c ?? '').trim()) }))
    .find((s) => s.columns.includes('Species'));
  if (!main) throw new Error(`${name} has no sheet with a 'Species' column`);
  return { msl, year, layout: main, totals };
}

/** The new release's figures against the thresholds: one line per check, and whether each passed. */
export function checkRelease(report: BuildReport, version: string, t: Thresholds): Array<{ ok: boolean; line: string }> {
  const out: Array<{ ok: boolean; line: string }> = [];
  const pct = (x: number) => `${(x * 100).toFixed(2)}%`;
  const release = report.releases.find((r) => r.version === version);
  if (!release) return [{ ok: false, line: `${version} is not in the build` }];
  out.push({
    ok: release.counts_match && release.count_differences.length === 0,
    line: `counts: ${(['realm', 'order', 'family', 'genus', 'species'] as const).map((k) => `${k} ${release.counts[k] ?? 0}`).join(', ')}`
      + (release.counts_match && release.count_differences.length === 0 ? ', each equal to the file\'s Taxon Counts'
        : `; differ from the file's Taxon Counts: ${release.count_differences.map((d) => `${d.rank} ${d.ours} vs ${d.official}`).join(', ') || 'ranks missing'}`),
  });
  const step = report.checks.identity_coverage.find((c) => c.to_version === version);
  out.push(step
    ? { ok: step.coverage >= t.minCoverage, line: `identity coverage ${step.from_version}->${version}: ${pct(step.coverage)} of ${step.species} species linked forward, ${step.abolished} abolished (at least ${pct(t.minCoverage)} required)` }
    : { ok: false, line: `identity coverage: no step into ${version}` });
  const agreement = report.checks.last_change_agreement.find((a) => a.version === version);
  out.push(agreement
    ? { ok: agreement.rate_with_explained >= t.minAgreement, line: `change log: ICTV's Last Change agrees for ${pct(agreement.rate_with_explained)} of ${agreement.checked} species (renames of higher taxa explained; at least ${pct(t.minAgreement)} required)` }
    : { ok: false, line: `change log: the file has no Last Change column to check ${version}'s changes against` });
  const official = report.checks.official_changes.find((o) => o.version === version);
  if (official) {
    // ICTV's tallies of its Taxon Counts sheet beside the data set's count of the same thing (official_tally)
    for (const what of ['New', 'Abolished']) {
      const tally = official.tallies.find((x) => x.change === what);
      if (!tally) continue;
      const [ictv, ours] = [tally.ictv, tally.ours];
      const allowed = Math.max(2, Math.round(ictv * t.changeTolerance));
      out.push({ ok: Math.abs(ictv - ours) <= allowed, line: `${what.toLowerCase()} species: ICTV's Taxon Counts ${ictv}, the data ${ours} (at most ${allowed} apart)` });
    }
  } else {
    out.push({ ok: false, line: `change log: the Taxon Counts sheet gives no species changes for ${version}` });
  }
  return out;
}

/** Runs the update job once. Never throws: every end is an outcome with its detail. */
export async function runUpdate(opts: UpdateOptions): Promise<UpdateResult> {
  const t = opts.thresholds ?? DEFAULT_THRESHOLDS;
  const log = (line: string) => opts.progress.log(line);
  const result = await attempt(opts, t, log);
  recordStatus(opts, result);
  return result;
}

async function attempt(opts: UpdateOptions, t: Thresholds, log: (line: string) => void): Promise<UpdateResult> {
  seedManifest(opts.manifest);
  // A store with no bundle yet (a new deployment) gets the manifest's own data set first.
  let first: string | null = null;
  if (opts.publish && !readPointer(opts.publish)) {
    log(`${opts.publish} has no bundle yet: the manifest's data set is built and published first`);
    try {
      const report = await build({ ...opts, progress: opts.progress, download: opts.download ?? true, snapshot: opts.snapshot });
      const { pointer } = await publishBundle(opts.publish, { dataDir: opts.dataDir, manifest: opts.manifest, log });
      first = `the store had no bundle: build ${report.build_id} of the manifest published as ${pointer.bundle}`;
    } catch (err) {
      return { outcome: 'failed', release: null, build_id: null, detail: `the store ${opts.publish} has no bundle, and the manifest's data set could not be built and published: ${(err as Error).message.split('\n')[0]}`, checks: [] };
    }
  }
  const result = await fromCandidate(opts, t, log);
  if (!first) return result;
  return { ...result, outcome: result.outcome === 'unchanged' ? 'published' : result.outcome, detail: `${first}; ${result.detail}` };
}

async function fromCandidate(opts: UpdateOptions, t: Thresholds, log: (line: string) => void): Promise<UpdateResult> {
  const none = (outcome: UpdateOutcome, detail: string, release: string | null = null, checks: string[] = []): UpdateResult =>
    ({ outcome, release, build_id: null, detail, checks });

  let bytes: Buffer;
  try {
    const res = await fetch(opts.source, { signal: AbortSignal.timeout(120_000) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    bytes = Buffer.from(await res.arrayBuffer());
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    return none('failed', `cannot fetch ${opts.source}: ${e.cause?.code ?? e.message}`);
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const manifest = loadManifest(opts.manifest);
  const known = manifest.releases.find((r) => Object.values(r.files).some((f) => f?.sha256 === sha256));
  if (known || allInputs(manifest).some((f) => f.sha256 === sha256)) {
    return none('unchanged', `${opts.source} (sha256 ${sha256.slice(0, 12)}…) is in the manifest already${known ? ` (${known.version})` : ''}: nothing to do`, known?.version ?? null);
  }
  const refused = readRefused(opts.dataDir)[sha256];
  if (refused) return none('refused', `${opts.source} (sha256 ${sha256.slice(0, 12)}…) was refused before and has not changed: ${refused}`);

  const fileName = decodeURIComponent(basename(new URL(opts.source).pathname)) || 'msl.xlsx';
  let read: Candidate;
  try {
    read = readCandidate(bytes, fileName);
  } catch (err) {
    return refuse(opts, sha256, none('refused', (err as Error).message));
  }
  const latest = manifest.releases.at(-1)!;
  const version = `MSL${read.msl}`;
  log(`${fileName}: ${version} (${read.year}), main sheet '${read.layout.sheet}' of ${read.layout.columns.length} columns, ${read.totals.species} species by its Taxon Counts`);
  if (read.msl <= latest.msl) {
    return refuse(opts, sha256, none('refused', `${fileName} is ${version}, which the manifest has already (latest ${latest.version}); a corrected file of a published release is added by hand`, version));
  }
  if (read.msl !== latest.msl + 1) {
    return refuse(opts, sha256, none('refused', `${fileName} is ${version}, which does not follow the manifest's latest release ${latest.version}`, version));
  }

  const file = `${version}/${fileName}`;
  const url = new URL(opts.source);
  const entry: Release = {
    version, msl: read.msl, year: read.year, label: String(read.year),
    // ICTV's tree ids are the year followed by five zeros (every release of the manifest has one so made)
    treeId: read.year * 100_000,
    files: { msl: { file, sha256, bytes: bytes.length, source: { repository: url.origin, commit: '', path: url.pathname }, url: opts.source } },
  };
  const next: Manifest = { ...manifest, releases: [...manifest.releases, entry] };
  mkdirSync(dirname(join(opts.rawDir, file)), { recursive: true });
  writeFileSync(join(opts.rawDir, file), bytes);
  const candidateManifest = `${opts.manifest}.candidate`;
  writeFileSync(candidateManifest, `${JSON.stringify(next, null, 2)}\n`);

  let checks: string[] = [];
  let report: BuildReport;
  try {
    report = await build({
      ...opts, manifest: candidateManifest, progress: opts.progress, download: opts.download ?? true, snapshot: opts.snapshot,
      accept: (r) => {
        const results = checkRelease(r, version, t);
        checks = results.map((c) => `${c.ok ? 'pass' : 'FAIL'}  ${c.line}`);
        for (const line of checks) log(`check ${line}`);
        const failed = results.filter((c) => !c.ok);
        if (failed.length > 0) throw new Error(`${failed.length} of ${results.length} checks failed: ${failed.map((c) => c.line).join('; ')}`);
      },
    });
  } catch (err) {
    rmSync(candidateManifest, { force: true });
    return refuse(opts, sha256, none('refused', `${version} from ${opts.source} not published: ${(err as Error).message.split('\n')[0]}`, version, checks));
  }
  renameSync(candidateManifest, opts.manifest);
  log(`manifest ${opts.manifest}: ${version} added`);
  let where = `published in ${opts.dataDir}`;
  if (opts.publish) {
    const { pointer } = await publishBundle(opts.publish, { dataDir: opts.dataDir, manifest: opts.manifest, log });
    where += ` and as bundle ${pointer.bundle} in ${opts.publish}`;
  }
  return { outcome: 'published', release: version, build_id: report.build_id, detail: `${version} (${read.year}, ${read.totals.species} species) built as ${report.build_id}, every check passed, ${where}`, checks };
}

/** The manifest the job extends: a copy of the project's when it does not exist yet (a fresh work folder). */
function seedManifest(manifest: string): void {
  if (existsSync(manifest)) return;
  mkdirSync(dirname(manifest), { recursive: true });
  copyFileSync(join(projectRoot(), 'data', 'releases.json'), manifest);
}

function readRefused(dataDir: string): Record<string, string> {
  try {
    return JSON.parse(readFileSync(join(dataDir, REFUSED_FILE), 'utf8')) as Record<string, string>;
  } catch {
    return {};
  }
}

function refuse(opts: UpdateOptions, sha256: string, result: UpdateResult): UpdateResult {
  const refused = readRefused(opts.dataDir);
  refused[sha256] = result.detail;
  mkdirSync(opts.dataDir, { recursive: true });
  writeFileSync(join(opts.dataDir, REFUSED_FILE), `${JSON.stringify(refused, null, 2)}\n`);
  return result;
}

/** The status file beside the data set and, when publishing, beside the bundles, where servers read it. */
function recordStatus(opts: UpdateOptions, r: UpdateResult): void {
  const at = new Date().toISOString();
  for (const dir of [opts.dataDir, opts.publish].filter((d): d is string => d !== null)) {
    const before: UpdateStatus | null = readUpdateStatus(join(dir, UPDATE_STATUS_FILE));
    const runs = Object.fromEntries(UPDATE_OUTCOMES.map((o) => [o, (before?.runs[o] ?? 0) + (o === r.outcome ? 1 : 0)])) as UpdateStatus['runs'];
    const status: UpdateStatus = {
      last: { outcome: r.outcome, at, source: opts.source, release: r.release, build_id: r.build_id, detail: r.detail },
      runs,
      last_published_at: r.outcome === 'published' ? at : before?.last_published_at ?? null,
    };
    mkdirSync(dir, { recursive: true });
    const tmp = join(dir, `.${UPDATE_STATUS_FILE}.${process.pid}.tmp`);
    writeFileSync(tmp, `${JSON.stringify(status, null, 2)}\n`);
    renameSync(tmp, join(dir, UPDATE_STATUS_FILE));
  }
}

const USAGE = `npm run update -- --source URL [--publish DEST]    (or: vtqs update --source URL [--publish DEST])

Fetches a candidate ICTV Master Species List spreadsheet, reads its release, year and layout from its own
Version and Taxon Counts sheets, adds its entry to the manifest (MANIFEST_FILE, default data/releases.json),
builds the data set in DATA_DIR (default data/) and checks it: counts equal to the file's Taxon Counts,
identity coverage of the step into it, agreement with ICTV's change log. Publishes (in DATA_DIR and, with
--publish, as a bundle in DEST) only when every check passes. A file seen before does nothing.

Exit status: 0 published or nothing new, 1 refused (the report says why), 2 failed (the source could not
be fetched) or a usage error.`;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  let values: { source?: string; publish?: string; help?: boolean };
  try {
    ({ values } = parseArgs({ options: { source: { type: 'string' }, publish: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }));
  } catch (err) {
    console.error(`update: ${(err as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (!values.source || !/^https?:\/\//.test(values.source)) {
    console.error(`update: --source must be an http:// or https:// URL\n\n${USAGE}`);
    process.exit(2);
  }
  const result = await runUpdate({
    ...defaultPaths(), source: values.source, publish: values.publish ? resolve(values.publish) : null,
    progress: consoleProgress(), snapshot: refreshDocSnapshot,
  });
  const lines = [`update: ${result.outcome}: ${result.detail}`, ...result.checks.map((c) => `  ${c}`)];
  (result.outcome === 'published' || result.outcome === 'unchanged' ? console.log : console.error)(lines.join('\n'));
  process.exit(result.outcome === 'published' || result.outcome === 'unchanged' ? 0 : result.outcome === 'refused' ? 1 : 2);
}

// A new release without a hand edit: the update job (`npm run update`, build/update.ts) run as a process,
// as the timer and the CronJob run it, against a local HTTP server holding a synthetic next release made
// from the latest real one (test/support/next-release.ts), over a record of the manifest's last releases
// (the real files, built in under a minute) published as a bundle that a real server pulls (DATA_URL). A
// candidate whose layout the readers do not know is refused, naming the column, and nothing served changes;
// the good one is read for its release and year, added to the manifest, built, checked and published, and
// the server shows every change through the API; the same file seen again does nothing. Its first run, into
// an empty store, publishes the manifest's own data set.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPointer } from '../build/bundle.js';
import { loadManifest } from '../build/manifest.js';
import { defaultPaths } from '../build/paths.js';
import { projectRoot } from '../src/shared/project-root.js';
import { POINTER_FILE, UPDATE_STATUS_FILE } from '../src/store/bundle-format.js';
import { nextRelease, type NextRelease } from './support/next-release.js';
import { sample, scrape } from './support/ops.js';
import { waitUntil } from './support/wait.js';
import { awaitSwitch, startServer, type ServerProcess } from './support/server-process.js';
import { serveFiles, type StaticFiles } from './support/static-files.js';

/** Releases of the record the job extends: the manifest's last ones, enough for identity and change checks. */
const RECENT = 3;

describe('the update job (npm run update -- --source URL)', function () {
  this.timeout(900_000);
  let root: string;
  let work: string;
  let manifest: string;
  let dest: string;
  let files: StaticFiles;
  let server: ServerProcess;
  let next: NextRelease;
  let latest: { version: string; msl: number; year: number };

  const update = (source: string): Promise<{ code: number | null; out: string }> => new Promise((resolve) => {
    const child = spawn(process.execPath, [join(projectRoot(), 'dist', 'build', 'update.js'), '--source', source, '--publish', dest], {
      env: { ...process.env, DATA_DIR: work, MANIFEST_FILE: manifest },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
    child.stderr!.on('data', (d: Buffer) => { out += d.toString(); });
    child.once('close', (code) => resolve({ code, out }));
  });
  const get = async <T = Record<string, unknown>>(path: string): Promise<T> => {
    const res = await fetch(`${server.base}${path}`);
    expect(res.status, path).to.equal(200);
    return (await res.json()) as T;
  };

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'vtqs-update-'));
    work = join(root, 'work');
    dest = join(root, 'www', 'store');
    mkdirSync(join(root, 'www', 'candidates'), { recursive: true });
    manifest = join(root, 'releases.json');
    const full = loadManifest(defaultPaths().manifest);
    writeFileSync(manifest, JSON.stringify({ ...full, releases: full.releases.slice(-RECENT) }, null, 2));
    const last = full.releases.at(-1)!;
    latest = last;
    next = nextRelease(readFileSync(join(defaultPaths().mirror!, last.files.msl!.file)), last.msl, last.year);
    writeFileSync(join(root, 'www', 'candidates', `ICTV_Master_Species_List_${next.year}_MSL${next.msl}.v1.xlsx`), next.bytes);
    writeFileSync(join(root, 'www', 'candidates', `MSL${next.msl}_new_layout.xlsx`), nextRelease(readFileSync(join(defaultPaths().mirror!, last.files.msl!.file)), last.msl, last.year, { broken: true }).bytes);

    // the latest release's own file, at the URL a site polls: the job's first run, into an empty store
    copyFileSync(join(defaultPaths().mirror!, last.files.msl!.file), join(root, 'www', 'candidates', 'current.xlsx'));
    files = await serveFiles(join(root, 'www'));
    const first = await update(`${files.base}/candidates/current.xlsx`);
    expect(first.code, first.out.slice(-2000)).to.equal(0);
    expect(first.out).to.match(new RegExp(`update: published: the store had no bundle: build \\w+ of the manifest published as \\S+; .* is in the manifest already \\(${last.version}\\)`));
    server = await startServer(join(root, 'replica'), { logs: true, timeoutMs: 120_000, env: { DATA_URL: `${files.base}/store/${POINTER_FILE}`, DATA_POLL_SECONDS: '0.5' } });
  });

  after(async () => {
    server?.kill();
    await files?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('refuses a candidate whose layout the readers do not know, naming file, sheet and column; nothing served changes', async () => {
    const served = await server.buildId();
    const pointer = readFileSync(join(dest, POINTER_FILE), 'utf8');
    const manifestBefore = readFileSync(manifest, 'utf8');
    const { code, out } = await update(`${files.base}/candidates/MSL${next.msl}_new_layout.xlsx`);
    console.log(`      ${out.trim().split('\n').filter((l) => l.startsWith('update:')).join('\n      ')}`);
    expect(code).to.equal(1);
    expect(out).to.match(new RegExp(`update: refused: MSL${next.msl} from .* not published: .*MSL${next.msl}_new_layout\\.xlsx.*sheet 'MSL'.*column 'Genus'`));
    expect(readFileSync(join(dest, POINTER_FILE), 'utf8')).to.equal(pointer);
    expect(readFileSync(manifest, 'utf8')).to.equal(manifestBefore);
    expect(await server.buildId()).to.equal(served);
    const status = JSON.parse(readFileSync(join(dest, UPDATE_STATUS_FILE), 'utf8')) as { last: { outcome: string }; runs: Record<string, number> };
    expect(status.last.outcome).to.equal('refused');
    expect(status.runs).to.deep.equal({ published: 1, unchanged: 0, refused: 1, failed: 0 });
  });

  it('reads the next release from the file, adds it to the manifest, builds, checks and publishes it; the server switches to it', async () => {
    const before = await server.buildId();
    const source = `${files.base}/candidates/ICTV_Master_Species_List_${next.year}_MSL${next.msl}.v1.xlsx`;
    const { code, out } = await update(source);
    console.log(`      ${out.trim().split('\n').filter((l) => /^(update:| {2}(pass|FAIL))/.test(l)).join('\n      ')}`);
    expect(code, out.slice(-3000)).to.equal(0);
    expect(out).to.match(new RegExp(`update: published: MSL${next.msl} \\(${next.year}, ${next.species} species\\) built as \\w+, every check passed`));
    for (const check of ['counts', 'identity coverage', 'change log', 'new species', 'abolished species']) expect(out).to.match(new RegExp(`^ {2}pass {2}${check}`, 'm'));

    const entry = loadManifest(manifest).releases.at(-1)!;
    expect(entry).to.deep.include({ version: `MSL${next.msl}`, msl: next.msl, year: next.year, label: String(next.year), treeId: next.year * 100_000 });
    expect(entry.files.msl).to.deep.include({ url: source, bytes: next.bytes.length });
    expect(entry.files.msl!.sha256).to.match(/^[0-9a-f]{64}$/);

    const built = readPointer(dest)!.build_id;
    expect(await awaitSwitch(server, before, 120_000)).to.equal(built);
  });

  it('shows every change of the new release through the API', async () => {
    const v = `MSL${next.msl}`;
    const versions = await get<Array<Record<string, unknown>>>('/api/v1/versions');
    expect(versions.map((x) => x.version)).to.deep.equal([...loadManifest(manifest).releases.map((r) => r.version)]);
    expect(versions.at(-1)).to.include({ version: v, year: next.year, total_species: next.totals.Species, total_genera: next.totals.Genus, total_families: next.totals.Family });

    // the rename: the old name leads to the new one, which is the latest name
    const renamed = await get(`/api/v1/history/${encodeURIComponent(next.renamed.from)}`);
    expect(renamed).to.include({ current_name: next.renamed.to, last_appearance: v });
    expect(await get(`/api/v1/species/${v}/${encodeURIComponent(next.renamed.to)}`)).to.include({ scientific_name: next.renamed.to, msl_version: v });

    // the new species in its new genus
    const added = await get<{ msl_version: string; classification: Record<string, string>; last_change: Record<string, unknown> }>(`/api/v1/species/latest/${encodeURIComponent(next.added.species)}`);
    expect(added.msl_version).to.equal(v);
    expect(added.classification).to.include({ genus: next.added.genus, family: next.added.family });
    expect(added.last_change).to.include({ change: 'New', version: v });

    // the merge: the species merged into continues; the one merged away is not in the new release
    expect(await get(`/api/v1/history/${encodeURIComponent(next.merged.into)}`)).to.include({ current_name: next.merged.into, last_appearance: v });
    expect((await get<{ last_change: Record<string, unknown> }>(`/api/v1/species/${v}/${encodeURIComponent(next.merged.into)}`)).last_change).to.include({ change: 'Merged', version: v });
    expect(await get(`/api/v1/history/${encodeURIComponent(next.merged.gone)}`)).to.include({ last_appearance: latest.version });
    expect((await fetch(`${server.base}/api/v1/species/${v}/${encodeURIComponent(next.merged.gone)}`)).status).to.equal(404);

    // the abolished species ends in the new release
    const abolished = await get<{ last_appearance: string; lineages: Array<Record<string, unknown>> }>(`/api/v1/history/${encodeURIComponent(next.abolished)}`);
    expect(abolished.last_appearance).to.equal(latest.version);
    expect(abolished.lineages[0]).to.include({ ended: 'abolished', abolished_in: v });

    // the step in figures
    const compare = await get(`/api/v1/compare/${latest.version}/${v}`);
    expect(compare).to.include({ to_total: next.species, species_added: 1, species_renamed: 1 });
    console.log(`      compare ${latest.version}/${v}: ${JSON.stringify(compare)}`);
    const metrics = await scrape(server.base);
    expect(sample(metrics, 'vtqs_update_runs', { outcome: 'published' })).to.equal(2);
    expect(sample(metrics, 'vtqs_update_last_run_timestamp_seconds', { outcome: 'published' })).to.be.a('number');
  });

  it('does nothing with a file it has seen: published already, or refused already', async () => {
    const pointer = readFileSync(join(dest, POINTER_FILE), 'utf8');
    const manifestBefore = readFileSync(manifest, 'utf8');
    const again = await update(`${files.base}/candidates/ICTV_Master_Species_List_${next.year}_MSL${next.msl}.v1.xlsx`);
    expect(again.code).to.equal(0);
    expect(again.out).to.match(new RegExp(`update: unchanged: .* is in the manifest already \\(MSL${next.msl}\\): nothing to do`));
    const refusedAgain = await update(`${files.base}/candidates/MSL${next.msl}_new_layout.xlsx`);
    expect(refusedAgain.code).to.equal(1);
    expect(refusedAgain.out).to.match(/update: refused: .* was refused before and has not changed: /);
    expect(readFileSync(join(dest, POINTER_FILE), 'utf8')).to.equal(pointer);
    expect(readFileSync(manifest, 'utf8')).to.equal(manifestBefore);
    await waitUntil('the status served', async () => (sample(await scrape(server.base), 'vtqs_update_runs', { outcome: 'unchanged' }) === 1 ? true : undefined));
  });
});

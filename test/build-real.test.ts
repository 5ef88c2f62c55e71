// The full build on the real ICTV files (../shared/msl), checked against figures read independently of
// the pipeline: SOURCES.md's official counts table and the child_counts strings of the tree exports.
import { expect } from 'chai';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildReport } from '../build/index.js';
import { allInputs, loadManifest } from '../build/manifest.js';
import { defaultPaths } from '../build/paths.js';
import { RANKS } from '../src/shared/ranks.js';
import { realBuild, realDb, type Db } from './support/data.js';

const paths = defaultPaths();
const shared = paths.mirror!;
const manifest = loadManifest(paths.manifest);

/**
 * release -> official species count, from SOURCES.md: the "Official species counts per release" table
 * (MSL23-40), the child_counts table of MSL1-22 and the MSL41 "Taxon Counts" paragraph.
 */
function officialSpeciesFromSources(): Map<string, number> {
  const text = readFileSync(join(shared, 'SOURCES.md'), 'utf8');
  const out = new Map<string, number>();
  for (const line of text.slice(text.indexOf('## Official species counts per release')).split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (!/^MSL\d+$/.test(cells[1] ?? '')) continue;
    // MSL40 lists "16215 (v1), 16213 (v2)": the file in use is v2.
    const cell = cells[4] ?? '';
    const figure = /(\d+) \(v2\)/.exec(cell)?.[1] ?? /\d+/.exec(cell)?.[0];
    out.set(cells[1]!, Number(figure));
  }
  for (const line of text.split('\n')) {
    const m = /^\| (MSL\d+) \| \w+ \| \d+ \| .*\b(\d+) species \|$/.exec(line);
    if (m) out.set(m[1]!, Number(m[2]));
  }
  const msl41 = /MSL41 official counts[^]*?genera \d+, species (\d+)/.exec(text);
  if (msl41) out.set('MSL41', Number(msl41[1]));
  return out;
}

describe('the full build on the real ICTV data', function () {
  let report: BuildReport;
  let db: Db;
  before(async () => {
    report = await realBuild();
    db = await realDb();
  });
  after(() => db.close());

  it('covers every release of the mirror, MSL1 (1971) to MSL41 (2025), in order', () => {
    const folders = readdirSync(shared).filter((f) => /^MSL\d+$/.test(f)).sort((a, b) => Number(a.slice(3)) - Number(b.slice(3)));
    expect(report.releases.map((r) => r.version)).to.deep.equal(folders);
    expect(manifest.releases.map((r) => r.version)).to.deep.equal(folders);
    expect([report.releases[0]!.year, report.releases[report.releases.length - 1]!.year]).to.deep.equal([1971, 2025]);
  });

  it('holds exactly ICTV official species count in every release, one species row each', async () => {
    const official = officialSpeciesFromSources();
    expect([...official.keys()].sort()).to.deep.equal(report.releases.map((r) => r.version).sort());
    const rows = await db.all<{ version: string; n: number }>(`SELECT 'MSL' || msl AS version, count(*)::INTEGER AS n FROM src.species GROUP BY msl`);
    for (const r of report.releases) {
      expect(r.official_counts.species, r.version).to.equal(official.get(r.version));
      expect(rows.find((x) => x.version === r.version)?.n, r.version).to.equal(official.get(r.version));
    }
  });

  it('explains every count the tree exports cannot reproduce, and only those', () => {
    const differing = report.releases.flatMap((r) => r.count_differences.map((d) => `${r.version} ${d.rank} ${d.ours}/${d.official}`));
    // a genus without species that each export leaves out (its family's own child_counts still count it)
    expect(differing).to.deep.equal([
      'MSL15 genus 181/182', 'MSL18 genus 233/234', 'MSL19 genus 238/239', 'MSL20 genus 246/247', 'MSL21 genus 250/251',
      'MSL22 genus 289/290',
    ]);
    for (const r of report.releases) expect(r.counts_match, r.version).to.equal(true);
    const reasons = (v: string, rank: string) => report.releases.find((r) => r.version === v)!.count_differences.find((d) => d.rank === rank)!.reasons.join(' ');
    expect(reasons('MSL15', 'genus')).to.contain('family Polydnaviridae');
    expect(reasons('MSL18', 'genus')).to.contain('family Myoviridae');
    // names shared by several taxa are counted once per taxon, and reported
    const shared = report.releases.flatMap((r) => r.shared_names.map((n) => `${r.version} ${n.rank} ${n.name} ${n.taxa}`));
    expect(shared).to.deep.equal(['MSL15 genus Unnamed genus 4', 'MSL22 species Chayote mosaic virus 2']);
  });

  it('counts every rank of every tree export as its child_counts do, once explained', () => {
    for (const r of report.releases.filter((x) => x.species_source === 'tree')) {
      const dir = join(shared, r.version);
      const tree = readdirSync(dir).find((f) => f.startsWith('taxonomy_'))!;
      const root = JSON.parse(readFileSync(join(dir, tree), 'utf8')) as { child_counts: string };
      const words: Record<string, string> = { realms: 'realm', kingdoms: 'kingdom', phyla: 'phylum', subphyla: 'subphylum', classes: 'class', orders: 'order', suborders: 'suborder', families: 'family', subfamilies: 'subfamily', genera: 'genus', subgenera: 'subgenus', species: 'species', realm: 'realm', kingdom: 'kingdom', phylum: 'phylum', subphylum: 'subphylum', class: 'class', order: 'order', suborder: 'suborder', family: 'family', subfamily: 'subfamily', genus: 'genus', subgenus: 'subgenus' };
      for (const part of root.child_counts.split(', ')) {
        const [n, word] = part.split(' ');
        const rank = words[word!] as keyof typeof r.counts;
        const explained = r.count_differences.find((d) => d.rank === rank && d.explained)?.official;
        expect(explained ?? r.counts[rank] ?? 0, `${r.version} ${word}`).to.equal(Number(n));
      }
    }
  });

  it('matches the Taxon Counts sheets for genera, families, orders and realms (MSL37-41)', () => {
    const expected: Record<string, [number, number, number, number]> = {
      // genus, family, order, realm as printed in the MSL38, MSL39, MSL40.v2 and MSL41 Taxon Counts sheets
      MSL37: [2606, 233, 65, 6], MSL38: [2818, 264, 72, 6], MSL39: [3522, 314, 81, 6], MSL40: [3768, 368, 93, 7],
      MSL41: [4149, 427, 105, 10],
    };
    for (const [version, [genus, family, order, realm]] of Object.entries(expected)) {
      const r = report.releases.find((x) => x.version === version)!;
      expect([r.counts.genus, r.counts.family, r.counts.order, r.counts.realm], version).to.deep.equal([genus, family, order, realm]);
      expect(r.counts_match, version).to.equal(true);
    }
  });

  it('joins spreadsheet attributes onto tree species at the required rates', () => {
    for (const r of report.releases.filter((x) => x.attribute_join)) {
      const threshold = r.msl >= 29 ? 0.99 : 0.97;
      expect(r.attribute_join!.rate, r.version).to.be.at.least(threshold);
      expect(r.attribute_join!.unmatched.length).to.equal(r.attribute_join!.species - r.attribute_join!.matched);
    }
  });

  it('de-duplicates the species listed twice in MSL24 and MSL29, with a warning each', () => {
    const dupes = (v: string) => report.releases.find((r) => r.version === v)!.warnings.filter((w) => /duplicate|twice|listed/i.test(w));
    expect(dupes('MSL24').join()).to.contain('Lettuce big-vein associated virus');
    expect(dupes('MSL29').join()).to.contain('Pseudomonas phage F116');
  });

  it('never stores the placeholder "Unassigned" or an empty rank, and keys every species by a taxnode id of its own', async () => {
    const ranks = RANKS.map((r) => `"${r}"`).join(', ');
    const [row] = await db.all<{ placeholders: number; empty: number; nulls: number; keyless: number; shared_keys: number }>(`
      SELECT (SELECT count(*) FROM src.species WHERE list_contains(list_transform([${ranks}], x -> lower(x)), 'unassigned'))::INTEGER AS placeholders,
             (SELECT count(*) FROM src.species WHERE list_contains([${ranks}], ''))::INTEGER AS empty,
             (SELECT count(*) FROM src.species WHERE species IS NULL)::INTEGER AS nulls,
             (SELECT count(*) FROM src.species WHERE taxnode_id IS NULL)::INTEGER AS keyless,
             (SELECT count(*) FROM (SELECT taxnode_id FROM src.species GROUP BY ALL HAVING count(*) > 1))::INTEGER AS shared_keys`);
    expect(row).to.deep.equal({ placeholders: 0, empty: 0, nulls: 0, keyless: 0, shared_keys: 0 });
    // One name stands for two species of one release: ICTV's own MSL22 lists it in two genera.
    const twice = await db.all(`SELECT msl::INTEGER AS msl, species, list(genus ORDER BY genus) AS genera FROM src.species GROUP BY msl, species HAVING count(*) > 1`);
    expect(twice).to.deep.equal([{ msl: 22, species: 'Chayote mosaic virus', genera: ['Begomovirus', 'Tymovirus'] }]);
  });

  it('leaves the ranks an old release does not use null: no order before 1990, no realm before 2018b', async () => {
    const rows = await db.all<{ rank: string; first: string }>(`
      SELECT rank, 'MSL' || min(msl) AS first FROM src.taxa WHERE rank IN ('order', 'realm') GROUP BY rank ORDER BY rank`);
    expect(rows).to.deep.equal([{ rank: 'order', first: 'MSL11' }, { rank: 'realm', first: 'MSL34' }]);
    const [{ n }] = await db.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM src.species WHERE msl < 11 AND "order" IS NOT NULL`) as [{ n: number }];
    expect(n).to.equal(0);
  });

  it('writes zstd Parquet partitioned by release', async () => {
    const parts = readdirSync(join(paths.dataDir, 'parquet', 'species')).sort();
    expect(parts).to.deep.equal(manifest.releases.map((r) => `msl=${r.msl}`).sort());
    const file = join(paths.dataDir, 'parquet', 'species', 'msl=40', readdirSync(join(paths.dataDir, 'parquet', 'species', 'msl=40'))[0]!);
    const codecs = await db.all<{ c: string }>(`SELECT DISTINCT compression AS c FROM parquet_metadata('${file}')`);
    expect(codecs.map((c) => c.c)).to.deep.equal(['ZSTD']);
    const [{ n }] = await db.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM read_parquet('${join(paths.dataDir, 'parquet', 'species', '*', '*.parquet')}', hive_partitioning = true) WHERE msl = 40`) as [{ n: number }];
    expect(n).to.equal(16213);
  });

  it('records every input with its checksum in the report', () => {
    expect(report.inputs.map((i) => i.file)).to.deep.equal(allInputs(manifest).map((f) => f.file));
    for (const i of report.inputs) expect(i.sha256).to.match(/^[0-9a-f]{64}$/);
  });
});

// The full build on the real ICTV files (../shared/msl), checked against figures read independently of
// the pipeline: SOURCES.md's official counts table and the child_counts strings of the tree exports.
import { expect } from 'chai';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildReport } from '../build/index.js';
import { defaultPaths } from '../build/paths.js';
import { RANKS } from '../build/ingest/types.js';
import { realBuild, realDb, type Db } from './support/data.js';

const paths = defaultPaths();
const shared = paths.mirror!;

/** release -> official species count, from the "Official species counts per release" table of SOURCES.md. */
function officialSpeciesFromSources(): Map<string, number> {
  const text = readFileSync(join(shared, 'SOURCES.md'), 'utf8');
  const section = text.slice(text.indexOf('## Official species counts per release'));
  const out = new Map<string, number>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (!/^MSL\d+$/.test(cells[1] ?? '')) continue;
    // MSL40 lists "16215 (v1), 16213 (v2)": the file in use is v2.
    const cell = cells[4] ?? '';
    const figure = /(\d+) \(v2\)/.exec(cell)?.[1] ?? /\d+/.exec(cell)?.[0];
    out.set(cells[1]!, Number(figure));
  }
  return out;
}

describe('the full build on the real ICTV data', function () {
  this.timeout(600_000);
  let report: BuildReport;
  let db: Db;
  before(async () => {
    report = await realBuild();
    db = await realDb();
  });
  after(() => db.close());

  it('covers all 18 releases, MSL23 to MSL40', () => {
    expect(report.releases.map((r) => r.version)).to.deep.equal(Array.from({ length: 18 }, (_, i) => `MSL${23 + i}`));
  });

  it('has exactly ICTV official species count in every release', () => {
    const official = officialSpeciesFromSources();
    expect(official.size).to.equal(18);
    for (const r of report.releases) expect(r.counts.species, r.version).to.equal(official.get(r.version));
    expect(report.releases.find((r) => r.version === 'MSL40')!.counts.species).to.equal(16213);
  });

  it('matches the child_counts of every tree export for every rank (MSL23-36)', () => {
    for (const r of report.releases.filter((x) => x.species_source === 'tree')) {
      const dir = join(shared, r.version);
      const tree = readdirSync(dir).find((f) => f.startsWith('taxonomy_'))!;
      const root = JSON.parse(readFileSync(join(dir, tree), 'utf8')) as { child_counts: string };
      const words: Record<string, string> = { realms: 'realm', kingdoms: 'kingdom', phyla: 'phylum', subphyla: 'subphylum', classes: 'class', orders: 'order', suborders: 'suborder', families: 'family', subfamilies: 'subfamily', genera: 'genus', subgenera: 'subgenus', species: 'species', realm: 'realm', kingdom: 'kingdom', phylum: 'phylum', subphylum: 'subphylum', class: 'class', order: 'order', suborder: 'suborder', family: 'family', subfamily: 'subfamily', genus: 'genus', subgenus: 'subgenus' };
      for (const part of root.child_counts.split(', ')) {
        const [n, word] = part.split(' ');
        const rank = words[word!] as keyof typeof r.counts;
        expect(r.counts[rank] ?? 0, `${r.version} ${word}`).to.equal(Number(n));
      }
    }
  });

  it('matches the Taxon Counts sheets for genera, families, orders and realms (MSL37-40)', () => {
    const expected: Record<string, [number, number, number, number]> = {
      // genus, family, order, realm as printed in the MSL38, MSL39 and MSL40.v2 Taxon Counts sheets
      MSL37: [2606, 233, 65, 6], MSL38: [2818, 264, 72, 6], MSL39: [3522, 314, 81, 6], MSL40: [3768, 368, 93, 7],
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

  it('never stores the placeholder "Unassigned" and lists each species once per release', async () => {
    const ranks = RANKS.map((r) => `"${r}"`).join(', ');
    const [row] = await db.all<{ placeholders: number; dupes: number; nulls: number }>(`
      SELECT (SELECT count(*) FROM src.species WHERE list_contains(list_transform([${ranks}], x -> lower(x)), 'unassigned'))::INTEGER AS placeholders,
             (SELECT count(*) FROM (SELECT msl, species FROM src.species GROUP BY ALL HAVING count(*) > 1))::INTEGER AS dupes,
             (SELECT count(*) FROM src.species WHERE species IS NULL)::INTEGER AS nulls`);
    expect(row).to.deep.equal({ placeholders: 0, dupes: 0, nulls: 0 });
  });

  it('writes zstd Parquet partitioned by release', async () => {
    const parts = readdirSync(join(paths.dataDir, 'parquet', 'species')).sort();
    expect(parts).to.have.length(18);
    expect(parts[0]).to.equal('msl=23');
    const file = join(paths.dataDir, 'parquet', 'species', 'msl=40', readdirSync(join(paths.dataDir, 'parquet', 'species', 'msl=40'))[0]!);
    const codecs = await db.all<{ c: string }>(`SELECT DISTINCT compression AS c FROM parquet_metadata('${file}')`);
    expect(codecs.map((c) => c.c)).to.deep.equal(['ZSTD']);
    const [{ n }] = await db.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM read_parquet('${join(paths.dataDir, 'parquet', 'species', '*', '*.parquet')}', hive_partitioning = true) WHERE msl = 40`) as [{ n: number }];
    expect(n).to.equal(16213);
  });

  it('records every input with its checksum in the report', () => {
    expect(report.inputs).to.have.length(63);
    for (const i of report.inputs) expect(i.sha256).to.match(/^[0-9a-f]{64}$/);
  });
});

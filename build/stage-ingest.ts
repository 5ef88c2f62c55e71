// Ingest stage: every raw file through its own reader into the staging database, the published tables built
// by build/sql/*.sql, the counts checked against ICTV's own, and everything written out as Parquet.
import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Manifest, Release } from './manifest.js';
import type { Progress } from './progress.js';
import { NAME_NORM_MACRO } from './name-norm.js';
import { Staging, type Columns } from './staging.js';
import { readMergeSplit, readToc, readTsv } from './ingest/tsv.js';
import { readItolLengths, readRefseqMap } from './ingest/genome-lengths.js';
import { readMslSpreadsheet } from './ingest/msl-spreadsheet.js';
import { readOntology } from './ingest/ontology.js';
import { readTreeExport } from './ingest/tree-json.js';
import { readVmr } from './ingest/vmr.js';
import { readVmrTable } from './ingest/vmr-table.js';
import { type GenomeLength, type Lineage, type MslRow, type OntologyTaxon, type RenameRow, type TaxonCounts, type TreeNode, type TreeShortfall, type VmrRow } from './ingest/types.js';
import { RANKS, type Rank } from '../src/shared/ranks.js';

export interface ReleaseReport {
  version: string;
  msl: number;
  year: number;
  label: string;
  species_source: 'tree' | 'msl';
  layout: string;
  counts: Partial<Record<Rank, number>>;
  official_counts: Partial<Record<Rank, number>>;
  official_source: string;
  /** counts equal official_counts on every checked rank, or every difference is explained (count_differences). */
  counts_match: boolean;
  /**
   * Why a count differs from ICTV's where the export cannot reproduce it: taxa the export's own
   * child_counts declare under a node but that the export does not hold. The build fails on a difference
   * these do not add up to.
   */
  count_differences: CountDifference[];
  /** Names that stand for several taxa of one rank in the release (each counted, as ICTV counts them). */
  shared_names: Array<{ rank: Rank; name: string; taxa: number; where: string }>;
  attribute_join: {
    species: number;
    matched: number;
    by_taxnode: number;
    by_exact_name: number;
    by_normalised_name: number;
    rate: number;
    unmatched: string[];
  } | null;
  ictv_id_coverage: number;
  warnings: string[];
}

export interface CountDifference {
  rank: Rank;
  ours: number;
  official: number;
  explained: boolean;
  reasons: string[];
}

export interface IngestReport {
  releases: ReleaseReport[];
  tables: Record<string, { rows: number }>;
  warnings: string[];
}

/** Ranks whose counts must equal ICTV's for the build to succeed (the others are reported). */
const CHECKED_RANKS: Rank[] = ['realm', 'order', 'family', 'genus', 'species'];

const lineageColumns = <T extends Lineage>(): Columns<T> => RANKS.map((r) => [r, 'VARCHAR', (x: T) => x[r]] as const);

export async function ingest(
  manifest: Manifest, rawDir: string, sqlDir: string, parquetDir: string, progress: Progress,
): Promise<IngestReport> {
  const raw = (file: string) => join(rawDir, file);
  const mslRows: Array<MslRow & { msl: number }> = [];
  const treeNodes: Array<TreeNode & { msl: number; walkOrder: number }> = [];
  const ontology: Array<OntologyTaxon & { msl: number }> = [];
  const vmrRows: Array<VmrRow & { msl: number }> = [];
  const renames: Array<RenameRow & { msl: number }> = [];
  const official: Array<{ msl: number; rank: Rank; count: number; source: string; own: boolean }> = [];
  const officialChanges: Array<{ msl: number; rank: Rank; change: string; count: number; source: string }> = [];
  const perRelease = new Map<number, { layout: string; warnings: string[]; shortfalls: TreeShortfall[] }>();

  // a step per release (its files, read in turn), then the cross-release and enrichment tables
  const bar = progress.bar('reading raw files', manifest.releases.length + 2);
  for (const rel of manifest.releases) {
    const warnings: string[] = [];
    const extra = { layout: 'tree export', warnings, shortfalls: [] as TreeShortfall[] };
    perRelease.set(rel.msl, extra);
    if (rel.files.msl) {
      const file = rel.files.msl.file;
      const wb = readMslSpreadsheet(raw(file), rel.msl);
      for (const row of wb.rows) mslRows.push({ ...row, msl: rel.msl });
      for (const row of wb.renames) renames.push({ ...row, msl: rel.msl });
      warnings.push(...wb.warnings);
      for (const tc of wb.taxonCounts) {
        const source = `${file} 'Taxon Counts' ${tc.column}`;
        addOfficial(official, tc, source, tc.msl === rel.msl);
        // The first table of a sheet wins, as for the totals (MSL40.v2's sheet leads with v2's changes).
        if (officialChanges.some((c) => c.msl === tc.msl)) continue;
        for (const [change, counts] of Object.entries(tc.changes)) {
          for (const rank of RANKS) {
            if (counts[rank] !== undefined) officialChanges.push({ msl: tc.msl, rank, change, count: counts[rank]!, source });
          }
        }
      }
      extra.layout = wb.layout;
    }

    if (rel.files.tree) {
      const tree = readTreeExport(raw(rel.files.tree.file));
      tree.nodes.forEach((n, i) => treeNodes.push({ ...n, msl: rel.msl, walkOrder: i }));
      warnings.push(...tree.warnings);
      extra.shortfalls = tree.shortfalls;
      for (const rank of RANKS) {
        official.push({ msl: rel.msl, rank, count: tree.officialCounts[rank] ?? 0, source: `${rel.files.tree.file} child_counts`, own: true });
      }
    }
    if (rel.files.ontology) {
      for (const t of await readOntology(raw(rel.files.ontology.file))) ontology.push({ ...t, msl: rel.msl });
    }
    if (rel.files.vmr) {
      // A VMR workbook, or the same isolates as ICTV's database table (text).
      const file = raw(rel.files.vmr.file);
      const vmr = /\.xlsx?$/i.test(file) ? readVmr(file, rel.msl) : readVmrTable(file);
      for (const row of vmr.rows) vmrRows.push({ ...row, msl: rel.msl });
      warnings.push(...vmr.warnings);
    }
    bar.tick(`${rel.version} (${rel.label}): ${Object.values(rel.files).map((f) => basename(f.file)).join(', ')}`);
  }

  const cr = manifest.crossRelease;
  const mergeSplit = readMergeSplit(raw(cr.node_merge_split.file));
  const toc = readToc(raw(cr.toc.file));
  bar.tick('cross-release tables');
  const lengths: GenomeLength[] = [
    ...readRefseqMap(raw(manifest.enrichment.refseq_map.file)),
    ...readItolLengths(raw(manifest.enrichment.itol_lengths.file)),
  ];
  bar.tick('genome lengths');
  bar.done();

  const db = await Staging.open();
  try {
    const step = progress.bar('building tables', 6);
    await db.load('raw_msl_rows', [
      ['msl', 'INTEGER', (r) => r.msl], ['row', 'INTEGER', (r) => r.row], ['sort', 'INTEGER', (r) => r.sort],
      ...lineageColumns<MslRow & { msl: number }>(),
      ['type_species', 'BOOLEAN', (r) => r.typeSpecies], ['genome_composition', 'VARCHAR', (r) => r.genomeComposition],
      ['last_change', 'VARCHAR', (r) => r.lastChange], ['msl_of_last_change', 'INTEGER', (r) => r.mslOfLastChange],
      ['proposal', 'VARCHAR', (r) => r.proposal], ['taxnode_id', 'BIGINT', (r) => r.taxnodeId], ['ictv_id', 'BIGINT', (r) => r.ictvId],
    ], mslRows);
    await db.load('raw_tree_nodes', [
      ['msl', 'INTEGER', (r) => r.msl], ['walk_order', 'INTEGER', (r) => r.walkOrder],
      ['taxnode_id', 'BIGINT', (r) => r.taxnodeId], ['parent_taxnode_id', 'BIGINT', (r) => r.parentTaxnodeId],
      ['rank', 'VARCHAR', (r) => r.rank], ['name', 'VARCHAR', (r) => r.name],
      ...RANKS.map((r) => [r, 'VARCHAR', (x: TreeNode) => x.lineage[r]] as const),
    ], treeNodes);
    await db.load('raw_ontology', [
      ['msl', 'INTEGER', (r) => r.msl], ['ictv_id', 'BIGINT', (r) => r.ictvId], ['name', 'VARCHAR', (r) => r.name],
      ['parent_ictv_id', 'BIGINT', (r) => r.parentIctvId], ['replaced_by', 'BIGINT[]', (r) => r.replacedBy],
      ['obsolescence', 'VARCHAR', (r) => r.obsolescence], ['synonyms', 'VARCHAR[]', (r) => r.synonyms],
    ], ontology);
    await db.load('raw_vmr', [
      ['msl', 'INTEGER', (r) => r.msl], ['row', 'INTEGER', (r) => r.row], ['isolate_id', 'VARCHAR', (r) => r.isolateId],
      ['species_sort', 'INTEGER', (r) => r.speciesSort], ['isolate_sort', 'INTEGER', (r) => r.isolateSort],
      ...lineageColumns<VmrRow & { msl: number }>(),
      ['ictv_id', 'BIGINT', (r) => r.ictvId], ['exemplar', 'VARCHAR', (r) => r.exemplar],
      ['virus_names', 'VARCHAR', (r) => r.virusNames], ['abbreviations', 'VARCHAR', (r) => r.abbreviations],
      ['isolate_designation', 'VARCHAR', (r) => r.isolateDesignation], ['genbank', 'VARCHAR', (r) => r.genbank],
      ['refseq', 'VARCHAR', (r) => r.refseq], ['genome_coverage', 'VARCHAR', (r) => r.genomeCoverage],
      ['genome_composition', 'VARCHAR', (r) => r.genomeComposition], ['host_source', 'VARCHAR', (r) => r.hostSource],
      ['taxnode_id', 'BIGINT', (r) => r.taxnodeId], ['refseq_organism', 'VARCHAR', (r) => r.refseqOrganism],
      ['refseq_taxids', 'VARCHAR', (r) => r.refseqTaxids], ['prev_change', 'VARCHAR', (r) => r.prevChange],
      ['prev_species', 'VARCHAR', (r) => r.prevSpecies], ['prev_taxnode_id', 'BIGINT', (r) => r.prevTaxnodeId],
      ['prev_proposal', 'VARCHAR', (r) => r.prevProposal],
    ], vmrRows);
    step.tick('raw tables');

    await db.load('renames', [
      ['msl', 'INTEGER', (r) => r.msl], ['row', 'INTEGER', (r) => r.row], ['ictv_id', 'BIGINT', (r) => r.ictvId],
      ['rank', 'VARCHAR', (r) => r.rank], ['change', 'VARCHAR', (r) => r.change], ['old_name', 'VARCHAR', (r) => r.oldName],
      ['new_name', 'VARCHAR', (r) => r.newName], ['proposal', 'VARCHAR', (r) => r.proposal],
    ], renames);
    await db.load('official_counts', [
      ['msl', 'INTEGER', (r) => r.msl], ['rank', 'VARCHAR', (r) => r.rank], ['count', 'INTEGER', (r) => r.count],
      ['source', 'VARCHAR', (r) => r.source], ['own_release', 'BOOLEAN', (r) => r.own],
    ], official);
    await db.load('official_changes', [
      ['msl', 'INTEGER', (r) => r.msl], ['rank', 'VARCHAR', (r) => r.rank], ['change', 'VARCHAR', (r) => r.change],
      ['count', 'INTEGER', (r) => r.count], ['source', 'VARCHAR', (r) => r.source],
    ], officialChanges);
    await db.load('merge_split', [
      ['prev_ictv_id', 'BIGINT', (r) => r.prevIctvId], ['next_ictv_id', 'BIGINT', (r) => r.nextIctvId],
      ['is_merged', 'BOOLEAN', (r) => r.isMerged], ['is_split', 'BOOLEAN', (r) => r.isSplit],
      ['is_recreated', 'BOOLEAN', (r) => r.isRecreated], ['dist', 'INTEGER', (r) => r.dist], ['rev_count', 'INTEGER', (r) => r.revCount],
    ], mergeSplit);
    await db.load('toc', [
      ['tree_id', 'BIGINT', (r) => r.treeId], ['msl', 'INTEGER', (r) => r.msl],
      ['version_tag', 'VARCHAR', (r) => r.versionTag], ['comments', 'VARCHAR', (r) => r.comments],
    ], toc);
    await db.load('genome_lengths', [
      ['accession', 'VARCHAR', (r) => r.accession], ['length_bp', 'BIGINT', (r) => r.lengthBp], ['source', 'VARCHAR', (r) => r.source],
    ], lengths);
    await db.load('releases', [
      ['version', 'VARCHAR', (r) => r.version], ['msl', 'INTEGER', (r) => r.msl], ['year', 'INTEGER', (r) => r.year],
      ['label', 'VARCHAR', (r) => r.label], ['tree_id', 'BIGINT', (r) => r.treeId],
      ['species_source', 'VARCHAR', (r) => (r.files.tree ? 'tree' : 'msl')],
      ['has_spreadsheet', 'BOOLEAN', (r) => r.files.msl !== undefined],
    ], manifest.releases);
    // Input provenance travels with the data set, so /historical/releases can cite files and checksums.
    const inputs = [
      ...manifest.releases.flatMap((r) => Object.entries(r.files).map(([role, f]) => ({ msl: r.msl as number | null, role, f }))),
      ...Object.entries(manifest.crossRelease).map(([role, f]) => ({ msl: null, role: `cross_release/${role}`, f })),
      ...Object.entries(manifest.enrichment).map(([role, f]) => ({ msl: null, role: `enrichment/${role}`, f })),
    ];
    await db.load('inputs', [
      ['msl', 'INTEGER', (r) => r.msl], ['role', 'VARCHAR', (r) => r.role], ['file', 'VARCHAR', (r) => r.f.file],
      ['sha256', 'VARCHAR', (r) => r.f.sha256], ['bytes', 'BIGINT', (r) => r.f.bytes],
      ['repository', 'VARCHAR', (r) => r.f.source.repository], ['commit', 'VARCHAR', (r) => r.f.source.commit],
      ['path', 'VARCHAR', (r) => r.f.source.path], ['url', 'VARCHAR', (r) => r.f.url],
    ], inputs);
    // The small ICTV vocabularies are published as they are, one table each, all columns text.
    for (const key of ['molecule', 'level', 'host_source', 'genome_coverage', 'change_in', 'change_out'] as const) {
      const rows = readTsv(raw(cr[key].file), []);
      const cols = Object.keys(rows[0] ?? {});
      await db.load(`vocab_${key}`, cols.map((c) => [c, 'VARCHAR', (r: Record<string, string | null>) => r[c]] as const), rows);
    }
    step.tick('vocabularies');

    const sql = (name: string) => join(sqlDir, `${name}.sql`);
    await db.all(NAME_NORM_MACRO);
    await db.runFile(sql('taxa'));
    step.tick('taxa');
    await db.runFile(sql('species'));
    step.tick('species');
    await db.runFile(sql('taxon_nodes'));
    await db.runFile(sql('isolates'));
    step.tick('taxon_nodes, isolates');

    // Species are followed from release to release by taxnode id (a name may stand for two species of one
    // release), so every species needs one of its own.
    const keyless = await db.all<{ msl: number; species: string; why: string }>(`
      SELECT msl, species, CASE WHEN taxnode_id IS NULL THEN 'no taxnode id' ELSE 'taxnode id ' || taxnode_id || ' used twice' END AS why
      FROM species QUALIFY taxnode_id IS NULL OR count(*) OVER (PARTITION BY taxnode_id) > 1 LIMIT 5`);
    if (keyless.length > 0) {
      throw new Error(`species without a taxnode id of their own (read from the tree export, the spreadsheet's Taxon History URL or its ICTV_ID link): ${
        keyless.map((k) => `MSL${k.msl} '${k.species}' (${k.why})`).join('; ')}`);
    }

    const releases = await releaseReports(db, manifest.releases, perRelease);
    const failed = releases.filter((r) => !r.counts_match);
    if (failed.length > 0) {
      throw new Error(`counts differ from ICTV's official counts, unexplained: ${failed.map((r) => `${r.version} ${describeMismatch(r)}`).join('; ')}`);
    }

    const tables: Record<string, { rows: number }> = {};
    mkdirSync(parquetDir, { recursive: true });
    for (const [table, partitioned] of PUBLISHED) {
      const [{ n }] = await db.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM "${table}"`) as [{ n: number }];
      // A partitioned COPY of no rows writes no file at all, and then the table (and its schema) would be
      // missing: an empty table is written as one plain file instead.
      const hive = partitioned && n > 0;
      const target = join(parquetDir, hive ? table : `${table}.parquet`);
      const opts = hive ? 'FORMAT parquet, COMPRESSION zstd, PARTITION_BY (msl), OVERWRITE_OR_IGNORE' : 'FORMAT parquet, COMPRESSION zstd';
      await db.conn.run(`COPY "${table}" TO '${target.replaceAll("'", "''")}' (${opts})`);
      tables[table] = { rows: n };
    }
    step.tick('parquet');
    step.done();
    return { releases, tables, warnings: [] };
  } finally {
    db.close();
  }
}

/** Published tables and whether they are partitioned by release (hive: species/msl=40/). */
const PUBLISHED: ReadonlyArray<readonly [string, boolean]> = [
  ['species', true], ['taxa', true], ['isolates', true], ['taxon_nodes', true], ['renames', true],
  ['official_counts', false], ['official_changes', false], ['inputs', false], ['merge_split', false], ['toc', false], ['genome_lengths', false], ['releases', false],
  ['vocab_molecule', false], ['vocab_level', false], ['vocab_host_source', false], ['vocab_genome_coverage', false],
  ['vocab_change_in', false], ['vocab_change_out', false],
];

function addOfficial(into: Array<{ msl: number; rank: Rank; count: number; source: string; own: boolean }>, tc: TaxonCounts, source: string, own: boolean): void {
  for (const rank of RANKS) {
    const count = tc.counts[rank];
    if (count !== undefined) into.push({ msl: tc.msl, rank, count, source, own });
  }
}

function describeMismatch(r: ReleaseReport): string {
  const missing = CHECKED_RANKS.filter((k) => r.official_counts[k] === undefined);
  if (missing.length > 0) return `has no official count of ${missing.join(', ')} (neither a tree export nor a Taxon Counts sheet gives one)`;
  return r.count_differences.filter((d) => !d.explained)
    .map((d) => `${d.rank} ${d.ours} (ICTV: ${d.official}${d.reasons.length ? `; explained only: ${d.reasons.join('; ')}` : ''})`).join(', ');
}

/**
 * Each checked rank whose count (taxa in the data) differs from ICTV's, with what explains the difference:
 * the export's own shortfalls. Explained when they add up.
 */
function countDifferences(
  counts: Partial<Record<Rank, number>>, official: Partial<Record<Rank, number>>, shortfalls: TreeShortfall[],
): CountDifference[] {
  const out: CountDifference[] = [];
  for (const rank of CHECKED_RANKS) {
    const ours = counts[rank] ?? 0;
    const theirs = official[rank];
    if (theirs === undefined || theirs === ours) continue;
    const reasons: string[] = [];
    let accounted = 0;
    for (const f of shortfalls.filter((x) => x.rank === rank)) {
      accounted += f.missing;
      const at = f.taxon === null ? 'the release as a whole' : `${f.taxonRank} ${f.taxon}`;
      reasons.push(`${at}: the export's child_counts declare ${f.declared} ${rank} taxa below it but the export holds ${f.found}`
        + ` (${Math.abs(f.missing)} ${f.missing > 0 ? 'not exported, e.g. a taxon with no species' : 'more than declared'})`);
    }
    out.push({ rank, ours, official: theirs, explained: ours + accounted === theirs, reasons });
  }
  return out;
}

async function releaseReports(
  db: Staging, releases: Release[], perRelease: Map<number, { layout: string; warnings: string[]; shortfalls: TreeShortfall[] }>,
): Promise<ReleaseReport[]> {
  // Taxa, not names: 'Unnamed genus' is four genera of MSL15, as ICTV counts them.
  const counts = await db.all<{ msl: number; rank: Rank; n: number }>(
    'SELECT msl, rank, count(*)::INTEGER AS n FROM taxa GROUP BY ALL');
  const shared = await db.all<{ msl: number; rank: Rank; name: string; n: number; where: string }>(`
    SELECT t.msl, t.rank, t.name, count(*)::INTEGER AS n,
           string_agg('taxnode ' || t.taxnode_id || ' in ' || coalesce(p.name, 'no parent taxon'), ', ' ORDER BY t.taxnode_id) AS "where"
    FROM taxa t LEFT JOIN taxa p ON p.msl = t.msl AND p.taxnode_id = t.parent_taxnode_id
    WHERE t.taxnode_id IS NOT NULL
    GROUP BY t.msl, t.rank, t.name HAVING count(*) > 1`);
  // A release's official counts come from its own files where they give them (its tree export, or its
  // own Taxon Counts sheet); otherwise from the next release's sheet (MSL37's total is only in MSL38's).
  // Within one sheet the first table wins: MSL40.v2's sheet leads with the v2 totals.
  const official = await db.all<{ msl: number; rank: Rank; count: number; source: string }>(`
    SELECT msl, rank, first(count ORDER BY own_release DESC, rowid) AS count, first(source ORDER BY own_release DESC, rowid) AS source
    FROM official_counts GROUP BY msl, rank`);
  const joins = await db.all<{ msl: number; species: number; by_taxnode: number; by_exact: number; by_norm: number }>(`
    SELECT msl, count(*)::INTEGER AS species,
           count(*) FILTER (attr_match = 'taxnode')::INTEGER AS by_taxnode,
           count(*) FILTER (attr_match = 'exact')::INTEGER AS by_exact,
           count(*) FILTER (attr_match = 'normalised')::INTEGER AS by_norm
    FROM species WHERE source = 'tree' GROUP BY msl`);
  const unmatched = await db.all<{ msl: number; names: string[] }>(`
    SELECT msl, list(species ORDER BY sort) AS names FROM species WHERE source = 'tree' AND attr_match IS NULL GROUP BY msl`);
  const ictv = await db.all<{ msl: number; share: number }>(
    "SELECT msl, avg((ictv_id_source IN ('msl', 'ontology'))::INTEGER)::DOUBLE AS share FROM species GROUP BY msl");

  return releases.map((rel) => {
    const c: Partial<Record<Rank, number>> = {};
    const o: Partial<Record<Rank, number>> = {};
    let source = '';
    for (const row of counts.filter((x) => x.msl === rel.msl)) c[row.rank] = row.n;
    for (const row of official.filter((x) => x.msl === rel.msl)) {
      o[row.rank] = row.count;
      if (row.rank === 'species') source = row.source;
    }
    const j = joins.find((x) => x.msl === rel.msl);
    const matched = j ? j.by_taxnode + j.by_exact + j.by_norm : 0;
    const extra = perRelease.get(rel.msl)!;
    const differences = countDifferences(c, o, extra.shortfalls);
    return {
      version: rel.version, msl: rel.msl, year: rel.year, label: rel.label,
      species_source: rel.files.tree ? 'tree' : 'msl',
      layout: extra.layout,
      counts: c, official_counts: o, official_source: source,
      counts_match: CHECKED_RANKS.every((k) => o[k] !== undefined) && differences.every((d) => d.explained),
      count_differences: differences,
      shared_names: shared.filter((x) => x.msl === rel.msl).map((x) => ({ rank: x.rank, name: x.name, taxa: x.n, where: x.where })),
      attribute_join: j && rel.files.msl ? {
        species: j.species, matched, by_taxnode: j.by_taxnode, by_exact_name: j.by_exact, by_normalised_name: j.by_norm,
        rate: matched / j.species,
        unmatched: unmatched.find((u) => u.msl === rel.msl)?.names ?? [],
      } : null,
      ictv_id_coverage: ictv.find((x) => x.msl === rel.msl)?.share ?? 0,
      warnings: extra.warnings,
    };
  });
}

// The release manifest (data/releases.json) is the single list of inputs: adding a release means adding one
// entry there. It is validated on load so a typo fails with a path to the bad field, not deep in a reader.
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const InputFile = z.object({
  file: z.string().min(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.number().int().positive(),
  source: z.object({ repository: z.string(), commit: z.string(), path: z.string() }),
  url: z.string().url(),
});
export type InputFile = z.infer<typeof InputFile>;

const Release = z.object({
  version: z.string().regex(/^MSL\d+$/),
  msl: z.number().int().positive(),
  year: z.number().int().min(1971),
  label: z.string().min(4),
  treeId: z.number().int().positive(),
  // A release is read from its official spreadsheet (msl), from ICTV's database tree export (tree), or
  // both; the releases before 2005 exist only as tree exports. A vmr is a VMR workbook (.xlsx) or ICTV's
  // database table species_isolates (tab-separated text).
  files: z.object({
    msl: InputFile.optional(),
    tree: InputFile.optional(),
    ontology: InputFile.optional(),
    vmr: InputFile.optional(),
  }).refine((f) => f.msl !== undefined || f.tree !== undefined, { message: 'a release needs an msl spreadsheet or a tree export' }),
}).refine((r) => r.version === `MSL${r.msl}`, { message: 'version must be MSL<msl>' });
export type Release = z.infer<typeof Release>;

const Manifest = z.object({
  description: z.string(),
  licence: z.string(),
  releases: z.array(Release).min(1),
  crossRelease: z.object({
    node_merge_split: InputFile,
    toc: InputFile,
    molecule: InputFile,
    level: InputFile,
    host_source: InputFile,
    genome_coverage: InputFile,
    change_in: InputFile,
    change_out: InputFile,
    releases: InputFile,
  }),
  enrichment: z.object({ refseq_map: InputFile, itol_lengths: InputFile }),
});
export type Manifest = z.infer<typeof Manifest>;

export function loadManifest(path: string): Manifest {
  const parsed = Manifest.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`manifest ${path}: ${issue.path.join('.')}: ${issue.message}`);
  }
  // ICTV numbers its releases without gaps; a step from a release to the next is then always msl -> msl + 1.
  const versions = parsed.data.releases.map((r) => r.msl);
  if (versions.some((v, i) => i > 0 && v !== versions[i - 1]! + 1)) {
    throw new Error(`manifest ${path}: releases must be listed in order, without gaps, got ${versions.join(', ')}`);
  }
  return parsed.data;
}

/** The manifest with only its first `count` releases (all of them when count is undefined). */
export function firstReleases(m: Manifest, count: number | undefined): Manifest {
  if (count === undefined) return m;
  if (!Number.isInteger(count) || count < 1 || count > m.releases.length) {
    throw new Error(`releases to build: ${count} is not a number of releases from 1 to ${m.releases.length}`);
  }
  return { ...m, releases: m.releases.slice(0, count) };
}

/** Every input file of the manifest, in a stable order (releases first, then shared tables). */
export function allInputs(m: Manifest): InputFile[] {
  return [
    ...m.releases.flatMap((r) => [r.files.msl, r.files.tree, r.files.ontology, r.files.vmr].filter((f) => f !== undefined)),
    ...Object.values(m.crossRelease),
    ...Object.values(m.enrichment),
  ];
}

// The pre-rendered documents each store holds in memory, by read model. Everything answered by key
// (a species in a release, a release pair, a lineage, a release) is one of these.
import { documents as aiDocuments } from './routes/ai.js';
import { documents as historicalDocuments } from './routes/historical.js';
import { documents as searchDocuments } from './routes/search.js';
import { documents as taxonomyDocuments } from './routes/taxonomy.js';
import { DIFF_LIST } from './routes/v1-history.js';
import { definitionsKey, snapshotMismatch } from './doc-snapshot.js';
import { Store, type DocSpec } from './store.js';
import { RELEASES_LIST } from './versions.js';

export const DOCUMENTS: DocSpec[] = [
  { table: 'species_doc', key: ['msl', 'name_key'], doc: 't.doc' },
  // the largest table after species_doc, and read by few requests: held deflated
  { table: 'history_doc', key: ['lineage_id'], doc: 't.doc', compressed: true },
  { table: 'name_lookup', key: ['name_norm'], doc: 't.doc' },
  { table: 'diversity_stats', key: ['msl'], doc: 'to_json(t)' },
  { table: 'compare_rows', key: ['from_msl', 'to_msl'], doc: 't.doc' },
  { table: 'compare_species', key: ['msl', 'idx'], doc: 't.doc' },
  { table: 'compare_exit_proposal', key: ['from_msl', 'to_msl', 'pos'], doc: 't.doc' },
  ...taxonomyDocuments, ...historicalDocuments, ...searchDocuments, ...aiDocuments,
];

/** Small tables every request may need, held as rows. */
export const LISTS: Record<string, string> = {
  releases: RELEASES_LIST,
  release_diff: DIFF_LIST,
};

/** Opens a build; its documents come from the snapshot file when one is given and matches. */
export function openStore(file: string, pool: number, snapshot?: string): Promise<Store> {
  return Store.open(file, { pool, docs: DOCUMENTS, lists: LISTS, ...(snapshot ? { snapshot } : {}) });
}

/**
 * Makes `snapshot` hold the documents of the database `file`, whose build is `buildId` (the build's last
 * step): kept when it already does (its header says so), else written from the database.
 */
export async function refreshDocSnapshot(file: string, snapshot: string, buildId: string): Promise<'current' | 'written'> {
  if (snapshotMismatch(snapshot, buildId, definitionsKey(DOCUMENTS)) === null) return 'current';
  const store = await openStore(file, 2);
  try {
    store.writeSnapshot(snapshot);
    return 'written';
  } finally {
    await store.close();
  }
}

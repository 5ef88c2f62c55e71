// The read models a store holds in memory: the pre-rendered documents (everything answered by key: a species
// in a release, a release pair, a lineage, a release, a name) and the small tables every request may need,
// held as rows. Opening a store, and keeping the snapshot of these documents in step with the build.
import { definitionsKey, snapshotMismatch } from '../store/snapshot-file.js';
import { Store, type DocSpec } from '../store/store.js';
import { loadAbbreviationStems } from './abbreviation-stems.js';
import { DIFF_LIST } from './compare.js';
import { OFFICIAL_LIST } from './official-tallies.js';
import { RELEASES_LIST } from './releases.js';
import { loadSearch } from './search-index.js';
import { loadSpeciesWalks, speciesWalksLoaded } from './species-walks.js';
import { loadSuggestions } from './suggest.js';
import { loadTypeahead } from './typeahead.js';

export const DOCUMENTS: DocSpec[] = [
  // the largest table, and the hottest: stored as it is sent. Deflated it took a fifth of the space, but
  // inflating a document cost more CPU than the rest of its handler (zlib sets up a stream for each).
  { table: 'species_doc', key: ['msl', 'name_key'], doc: 't.doc' },
  // the lineages' histories, read by every history by name (as species_doc, inflating cost more than the rest)
  { table: 'history_doc', key: ['lineage_id'], doc: 't.doc' },
  { table: 'taxon_history_doc', key: ['taxon_id'], doc: 't.doc' },
  // the largest after species_doc, read only by /historical/species/:name/history: stored deflated
  { table: 'species_history_doc', key: ['lineage_id'], doc: 't.doc', compressed: true },
  { table: 'name_lookup', key: ['name_norm'], doc: 't.doc' },
  { table: 'diversity_stats', key: ['msl'], doc: 'to_json(t)' },
  { table: 'compare_rows', key: ['from_msl', 'to_msl'], doc: 't.doc' },
  { table: 'compare_species', key: ['msl', 'idx'], doc: 't.doc' },
  { table: 'compare_exit_proposal', key: ['from_msl', 'to_msl', 'pos'], doc: 't.doc' },
  // /taxonomy
  { table: 'taxonomy_species', key: ['name_key'], doc: 't.doc' },
  { table: 'taxonomy_taxon', key: ['name_key'], doc: 't.doc' },
  { table: 'taxonomy_family', key: ['name_key'], doc: 't.doc' },
  { table: 'taxonomy_families', key: ['msl'], doc: 't.doc' },
  // /historical
  { table: 'release_doc', key: ['msl'], doc: 't.doc' },
  { table: 'release_list_doc', key: ['key'], doc: 't.doc' },
  { table: 'compare_doc', key: ['from_msl', 'to_msl'], doc: 't.doc' },
  { table: 'family_evolution_doc', key: ['name_key'], doc: 't.doc' },
  { table: 'caudovirales_dissolution', key: ['key'], doc: 't.doc' },
  { table: 'timeline_doc', key: ['key'], doc: 't.doc' },
  // the home page's plots
  { table: 'release_figures_doc', key: ['key'], doc: 't.doc' },
  // /search
  { table: 'search_facets', key: ['msl'], doc: 't.doc' },
  { table: 'search_statistics', key: ['msl'], doc: 't.doc' },
  { table: 'search_family_summary', key: ['name_key'], doc: 't.doc' },
  // /ai: every higher taxon's name, for the question parser
  { table: 'taxon_profile', key: ['name_norm'], doc: 't.doc' },
];

/**
 * The version of the fields the in-memory indexes save in the snapshot (ReleaseSearch, SubstringIndex,
 * NameMatcher, the typeahead's names, SpeciesWalks): change it with them, so that a snapshot of the old
 * fields is not read.
 */
export const IMAGE_LAYOUT = 'indexes/2';

/** Small tables every request may need, held as rows. */
export const LISTS: Record<string, string> = {
  releases: RELEASES_LIST,
  release_diff: DIFF_LIST,
  official_tally: OFFICIAL_LIST,
};

/**
 * Opens a build; its documents come from the snapshot file when one is given and matches. previous: the
 * store it is to replace, whose documents it takes over where they are the same. Throws when the database
 * lacks a read model served from memory, or the snapshot's documents are not its rows.
 */
export async function openStore(file: string, pool: number, snapshot?: string, previous?: Store): Promise<Store> {
  const store = await Store.open(file, {
    pool, docs: DOCUMENTS, lists: LISTS, imageLayout: IMAGE_LAYOUT, ...(snapshot ? { snapshot } : {}), ...(previous ? { previous } : {}),
  });
  try {
    await checkTables(store);
    await loadSuggestions(store, previous);
    await loadAbbreviationStems(store, previous);
    loadSpeciesWalks(store, previous);
    await loadSearch(store, previous);
    await loadTypeahead(store, previous);
  } catch (err) {
    await store.close();
    throw err;
  }
  // Loading the in-memory indexes leaves ~100 MB of garbage (query answers, the text they were built from)
  // that V8, with a heap this small and growing slowly, may hold until well into serving: one full collection
  // now, where the start script allows it (--expose-gc), returns it before the store answers anything.
  (globalThis as { gc?: () => void }).gc?.();
  await store.loaded();
  return store;
}

/**
 * Documents read from a snapshot never touch their tables, so a database without them (another schema, a
 * half-written file) would open and fail on the first search. A count reads table metadata only.
 */
async function checkTables(store: Store): Promise<void> {
  const counts = await store.query<{ t: string; n: string }>(
    DOCUMENTS.map((d) => `SELECT '${d.table}' AS t, count(*) AS n FROM main."${d.table}"`).join(' UNION ALL '));
  for (const { t, n } of counts) {
    if (Number(n) !== store.docCount(t)) throw new Error(`read model ${t} has ${n} rows, ${store.docCount(t)} documents were loaded`);
  }
}

/**
 * Makes `snapshot` hold the documents of the database `file`, whose build is `buildId` (the build's last
 * step): kept when it already does (its header says so), else written from the database.
 */
export async function refreshDocSnapshot(file: string, snapshot: string, buildId: string): Promise<'current' | 'written'> {
  if (snapshotMismatch(snapshot, buildId, definitionsKey(DOCUMENTS, IMAGE_LAYOUT)) === null) return 'current';
  const store = await openStore(file, 2);
  try {
    // the walks load after a store opens (from the database, here): their image is made once they are in
    await speciesWalksLoaded(store);
    store.writeSnapshot(snapshot);
    return 'written';
  } finally {
    await store.close();
  }
}

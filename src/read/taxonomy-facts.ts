// Facts of the source tables that the documents do not hold, for /ai/query's relations (src/ai/relations.ts):
// the type species the spreadsheets of MSL23-35 mark, the names of the taxa of one rank in one release, the
// higher-taxon renames and abolitions of one release, and the species changes of one (named). Each is one
// small query over the build's source tables (src.*), kept per opened build once asked.
import type { Store } from '../store.js';

const cache = new WeakMap<Store, Map<string, Promise<unknown>>>();

function once<T>(store: Store, key: string, load: () => Promise<T>): Promise<T> {
  let m = cache.get(store);
  if (!m) {
    m = new Map();
    cache.set(store, m);
  }
  let p = m.get(key) as Promise<T> | undefined;
  if (!p) {
    p = load();
    m.set(key, p);
  }
  return p;
}

export interface TypeSpecies {
  msl: number;
  genus: string;
  species: string;
}

/** Every type species marked, by release and genus (lower case): the spreadsheets of MSL23-35 mark them. */
export function typeSpecies(store: Store): Promise<Map<string, TypeSpecies[]>> {
  return once(store, 'type', async () => {
    const rows = await store.query<{ msl: number; genus: string; species: string }>(
      'SELECT msl::INTEGER AS msl, genus, species FROM src.species WHERE type_species AND genus IS NOT NULL ORDER BY msl, genus, species');
    const out = new Map<string, TypeSpecies[]>();
    for (const r of rows) {
      const key = `${r.msl}|${r.genus.toLowerCase()}`;
      out.set(key, [...(out.get(key) ?? []), { msl: r.msl, genus: r.genus, species: r.species }]);
    }
    return out;
  });
}

/** The releases whose spreadsheets mark type species. */
export async function typeSpeciesReleases(store: Store): Promise<number[]> {
  return [...new Set([...(await typeSpecies(store)).values()].map((v) => v[0]!.msl))].sort((a, b) => a - b);
}

/** The names of the taxa of one rank in one release (species: the species names). */
export function taxaNames(store: Store, msl: number, rank: string): Promise<string[]> {
  return once(store, `taxa|${msl}|${rank}`, async () => {
    const rows = rank === 'species'
      ? await store.query<{ name: string }>('SELECT species AS name FROM src.species WHERE msl = $1 ORDER BY 1', [msl])
      : await store.query<{ name: string }>('SELECT name FROM src.taxa WHERE msl = $1 AND rank = $2 ORDER BY 1', [msl, rank]);
    return rows.map((r) => r.name);
  });
}

// the change lists leave the change empty on many rows: a different last name is a rename, no new name an abolition
const CHANGE = `CASE WHEN change IS NOT NULL THEN change
  WHEN new_name IS NULL OR new_name = '' THEN 'Abolished'
  WHEN split_part(old_name, ';', -1) <> split_part(new_name, ';', -1) THEN 'Renamed' END`;

export interface RenameRow {
  rank: string;
  change: string;
  old_name: string;
  new_name: string | null;
}

/** The higher-taxon renames, moves and abolitions the release's change list records (last name of each path). */
export function renamesIn(store: Store, msl: number): Promise<RenameRow[]> {
  return once(store, `renames|${msl}`, () => store.query<RenameRow>(
    `SELECT * FROM (SELECT rank, ${CHANGE} AS change, split_part(old_name, ';', -1) AS old_name, nullif(split_part(new_name, ';', -1), '') AS new_name
       FROM src.renames WHERE msl = $1) WHERE change IS NOT NULL ORDER BY rank, old_name`, [msl]));
}

/** Where a higher taxon's name went by the change lists of every release: its renames and its abolition. */
export function fateOf(store: Store, name: string): Promise<Array<RenameRow & { msl: number }>> {
  return once(store, `fate|${name.toLowerCase()}`, () => store.query<RenameRow & { msl: number }>(
    `SELECT * FROM (SELECT msl::INTEGER AS msl, rank, ${CHANGE} AS change, split_part(old_name, ';', -1) AS old_name, nullif(split_part(new_name, ';', -1), '') AS new_name
       FROM src.renames WHERE lower(split_part(old_name, ';', -1)) = lower($1)) WHERE change IS NOT NULL ORDER BY msl`, [name]));
}

export interface SpeciesChange {
  old_name: string | null;
  new_name: string | null;
}

/**
 * The species changes of one release against the one before, of one kind (added, removed, renamed, merged,
 * split): release_diff_detail, the model the release change counts come from, so names and counts agree.
 */
export function speciesChanges(store: Store, from: number, to: number, kind: string): Promise<SpeciesChange[]> {
  return once(store, `diff|${from}|${to}|${kind}`, () => store.query<SpeciesChange>(
    `SELECT old_name, new_name FROM release_diff_detail WHERE from_msl = $1 AND to_msl = $2 AND change_type = $3 ORDER BY coalesce(new_name, old_name), old_name`,
    [from, to, kind]));
}

/** The renames whose new name is this one (the names a higher taxon had before), by the change lists. */
export function renamesTo(store: Store, name: string): Promise<Array<RenameRow & { msl: number }>> {
  return once(store, `from|${name.toLowerCase()}`, () => store.query<RenameRow & { msl: number }>(
    `SELECT * FROM (SELECT msl::INTEGER AS msl, rank, ${CHANGE} AS change, split_part(old_name, ';', -1) AS old_name, nullif(split_part(new_name, ';', -1), '') AS new_name
       FROM src.renames WHERE lower(split_part(new_name, ';', -1)) = lower($1)) WHERE change = 'Renamed' OR change LIKE 'Renamed,%' ORDER BY msl`, [name]));
}

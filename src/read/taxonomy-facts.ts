// Facts the documents do not hold, for /ai/query's answers (src/ai/answers/): the type species and the
// merges and splits the lists mark (species_marks), the names of the taxa of one rank in one release
// (taxon_counts), the higher-taxon renames and abolitions of the change lists (taxon_change_list) and the renames
// ICTV's stable ids trace before them (taxon_rename), the species changes of one release (release_diff_detail),
// and the timeline's events. Each is one small query of a
// read model, kept per opened build once asked.
import { distance } from 'fastest-levenshtein';
import type { Store } from '../store/store.js';
import { RANKS, type Rank } from '../shared/ranks.js';

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
      'SELECT msl, genus, species FROM species_marks WHERE type_species AND genus IS NOT NULL ORDER BY msl, genus, species');
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

/** The names of the taxa of one rank above species in one release, each with the names of the taxa above it. */
export function taxaNames(store: Store, msl: number, rank: string): Promise<Array<{ name: string; above: string[] }>> {
  return once(store, `taxa|${msl}|${rank}`, () => store.query<{ name: string; above: string[] }>(
    'SELECT name, list_transform(parents, p -> p.name) AS above FROM taxon_counts WHERE msl = $1 AND rank = $2 ORDER BY 1', [msl, rank]));
}

/**
 * ICTV's own tallies of the changes of taxa above species in a release (its Taxon Counts sheets, MSL38 on), by
 * release, rank and ICTV's word for the change ("New", "New Splits", "Renamed", "Abolished"): counts as the sheet
 * gives them (an abolition negative). A few hundred rows, read once per opened build.
 */
export function officialRankChanges(store: Store): Promise<Map<string, number>> {
  return once(store, 'official-ranks', async () => {
    const rows = await store.query<{ msl: number; rank: string; change: string; count: number }>(
      "SELECT msl::INTEGER AS msl, rank, change, count::INTEGER AS count FROM src.official_changes WHERE rank <> 'species'");
    return new Map(rows.map((r) => [`${r.msl}|${r.rank}|${r.change}`, r.count]));
  });
}

/** The names of the species of one release, in order. */
export function speciesNames(store: Store, msl: number): Promise<string[]> {
  return once(store, `species|${msl}`, async () => (await store.query<{ name: string }>(
    'SELECT species AS name FROM src.species WHERE msl = $1 ORDER BY 1', [msl])).map((r) => r.name));
}

/** The species a release's list marks with a change of this kind ('Merged', 'Split'), as that list names them. */
export function speciesMarked(store: Store, msl: number, change: string): Promise<string[]> {
  return once(store, `marked|${msl}|${change}`, async () => {
    const rows = await store.query<{ species: string }>(
      "SELECT species FROM species_marks WHERE msl = $1 AND (change = $2 OR change LIKE $2 || ',%') ORDER BY species", [msl, change]);
    return rows.map((r) => r.species);
  });
}

export interface RenameRow {
  rank: string;
  change: string;
  old_name: string;
  new_name: string | null;
}

/**
 * Every rename of a taxon above species, from ICTV's stable ids as well as the change lists (taxon_rename): the
 * change lists begin in MSL38, and without the renames the ids trace before it, the genus Dependovirus (renamed
 * Dependoparvovirus in MSL28) would read as abolished and its successor as new. The rank of each side is its
 * rank in its own release ("family>order" where they differ, as the change lists write it). A few hundred rows,
 * read once per opened build.
 */
function idRenames(store: Store): Promise<Array<RenameRow & { msl: number }>> {
  return once(store, 'id-renames', async () => {
    const rows = await store.query<{ msl: number; old_name: string; new_name: string; old_rank: string | null; new_rank: string | null }>(`
      SELECT r.msl::INTEGER AS msl, r.old_name, r.new_name,
             (SELECT min(a.rank) FROM taxon_counts a WHERE a.msl = (SELECT max(p.msl) FROM releases p WHERE p.msl < r.msl) AND a.name = r.old_name) AS old_rank,
             (SELECT min(b.rank) FROM taxon_counts b WHERE b.msl = r.msl AND b.name = r.new_name) AS new_rank
      FROM taxon_rename r ORDER BY r.msl, r.old_name`);
    return rows.map((r) => {
      const from = r.old_rank ?? r.new_rank ?? '', to = r.new_rank ?? from;
      const shift = from === to ? '' : RANKS.indexOf(to as Rank) < RANKS.indexOf(from as Rank) ? ',Promoted' : ',Demoted';
      return { msl: r.msl, rank: from === to ? from : `${from}>${to}`, change: `Renamed${shift}`, old_name: r.old_name, new_name: r.new_name };
    });
  });
}

/** Change-list rows, and the renames the ids trace that the change lists do not record (all of them before MSL38). */
async function withIdRenames<T extends RenameRow>(store: Store, listed: T[], traced: (r: RenameRow & { msl: number }) => boolean, extend: (r: RenameRow & { msl: number }) => T): Promise<T[]> {
  const pair = (x: RenameRow) => `${x.old_name}|${x.new_name ?? ''}`;
  const known = new Set(listed.map(pair));
  const more = (await idRenames(store)).filter((r) => traced(r) && !known.has(pair(r))).map(extend);
  return more.length === 0 ? listed : [...listed, ...more];
}

/**
 * The higher-taxon renames, moves and abolitions of a release: its change list's records, the renames the ids
 * trace, and the respellings the taxa's lineages trace where neither records one ("Sanchirviurs" ->
 * "Sanchirvirus", "Zohali" -> "Zohalivirus" in MSL40: change 'Respelled'), which ICTV's sheet counts neither as
 * abolished nor as renamed. A lineage that went on under another name (MSL39's Brudgevirus as Lohngkovirus) is
 * left as the abolition and the new taxon ICTV counts it as.
 */
export function renamesIn(store: Store, msl: number): Promise<RenameRow[]> {
  return once(store, `renames|${msl}`, async () => {
    const listed = await withIdRenames(store, await store.query<RenameRow>(
      'SELECT rank, change, old_name, new_name FROM taxon_change_list WHERE msl = $1 ORDER BY rank, old_name', [msl]),
    (r) => r.msl === msl, ({ msl: _m, ...r }) => r);
    const known = new Set(listed.map((r) => r.old_name));
    const traced = (await endingRows(store, msl))
      .filter((e) => e.kind === 'renamed' && e.into.length === 1 && !known.has(e.name) && respelled(e.name, e.into[0]!))
      .map((e): RenameRow => ({ rank: e.rank, change: 'Respelled', old_name: e.name, new_name: e.into[0]! }));
    return traced.length === 0 ? listed : [...listed, ...traced];
  });
}

/** The taxa above a higher taxon in one release, highest first, as that release lists them (src.taxa); null if it lists no such taxon. */
export function parentsIn(store: Store, msl: number, name: string): Promise<Array<{ rank: Rank; name: string }> | null> {
  return once(store, `parents|${msl}|${name}`, async () => {
    const cols: Rank[] = RANKS.filter((r) => r !== 'species');
    const [row] = await store.query<Record<string, string | null>>(
      `SELECT rank, ${cols.map((r) => `"${r}"`).join(', ')} FROM src.taxa WHERE msl = $1 AND name = $2 LIMIT 1`, [msl, name]);
    if (!row) return null;
    const own = cols.indexOf(row.rank as Rank);
    return cols.slice(0, own < 0 ? cols.length : own).flatMap((r) => (row[r] ? [{ rank: r, name: row[r]! }] : []));
  });
}

/** A name corrected rather than changed: a letter or two apart, or completed ("Zohali" -> "Zohalivirus"). */
function respelled(from: string, to: string): boolean {
  return to.startsWith(from) || distance(from.toLowerCase(), to.toLowerCase()) <= 2;
}

/**
 * How the higher taxa a release no longer holds went on where they did not end outright (taxon_ending), by name:
 * merged into another taxon, split into several, or their species all taken over by one new taxon ("renamed":
 * MSL39's Brudgevirus by Lohngkovirus, which ICTV counts as an abolition and a new genus).
 */
export function endingsIn(store: Store, msl: number): Promise<Map<string, { kind: 'merged' | 'split' | 'renamed'; into: string[] }>> {
  return once(store, `endings|${msl}`, async () => new Map((await endingRows(store, msl)).map((r) => [r.name, { kind: r.kind, into: r.into }])));
}

interface EndingRow { rank: string; name: string; kind: 'merged' | 'split' | 'renamed'; into: string[] }

/** The rows of endingsIn, by rank and name: read once for it and for the respellings renamesIn adds. */
function endingRows(store: Store, msl: number): Promise<EndingRow[]> {
  return once(store, `ending-rows|${msl}`, async () => (await store.query<EndingRow>(`
    SELECT l.rank, l.name, e.kind, e.into FROM taxon_ending e JOIN taxon_lineage l ON l.taxon_id = e.taxon_id AND l.msl = e.last_msl
    WHERE e.ended_in = 'MSL' || $1 AND e.kind IN ('merged', 'split', 'renamed') AND len(e.into) > 0
    ORDER BY l.rank, l.name`, [msl])).map((r) => ({ ...r, into: [...r.into] })));
}

/** Where a higher taxon's name went, release by release: its renames and its abolition. */
export function fateOf(store: Store, name: string): Promise<Array<RenameRow & { msl: number }>> {
  return once(store, `fate|${name.toLowerCase()}`, async () => (await withIdRenames(store, await store.query<RenameRow & { msl: number }>(
    'SELECT msl, rank, change, old_name, new_name FROM taxon_change_list WHERE lower(old_name) = lower($1) ORDER BY msl', [name]),
  (r) => r.old_name.toLowerCase() === name.toLowerCase(), (r) => r)).sort((a, b) => a.msl - b.msl));
}

export interface SpeciesChange {
  old_name: string | null;
  new_name: string | null;
  /** ICTV's notation of the full lineage on each side ("Riboviria;...;Flaviviridae;Orthoflavivirus;..."). */
  old_lineage: string | null;
  new_lineage: string | null;
}

/**
 * The species changes of one release against the one before, of one kind (added, removed, renamed, merged,
 * split): release_diff_detail, the model the release change counts come from, so names and counts agree.
 */
export function speciesChanges(store: Store, from: number, to: number, kind: string): Promise<SpeciesChange[]> {
  return once(store, `diff|${from}|${to}|${kind}`, () => store.query<SpeciesChange>(
    `SELECT old_name, new_name, old_lineage, new_lineage FROM release_diff_detail WHERE from_msl = $1 AND to_msl = $2 AND change_type = $3 ORDER BY coalesce(new_name, old_name), old_name`,
    [from, to, kind]));
}

/** The renames whose new name is this one (the names a higher taxon had before). */
export function renamesTo(store: Store, name: string): Promise<Array<RenameRow & { msl: number }>> {
  return once(store, `from|${name.toLowerCase()}`, async () => (await withIdRenames(store, await store.query<RenameRow & { msl: number }>(
    "SELECT msl, rank, change, old_name, new_name FROM taxon_change_list WHERE lower(new_name) = lower($1) AND (change = 'Renamed' OR change LIKE 'Renamed,%') ORDER BY msl", [name]),
  (r) => r.new_name?.toLowerCase() === name.toLowerCase(), (r) => r)).sort((a, b) => a.msl - b.msl));
}

export interface TimelineEvent {
  version: string;
  year: number;
  kind: string;
  subject: string | null;
  description: string;
  /** The event's figures as JSON text. */
  figures: string;
}

/** Every event of the timeline (a few hundred rows), by release, kind and subject. */
export function timeline(store: Store): Promise<TimelineEvent[]> {
  return once(store, 'timeline', () => store.query<TimelineEvent>(
    'SELECT version, year::INTEGER AS year, kind, subject, description, figures::VARCHAR AS figures FROM main.timeline ORDER BY msl, kind, subject'));
}

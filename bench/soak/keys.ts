// What the soak's requests are made of, read from the data set itself (the database it serves): every
// (release, species), the current species, release pairs with how many changes each has, higher taxa, and
// the accessions and virus names of the latest VMR. No list of names is written into the soak.
import { DuckDBInstance } from '@duckdb/node-api';

export interface Keys {
  releases: Array<{ version: string; year: number }>;
  latest: string;
  /** Every species of every release. */
  species: Array<{ version: string; name: string }>;
  /** The species of the latest release (answered by /taxonomy/species). */
  current: string[];
  /** Ordered pairs of releases (both directions) with their number of changed species. */
  pairs: Array<{ from: string; to: string; changes: number }>;
  genera: string[];
  families: string[];
  /** The families of the latest release. */
  latestFamilies: string[];
  accessions: string[];
  virusNames: string[];
}

export async function readKeys(dbFile: string): Promise<Keys> {
  const instance = await DuckDBInstance.create(dbFile, { access_mode: 'READ_ONLY' });
  const conn = await instance.connect();
  const all = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJson() as Array<Record<string, string | number | null>>;
  const column = async (sql: string) => (await all(sql)).map((r) => String(Object.values(r)[0]));
  try {
    const releases = (await all('SELECT version, year::INTEGER AS year FROM main.releases ORDER BY msl')).map((r) => ({ version: String(r.version), year: Number(r.year) }));
    const latest = releases[releases.length - 1]!.version;
    const species = (await all("SELECT 'MSL' || msl AS version, species AS name FROM src.species")).map((r) => ({ version: String(r.version), name: String(r.name) }));
    const current = await column('SELECT species FROM src.species WHERE msl = (SELECT max(msl) FROM src.species)');
    const diffs = await all(`SELECT from_version, to_version, (species_added + species_removed + species_renamed + species_reclassified
      + species_merged + species_split + species_ended_by_split + species_formed_by_merge)::INTEGER AS changes FROM main.release_diff`);
    const pairs = diffs.flatMap((d) => [
      { from: String(d.from_version), to: String(d.to_version), changes: Number(d.changes) },
      { from: String(d.to_version), to: String(d.from_version), changes: Number(d.changes) },
    ]);
    const genera = await column('SELECT DISTINCT genus FROM src.species WHERE genus IS NOT NULL');
    const families = await column('SELECT DISTINCT family FROM src.species WHERE family IS NOT NULL');
    const latestFamilies = await column('SELECT DISTINCT family FROM src.species WHERE msl = (SELECT max(msl) FROM src.species) AND family IS NOT NULL');
    const accessions = await column(`SELECT DISTINCT trim(split_part(split_part(genbank, ';', 1), ':', -1)) FROM src.isolates
      WHERE msl = (SELECT max(msl) FROM src.isolates) AND genbank IS NOT NULL AND length(genbank) >= 6`);
    const virusNames = await column(`SELECT DISTINCT trim(split_part(virus_names, ';', 1)) FROM src.isolates
      WHERE msl = (SELECT max(msl) FROM src.isolates) AND virus_names IS NOT NULL`);
    return { releases, latest, species, current, pairs, genera, families, latestFamilies, accessions, virusNames };
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

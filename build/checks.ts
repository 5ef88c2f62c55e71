// Quality figures read back from the freshly projected database for the build report: how much of each
// release is linked to the next (identity coverage) and how well our transitions agree with ICTV's own
// change log ("Last Change" / "MSL of Last Change", MSL29 on).
import { DuckDBInstance } from '@duckdb/node-api';

export interface IdentityCoverage {
  from_version: string;
  to_version: string;
  species: number;
  linked_forward: number;
  abolished: number;
  coverage: number;
}

export interface LastChangeAgreement {
  version: string;
  checked: number;
  agree: number;
  explained_by_higher_rename: number;
  rate: number;
  rate_with_explained: number;
  disagreements: Array<{ species: string; ictv: string; ours: string | null; from_name: string | null; explained: boolean }>;
}

export interface Checks {
  identity_coverage: IdentityCoverage[];
  last_change_agreement: LastChangeAgreement[];
}

export async function runChecks(dbFile: string): Promise<Checks> {
  const instance = await DuckDBInstance.create(dbFile, { access_mode: 'READ_ONLY' });
  const conn = await instance.connect();
  const all = async <T>(sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJson() as unknown as T[];
  try {
    // A data set built without the identity models (a fixture, a partial projections folder) has no figures.
    const models = await all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM information_schema.tables
      WHERE table_schema = 'main' AND table_name IN ('species_transition', 'last_change_check')`);
    if (models[0]!.n < 2) return { identity_coverage: [], last_change_agreement: [] };
    const identity = await all<IdentityCoverage>(`
      SELECT 'MSL' || s.msl AS from_version, 'MSL' || (s.msl + 1) AS to_version,
             count(*)::INTEGER AS species,
             count(*) FILTER (t.change <> 'abolished')::INTEGER AS linked_forward,
             count(*) FILTER (t.change = 'abolished')::INTEGER AS abolished,
             (count(*) FILTER (t.change <> 'abolished') / count(*))::DOUBLE AS coverage
      FROM src.species s
      JOIN (SELECT DISTINCT from_msl, from_name, first(change ORDER BY change = 'abolished') AS change
            FROM species_transition WHERE from_name IS NOT NULL GROUP BY ALL) t
        ON t.from_msl = s.msl AND t.from_name = s.species
      GROUP BY s.msl ORDER BY s.msl`);
    const agreement = await all<Omit<LastChangeAgreement, 'disagreements'> & { msl: number }>(`
      SELECT msl, 'MSL' || msl AS version, count(*)::INTEGER AS checked,
             count(*) FILTER (agrees)::INTEGER AS agree,
             count(*) FILTER (explained_by_higher_rename)::INTEGER AS explained_by_higher_rename,
             avg(coalesce(agrees, false)::INTEGER)::DOUBLE AS rate,
             avg(coalesce(agrees OR explained_by_higher_rename, false)::INTEGER)::DOUBLE AS rate_with_explained
      FROM last_change_check GROUP BY msl ORDER BY msl`);
    const disagreements = await all<{ msl: number; species: string; ictv: string; ours: string | null; from_name: string | null; explained: boolean }>(`
      SELECT msl, species, ictv, ours, from_name, coalesce(explained_by_higher_rename, false) AS explained
      FROM last_change_check WHERE NOT coalesce(agrees, false) ORDER BY msl, explained, species`);
    return {
      identity_coverage: identity,
      last_change_agreement: agreement.map(({ msl, ...a }) => ({
        ...a,
        disagreements: disagreements.filter((d) => d.msl === msl).map(({ msl: _m, ...d }) => d),
      })),
    };
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

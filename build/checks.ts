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
  /** species_transition's rows of the step by change (a split species counts once per product). */
  changes: Record<string, number>;
  /** For a step that links less than 95%: the families that lost the most species to abolition. */
  abolished_by_family: Array<{ family: string | null; species: number; abolished: number }>;
}

/**
 * A release step's species tallies as ICTV counts them (its "Taxon Counts" sheet, from MSL38 on) beside the
 * data set's count of the same thing (official_tally), and for each that differs, every species that makes
 * the difference with the reason the data gives.
 */
export interface OfficialTally {
  change: string;
  ictv: number;
  ours: number;
  ours_counts: string;
  differences: Array<{ species: string; ours: string | null; ictv: string | null; note: string }>;
  note: string | null;
}

export interface OfficialChanges {
  version: string;
  previous: string;
  source: string;
  tallies: OfficialTally[];
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
  official_changes: OfficialChanges[];
}

export async function runChecks(dbFile: string): Promise<Checks> {
  const instance = await DuckDBInstance.create(dbFile, { access_mode: 'READ_ONLY' });
  const conn = await instance.connect();
  const all = async <T>(sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJson() as unknown as T[];
  try {
    // A data set built without the identity models (a fixture, a partial projections folder) has no figures.
    const models = await all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM information_schema.tables
      WHERE table_schema = 'main' AND table_name IN ('species_transition', 'last_change_check', 'official_tally')`);
    if (models[0]!.n < 3) return { identity_coverage: [], last_change_agreement: [], official_changes: [] };
    const identity = await all<Omit<IdentityCoverage, 'changes' | 'abolished_by_family'> & { from_msl: number }>(`
      SELECT s.msl AS from_msl, 'MSL' || s.msl AS from_version, 'MSL' || (s.msl + 1) AS to_version,
             count(*)::INTEGER AS species,
             count(*) FILTER (t.change <> 'abolished')::INTEGER AS linked_forward,
             count(*) FILTER (t.change = 'abolished')::INTEGER AS abolished,
             (count(*) FILTER (t.change <> 'abolished') / count(*))::DOUBLE AS coverage
      FROM src.species s
      JOIN (SELECT from_taxnode, first(change ORDER BY change = 'abolished') AS change
            FROM species_transition WHERE from_taxnode IS NOT NULL GROUP BY ALL) t
        ON t.from_taxnode = s.taxnode_id
      GROUP BY s.msl ORDER BY s.msl`);
    const changes = await all<{ from_msl: number; change: string; n: number }>(`
      SELECT from_msl, change, count(*)::INTEGER AS n FROM species_transition WHERE to_msl IS NOT NULL GROUP BY ALL ORDER BY ALL`);
    const byFamily = await all<{ from_msl: number; family: string | null; species: number; abolished: number }>(`
      SELECT * FROM (
        SELECT s.msl AS from_msl, s.family, count(*)::INTEGER AS species, count(*) FILTER (t.change = 'abolished')::INTEGER AS abolished
        FROM src.species s JOIN species_transition t ON t.from_taxnode = s.taxnode_id
        GROUP BY ALL)
      QUALIFY row_number() OVER (PARTITION BY from_msl ORDER BY abolished DESC, family) <= 8`);
    // ICTV counts a release's changes against the previous release: "New" and "New Splits" arrive, "Abolished"
    // and "Merged" leave, "Renamed" and "Moved" carry on (official_tally says how the data counts each)
    const official = await all<{ to_msl: number; from_msl: number; source: string; tallies: string }>(`
      SELECT to_msl, from_msl, any_value(source) AS source,
             to_json(list({'change': change, 'ictv': ictv, 'ours': ours, 'ours_counts': ours_counts, 'differences': differences, 'note': note}
                          ORDER BY change))::VARCHAR AS tallies
      FROM official_tally GROUP BY ALL ORDER BY to_msl`);
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
      identity_coverage: identity.map(({ from_msl, ...c }) => ({
        ...c,
        changes: Object.fromEntries(changes.filter((x) => x.from_msl === from_msl).map((x) => [x.change, x.n])),
        abolished_by_family: c.coverage < 0.95 ? byFamily.filter((x) => x.from_msl === from_msl && x.abolished > 0).map(({ from_msl: _f, ...x }) => x) : [],
      })),
      official_changes: official.map((o) => ({ version: `MSL${o.to_msl}`, previous: `MSL${o.from_msl}`, source: o.source, tallies: JSON.parse(o.tallies) as OfficialTally[] })),
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

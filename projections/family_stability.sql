-- family_stability: one row per family name ever used (src.taxa, every release): its lifetime, per-step churn, the
-- share of its species that were renamed, moved out, merged, split or abolished, and a stability score.
-- Read by the family stability endpoints.
--
-- Denominator: species-release-steps = for every step n-1 -> n with the family in n-1 (the step in which it
-- ends included), the number of its species in n-1. Each species-step counts at most once per kind:
--   renamed    the species' name changed (renamed, renamed+moved)
--   moved      it was carried on into another family or into none (the family's own rename is no move)
--   merged     it was merged into another species
--   split      it was split (other species were split off it)
--   abolished  it was abolished
-- Rates are those counts / species_steps.
-- stability = greatest(0, 1 - (0.5 * renamed + moved + merged + split + abolished) / species_steps): 1 when none
-- of its species ever changed; a rename weighs half because the species keeps its place (most renames are the
-- MSL36-38 move to binomial names); a species both renamed and moved weighs 1.5. NULL when the family has no
-- species-step (it only exists in the last release, or never had species); such families are not ranked.
-- stability_rank: 1 = most stable, over the families with a stability; equal scores are ordered by more
-- species_steps first (more evidence), full ties share a rank. median_stability: the median over those
-- families, the same on every row, for comparison.
-- depends: family_evolution, species_transition
WITH rel AS (
  SELECT msl, version FROM src.releases
),
family_rename AS (
  SELECT msl, renamed_from AS old_name, family AS new_name FROM family_evolution WHERE renamed_from IS NOT NULL
),
-- each species of a family in n-1 and what happened to it in the step to n (a split species has several links)
species_step AS (
  SELECT t.to_msl AS msl, p.family, t.from_taxnode,
         bool_or(t.change IN ('renamed', 'renamed+moved')) AS renamed,
         bool_or(t.change IN ('unchanged', 'renamed', 'moved', 'renamed+moved')
                 AND n.family IS DISTINCT FROM coalesce(r.new_name, p.family)) AS moved,
         bool_or(t.change = 'merged') AS merged,
         bool_or(t.change = 'split') AS split,
         bool_or(t.change = 'abolished') AS abolished
  FROM species_transition t
  JOIN src.species p ON p.taxnode_id = t.from_taxnode
  LEFT JOIN src.species n ON n.taxnode_id = t.to_taxnode
  LEFT JOIN family_rename r ON r.msl = t.to_msl AND r.old_name = p.family
  WHERE p.family IS NOT NULL
  GROUP BY ALL
),
step AS (
  SELECT s.family, s.msl, rel.version,
         count(*) AS species,
         count(*) FILTER (s.renamed) AS renamed,
         count(*) FILTER (s.moved) AS moved,
         count(*) FILTER (s.merged) AS merged,
         count(*) FILTER (s.split) AS split,
         count(*) FILTER (s.abolished) AS abolished
  FROM species_step s JOIN rel ON rel.msl = s.msl
  GROUP BY ALL
),
churn AS (
  SELECT family,
         list(struct_pack(msl_version := version, species := species, renamed := renamed, moved := moved,
                          merged := merged, split := split, abolished := abolished) ORDER BY msl) AS churn,
         sum(species)::BIGINT AS species_steps, sum(renamed)::BIGINT AS renamed, sum(moved)::BIGINT AS moved,
         sum(merged)::BIGINT AS merged, sum(split)::BIGINT AS split, sum(abolished)::BIGINT AS abolished
  FROM step
  GROUP BY family
),
life AS (
  SELECT family,
         min(msl) AS first_msl, max(msl) AS last_msl, arg_min(version, msl) AS first_version,
         arg_max(version, msl) AS last_version, count(*) AS releases,
         arg_min(species, msl) AS species_first, arg_max(species, msl) AS species_last, max(species) AS species_max,
         arg_min(renamed_from, msl) AS renamed_from,
         flatten(list(events ORDER BY msl)) AS events
  FROM family_evolution
  GROUP BY family
),
scored AS (
  SELECT l.*, (SELECT max(msl) FROM src.releases) = l.last_msl AS current,
         (SELECT any_value(r.new_name) FROM family_rename r WHERE r.old_name = l.family AND r.msl > l.last_msl) AS renamed_to,
         coalesce(c.churn, []) AS churn,
         coalesce(c.species_steps, 0) AS species_steps,
         coalesce(c.renamed, 0) AS renamed, coalesce(c.moved, 0) AS moved, coalesce(c.merged, 0) AS merged,
         coalesce(c.split, 0) AS split, coalesce(c.abolished, 0) AS abolished,
         c.renamed::DOUBLE / c.species_steps AS renamed_rate,
         c.moved::DOUBLE / c.species_steps AS moved_rate,
         c.merged::DOUBLE / c.species_steps AS merged_rate,
         c.split::DOUBLE / c.species_steps AS split_rate,
         c.abolished::DOUBLE / c.species_steps AS abolished_rate,
         CASE WHEN c.species_steps > 0  -- greatest() would turn a NULL score into 0
              THEN greatest(0.0, 1.0 - (0.5 * c.renamed + c.moved + c.merged + c.split + c.abolished)::DOUBLE / c.species_steps)
         END AS stability
  FROM life l LEFT JOIN churn c ON c.family = l.family AND c.species_steps > 0  -- no species-step: NULL rates
)
SELECT family, first_msl, first_version, last_msl, last_version, releases, current, renamed_from, renamed_to,
       species_first, species_last, species_max,
       species_steps, renamed, moved, merged, split, abolished,
       renamed_rate, moved_rate, merged_rate, split_rate, abolished_rate,
       stability,
       CASE WHEN stability IS NOT NULL THEN rank() OVER (ORDER BY stability DESC NULLS LAST, species_steps DESC) END AS stability_rank,
       count(stability) OVER () AS ranked_families,
       median(stability) OVER () AS median_stability,
       churn, events
FROM scored
ORDER BY family

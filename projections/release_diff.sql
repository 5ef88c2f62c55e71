-- release_diff: one row per ordered pair of releases a -> b (a before b: every pair of the data set, not only
-- neighbours) counting how the species list changed between them. Read by GET /api/v1/compare/:from/:to
-- and GET /historical/compare/:from/:to. The counts are release_diff_change's rows per change_type (see that
-- file for the exact definitions), so a count and its detail listing always agree:
--   species_added, species_removed, species_renamed, species_reclassified, species_merged, species_split,
--   species_ended_by_split, species_formed_by_merge
-- A species both renamed and reclassified counts in both columns; species_renamed_and_reclassified counts it
-- once more so that the persisting species can be added up.
--
-- Balance identity (balance_ok), from totals counted straight from src.species and persisting species
-- (lineage present in both releases) counted straight from species_identity:
--   from_total - species_removed - species_merged - species_ended_by_split
--     = species_unchanged + species_renamed + species_reclassified - species_renamed_and_reclassified
--     = to_total - species_added - species_split - species_formed_by_merge
-- hence from_total - species_removed - species_merged - species_ended_by_split
--                  + species_added + species_split + species_formed_by_merge = to_total.
-- It holds only if every species of a and of b is classified exactly once, and only if a lineage has at
-- most one species per release (both are checked here rather than assumed).
-- depends: release_diff_change, species_identity
WITH pairs AS (
  SELECT a.msl AS from_msl, b.msl AS to_msl, a.version AS from_version, b.version AS to_version
  FROM src.releases a JOIN src.releases b ON a.msl < b.msl
),
totals AS (
  SELECT msl, count(*)::INTEGER AS n FROM src.species GROUP BY msl
),
persisting AS (  -- species of a whose lineage has a species in b (pairs of species, so a duplicate shows)
  SELECT p.from_msl, p.to_msl, count(*)::INTEGER AS n
  FROM pairs p
  JOIN species_identity x ON x.msl = p.from_msl
  JOIN species_identity y ON y.msl = p.to_msl AND y.lineage_id = x.lineage_id
  GROUP BY ALL
),
counted AS (
  SELECT from_msl, to_msl,
         (count(*) FILTER (change_type = 'added'))::INTEGER AS species_added,
         (count(*) FILTER (change_type = 'removed'))::INTEGER AS species_removed,
         (count(*) FILTER (change_type = 'renamed'))::INTEGER AS species_renamed,
         (count(*) FILTER (change_type = 'reclassified'))::INTEGER AS species_reclassified,
         (count(*) FILTER (change_type = 'merged'))::INTEGER AS species_merged,
         (count(*) FILTER (change_type = 'split'))::INTEGER AS species_split,
         (count(*) FILTER (change_type = 'ended_by_split'))::INTEGER AS species_ended_by_split,
         (count(*) FILTER (change_type = 'formed_by_merge'))::INTEGER AS species_formed_by_merge,
         -- persisting species with any change: each has a renamed row, a reclassified row or both
         (count(DISTINCT lineage_id) FILTER (change_type IN ('renamed', 'reclassified')))::INTEGER AS changed
  FROM release_diff_change
  GROUP BY ALL
),
diff AS (
  SELECT p.from_msl, p.to_msl, p.from_version, p.to_version,
         coalesce(c.species_added, 0) AS species_added,
         coalesce(c.species_removed, 0) AS species_removed,
         coalesce(c.species_renamed, 0) AS species_renamed,
         coalesce(c.species_reclassified, 0) AS species_reclassified,
         coalesce(c.species_merged, 0) AS species_merged,
         coalesce(c.species_split, 0) AS species_split,
         coalesce(c.species_ended_by_split, 0) AS species_ended_by_split,
         coalesce(c.species_formed_by_merge, 0) AS species_formed_by_merge,
         coalesce(c.species_renamed + c.species_reclassified - c.changed, 0) AS species_renamed_and_reclassified,
         coalesce(k.n, 0) - coalesce(c.changed, 0) AS species_unchanged,
         coalesce(k.n, 0) AS persisting,
         coalesce(ta.n, 0) AS from_total,
         coalesce(tb.n, 0) AS to_total
  FROM pairs p
  LEFT JOIN counted c ON c.from_msl = p.from_msl AND c.to_msl = p.to_msl
  LEFT JOIN persisting k ON k.from_msl = p.from_msl AND k.to_msl = p.to_msl
  LEFT JOIN totals ta ON ta.msl = p.from_msl
  LEFT JOIN totals tb ON tb.msl = p.to_msl
)
SELECT from_msl, to_msl, from_version, to_version,
       species_added, species_removed, species_renamed, species_reclassified, species_merged, species_split,
       species_unchanged, from_total, to_total,
       species_ended_by_split, species_formed_by_merge, species_renamed_and_reclassified,
       from_total - species_removed - species_merged - species_ended_by_split = persisting
         AND to_total - species_added - species_split - species_formed_by_merge = persisting AS balance_ok
FROM diff
ORDER BY from_msl, to_msl

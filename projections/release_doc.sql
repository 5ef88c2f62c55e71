-- release_doc: one row per release: its metadata as one pre-rendered JSON document, so
-- GET /historical/releases/:msl_version is a keyed lookup (msl) and release_list_doc can list all 18.
--   counts / official_counts / counts_match   from releases (our counts per rank, ICTV's own, agreement)
--   growth    species against the previous release (diversity_stats); null on the first release
--   changes   the adjacent pair previous -> this of release_diff (lineage-followed counts, the same numbers as
--             GET /api/v1/compare/<previous>/<this>); total_changes = the sum of the eight change types, i.e.
--             the number of rows its details listing has; null on the first release
--   sources   the files the release was read from (src.inputs rows of that msl) with their checksums;
--             cross-release files (msl NULL) are listed once, by release_list_doc
-- depends: releases, release_diff, diversity_stats
WITH src_files AS (
  SELECT msl,
         list(json_object('role', role, 'file', file, 'sha256', sha256, 'bytes', bytes, 'repository', repository,
                          'commit', "commit", 'path', path, 'url', url) ORDER BY role, file) AS sources
  FROM src.inputs
  WHERE msl IS NOT NULL
  GROUP BY msl
)
SELECT r.msl,
       r.version,
       json_object(
         'version', r.version,
         'release_number', r.msl,
         'year', r.year,
         'label', r.label,
         'previous_version', r.previous_version,
         'next_version', r.next_version,
         'total_species', r.total_species,
         'total_genera', r.total_genera,
         'total_families', r.total_families,
         'total_orders', r.total_orders,
         'total_realms', r.total_realms,
         'counts', r.counts,
         'official_counts', r.official_counts,
         'official_source', r.official_source,
         'counts_match', r.counts_match,
         'growth', CASE WHEN d.prev_species IS NOT NULL THEN json_object(
           'previous_version', r.previous_version,
           'previous_species', d.prev_species,
           'species_delta', d.species_delta,
           'species_growth_pct', d.species_growth_pct) END,
         'changes', CASE WHEN rd.from_msl IS NOT NULL THEN json_object(
           'from_version', rd.from_version,
           'total_changes', rd.species_added + rd.species_removed + rd.species_renamed + rd.species_reclassified
                            + rd.species_merged + rd.species_split + rd.species_ended_by_split + rd.species_formed_by_merge,
           'added', rd.species_added,
           'removed', rd.species_removed,
           'renamed', rd.species_renamed,
           'reclassified', rd.species_reclassified,
           'merged', rd.species_merged,
           'split', rd.species_split,
           'ended_by_split', rd.species_ended_by_split,
           'formed_by_merge', rd.species_formed_by_merge,
           'renamed_and_reclassified', rd.species_renamed_and_reclassified,
           'unchanged', rd.species_unchanged) END,
         'sources', coalesce(f.sources, [])
       )::VARCHAR AS doc
FROM releases r
JOIN diversity_stats d ON d.msl = r.msl
LEFT JOIN release_diff rd ON rd.from_version = r.previous_version AND rd.to_version = r.version   -- the adjacent pair only
LEFT JOIN src_files f ON f.msl = r.msl
ORDER BY r.msl

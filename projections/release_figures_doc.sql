-- release_figures_doc: one row (key 'all'): the figures of every release that the home page plots, as one
-- pre-rendered JSON document, read by GET /api/v1/stats/releases.
--   releases[]   one entry per release, in order:
--     version, year, species          the release and its size
--     species_per_realm               [{realm, species}] (diversity_stats; realm null = species without one,
--                                     every species before realms existed)
--     changes                         the species changes from the release before, by type (release_diff of
--                                     the neighbouring pair; null on the first release)
--     families_per_order              [{order, families}] the families of the release under each order (src.taxa,
--                                     so families without species count too; order null = families in none)
-- depends: releases, diversity_stats, release_diff
WITH rel AS (
  SELECT msl, version, year, lag(msl) OVER (ORDER BY msl) AS prev_msl FROM releases
),
orders AS (
  SELECT msl, list(json_object('order', "order", 'families', families) ORDER BY families DESC, "order" NULLS LAST) AS families_per_order
  FROM (SELECT msl, "order", count(*) AS families FROM src.taxa WHERE rank = 'family' GROUP BY msl, "order")
  GROUP BY msl
)
SELECT 'all' AS key,
       json_object('releases', coalesce(list(json_object(
         'version', r.version, 'year', r.year, 'species', d.species,
         'species_per_realm', (SELECT coalesce(list(json_object('realm', x.realm, 'species', x.species)), []) FROM unnest(d.species_per_realm) AS u(x)),
         'changes', CASE WHEN f.from_msl IS NULL THEN NULL ELSE json_object(
           'added', f.species_added, 'removed', f.species_removed, 'renamed', f.species_renamed,
           'reclassified', f.species_reclassified, 'merged', f.species_merged, 'split', f.species_split,
           'ended_by_split', f.species_ended_by_split, 'formed_by_merge', f.species_formed_by_merge) END,
         'families_per_order', coalesce(o.families_per_order, [])
       ) ORDER BY r.msl), []))::VARCHAR AS doc
FROM rel r
JOIN diversity_stats d ON d.msl = r.msl
LEFT JOIN release_diff f ON f.from_msl = r.prev_msl AND f.to_msl = r.msl
LEFT JOIN orders o ON o.msl = r.msl

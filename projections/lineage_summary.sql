-- lineage_summary: one row per lineage (species_identity.lineage_id): the releases it spans, every name it
-- carried and how it began and ended. Read by GET /api/v1/history/:name (first_appearance,
-- last_appearance) and the history and name-resolution endpoints (an old name -> its current name).
--   names          every name the lineage carried, in order of first use
--   current_name   its name in the latest release, null when it does not reach it
--   began          new | split | merged (as in species_timeline), null when it is present in the first
--                  release of the data set
--   split_from     the species (of the release before first_msl) it was split off, when it began so
--   merged_from    the species (of the release before first_msl) merged to form it, when it began so
--   ended          current (reaches the latest release) | abolished | merged | split
--   abolished_in   the release after its last, when it ended linked to nothing (abolished)
--   merged_into    the species (of the release after last_msl) it was merged into, when it ended so
--   split_into     the species (of the release after last_msl) it was split into, when it ended so
-- depends: species_timeline, species_link, species_identity
WITH releases AS (
  SELECT msl, version, lead(msl) OVER (ORDER BY msl) AS next_msl, max(msl) OVER () AS last_release
  FROM src.releases
),
named AS (  -- each name of a lineage with the release it was first used in
  SELECT lineage_id, name, min(msl) AS since FROM species_timeline GROUP BY ALL
),
span AS (  -- first and last release, with the timeline rows there (how it began, its last name)
  SELECT x.lineage_id, x.first_msl, x.last_msl, f.change AS began, f.from_names AS began_from, l.name AS last_name,
         l.taxnode_id AS last_taxnode
  FROM (SELECT lineage_id, min(msl) AS first_msl, max(msl) AS last_msl FROM species_timeline GROUP BY ALL) x
  JOIN species_timeline f ON f.lineage_id = x.lineage_id AND f.msl = x.first_msl
  JOIN species_timeline l ON l.lineage_id = x.lineage_id AND l.msl = x.last_msl
),
exits AS (  -- the links out of a lineage's last species, to other lineages (it does not carry on)
  SELECT s.lineage_id, max(k.successors) AS successors, list(k.to_name ORDER BY k.to_name) AS to_names
  FROM span s
  JOIN species_link k ON k.from_taxnode = s.last_taxnode
  JOIN species_identity t ON t.taxnode_id = k.to_taxnode
  WHERE t.lineage_id <> s.lineage_id
  GROUP BY ALL
)
SELECT s.lineage_id, s.first_msl, s.last_msl, rf.version AS first_version, rl.version AS last_version,
       (SELECT list(n.name ORDER BY n.since, n.name) FROM named n WHERE n.lineage_id = s.lineage_id) AS names,
       CASE WHEN s.last_msl = rl.last_release THEN s.last_name END AS current_name,
       s.began,
       CASE WHEN s.began = 'split' THEN s.began_from END AS split_from,
       CASE WHEN s.began = 'merged' THEN s.began_from END AS merged_from,
       CASE WHEN s.last_msl = rl.last_release THEN 'current'
            WHEN e.lineage_id IS NULL THEN 'abolished'
            WHEN e.successors > 1 THEN 'split'
            ELSE 'merged' END AS ended,
       CASE WHEN s.last_msl < rl.last_release AND e.lineage_id IS NULL THEN rn.version END AS abolished_in,
       CASE WHEN e.successors = 1 THEN e.to_names END AS merged_into,
       CASE WHEN e.successors > 1 THEN e.to_names END AS split_into
FROM span s
JOIN releases rf ON rf.msl = s.first_msl
JOIN releases rl ON rl.msl = s.last_msl
LEFT JOIN releases rn ON rn.msl = rl.next_msl
LEFT JOIN exits e ON e.lineage_id = s.lineage_id
ORDER BY s.lineage_id

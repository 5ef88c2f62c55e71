-- species_transition: one row per species per step from a release to the next saying what happened:
-- unchanged, renamed, moved (lineage above species changed), renamed+moved, merged (the from-species was
-- merged into to_name), split (the to-species was split from from_name), new, abolished. Species are keyed
-- by taxnode id (from_taxnode, to_taxnode), as in species_link; the names are for reading.
-- Read by species_timeline, release_diff, family_evolution and the Last Change cross-check.
-- "moved" means the lineage above the species changed, whatever the cause (its genus moved, a rank was
-- added above it, a higher taxon was renamed). higher_renamed says a taxon above it was renamed in that
-- step (ontology stable ids where a release has an ontology file, the "Taxa Renamed ..." sheets from MSL38
-- on): ICTV's own change log records such species as "Moved" up to MSL37 and as "Renamed" from MSL38 on
-- (see last_change_check).
-- depends: species_link, taxon_rename
WITH steps AS (
  SELECT msl AS from_msl, lead(msl) OVER (ORDER BY msl) AS to_msl FROM src.releases
),
lin AS (
  SELECT s.msl, s.taxnode_id, s.species, s.proposal,
         [s.realm, s.subrealm, s.kingdom, s.subkingdom, s.phylum, s.subphylum, s.class, s.subclass,
          s."order", s.suborder, s.family, s.subfamily, s.genus, s.subgenus] AS above
  FROM src.species s
),
rename_map AS (  -- higher taxa renamed in the step into msl, by their old name
  SELECT st.from_msl, map_from_entries(list((r.old_name, r.new_name))) AS m
  FROM (SELECT msl, old_name, any_value(new_name) AS new_name FROM taxon_rename GROUP BY ALL) r
  JOIN steps st ON st.to_msl = r.msl
  GROUP BY st.from_msl
),
mapped AS (
  SELECT l.*, coalesce(list_bool_or(list_transform(l.above, x -> rm.m[x] IS NOT NULL)), false) AS higher_renamed
  FROM lin l LEFT JOIN rename_map rm ON rm.from_msl = l.msl
),
linked AS (
  SELECT k.from_msl, k.to_msl, k.from_taxnode, k.to_taxnode, k.from_name, k.to_name,
         CASE
           WHEN k.continues THEN
             CASE WHEN k.from_name <> k.to_name AND m.above <> t.above THEN 'renamed+moved'
                  WHEN k.from_name <> k.to_name THEN 'renamed'
                  WHEN m.above <> t.above THEN 'moved'
                  ELSE 'unchanged' END
           WHEN k.predecessors > 1 THEN 'merged'
           ELSE 'split'
         END AS change,
         m.higher_renamed, t.proposal
  FROM species_link k
  JOIN mapped m ON m.taxnode_id = k.from_taxnode
  JOIN lin t ON t.taxnode_id = k.to_taxnode
)
SELECT from_msl, to_msl, from_taxnode, to_taxnode, from_name, to_name, change, higher_renamed, proposal FROM linked
UNION ALL
SELECT st.from_msl, s.msl, NULL, s.taxnode_id, NULL, s.species, 'new', false, s.proposal
FROM src.species s JOIN steps st ON st.to_msl = s.msl
ANTI JOIN species_link k ON k.to_taxnode = s.taxnode_id
UNION ALL
SELECT s.msl, st.to_msl, s.taxnode_id, NULL, s.species, NULL, 'abolished', false, NULL
FROM src.species s JOIN steps st ON st.from_msl = s.msl
ANTI JOIN species_link k ON k.from_taxnode = s.taxnode_id
WHERE st.to_msl IS NOT NULL
ORDER BY 2, 6, 5

-- species_transition: one row per species per consecutive release step (n -> n+1) saying what happened:
-- unchanged, renamed, moved (lineage above species changed), renamed+moved, merged (the from-species was
-- merged into to_name), split (the to-species was split from from_name), new, abolished.
-- Read by species_timeline, release_diff, family_evolution and the Last Change cross-check.
-- "moved" means the lineage above the species changed, whatever the cause (its genus moved, a rank was
-- added above it, a higher taxon was renamed). higher_renamed says a taxon above it was renamed in that
-- step (ontology stable ids for MSL23-38, the "Taxa Renamed ..." sheets for MSL38-40): ICTV's own change
-- log records such species as "Moved" up to MSL37 and as "Renamed" from MSL38 on (see last_change_check).
-- depends: species_link, species_identity
WITH steps AS (
  SELECT msl AS from_msl, lead(msl) OVER (ORDER BY msl) AS to_msl FROM src.releases
),
higher_renames AS (
  SELECT DISTINCT a.msl AS from_msl, a.name AS old_name, b.name AS new_name
  FROM src.taxon_nodes a JOIN src.taxon_nodes b ON b.msl = a.msl + 1 AND b.ictv_id = a.ictv_id
  WHERE a.name <> b.name AND coalesce(a.rank, '') <> 'species'
  UNION
  SELECT DISTINCT r.msl - 1, list_last(string_split(r.old_name, ';')), list_last(string_split(r.new_name, ';'))
  FROM src.renames r
  WHERE r.new_name IS NOT NULL AND r.rank <> 'species'
),
lin AS (
  SELECT s.msl, s.species, s.proposal,
         [s.realm, s.subrealm, s.kingdom, s.subkingdom, s.phylum, s.subphylum, s.class, s.subclass,
          s."order", s.suborder, s.family, s.subfamily, s.genus, s.subgenus] AS above
  FROM src.species s
),
rename_map AS (
  SELECT from_msl, map_from_entries(list((old_name, new_name))) AS m
  FROM (SELECT from_msl, old_name, any_value(new_name) AS new_name FROM higher_renames GROUP BY ALL)
  GROUP BY from_msl
),
mapped AS (
  SELECT l.msl, l.species, l.above,
         coalesce(list_bool_or(list_transform(l.above, x -> rm.m[x] IS NOT NULL)), false) AS higher_renamed
  FROM lin l LEFT JOIN rename_map rm ON rm.from_msl = l.msl
),
linked AS (
  SELECT k.from_msl, k.to_msl, k.from_name, k.to_name,
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
  JOIN mapped m ON m.msl = k.from_msl AND m.species = k.from_name
  JOIN lin t ON t.msl = k.to_msl AND t.species = k.to_name
)
SELECT from_msl, to_msl, from_name, to_name, change, higher_renamed, proposal FROM linked
UNION ALL
SELECT st.from_msl, s.msl, NULL, s.species, 'new', false, s.proposal
FROM src.species s JOIN steps st ON st.to_msl = s.msl
WHERE NOT EXISTS (SELECT 1 FROM species_link k WHERE k.to_msl = s.msl AND k.to_name = s.species)
UNION ALL
SELECT s.msl, st.to_msl, s.species, NULL, 'abolished', false, NULL
FROM src.species s JOIN steps st ON st.from_msl = s.msl
WHERE st.to_msl IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM species_link k WHERE k.from_msl = s.msl AND k.from_name = s.species)
ORDER BY 2, 4, 3

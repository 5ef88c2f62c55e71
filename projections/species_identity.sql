-- species_identity: one row per (release, species) with the lineage it belongs to. Read by every model
-- that follows a species through time. A lineage is a chain of species_link rows that carry the taxon on
-- (renames and moves included); a merge or split ends or starts lineages, recorded in species_transition.
-- lineage_id is ICTV's own stable id of the taxon (its ICTV_ID in the last release the lineage reaches),
-- falling back to the first taxnode id for the few species ICTV's files give no id.
-- depends: species_link
WITH RECURSIVE ids AS (
  SELECT s.msl, s.species, s.taxnode_id,
         coalesce(s.ictv_id, (SELECT any_value(l.to_ictv_id) FROM species_link l WHERE l.to_msl = s.msl AND l.to_name = s.species),
                  s.taxnode_id) AS ictv_id
  FROM src.species s
),
cont AS (SELECT from_msl, from_name, to_name FROM species_link WHERE continues),
chain(start_msl, start_name, msl, species) AS (
  SELECT i.msl, i.species, i.msl, i.species
  FROM ids i
  WHERE NOT EXISTS (SELECT 1 FROM cont c WHERE c.from_msl + 1 = i.msl AND c.to_name = i.species)
  UNION ALL
  SELECT ch.start_msl, ch.start_name, c.from_msl + 1, c.to_name
  FROM chain ch JOIN cont c ON c.from_msl = ch.msl AND c.from_name = ch.species
),
lineage AS (
  SELECT ch.start_msl, ch.start_name,
         coalesce(arg_max(i.ictv_id, ch.msl), arg_min(i.taxnode_id, ch.msl)) AS lineage_id
  FROM chain ch JOIN ids i ON i.msl = ch.msl AND i.species = ch.species
  GROUP BY ALL
)
SELECT ch.msl, ch.species, lower(ch.species) AS name_key, i.ictv_id, i.taxnode_id, l.lineage_id
FROM chain ch
JOIN ids i ON i.msl = ch.msl AND i.species = ch.species
JOIN lineage l ON l.start_msl = ch.start_msl AND l.start_name = ch.start_name
ORDER BY ch.msl, ch.species

-- species_identity: one row per species of every release (keyed by taxnode_id) with the lineage it belongs
-- to. Read by every model that follows a species through time. A lineage is a chain of species_link rows
-- that carry the taxon on (renames and moves included); a merge or split ends or starts lineages, recorded
-- in species_transition. lineage_id is ICTV's own stable id of the taxon (its ICTV id in the last release
-- the lineage reaches), falling back to the first taxnode id for the few species ICTV's files give no id.
-- depends: species_link
WITH RECURSIVE ids AS (
  SELECT s.msl, s.taxnode_id, s.species,
         coalesce(s.ictv_id, (SELECT any_value(l.to_ictv_id) FROM species_link l WHERE l.to_taxnode = s.taxnode_id),
                  s.taxnode_id) AS ictv_id
  FROM src.species s
),
cont AS (SELECT from_taxnode, to_taxnode FROM species_link WHERE continues),
chain(start_taxnode, taxnode_id) AS (
  SELECT i.taxnode_id, i.taxnode_id
  FROM ids i
  ANTI JOIN cont c ON c.to_taxnode = i.taxnode_id
  UNION ALL
  SELECT ch.start_taxnode, c.to_taxnode
  FROM chain ch JOIN cont c ON c.from_taxnode = ch.taxnode_id
),
lineage AS (
  SELECT ch.start_taxnode,
         coalesce(arg_max(i.ictv_id, i.msl), arg_min(i.taxnode_id, i.msl)) AS lineage_id
  FROM chain ch JOIN ids i ON i.taxnode_id = ch.taxnode_id
  GROUP BY ALL
)
SELECT i.msl, i.taxnode_id, i.species, lower(i.species) AS name_key, i.ictv_id, l.lineage_id
FROM chain ch
JOIN ids i ON i.taxnode_id = ch.taxnode_id
JOIN lineage l ON l.start_taxnode = ch.start_taxnode
ORDER BY i.msl, i.species, i.taxnode_id

-- species_link: one row per link between a species of release n and a species of release n+1 that is the
-- same taxon, its merge target or one of its split products. Read by species_identity and
-- species_transition. Rules, tried in order; a later rule only links species no earlier rule linked:
--   ontology  the EVORA "term replaced by" taxnode ids of release n (MSL23-38 -> MSL24-39)
--   ictv_id   same ICTV id on both sides (MSL39 has no ids of its own: it inherits them through the
--             MSL38 ontology links, which is what bridges MSL39 -> MSL40's ICTV_ID column)
--   taxnode   the n+1 ICTV id is the n taxnode id (a taxon created in n keeps its creation taxnode as id)
--   name      the same name in both releases (the few species missing from an ontology file)
WITH onto AS (
  SELECT s.msl AS from_msl, s.species AS from_name, n.species AS to_name, tn.obsolescence
  FROM src.species s
  JOIN src.taxon_nodes tn ON tn.msl = s.msl AND tn.ictv_id = s.ictv_id
  CROSS JOIN unnest(tn.replaced_by) AS u(next_taxnode)
  JOIN src.species n ON n.msl = s.msl + 1 AND n.taxnode_id = u.next_taxnode
),
-- MSL39's ids: a species keeps the id of a predecessor that continues into it alone, or of the one that
-- is not obsolete in a merge; otherwise (new, split product) its own taxnode id, as ICTV assigns them.
inherited AS (
  SELECT o.from_msl + 1 AS msl, o.to_name AS species,
         CASE WHEN count(*) = 1 AND max(succ.n) = 1 THEN any_value(p.ictv_id)
              ELSE max(p.ictv_id) FILTER (o.obsolescence IS NULL AND succ.n = 1) END AS ictv_id
  FROM onto o
  JOIN src.species p ON p.msl = o.from_msl AND p.species = o.from_name
  JOIN (SELECT from_msl, from_name, count(*) AS n FROM onto GROUP BY ALL) succ
    ON succ.from_msl = o.from_msl AND succ.from_name = o.from_name
  GROUP BY ALL
),
ids AS (
  SELECT s.msl, s.species, s.taxnode_id, coalesce(s.ictv_id, i.ictv_id, s.taxnode_id) AS ictv_id
  FROM src.species s LEFT JOIN inherited i ON i.msl = s.msl AND i.species = s.species
),
pairs AS (  -- consecutive releases present in the data set
  SELECT msl AS from_msl, lead(msl) OVER (ORDER BY msl) AS to_msl FROM src.releases
),
by_ictv AS (
  SELECT a.msl AS from_msl, a.species AS from_name, b.species AS to_name
  FROM ids a JOIN pairs p ON p.from_msl = a.msl JOIN ids b ON b.msl = p.to_msl AND b.ictv_id = a.ictv_id
  WHERE NOT EXISTS (SELECT 1 FROM onto o WHERE o.from_msl = a.msl AND o.from_name = a.species)
    AND NOT EXISTS (SELECT 1 FROM onto o WHERE o.from_msl = a.msl AND o.to_name = b.species)
),
linked AS (
  SELECT from_msl, from_name, to_name FROM onto UNION ALL SELECT * FROM by_ictv
),
by_taxnode AS (
  SELECT a.msl AS from_msl, a.species AS from_name, b.species AS to_name
  FROM ids a JOIN pairs p ON p.from_msl = a.msl JOIN ids b ON b.msl = p.to_msl AND b.ictv_id = a.taxnode_id
  WHERE NOT EXISTS (SELECT 1 FROM linked l WHERE l.from_msl = a.msl AND l.from_name = a.species)
    AND NOT EXISTS (SELECT 1 FROM linked l WHERE l.from_msl = a.msl AND l.to_name = b.species)
),
linked2 AS (
  SELECT * FROM linked UNION ALL SELECT * FROM by_taxnode
),
by_name AS (
  SELECT a.msl AS from_msl, a.species AS from_name, b.species AS to_name
  FROM ids a JOIN pairs p ON p.from_msl = a.msl JOIN ids b ON b.msl = p.to_msl AND b.species = a.species
  WHERE NOT EXISTS (SELECT 1 FROM linked2 l WHERE l.from_msl = a.msl AND l.from_name = a.species)
    AND NOT EXISTS (SELECT 1 FROM linked2 l WHERE l.from_msl = a.msl AND l.to_name = b.species)
),
links AS (
  SELECT from_msl, from_name, to_name, obsolescence, 'ontology' AS rule FROM onto
  UNION ALL SELECT *, NULL, 'ictv_id' FROM by_ictv
  UNION ALL SELECT *, NULL, 'taxnode' FROM by_taxnode
  UNION ALL SELECT *, NULL, 'name' FROM by_name
)
SELECT l.from_msl, l.from_msl + 1 AS to_msl, l.from_name, l.to_name, l.rule, l.obsolescence,
       a.ictv_id AS from_ictv_id, b.ictv_id AS to_ictv_id,
       count(*) OVER (PARTITION BY l.from_msl, l.from_name) AS successors,
       count(*) OVER (PARTITION BY l.from_msl, l.to_name) AS predecessors,
       -- The link that carries the taxon on: the only link of both ends, or the one that keeps the id.
       (count(*) OVER (PARTITION BY l.from_msl, l.from_name) = 1 AND count(*) OVER (PARTITION BY l.from_msl, l.to_name) = 1)
         OR a.ictv_id = b.ictv_id AS continues
FROM links l
JOIN ids a ON a.msl = l.from_msl AND a.species = l.from_name
JOIN ids b ON b.msl = l.from_msl + 1 AND b.species = l.to_name
ORDER BY 1, 3, 4

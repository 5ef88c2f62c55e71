-- species_link: one row per link between a species of one release and a species of the next that is the
-- same taxon, its merge target or one of its split products. Read by species_identity, species_transition,
-- species_timeline, lineage_summary and release_diff_detail. Species are keyed by taxnode id, not by name: a
-- name can stand for two species of one release (MSL22 lists 'Chayote mosaic virus' in Begomovirus and in
-- Tymovirus; the first is 'Chayote yellow mosaic virus' a release later), a taxnode id never does.
-- Rules, tried in order; a later rule only links species no earlier rule linked:
--   ontology  the EVORA "term replaced by" taxnode ids (the ontology files reach as far as MSL38 -> MSL39)
--   vmr       ICTV's database table of isolates (species_isolates) names the previous release's taxnode of
--             each isolate's species (update_prev_taxnode_id): carried on, renamed, moved, merged, split
--   ictv_id   same ICTV id on both sides (MSL39 has no ids of its own: it inherits them through the
--             MSL38 ontology links, which is what bridges MSL39 -> MSL40's ICTV_ID column)
--   taxnode   the next release's ICTV id is this release's taxnode id (a taxon created here keeps its
--             creation taxnode as id)
--   name      the same name in both releases, where the name is one species on each side (the few species
--             missing from an ontology file)
WITH steps AS (  -- each release and the one after it
  SELECT * FROM (SELECT msl AS from_msl, lead(msl) OVER (ORDER BY msl) AS to_msl FROM src.releases) WHERE to_msl IS NOT NULL
),
onto AS (
  SELECT DISTINCT st.from_msl, st.to_msl, s.taxnode_id AS from_taxnode, n.taxnode_id AS to_taxnode, tn.obsolescence
  FROM src.species s
  JOIN steps st ON st.from_msl = s.msl
  JOIN src.taxon_nodes tn ON tn.msl = s.msl AND tn.ictv_id = s.ictv_id
  CROSS JOIN unnest(tn.replaced_by) AS u(next_taxnode)
  JOIN src.species n ON n.msl = st.to_msl AND n.taxnode_id = u.next_taxnode
),
vmr AS (
  SELECT DISTINCT st.from_msl, st.to_msl, p.taxnode_id AS from_taxnode, n.taxnode_id AS to_taxnode
  FROM src.isolates i
  JOIN steps st ON st.to_msl = i.msl
  JOIN src.species n ON n.msl = i.msl AND n.taxnode_id = i.taxnode_id
  JOIN src.species p ON p.msl = st.from_msl AND p.taxnode_id = i.prev_taxnode_id
  ANTI JOIN onto o ON o.from_taxnode = p.taxnode_id
  ANTI JOIN onto o2 ON o2.to_taxnode = n.taxnode_id
),
linked1 AS (
  SELECT from_msl, to_msl, from_taxnode, to_taxnode FROM onto UNION ALL SELECT * FROM vmr
),
-- MSL39's ids: a species keeps the id of a predecessor that continues into it alone, or of the one that
-- is not obsolete in a merge; otherwise (new, split product) its own taxnode id, as ICTV assigns them.
inherited AS (
  SELECT o.to_taxnode AS taxnode_id,
         CASE WHEN count(*) = 1 AND max(succ.n) = 1 THEN any_value(p.ictv_id)
              ELSE max(p.ictv_id) FILTER (o.obsolescence IS NULL AND succ.n = 1) END AS ictv_id
  FROM onto o
  JOIN src.species p ON p.taxnode_id = o.from_taxnode
  JOIN (SELECT from_taxnode, count(*) AS n FROM onto GROUP BY ALL) succ ON succ.from_taxnode = o.from_taxnode
  GROUP BY ALL
),
ids AS (
  SELECT s.msl, s.taxnode_id, s.species, coalesce(s.ictv_id, i.ictv_id, s.taxnode_id) AS ictv_id
  FROM src.species s LEFT JOIN inherited i ON i.taxnode_id = s.taxnode_id
),
by_ictv AS (
  SELECT st.from_msl, st.to_msl, a.taxnode_id AS from_taxnode, b.taxnode_id AS to_taxnode
  FROM ids a JOIN steps st ON st.from_msl = a.msl JOIN ids b ON b.msl = st.to_msl AND b.ictv_id = a.ictv_id
  ANTI JOIN linked1 l ON l.from_taxnode = a.taxnode_id
  ANTI JOIN linked1 l2 ON l2.to_taxnode = b.taxnode_id
),
linked2 AS (
  SELECT * FROM linked1 UNION ALL SELECT * FROM by_ictv
),
by_taxnode AS (
  SELECT st.from_msl, st.to_msl, a.taxnode_id AS from_taxnode, b.taxnode_id AS to_taxnode
  FROM ids a JOIN steps st ON st.from_msl = a.msl JOIN ids b ON b.msl = st.to_msl AND b.ictv_id = a.taxnode_id
  ANTI JOIN linked2 l ON l.from_taxnode = a.taxnode_id
  ANTI JOIN linked2 l2 ON l2.to_taxnode = b.taxnode_id
),
linked3 AS (
  SELECT * FROM linked2 UNION ALL SELECT * FROM by_taxnode
),
unique_name AS (  -- names that are one species in their release
  SELECT msl, species, any_value(taxnode_id) AS taxnode_id FROM ids GROUP BY ALL HAVING count(*) = 1
),
by_name AS (
  SELECT st.from_msl, st.to_msl, a.taxnode_id AS from_taxnode, b.taxnode_id AS to_taxnode
  FROM unique_name a JOIN steps st ON st.from_msl = a.msl JOIN unique_name b ON b.msl = st.to_msl AND b.species = a.species
  ANTI JOIN linked3 l ON l.from_taxnode = a.taxnode_id
  ANTI JOIN linked3 l2 ON l2.to_taxnode = b.taxnode_id
),
links AS (
  SELECT from_msl, to_msl, from_taxnode, to_taxnode, obsolescence, 'ontology' AS rule FROM onto
  UNION ALL SELECT *, NULL, 'vmr' FROM vmr
  UNION ALL SELECT *, NULL, 'ictv_id' FROM by_ictv
  UNION ALL SELECT *, NULL, 'taxnode' FROM by_taxnode
  UNION ALL SELECT *, NULL, 'name' FROM by_name
)
SELECT l.from_msl, l.to_msl, l.from_taxnode, l.to_taxnode, a.species AS from_name, b.species AS to_name,
       l.rule, l.obsolescence, a.ictv_id AS from_ictv_id, b.ictv_id AS to_ictv_id,
       count(*) OVER (PARTITION BY l.from_taxnode) AS successors,
       count(*) OVER (PARTITION BY l.to_taxnode) AS predecessors,
       -- The link that carries the taxon on: the only link of both ends, or the one that keeps the id.
       (count(*) OVER (PARTITION BY l.from_taxnode) = 1 AND count(*) OVER (PARTITION BY l.to_taxnode) = 1)
         OR a.ictv_id = b.ictv_id AS continues
FROM links l
JOIN ids a ON a.taxnode_id = l.from_taxnode
JOIN ids b ON b.taxnode_id = l.to_taxnode
ORDER BY l.from_msl, from_name, to_name

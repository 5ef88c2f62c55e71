-- taxonomy_hierarchy: one row per (release, depth): the release's tree cut after `depth` levels below the root,
-- wrapped with its statistics, as one JSON doc that GET /taxonomy/hierarchy?version=&depth= sends as it is.
-- depth_key is '1' .. max_depth - 1 for the cut trees and 'all' for the whole tree (a cut at max_depth or
-- deeper is the whole tree, so it is stored once).
-- Cut in SQL ahead rather than in the handler: pruning the parsed MSL40 tree (1.15 MB) takes 5-8 ms of the
-- event loop per request, while the 132 documents cost ~32 MB of memory in all and are a key read.
-- The tree is rendered from the nodes of taxon_tree_node: taxa {rank, name, species_count, children}, species
-- leaves {rank: 'species', name}, children ordered by rank, then name (hierarchy.sql keeps the uncut tree of
-- each release as a table of its own). A node at the cut keeps its
-- species_count but has no `children` key; depth counts levels below the root (realms are level 1 from MSL34,
-- the highest rank used before). statistics: species (of the release), taxa per rank (releases.counts), nodes
-- in this document (root excluded) and max_depth (levels of the whole tree).
-- Built in one pass instead of one aggregation per rank: every node of a release is sorted by its path from
-- the root (pre-order), and each node's JSON is written as an opening fragment; the brackets that close the
-- nodes before it are computed from the depth of the previous node. With depth d (root 0) and open(i) = d + 1
-- for a node that has children and d for a leaf (a species, or a taxon at the cut): node i first closes
-- open(i-1) - d(i) nodes, and takes a comma unless the previous node is its parent. The concatenation is cast
-- to JSON, which checks it.
-- depends: releases, taxon_tree_node
WITH node AS (SELECT * FROM taxon_tree_node),
release AS (
  SELECT r.msl, r.version, r.year, max(n.depth) AS max_depth, count(*) FILTER (n.rank = 'species') AS species
  FROM src.releases r JOIN node n ON n.msl = r.msl
  GROUP BY ALL
),
cut AS (  -- the depths stored per release: 1 .. max_depth - 1, and max_depth for the whole tree
  SELECT msl, unnest(range(1, max_depth + 1)) AS depth FROM release
),
fragment AS (
  SELECT c.msl, c.depth AS cut, n.key, n.depth,
         n.rank = 'species' OR n.depth = c.depth AS leaf,
         CASE WHEN n.rank = 'species' THEN '{"rank":"species","name":' || to_json(n.name) || '}'
              WHEN n.depth = c.depth THEN '{"rank":' || to_json(n.rank) || ',"name":' || to_json(n.name)
                   || ',"species_count":' || n.species_count || '}'
              ELSE '{"rank":' || to_json(n.rank) || ',"name":' || to_json(n.name)
                   || ',"species_count":' || n.species_count || ',"children":['
         END AS opening
  FROM cut c JOIN node n ON n.msl = c.msl AND n.depth <= c.depth
  UNION ALL
  SELECT c.msl, c.depth, '', 0, false,
         '{"rank":"root","name":' || to_json(r.version) || ',"species_count":' || r.species || ',"children":['
  FROM cut c JOIN release r ON r.msl = c.msl
),
walk AS (
  SELECT msl, cut, key, depth, opening,
         depth + CASE WHEN leaf THEN 0 ELSE 1 END AS open_after,
         lag(depth + CASE WHEN leaf THEN 0 ELSE 1 END) OVER w AS open_before,
         lag(leaf) OVER w AS prev_leaf, lag(depth) OVER w AS prev_depth
  FROM fragment
  WINDOW w AS (PARTITION BY msl, cut ORDER BY key)
),
tree AS (
  SELECT msl, cut,
         string_agg(repeat(']}', coalesce(open_before - depth, 0))
                    || CASE WHEN open_before IS NULL OR (NOT prev_leaf AND prev_depth = depth - 1) THEN '' ELSE ',' END
                    || opening, '' ORDER BY key)
           || repeat(']}', arg_max(open_after, key)) AS tree,
         count(*) - 1 AS nodes
  FROM walk
  GROUP BY msl, cut
)
SELECT t.msl, r.version,
       CASE WHEN t.cut = r.max_depth THEN 'all' ELSE t.cut::VARCHAR END AS depth_key,
       json_object(
         'msl_version', r.version,
         'msl_year', r.year,
         'depth', t.cut,
         'max_depth', r.max_depth,
         'complete', t.cut = r.max_depth,
         'statistics', json_object('species', r.species, 'nodes', t.nodes, 'max_depth', r.max_depth, 'taxa', rc.counts),
         'tree', t.tree::JSON                              -- the cast checks the concatenation is JSON
       )::VARCHAR AS doc
FROM tree t
JOIN release r ON r.msl = t.msl
JOIN releases rc ON rc.msl = t.msl                  -- taxa per rank, 0 where unused
ORDER BY t.msl, t.cut

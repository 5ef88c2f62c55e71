-- hierarchy: one row per release with its whole tree, realm -> ... -> species, as one nested JSON document:
-- the root {rank: 'root', name: <version>, species_count, children} and under it every taxon of src.taxa as
-- {rank, name, species_count, children: [...]} (taxa without species included, children: []), species as
-- leaves {rank: 'species', name}. Ranks a lineage does not use are skipped (a genus sits directly under its
-- family when it has no subfamily), so a lineage without a realm (all of them before MSL34) hangs from the
-- root at its highest rank. Children are ordered by rank, then name. The nodes come from taxon_tree_node. Read by the tree
-- endpoints.
--
-- Built in one pass instead of one aggregation per rank: every node of a release is sorted by its path from
-- the root (pre-order), and each node's JSON is written as an opening fragment; the brackets that close the
-- nodes before it are computed from the depth of the previous node. With depth d (root 0) and open(i) = d + 1
-- for a node that has children and d for a species: node i first closes open(i-1) - d(i) nodes, and takes a
-- comma unless the previous node is its parent. The concatenation is cast to JSON, which checks it.
-- depends: taxon_tree_node
WITH node AS (
  SELECT msl, key, depth, rank, name, species_count FROM taxon_tree_node
  UNION ALL
  SELECT r.msl, '', 0, NULL, NULL, (SELECT count(*) FROM src.taxa s WHERE s.msl = r.msl AND s.rank = 'species')  -- the root
  FROM src.releases r
),
fragment AS (
  SELECT n.msl, n.key, n.depth,
         coalesce(n.rank = 'species', false) AS leaf,  -- the root has no rank
         CASE WHEN n.depth = 0 THEN '{"rank":"root","name":' || to_json(r.version) || ',"species_count":' || n.species_count || ',"children":['
              WHEN n.rank = 'species' THEN '{"rank":"species","name":' || to_json(n.name) || '}'
              ELSE '{"rank":' || to_json(n.rank) || ',"name":' || to_json(n.name)
                   || ',"species_count":' || n.species_count || ',"children":['
         END AS opening
  FROM node n JOIN src.releases r ON r.msl = n.msl
),
walk AS (
  SELECT msl, key, depth, opening,
         depth + CASE WHEN leaf THEN 0 ELSE 1 END AS open_after,
         lag(depth + CASE WHEN leaf THEN 0 ELSE 1 END) OVER w AS open_before,
         lag(leaf) OVER w AS prev_leaf, lag(depth) OVER w AS prev_depth
  FROM fragment
  WINDOW w AS (PARTITION BY msl ORDER BY key)
),
doc AS (
  SELECT msl,
         string_agg(repeat(']}', coalesce(open_before - depth, 0))
                    || CASE WHEN open_before IS NULL OR (NOT prev_leaf AND prev_depth = depth - 1) THEN '' ELSE ',' END
                    || opening, '' ORDER BY key)
           || repeat(']}', arg_max(open_after, key)) AS tree,
         count(*) - 1 AS nodes
  FROM walk
  GROUP BY msl
)
SELECT r.msl, r.version, (d.tree::JSON ->> '$.species_count')::BIGINT AS species, d.nodes, d.tree::JSON AS tree
FROM src.releases r
JOIN doc d ON d.msl = r.msl
ORDER BY r.msl

-- hierarchy: one row per release with its whole tree, realm -> ... -> species, as one nested JSON document:
-- the root {rank: 'root', name: <version>, species_count, children} and under it every taxon of src.taxa as
-- {rank, name, species_count, children: [...]} (taxa without species included, children: []), species as
-- leaves {rank: 'species', name}. Ranks a lineage does not use are skipped (a genus sits directly under its
-- family when it has no subfamily), so a lineage without a realm (all of them before MSL34) hangs from the
-- root at its highest rank. Children are ordered by rank, then name. Reads src tables only. Read by the tree
-- endpoints.
--
-- Built in one pass instead of one aggregation per rank: every node of a release is sorted by its path from
-- the root (pre-order), and each node's JSON is written as an opening fragment; the brackets that close the
-- nodes before it are computed from the depth of the previous node. With depth d (root 0) and open(i) = d + 1
-- for a node that has children and d for a species: node i first closes open(i-1) - d(i) nodes, and takes a
-- comma unless the previous node is its parent. The concatenation is cast to JSON, which checks it.
WITH path AS (
  SELECT t.msl, t.rank = 'species' AS is_species,
         list_filter([
           struct_pack(level := 1, rank := 'realm', name := t.realm),
           struct_pack(level := 2, rank := 'subrealm', name := t.subrealm),
           struct_pack(level := 3, rank := 'kingdom', name := t.kingdom),
           struct_pack(level := 4, rank := 'subkingdom', name := t.subkingdom),
           struct_pack(level := 5, rank := 'phylum', name := t.phylum),
           struct_pack(level := 6, rank := 'subphylum', name := t.subphylum),
           struct_pack(level := 7, rank := 'class', name := t.class),
           struct_pack(level := 8, rank := 'subclass', name := t.subclass),
           struct_pack(level := 9, rank := 'order', name := t."order"),
           struct_pack(level := 10, rank := 'suborder', name := t.suborder),
           struct_pack(level := 11, rank := 'family', name := t.family),
           struct_pack(level := 12, rank := 'subfamily', name := t.subfamily),
           struct_pack(level := 13, rank := 'genus', name := t.genus),
           struct_pack(level := 14, rank := 'subgenus', name := t.subgenus),
           struct_pack(level := 15, rank := 'species', name := t.species)], x -> x.name IS NOT NULL) AS path
  FROM src.taxa t
),
-- every prefix of every path is a node (so a lineage never lacks an ancestor); its species are the species
-- rows whose path starts with it. key sorts a node before its descendants and siblings by rank, then name:
-- one letter for the rank level and the name per step, chr(1) between steps (below any character of a name)
step AS (
  SELECT msl, is_species, i AS depth, path[i] AS taxon,
         array_to_string(list_transform(path[1:i], x -> chr(64 + x.level) || x.name), chr(1)) AS key
  FROM (SELECT *, unnest(range(1, len(path) + 1)) AS i FROM path)
),
node AS (
  SELECT msl, key, depth, any_value(taxon) AS taxon, count(*) FILTER (is_species) AS species_count
  FROM step
  GROUP BY msl, key, depth
  UNION ALL
  SELECT r.msl, '', 0, NULL, (SELECT count(*) FROM src.taxa s WHERE s.msl = r.msl AND s.rank = 'species')  -- the root
  FROM src.releases r
),
fragment AS (
  SELECT n.msl, n.key, n.depth,
         coalesce(n.taxon.rank = 'species', false) AS leaf,  -- the root has no taxon
         CASE WHEN n.depth = 0 THEN '{"rank":"root","name":' || to_json(r.version) || ',"species_count":' || n.species_count || ',"children":['
              WHEN n.taxon.rank = 'species' THEN '{"rank":"species","name":' || to_json(n.taxon.name) || '}'
              ELSE '{"rank":' || to_json(n.taxon.rank) || ',"name":' || to_json(n.taxon.name)
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

-- hierarchy: one row per release with its whole tree, realm -> ... -> species, as one nested JSON document:
-- the root {rank: 'root', name: <version>, species_count, children} and under it every taxon of src.taxa as
-- {rank, name, species_count, children: [...]} (taxa without species included, children: []), species as
-- leaves {rank: 'species', name}. Ranks a lineage does not use are skipped (a genus sits directly under its
-- family when it has no subfamily), so a lineage without a realm (all of them before MSL34) hangs from the
-- root at its highest rank. Children are ordered by rank, then name. For querying the data set; the tree
-- endpoints send taxonomy_hierarchy's documents.
-- The tree is taxonomy_hierarchy's uncut one (depth_key 'all'), which that file renders, so the two never
-- disagree.
-- depends: taxonomy_hierarchy
SELECT msl, version,
       (doc::JSON ->> '$.tree.species_count')::BIGINT AS species,
       (doc::JSON ->> '$.statistics.nodes')::BIGINT AS nodes,
       doc::JSON -> '$.tree' AS tree
FROM taxonomy_hierarchy
WHERE depth_key = 'all'
ORDER BY msl

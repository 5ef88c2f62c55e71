-- taxon_tree_node: one row per node of a release's taxonomy tree (every taxon of src.taxa and every
-- species; the root is not a row): its sort key, depth below the root, rank, name and the number of species
-- under it. Ranks a lineage does not use are skipped, so a genus without a subfamily hangs from its family.
-- Read by hierarchy and taxonomy_hierarchy, which render the tree as nested JSON.
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
)
SELECT msl, key, depth, any_value(taxon).rank AS rank, any_value(taxon).name AS name,
       count(*) FILTER (is_species) AS species_count
FROM step
GROUP BY msl, key, depth
ORDER BY msl, key

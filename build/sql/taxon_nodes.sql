-- taxon_nodes: one row per taxon of an EVORA ontology file (MSL1-38), published as
-- data/parquet/taxon_nodes/msl=NN/. The ontology names taxa by ictv_id and links each to the taxnode ids of
-- the same taxon in the next release; it has no ranks and no own taxnode id, so both are taken from the
-- release's taxa by name (rank stays null for the few ontology taxa the release's lists do not hold).
CREATE OR REPLACE TABLE taxon_nodes AS
SELECT o.msl, t.taxnode_id, o.ictv_id, t.rank, o.name, o.parent_ictv_id, p.name AS parent_name,
       o.replaced_by, o.obsolescence, o.synonyms
FROM raw_ontology o
LEFT JOIN raw_ontology p ON p.msl = o.msl AND p.ictv_id = o.parent_ictv_id
LEFT JOIN (
  -- A name used at two ranks in one release (rare) resolves to the lower rank: species before genus.
  SELECT msl, name, arg_max(rank, rank_order) AS rank, arg_max(taxnode_id, rank_order) AS taxnode_id
  FROM (SELECT *, list_position(['realm', 'subrealm', 'kingdom', 'subkingdom', 'phylum', 'subphylum', 'class',
        'subclass', 'order', 'suborder', 'family', 'subfamily', 'genus', 'subgenus', 'species'], rank) AS rank_order
        FROM taxa)
  GROUP BY msl, name
) t ON t.msl = o.msl AND t.name = o.name
ORDER BY o.msl, o.ictv_id;

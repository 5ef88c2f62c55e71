-- release_taxa: one row per taxon of every rank (realm to species) per release, with the ids that follow it
-- through the record. Published as data/parquet/release_taxa.parquet (build/stage-export.ts) and read by the
-- bulk taxa download (src/read/bulk.ts). From src.taxa and the read models species_identity (species) and
-- taxon_lineage (higher taxa); ICTV ids of higher taxa from the EVORA ontology (src.taxon_nodes, MSL1-38),
-- the only file that gives them.
-- kind: view
-- depends: species_identity, taxon_lineage
WITH species AS (
  SELECT t.*, i.ictv_id,
         coalesce(s.ictv_id_source, CASE WHEN i.ictv_id IS NOT NULL THEN 'successor' END) AS ictv_id_source,
         'species' AS lineage_kind, i.lineage_id
  FROM src.taxa t
  LEFT JOIN src.species s ON s.taxnode_id = t.taxnode_id
  LEFT JOIN main.species_identity i ON i.taxnode_id = t.taxnode_id
  WHERE t.rank = 'species'
),
ontology AS (
  SELECT msl, rank, name, min(ictv_id) AS ictv_id FROM src.taxon_nodes WHERE rank <> 'species' GROUP BY ALL
),
higher AS (
  SELECT t.*, o.ictv_id, CASE WHEN o.ictv_id IS NOT NULL THEN 'ontology' END AS ictv_id_source,
         'taxon' AS lineage_kind, l.taxon_id::BIGINT AS lineage_id
  FROM src.taxa t
  LEFT JOIN main.taxon_lineage l ON l.msl = t.msl AND l.rank = t.rank AND l.name = t.name
    AND l.family IS NOT DISTINCT FROM (CASE WHEN t.rank = 'family' THEN t.name ELSE t.family END)
  LEFT JOIN ontology o ON o.msl = t.msl AND o.rank = t.rank AND o.name = t.name
  WHERE t.rank <> 'species'
)
SELECT msl, 'MSL' || msl AS version, rank, name,
       realm, subrealm, kingdom, subkingdom, phylum, subphylum, class, subclass,
       "order", suborder, family, subfamily, genus, subgenus,
       taxnode_id, parent_taxnode_id, ictv_id, ictv_id_source, lineage_kind, lineage_id
FROM (SELECT * FROM species UNION ALL BY NAME SELECT * FROM higher)
ORDER BY msl, list_position(['realm', 'subrealm', 'kingdom', 'subkingdom', 'phylum', 'subphylum', 'class', 'subclass',
         'order', 'suborder', 'family', 'subfamily', 'genus', 'subgenus', 'species'], rank), name, taxnode_id

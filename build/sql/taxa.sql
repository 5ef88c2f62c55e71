-- taxa: one row per taxon of any rank per release (published as data/parquet/taxa/msl=NN/).
-- From the tree export where a release has one (it also holds taxa without species, which ICTV counts);
-- otherwise every distinct lineage prefix of the spreadsheet's species rows. taxnode_id is only known
-- for tree taxa and for spreadsheet species (Taxon History URL).
CREATE OR REPLACE TABLE taxa AS
SELECT n.msl, n.rank, n.name, n.taxnode_id, n.parent_taxnode_id,
       n.realm, n.subrealm, n.kingdom, n.subkingdom, n.phylum, n.subphylum, n.class, n.subclass,
       n."order", n.suborder, n.family, n.subfamily, n.genus, n.subgenus, n.species
FROM raw_tree_nodes n
UNION ALL
SELECT DISTINCT p.msl, p.rank, p.name,
       CASE WHEN p.i = 15 THEN p.taxnode_id END, CAST(NULL AS BIGINT),
       l[1], CASE WHEN i >= 2 THEN l[2] END, CASE WHEN i >= 3 THEN l[3] END, CASE WHEN i >= 4 THEN l[4] END,
       CASE WHEN i >= 5 THEN l[5] END, CASE WHEN i >= 6 THEN l[6] END, CASE WHEN i >= 7 THEN l[7] END,
       CASE WHEN i >= 8 THEN l[8] END, CASE WHEN i >= 9 THEN l[9] END, CASE WHEN i >= 10 THEN l[10] END,
       CASE WHEN i >= 11 THEN l[11] END, CASE WHEN i >= 12 THEN l[12] END, CASE WHEN i >= 13 THEN l[13] END,
       CASE WHEN i >= 14 THEN l[14] END, CASE WHEN i >= 15 THEN l[15] END
FROM (
  SELECT m.msl, m.taxnode_id, l, i,
         ['realm', 'subrealm', 'kingdom', 'subkingdom', 'phylum', 'subphylum', 'class', 'subclass',
          'order', 'suborder', 'family', 'subfamily', 'genus', 'subgenus', 'species'][i] AS rank,
         l[i] AS name
  FROM (
    SELECT msl, taxnode_id,
           [realm, subrealm, kingdom, subkingdom, phylum, subphylum, class, subclass,
            "order", suborder, family, subfamily, genus, subgenus, species] AS l
    FROM raw_msl_rows
    WHERE msl NOT IN (SELECT DISTINCT msl FROM raw_tree_nodes)
  ) m, range(1, 16) AS r(i)
) p
WHERE p.name IS NOT NULL
ORDER BY 1, 2, 3;

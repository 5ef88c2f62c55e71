-- taxon_counts: one row per (release, taxon above species) of src.taxa: how many species, genera, families and
-- orders it holds there, and the taxa above it. Read by taxon_profile (one document per name) and by the
-- rankings of POST /ai/query ("largest families in MSL35", "fastest-growing genera since 2019"), which sort
-- one release's rows of one rank.
--   name_norm  the name folded as name_index folds names (case, accents, punctuation, spaces ignored)
--   species    rows of src.species with the taxon in the lineage column of its rank
--   genera, families, orders   distinct src.taxa names of that rank under it, so a genus without species counts
--   parents    LIST of STRUCT(rank, name): the taxa above it in that release, realm first
WITH lineage AS (  -- every species once per taxon above it
  UNPIVOT (SELECT msl, realm, subrealm, kingdom, subkingdom, phylum, subphylum, class, subclass, "order",
                  suborder, family, subfamily, genus, subgenus FROM src.species)
  ON realm, subrealm, kingdom, subkingdom, phylum, subphylum, class, subclass, "order", suborder, family,
     subfamily, genus, subgenus
  INTO NAME rank VALUE name                                   -- UNPIVOT drops the NULL (unused) ranks
),
species_in AS (
  SELECT msl, rank, name, count(*) AS species FROM lineage GROUP BY ALL
),
members AS (  -- every genus, family and order once per taxon above it
  UNPIVOT (SELECT msl, rank AS member_rank, name AS member, realm, subrealm, kingdom, subkingdom, phylum,
                  subphylum, class, subclass, "order", suborder, family, subfamily
           FROM src.taxa WHERE rank IN ('genus', 'family', 'order'))
  ON realm, subrealm, kingdom, subkingdom, phylum, subphylum, class, subclass, "order", suborder, family, subfamily
  INTO NAME rank VALUE name
),
members_in AS (
  SELECT msl, rank, name,
         count(DISTINCT member) FILTER (member_rank = 'genus') AS genera,
         count(DISTINCT member) FILTER (member_rank = 'family') AS families,
         count(DISTINCT member) FILTER (member_rank = 'order') AS orders
  FROM members
  WHERE rank <> member_rank                                   -- a taxon's own column names itself
  GROUP BY ALL
)
SELECT t.msl::INTEGER AS msl, t.rank, t.name,
       name_norm(t.name) AS name_norm,
       coalesce(s.species, 0)::INTEGER AS species, coalesce(m.genera, 0)::INTEGER AS genera,
       coalesce(m.families, 0)::INTEGER AS families, coalesce(m.orders, 0)::INTEGER AS orders,
       list_filter([
         {'rank': 'realm', 'name': t.realm}, {'rank': 'subrealm', 'name': t.subrealm},
         {'rank': 'kingdom', 'name': t.kingdom}, {'rank': 'subkingdom', 'name': t.subkingdom},
         {'rank': 'phylum', 'name': t.phylum}, {'rank': 'subphylum', 'name': t.subphylum},
         {'rank': 'class', 'name': t.class}, {'rank': 'subclass', 'name': t.subclass},
         {'rank': 'order', 'name': t."order"}, {'rank': 'suborder', 'name': t.suborder},
         {'rank': 'family', 'name': t.family}, {'rank': 'subfamily', 'name': t.subfamily},
         {'rank': 'genus', 'name': t.genus}], p -> p.name IS NOT NULL AND p.rank <> t.rank) AS parents
FROM src.taxa t
LEFT JOIN species_in s ON s.msl = t.msl AND s.rank = t.rank AND s.name = t.name
LEFT JOIN members_in m ON m.msl = t.msl AND m.rank = t.rank AND m.name = t.name
WHERE t.rank <> 'species'
ORDER BY t.msl, t.rank, species DESC                          -- a ranking reads one (msl, rank) run

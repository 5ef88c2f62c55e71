-- taxonomy_families: one row per release: every family of that release with its lineage and sizes, as one JSON
-- doc keyed by msl (GET /taxonomy/families sends it as it is; the latest release unless a version is asked).
--   families   [{family, lineage {realm..suborder}, subfamily_count, genus_count, species_count}] by name;
--              counts of taxa from src.taxa (a genus without species counts), species from src.species
--   total_families, species_in_families, species_without_family (the rest of the release's species: e.g.
--   2,435 MSL40 species of class Caudoviricetes are placed in no family)
-- Reads src tables only.
WITH fam AS (
  SELECT msl, name AS family, realm, subrealm, kingdom, subkingdom, phylum, subphylum, class, subclass, "order", suborder
  FROM src.taxa WHERE rank = 'family'
),
taxa_count AS (
  SELECT msl, family, count(*) FILTER (rank = 'subfamily') AS subfamilies, count(*) FILTER (rank = 'genus') AS genera
  FROM src.taxa WHERE family IS NOT NULL GROUP BY ALL
),
species_count AS (
  SELECT msl, family, count(*) AS species FROM src.species GROUP BY ALL
)
SELECT r.msl, r.version,
       json_object(
         'msl_version', r.version,
         'msl_year', r.year,
         'total_families', count(f.family),
         'species_in_families', coalesce(sum(sc.species), 0)::BIGINT,
         'species_without_family', coalesce((SELECT species FROM species_count x WHERE x.msl = r.msl AND x.family IS NULL), 0),
         'families', coalesce(list(json_object(
           'family', f.family,
           'lineage', json_object(
             'realm', f.realm, 'subrealm', f.subrealm, 'kingdom', f.kingdom, 'subkingdom', f.subkingdom,
             'phylum', f.phylum, 'subphylum', f.subphylum, 'class', f.class, 'subclass', f.subclass,
             'order', f."order", 'suborder', f.suborder),
           'subfamily_count', coalesce(tc.subfamilies, 0),
           'genus_count', coalesce(tc.genera, 0),
           'species_count', coalesce(sc.species, 0)) ORDER BY f.family) FILTER (f.family IS NOT NULL), [])
       )::VARCHAR AS doc
FROM src.releases r
LEFT JOIN fam f ON f.msl = r.msl
LEFT JOIN taxa_count tc ON tc.msl = f.msl AND tc.family = f.family
LEFT JOIN species_count sc ON sc.msl = f.msl AND sc.family = f.family
GROUP BY r.msl, r.version, r.year
ORDER BY r.msl

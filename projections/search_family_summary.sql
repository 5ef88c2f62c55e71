-- search_family_summary: one row per family of the latest release, keyed by its lower-cased name: the family's
-- statistics and flat species list as one JSON doc (GET /search/family/:name/summary sends it as it is).
--   statistics        species, genera, subfamilies, subgenera; genome_composition and host_source ([{value,
--                     count}], largest first, as search_species); the 5 largest genera; history: the first
--                     release with the family's name, the releases it is in, the step from the previous release
--                     (family_evolution: previous species, gained, moved in/out, abolished; renamed_from when
--                     ICTV renamed the family in this release) and its stability score and rank among the
--                     ranked families (family_stability; 1 = most stable)
--   species           [{scientific_name, subfamily, genus, subgenus, genome_composition, host_source}] in ICTV's order
-- depends: search_species, family_evolution, family_stability
WITH latest AS (
  SELECT max(msl) AS msl FROM src.releases
),
member AS (
  SELECT s.* FROM search_species s JOIN latest l ON l.msl = s.msl WHERE s.family IS NOT NULL
),
value_count AS (
  SELECT family, 'genome_composition' AS attribute, genome_composition AS value, count(*) AS n FROM member GROUP BY ALL
  UNION ALL SELECT family, 'host_source', host_source, count(*) FROM member GROUP BY ALL
),
value_list AS (
  SELECT family, attribute, list(json_object('value', value, 'count', n) ORDER BY n DESC, value NULLS LAST) AS items
  FROM value_count GROUP BY ALL
),
genus_size AS (
  SELECT family, list(json_object('name', genus, 'species', n) ORDER BY n DESC, genus)[1:5] AS largest
  FROM (SELECT family, genus, count(*) AS n FROM member WHERE genus IS NOT NULL GROUP BY ALL)
  GROUP BY family
),
taxa AS (
  SELECT t.family, count(*) FILTER (t.rank = 'genus') AS genera, count(*) FILTER (t.rank = 'subfamily') AS subfamilies,
         count(*) FILTER (t.rank = 'subgenus') AS subgenera
  FROM src.taxa t JOIN latest l ON l.msl = t.msl
  WHERE t.family IS NOT NULL
  GROUP BY t.family
),
species_list AS (
  SELECT family, count(*) AS n,
         list(json_object('scientific_name', species, 'subfamily', subfamily, 'genus', genus, 'subgenus', subgenus,
                          'genome_composition', genome_composition, 'host_source', host_source) ORDER BY sort, species) AS species
  FROM member GROUP BY family
)
SELECT lower(f.name) AS name_key,
       f.name AS family,
       json_object(
         'family', f.name,
         'msl_version', r.version,
         'msl_year', r.year,
         'lineage', json_object(
           'realm', f.realm, 'subrealm', f.subrealm, 'kingdom', f.kingdom, 'subkingdom', f.subkingdom,
           'phylum', f.phylum, 'subphylum', f.subphylum, 'class', f.class, 'subclass', f.subclass,
           'order', f."order", 'suborder', f.suborder),
         'statistics', json_object(
           'species', coalesce(sl.n, 0),
           'genera', coalesce(tx.genera, 0),
           'subfamilies', coalesce(tx.subfamilies, 0),
           'subgenera', coalesce(tx.subgenera, 0),
           'genome_composition', coalesce((SELECT items FROM value_list v WHERE v.family = f.name AND v.attribute = 'genome_composition'), []),
           'host_source', coalesce((SELECT items FROM value_list v WHERE v.family = f.name AND v.attribute = 'host_source'), []),
           'largest_genera', coalesce(gz.largest, []),
           'history', json_object(
             'first_version', fs.first_version,
             'releases', fs.releases,
             'renamed_from', fe.renamed_from,
             'previous_species', fe.species_prev,
             'gained', fe.gained, 'moved_in', fe.moved_in, 'moved_out', fe.moved_out, 'abolished', fe.abolished,
             'stability', round(fs.stability, 4),
             'stability_rank', fs.stability_rank,
             'ranked_families', fs.ranked_families)),
         'species', coalesce(sl.species, [])
       )::VARCHAR AS doc
FROM src.taxa f
JOIN latest l ON l.msl = f.msl
JOIN src.releases r ON r.msl = f.msl
LEFT JOIN taxa tx ON tx.family = f.name
LEFT JOIN genus_size gz ON gz.family = f.name
LEFT JOIN species_list sl ON sl.family = f.name
LEFT JOIN family_evolution fe ON fe.family = f.name AND fe.msl = f.msl
LEFT JOIN family_stability fs ON fs.family = f.name
WHERE f.rank = 'family'
ORDER BY name_key                                         -- keyed lookups read one block

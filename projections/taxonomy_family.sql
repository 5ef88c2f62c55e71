-- taxonomy_family: one row per family of the latest release, keyed by its lower-cased name: the complete family
-- as one JSON doc (GET /taxonomy/family/:name sends it as it is). Structure from src.taxa (so a genus or
-- subfamily without species is listed too), species from src.species.
--   lineage        the ranks above the family, realm..suborder (null where unused)
--   counts         subfamilies, genera, subgenera and species in the family
--   subfamilies    [{name, genus_count, species_count}] by name
--   genera         [{name, subfamily, species_count, subgenera: [{name, species_count}],
--                    species: [{scientific_name, subgenus}]}], genera by name, species in ICTV's order
--   species_without_genus   species placed in the family but in no genus (none in MSL40; kept for older data)
-- Reads src tables only.
WITH latest AS (
  SELECT r.msl, r.version, r.year FROM src.releases r ORDER BY r.msl DESC LIMIT 1
),
taxon AS (
  SELECT t.* FROM src.taxa t JOIN latest l ON l.msl = t.msl WHERE t.family IS NOT NULL
),
species AS (
  SELECT s.* FROM src.species s JOIN latest l ON l.msl = s.msl WHERE s.family IS NOT NULL
),
first_seen AS (
  SELECT name AS family, 'MSL' || min(msl) AS version FROM src.taxa WHERE rank = 'family' GROUP BY name
),
genus_species AS (
  SELECT family, genus, count(*) AS n,
         list(json_object('scientific_name', species, 'subgenus', subgenus) ORDER BY sort, species) AS species
  FROM species WHERE genus IS NOT NULL
  GROUP BY family, genus
),
subgenus_size AS (
  SELECT family, genus, subgenus, count(*) AS n FROM species WHERE subgenus IS NOT NULL GROUP BY ALL
),
genus_subgenera AS (
  SELECT t.family, t.genus, list(json_object('name', t.name, 'species_count', coalesce(z.n, 0)) ORDER BY t.name) AS subgenera,
         count(*) AS n
  FROM taxon t
  LEFT JOIN subgenus_size z ON z.family = t.family AND z.genus = t.genus AND z.subgenus = t.name
  WHERE t.rank = 'subgenus'
  GROUP BY t.family, t.genus
),
genera AS (
  SELECT t.family,
         list(json_object('name', t.name, 'subfamily', t.subfamily, 'species_count', coalesce(gs.n, 0),
                          'subgenera', coalesce(sg.subgenera, []), 'species', coalesce(gs.species, [])) ORDER BY t.name) AS genera,
         count(*) AS genus_count,
         coalesce(sum(sg.n), 0) AS subgenus_count
  FROM taxon t
  LEFT JOIN genus_species gs ON gs.family = t.family AND gs.genus = t.name
  LEFT JOIN genus_subgenera sg ON sg.family = t.family AND sg.genus = t.name
  WHERE t.rank = 'genus'
  GROUP BY t.family
),
subfamilies AS (
  SELECT t.family,
         list(json_object('name', t.name,
                          'genus_count', (SELECT count(*) FROM taxon g WHERE g.rank = 'genus' AND g.subfamily = t.name),
                          'species_count', (SELECT count(*) FROM species s WHERE s.subfamily = t.name)) ORDER BY t.name) AS subfamilies,
         count(*) AS n
  FROM taxon t WHERE t.rank = 'subfamily'
  GROUP BY t.family
),
family_species AS (
  SELECT family, count(*) AS n,
         list(species ORDER BY sort, species) FILTER (genus IS NULL) AS without_genus
  FROM species GROUP BY family
)
SELECT lower(f.name) AS name_key,
       f.name AS family,
       json_object(
         'family', f.name,
         'msl_version', l.version,
         'msl_year', l.year,
         'first_version', fs.version,
         'lineage', json_object(
           'realm', f.realm, 'subrealm', f.subrealm, 'kingdom', f.kingdom, 'subkingdom', f.subkingdom,
           'phylum', f.phylum, 'subphylum', f.subphylum, 'class', f.class, 'subclass', f.subclass,
           'order', f."order", 'suborder', f.suborder),
         'counts', json_object(
           'subfamilies', coalesce(sf.n, 0), 'genera', coalesce(g.genus_count, 0),
           'subgenera', coalesce(g.subgenus_count, 0), 'species', coalesce(sp.n, 0)),
         'subfamilies', coalesce(sf.subfamilies, []),
         'genera', coalesce(g.genera, []),
         'species_without_genus', coalesce(sp.without_genus, [])
       )::VARCHAR AS doc
FROM taxon f
CROSS JOIN latest l
LEFT JOIN first_seen fs ON fs.family = f.name
LEFT JOIN genera g ON g.family = f.name
LEFT JOIN subfamilies sf ON sf.family = f.name
LEFT JOIN family_species sp ON sp.family = f.name
WHERE f.rank = 'family'
ORDER BY name_key                                         -- keyed lookups read one block

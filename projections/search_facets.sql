-- search_facets: one row per release: the values each /search filter takes in that release with the number of
-- species having each, as one JSON doc keyed by msl (GET /search/facets sends it as it is; latest by default).
-- Facets family, genus, realm, genome_composition and host_source: [{value, count}], largest first, then by
-- value; value null counts the species without one (no family, no realm before MSL34, ...), so each facet's
-- counts add up to total_species. release: every release with its species (the same list in every row).
-- Values are those of search_species (genome composition and host carried along the lineage, see there).
-- depends: search_species
WITH facet AS (
  SELECT msl, 'family' AS facet, family AS value, count(*) AS n FROM search_species GROUP BY ALL
  UNION ALL SELECT msl, 'genus', genus, count(*) FROM search_species GROUP BY ALL
  UNION ALL SELECT msl, 'realm', realm, count(*) FROM search_species GROUP BY ALL
  UNION ALL SELECT msl, 'genome_composition', genome_composition, count(*) FROM search_species GROUP BY ALL
  UNION ALL SELECT msl, 'host_source', host_source, count(*) FROM search_species GROUP BY ALL
),
lists AS (
  SELECT msl, facet, list(json_object('value', value, 'count', n) ORDER BY n DESC, value NULLS LAST) AS items
  FROM facet GROUP BY msl, facet
),
release AS (
  SELECT list(json_object('value', r.version, 'year', r.year, 'count', c.n) ORDER BY r.msl) AS items
  FROM src.releases r JOIN (SELECT msl, count(*) AS n FROM search_species GROUP BY msl) c ON c.msl = r.msl
)
SELECT r.msl, r.version,
       json_object(
         'msl_version', r.version,
         'msl_year', r.year,
         'total_species', (SELECT count(*) FROM search_species s WHERE s.msl = r.msl),
         'facets', json_object(
           'family', (SELECT items FROM lists WHERE msl = r.msl AND facet = 'family'),
           'genus', (SELECT items FROM lists WHERE msl = r.msl AND facet = 'genus'),
           'realm', (SELECT items FROM lists WHERE msl = r.msl AND facet = 'realm'),
           'genome_composition', (SELECT items FROM lists WHERE msl = r.msl AND facet = 'genome_composition'),
           'host_source', (SELECT items FROM lists WHERE msl = r.msl AND facet = 'host_source'),
           'release', (SELECT items FROM release))
       )::VARCHAR AS doc
FROM src.releases r
ORDER BY r.msl

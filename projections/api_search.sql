-- api_search: one row per (release, species): what GET /api/v1/search matches and the result row it shows,
-- pre-rendered, so a search is one filtered scan of one table: no join, and no JSON built per matching row
-- (joining src.species to species_genome and rendering in the query cost ~8 ms a search; this ~3.5 ms).
--   name_key, family_key, host_key   the species name, family and VMR host source, lower-cased ('' when absent)
--   names_key every name the species' lineage carried in any release (species names, VMR virus names and
--             abbreviations: "sars" finds Betacoronavirus pandemicum by SARS-CoV-2), lower-cased and joined
--             with U+001F, a character no name contains, so a match never spans two names
--   all_key   every field `field=all` searches (names, family, genus, order, realm, host source), joined the same way
--   result    the result as JSON text; genome type and hosts as the species record shows them (species_genome)
-- Stored in release and name order: a search reads one release, and its rows come out in result order.
-- depends: search_species, name_index
WITH names AS (
  SELECT lineage_id, string_agg(DISTINCT lower(v), chr(31) ORDER BY lower(v)) AS names_key
  FROM (SELECT lineage_id, unnest(variants) AS v FROM name_index WHERE kind <> 'taxon')
  GROUP BY lineage_id
)
SELECT msl,
       species,
       name_key,
       coalesce(n.names_key, name_key) AS names_key,
       coalesce(family_key, '') AS family_key,
       coalesce(host_source_key, '') AS host_key,
       concat_ws(chr(31), coalesce(n.names_key, name_key), family_key, genus_key, lower("order"), realm_key, host_source_key) AS all_key,
       json_object('scientific_name', species, 'realm', realm, 'order', "order", 'family', family, 'genus', genus,
                   'genome_type', genome_composition, 'hosts', hosts)::VARCHAR AS result
FROM search_species s
LEFT JOIN names n ON n.lineage_id = s.lineage_id
ORDER BY msl, species

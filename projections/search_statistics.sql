-- search_statistics: one row per release: totals and distributions of the release as one JSON doc keyed by msl
-- (GET /search/statistics sends it as it is; latest by default).
--   totals            taxa per rank (releases.counts) and species without a family / genus
--   change            against the previous release (release_diff of the consecutive pair; null on the first release)
--   distributions     species per realm, genome composition and host source ([{value, count, percent}],
--                     largest first, value null = without one; as search_species, carried along the lineage),
--                     families and genera by size ([{size, families|genera, species}] in buckets 1, 2-5, 6-10,
--                     11-50, 51-100, 101-500, 501+ species) and the 10 largest families and genera
--   naming            species named "Genus epithet" (two words, the first its genus: ICTV's binomial format,
--                     adopted from MSL37 on) and their percent of the release
--   diversity         Shannon and Simpson indices over families and genera (diversity_stats)
-- depends: search_species, releases, release_diff, diversity_stats
WITH total AS (
  SELECT msl, count(*) AS species,
         count(*) FILTER (family IS NULL) AS without_family, count(*) FILTER (genus IS NULL) AS without_genus,
         count(*) FILTER (len(string_split(species, ' ')) = 2 AND split_part(species, ' ', 1) = genus) AS binomial
  FROM search_species GROUP BY msl
),
attribute AS (
  SELECT msl, 'realm' AS attribute, realm AS value, count(*) AS n FROM search_species GROUP BY ALL
  UNION ALL SELECT msl, 'genome_composition', genome_composition, count(*) FROM search_species GROUP BY ALL
  UNION ALL SELECT msl, 'host_source', host_source, count(*) FROM search_species GROUP BY ALL
),
attribute_list AS (
  SELECT a.msl, a.attribute,
         list(json_object('value', a.value, 'count', a.n, 'percent', round(100.0 * a.n / t.species, 2)) ORDER BY a.n DESC, a.value NULLS LAST) AS items
  FROM attribute a JOIN total t ON t.msl = a.msl
  GROUP BY a.msl, a.attribute
),
taxon_size AS (
  SELECT msl, 'family' AS rank, family AS name, count(*) AS n FROM search_species WHERE family IS NOT NULL GROUP BY ALL
  UNION ALL SELECT msl, 'genus', genus, count(*) FROM search_species WHERE genus IS NOT NULL GROUP BY ALL
),
bucketed AS (
  SELECT *, CASE WHEN n = 1 THEN 1 WHEN n <= 5 THEN 2 WHEN n <= 10 THEN 3 WHEN n <= 50 THEN 4
                 WHEN n <= 100 THEN 5 WHEN n <= 500 THEN 6 ELSE 7 END AS bucket
  FROM taxon_size
),
size_list AS (
  SELECT msl, rank,
         list(json_object('size', (['1', '2-5', '6-10', '11-50', '51-100', '101-500', '501+'])[bucket],
                          'taxa', taxa, 'species', species) ORDER BY bucket) AS items
  FROM (SELECT msl, rank, bucket, count(*) AS taxa, sum(n)::BIGINT AS species FROM bucketed GROUP BY ALL)
  GROUP BY msl, rank
),
largest AS (
  SELECT msl, rank, list(json_object('name', name, 'species', n) ORDER BY n DESC, name)[1:10] AS items
  FROM taxon_size GROUP BY msl, rank
)
SELECT r.msl, r.version,
       json_object(
         'msl_version', r.version,
         'msl_year', r.year,
         'totals', json_object(
           'species', t.species, 'genera', r.total_genera, 'families', r.total_families, 'orders', r.total_orders,
           'realms', r.total_realms, 'species_without_family', t.without_family, 'species_without_genus', t.without_genus,
           'taxa', r.counts),
         'change', CASE WHEN d.to_msl IS NOT NULL THEN json_object(
           'previous_version', d.from_version, 'previous_species', d.from_total,
           'species_delta', d.to_total - d.from_total,
           'growth_percent', round(100.0 * (d.to_total - d.from_total) / d.from_total, 2),
           'added', d.species_added, 'removed', d.species_removed, 'renamed', d.species_renamed,
           'reclassified', d.species_reclassified, 'merged', d.species_merged, 'split', d.species_split) END,
         'distributions', json_object(
           'realm', (SELECT items FROM attribute_list a WHERE a.msl = r.msl AND a.attribute = 'realm'),
           'genome_composition', (SELECT items FROM attribute_list a WHERE a.msl = r.msl AND a.attribute = 'genome_composition'),
           'host_source', (SELECT items FROM attribute_list a WHERE a.msl = r.msl AND a.attribute = 'host_source'),
           'family_size', coalesce((SELECT items FROM size_list z WHERE z.msl = r.msl AND z.rank = 'family'), []),
           'genus_size', coalesce((SELECT items FROM size_list z WHERE z.msl = r.msl AND z.rank = 'genus'), []),
           'largest_families', coalesce((SELECT items FROM largest x WHERE x.msl = r.msl AND x.rank = 'family'), []),
           'largest_genera', coalesce((SELECT items FROM largest x WHERE x.msl = r.msl AND x.rank = 'genus'), [])),
         'naming', json_object('binomial', t.binomial, 'binomial_percent', round(100.0 * t.binomial / t.species, 2)),
         'diversity', json_object(
           'family_shannon', round(s.family_shannon, 4), 'family_simpson', round(s.family_simpson, 4),
           'genus_shannon', round(s.genus_shannon, 4), 'genus_simpson', round(s.genus_simpson, 4))
       )::VARCHAR AS doc
FROM releases r
JOIN total t ON t.msl = r.msl
JOIN diversity_stats s ON s.msl = r.msl
LEFT JOIN release_diff d ON d.to_msl = r.msl AND d.from_msl = r.msl - 1   -- the consecutive pair
ORDER BY r.msl

-- releases: one row per MSL release: its names, taxon counts per rank, ICTV's official counts and the build
-- that produced them. Read by GET /api/v1/versions and /api/v1/releases and the version validation of
-- every versioned endpoint.
--   counts            taxa per rank in the data set (all 15 ranks, 0 where the release has none); taxa, not
--                     names: MSL15's four genera named 'Unnamed genus' count four times, as ICTV counts them
--   official_counts   ICTV's own counts, chosen as build/stage-ingest.ts releaseReports does: the release's
--                     own files first (its tree export or Taxon Counts sheet), else the next release's
--                     sheet (MSL37 is only counted in MSL38's); within one sheet the first table wins
--                     (MSL40.v2's sheet leads with the v2 totals, 16213 species, before v1's 16215)
--   total_*           ICTV's official count of the rank, which is what a user asks for; it differs from
--                     counts only where ICTV's own export cannot reproduce its figure (a genus with no
--                     species that the export leaves out), each difference named in the build report
--   counts_match      counts equal official_counts on the ranks the build checks (realm, order, family,
--                     genus, species); false where the build report explains the difference
-- Input checksums are not here: the manifest (data/releases.json) is not a source table.
WITH ranked AS (
  SELECT msl, rank, count(*)::INTEGER AS n FROM src.taxa GROUP BY ALL
),
counts AS (
  SELECT msl, {
    'realm': coalesce(max(n) FILTER (rank = 'realm'), 0), 'subrealm': coalesce(max(n) FILTER (rank = 'subrealm'), 0),
    'kingdom': coalesce(max(n) FILTER (rank = 'kingdom'), 0), 'subkingdom': coalesce(max(n) FILTER (rank = 'subkingdom'), 0),
    'phylum': coalesce(max(n) FILTER (rank = 'phylum'), 0), 'subphylum': coalesce(max(n) FILTER (rank = 'subphylum'), 0),
    'class': coalesce(max(n) FILTER (rank = 'class'), 0), 'subclass': coalesce(max(n) FILTER (rank = 'subclass'), 0),
    'order': coalesce(max(n) FILTER (rank = 'order'), 0), 'suborder': coalesce(max(n) FILTER (rank = 'suborder'), 0),
    'family': coalesce(max(n) FILTER (rank = 'family'), 0), 'subfamily': coalesce(max(n) FILTER (rank = 'subfamily'), 0),
    'genus': coalesce(max(n) FILTER (rank = 'genus'), 0), 'subgenus': coalesce(max(n) FILTER (rank = 'subgenus'), 0),
    'species': coalesce(max(n) FILTER (rank = 'species'), 0)} AS counts
  FROM ranked GROUP BY msl
),
official_ranked AS (
  SELECT msl, rank, first(count ORDER BY own_release DESC, rowid) AS n,
         first(source ORDER BY own_release DESC, rowid) AS source
  FROM src.official_counts GROUP BY msl, rank
),
official AS (
  SELECT msl, {
    'realm': max(n) FILTER (rank = 'realm'), 'subrealm': max(n) FILTER (rank = 'subrealm'),
    'kingdom': max(n) FILTER (rank = 'kingdom'), 'subkingdom': max(n) FILTER (rank = 'subkingdom'),
    'phylum': max(n) FILTER (rank = 'phylum'), 'subphylum': max(n) FILTER (rank = 'subphylum'),
    'class': max(n) FILTER (rank = 'class'), 'subclass': max(n) FILTER (rank = 'subclass'),
    'order': max(n) FILTER (rank = 'order'), 'suborder': max(n) FILTER (rank = 'suborder'),
    'family': max(n) FILTER (rank = 'family'), 'subfamily': max(n) FILTER (rank = 'subfamily'),
    'genus': max(n) FILTER (rank = 'genus'), 'subgenus': max(n) FILTER (rank = 'subgenus'),
    'species': max(n) FILTER (rank = 'species')} AS official_counts,
    max(source) FILTER (rank = 'species') AS official_source
  FROM official_ranked GROUP BY msl
)
SELECT r.version, r.msl, r.year, r.label, r.tree_id, r.species_source,
       coalesce(c.counts, {'realm': 0, 'subrealm': 0, 'kingdom': 0, 'subkingdom': 0, 'phylum': 0, 'subphylum': 0,
                           'class': 0, 'subclass': 0, 'order': 0, 'suborder': 0, 'family': 0, 'subfamily': 0,
                           'genus': 0, 'subgenus': 0, 'species': 0}) AS counts,
       coalesce(o.official_counts.species, c.counts.species, 0) AS total_species,
       coalesce(o.official_counts.genus, c.counts.genus, 0) AS total_genera,
       coalesce(o.official_counts.family, c.counts.family, 0) AS total_families,
       coalesce(o.official_counts."order", c.counts."order", 0) AS total_orders,
       coalesce(o.official_counts.realm, c.counts.realm, 0) AS total_realms,
       o.official_counts,
       o.official_source,
       coalesce(c.counts.realm = o.official_counts.realm AND c.counts."order" = o.official_counts."order"
                AND c.counts.family = o.official_counts.family AND c.counts.genus = o.official_counts.genus
                AND c.counts.species = o.official_counts.species, false) AS counts_match,
       lag(r.version) OVER (ORDER BY r.msl) AS previous_version,
       lead(r.version) OVER (ORDER BY r.msl) AS next_version,
       b.build_id,
       b.built_at
FROM src.releases r
LEFT JOIN counts c ON c.msl = r.msl
LEFT JOIN official o ON o.msl = r.msl
CROSS JOIN src.build_info b
ORDER BY r.msl

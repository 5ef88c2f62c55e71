-- timeline_doc: one row (key 'all'): the overview of the whole history as one pre-rendered JSON document,
-- read by GET /historical/timeline.
--   first_year..last_year, years_covered   the calendar years the releases span, both ends included (the
--                                          years without a release count too)
--   milestones          every row of timeline (milestones derived from the data), in order of release
--   species_per_release the size of each release and its growth against the previous one (diversity_stats), with
--                       its genera, families, orders and realms (releases)
-- depends: timeline, diversity_stats, releases
SELECT 'all' AS key,
       json_object(
         'first_version', (SELECT min_by(version, msl) FROM releases),
         'last_version', (SELECT max_by(version, msl) FROM releases),
         'first_year', (SELECT min(year) FROM releases),
         'last_year', (SELECT max(year) FROM releases),
         'years_covered', (SELECT max(year) - min(year) + 1 FROM releases),
         'releases', (SELECT count(*) FROM releases),
         'milestones', (
           SELECT coalesce(list(json_object('msl_version', version, 'year', year, 'kind', kind, 'subject', subject,
                                            'description', description, 'figures', figures)
                                ORDER BY msl, kind, subject), [])
           FROM timeline),
         'species_per_release', (
           SELECT coalesce(list(json_object('version', r.version, 'year', r.year, 'label', r.label, 'species', r.total_species,
                                   'species_delta', d.species_delta, 'species_growth_pct', d.species_growth_pct,
                                   'genera', r.total_genera, 'families', r.total_families, 'orders', r.total_orders,
                                   'realms', r.total_realms) ORDER BY r.msl), [])
           FROM releases r JOIN diversity_stats d ON d.msl = r.msl)
       )::VARCHAR AS doc

-- timeline: one row per milestone of the taxonomy's history, all derived from the data (nothing typed in):
-- msl, version, year, kind, subject (the taxon or rank concerned, if any), a one-line description with the
-- numbers, and the same numbers as JSON (figures). Read by the history overview endpoint.
-- Kinds:
--   first_release      the first release of the data set and its size
--   first_realm        the first release with a realm (src.taxa), its realms
--   rank_introduced    the first release using each other rank absent from the first release
--   taxon_abolished    a taxon of rank family or above holding >= 100 species in n-1 that is gone in n and was
--                      not renamed (a family's text is family_evolution's 'abolished' event; an order or higher
--                      also names its families abolished in the same step)
--   renaming_wave      the 3 releases renaming the most species (renamed, renamed+moved), with how many got a
--                      binomial name ("Genus epithet": two words, the first being the species' genus) from a
--                      name that was not one
--   largest_growth     the release adding the most species (species delta against the previous release)
--   largest_growth_pct the release with the largest relative growth
--   largest_decline    the release that lost the most species against the previous one, if any did (MSL18,
--                      1999a: ICTV's species definition of the 7th Report)
--   species_milestone  the first release with more than 5,000, 10,000, 15,000 ... species
-- depends: diversity_stats, family_evolution, species_transition, taxon_rename
WITH rel AS (
  SELECT msl, version, year, lag(msl) OVER (ORDER BY msl) AS prev_msl FROM src.releases
),
stats AS (
  SELECT d.msl, d.version, d.year, d.species, d.prev_species, d.species_delta, d.species_growth_pct, d.taxa
  FROM diversity_stats d
),
-- the lineage column of a species for a rank
species_rank AS (
  SELECT s.msl, r.rank, s.species,
         CASE r.rank WHEN 'realm' THEN s.realm WHEN 'subrealm' THEN s.subrealm WHEN 'kingdom' THEN s.kingdom
              WHEN 'subkingdom' THEN s.subkingdom WHEN 'phylum' THEN s.phylum WHEN 'subphylum' THEN s.subphylum
              WHEN 'class' THEN s.class WHEN 'subclass' THEN s.subclass WHEN 'order' THEN s."order"
              WHEN 'suborder' THEN s.suborder WHEN 'family' THEN s.family WHEN 'subfamily' THEN s.subfamily
              WHEN 'genus' THEN s.genus WHEN 'subgenus' THEN s.subgenus WHEN 'species' THEN s.species END AS name
  FROM src.species s
  CROSS JOIN (SELECT DISTINCT rank FROM src.taxa) r
),
rank_count AS (  -- taxa and species per (release, rank, taxon)
  SELECT msl, rank, name, count(*) AS species FROM species_rank WHERE name IS NOT NULL GROUP BY ALL
),
first_release AS (
  SELECT s.msl, 'first_release' AS kind, NULL AS subject,
         s.version || ' (' || s.year || ') is the first release in the data set: ' || format('{:,}', s.species) || ' species in '
           || format('{:,}', s.taxa.genus) || ' genera, ' || format('{:,}', s.taxa.family) || ' families and '
           || format('{:,}', s.taxa."order") || ' orders' AS description,
         json_object('species', s.species, 'genera', s.taxa.genus, 'families', s.taxa.family, 'orders', s.taxa."order") AS figures
  FROM stats s
  WHERE s.msl = (SELECT min(msl) FROM stats)
),
rank_first AS (
  SELECT rank, min(msl) AS msl FROM src.taxa GROUP BY rank
),
rank_introduced AS (
  SELECT f.msl, CASE WHEN f.rank = 'realm' THEN 'first_realm' ELSE 'rank_introduced' END, f.rank,
         CASE WHEN f.rank = 'realm'
              THEN 'First realm' || CASE WHEN count(*) > 1 THEN 's' ELSE '' END || ' in ' || rel.version || ': '
                   || string_agg(c.name || ' (' || format('{:,}', c.species) || ' species)', ', ' ORDER BY c.species DESC, c.name)
                   || ', ' || format('{:.0f}', 100.0 * sum(c.species) / any_value(st.species)) || '% of the release''s '
                   || format('{:,}', any_value(st.species)) || ' species'
              ELSE 'Rank ' || f.rank || ' first used in ' || rel.version || ': ' || count(c.name)
                   || CASE WHEN count(c.name) = 1 THEN ' taxon' ELSE ' taxa' END || ' holding '
                   || format('{:,}', coalesce(sum(c.species), 0)) || ' of ' || format('{:,}', any_value(st.species)) || ' species'
         END,
         json_object('taxa', count(c.name), 'species', coalesce(sum(c.species), 0), 'release_species', any_value(st.species),
                     'largest', list(c.name ORDER BY c.species DESC, c.name)[1:10])
  FROM rank_first f
  JOIN rel ON rel.msl = f.msl
  JOIN stats st ON st.msl = f.msl
  LEFT JOIN rank_count c ON c.msl = f.msl AND c.rank = f.rank
  WHERE f.msl > (SELECT min(msl) FROM src.releases)  -- ranks of the first release are not introductions
  GROUP BY f.msl, f.rank, rel.version
),
-- higher taxa renamed between n-1 and n (as in species_transition and family_evolution)
renamed_taxon AS (
  SELECT DISTINCT msl, old_name FROM taxon_rename
),
-- orders and higher ranks gone in n, not renamed, with >= 100 species in n-1
higher_abolished AS (
  SELECT rel.msl, rel.version, t.rank, t.name, c.species
  FROM rel
  JOIN src.taxa t ON t.msl = rel.prev_msl
  JOIN rank_count c ON c.msl = t.msl AND c.rank = t.rank AND c.name = t.name
  WHERE t.rank IN ('realm', 'subrealm', 'kingdom', 'subkingdom', 'phylum', 'subphylum', 'class', 'subclass', 'order', 'suborder')
    AND c.species >= 100
    AND NOT EXISTS (SELECT 1 FROM src.taxa x WHERE x.msl = rel.msl AND x.name = t.name)
    AND NOT EXISTS (SELECT 1 FROM renamed_taxon r WHERE r.msl = rel.msl AND r.old_name = t.name)
),
family_abolished AS (  -- families abolished in n (family_evolution puts the event on the family's last row)
  SELECT e.msl_version AS version, f.family, f.species, e.description
  FROM family_evolution f, unnest(f.events) AS u(e)
  WHERE e.kind = 'abolished'
),
abolished AS (
  SELECT h.msl, 'taxon_abolished', h.name,
         upper(h.rank[1]) || h.rank[2:] || ' ' || h.name || ' abolished in ' || h.version || ': its '
           || format('{:,}', h.species) || ' species of ' || p.version || ' lost their ' || h.rank
           || coalesce('; ' || count(fa.family) || ' of its ' || any_value(fc.families) || ' families were abolished with it ('
                || string_agg(fa.family, ', ' ORDER BY fa.family) || ')', ''),
         json_object('rank', h.rank, 'species', h.species, 'families', any_value(fc.families),
                     'families_abolished', list(fa.family ORDER BY fa.family) FILTER (fa.family IS NOT NULL))
  FROM higher_abolished h
  JOIN rel p ON p.msl = (SELECT r.prev_msl FROM rel r WHERE r.msl = h.msl)
  LEFT JOIN (SELECT msl, rank, name, count(DISTINCT family) AS families FROM species_rank sr
             JOIN src.species s USING (msl, species) GROUP BY ALL) fc
    ON fc.msl = p.msl AND fc.rank = h.rank AND fc.name = h.name
  LEFT JOIN (SELECT DISTINCT sr.msl, sr.rank, sr.name, s.family FROM species_rank sr JOIN src.species s USING (msl, species)) under
    ON under.msl = p.msl AND under.rank = h.rank AND under.name = h.name
  LEFT JOIN family_abolished fa ON fa.version = h.version AND fa.family = under.family
  GROUP BY h.msl, h.version, h.rank, h.name, h.species, p.version
  UNION ALL
  SELECT rel.msl, 'taxon_abolished', fa.family, fa.description,
         json_object('rank', 'family', 'species', fa.species)
  FROM family_abolished fa JOIN rel ON rel.version = fa.version
  WHERE fa.species >= 100
),
renames AS (
  SELECT t.to_msl AS msl, count(*) AS renamed,
         count(*) FILTER (len(string_split(t.to_name, ' ')) = 2 AND split_part(t.to_name, ' ', 1) = n.genus
                          AND NOT (len(string_split(t.from_name, ' ')) = 2 AND split_part(t.from_name, ' ', 1) = p.genus)) AS to_binomial
  FROM species_transition t
  JOIN src.species n ON n.taxnode_id = t.to_taxnode
  JOIN src.species p ON p.taxnode_id = t.from_taxnode
  WHERE t.change IN ('renamed', 'renamed+moved')
  GROUP BY t.to_msl
),
renaming_wave AS (
  SELECT w.msl, 'renaming_wave', NULL,
         'Renaming wave in ' || s.version || ' (#' || w.place || '): ' || format('{:,}', w.renamed) || ' species renamed ('
           || format('{:.0f}', 100.0 * w.renamed / s.prev_species) || '% of the previous release''s ' || format('{:,}', s.prev_species)
           || '), ' || format('{:,}', w.to_binomial) || ' of them to binomial "Genus epithet" names',
         json_object('renamed', w.renamed, 'to_binomial', w.to_binomial, 'previous_species', s.prev_species, 'place', w.place)
  FROM (SELECT *, row_number() OVER (ORDER BY renamed DESC, msl) AS place FROM renames) w
  JOIN stats s ON s.msl = w.msl
  WHERE w.place <= 3
),
growth AS (
  SELECT s.msl, 'largest_growth', NULL,
         'Largest growth in one release: ' || s.version || ' added ' || format('{:,}', s.species_delta) || ' species (+'
           || s.species_growth_pct || '%), from ' || format('{:,}', s.prev_species) || ' to ' || format('{:,}', s.species),
         json_object('species_delta', s.species_delta, 'growth_pct', s.species_growth_pct, 'previous_species', s.prev_species, 'species', s.species)
  FROM stats s
  WHERE s.species_delta = (SELECT max(species_delta) FROM stats)
  UNION ALL
  SELECT s.msl, 'largest_growth_pct', NULL,
         'Largest relative growth: ' || s.version || ' grew by ' || s.species_growth_pct || '% (+' || format('{:,}', s.species_delta)
           || ' species, from ' || format('{:,}', s.prev_species) || ' to ' || format('{:,}', s.species) || ')',
         json_object('species_delta', s.species_delta, 'growth_pct', s.species_growth_pct, 'previous_species', s.prev_species, 'species', s.species)
  FROM stats s
  WHERE s.species_growth_pct = (SELECT max(species_growth_pct) FROM stats)
),
decline AS (
  SELECT s.msl, 'largest_decline', NULL,
         'Largest decline in one release: ' || s.version || ' listed ' || format('{:,}', -s.species_delta) || ' species fewer ('
           || s.species_growth_pct || '%), from ' || format('{:,}', s.prev_species) || ' to ' || format('{:,}', s.species),
         json_object('species_delta', s.species_delta, 'growth_pct', s.species_growth_pct, 'previous_species', s.prev_species, 'species', s.species)
  FROM stats s
  WHERE s.species_delta < 0 AND s.species_delta = (SELECT min(species_delta) FROM stats)
),
milestone AS (
  SELECT min(s.msl) AS msl, 'species_milestone', NULL,
         arg_min(s.version, s.msl) || ' is the first release with more than ' || format('{:,}', m.threshold) || ' species ('
           || format('{:,}', arg_min(s.species, s.msl)) || ')',
         json_object('threshold', m.threshold, 'species', arg_min(s.species, s.msl))
  FROM (SELECT unnest(range(5000, (SELECT max(species) FROM stats) + 1, 5000)) AS threshold) m
  JOIN stats s ON s.species > m.threshold
  GROUP BY m.threshold
),
milestones(msl, kind, subject, description, figures) AS (
  SELECT * FROM first_release
  UNION ALL SELECT * FROM rank_introduced
  UNION ALL SELECT * FROM abolished
  UNION ALL SELECT * FROM renaming_wave
  UNION ALL SELECT * FROM growth
  UNION ALL SELECT * FROM decline
  UNION ALL SELECT * FROM milestone
)
SELECT m.msl, rel.version, rel.year, m.kind, m.subject, m.description, m.figures::JSON AS figures
FROM milestones m JOIN rel ON rel.msl = m.msl
ORDER BY m.msl, list_position(['first_release', 'first_realm', 'rank_introduced', 'species_milestone', 'largest_growth',
                               'largest_growth_pct', 'largest_decline', 'renaming_wave', 'taxon_abolished'], m.kind), m.subject

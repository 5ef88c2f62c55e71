-- official_tally: one row per release step and species tally of ICTV's "Taxon Counts" sheet (src.official_changes:
-- the releases whose spreadsheet has one, MSL38 on), beside the data set's count of the same thing, and, where the
-- two differ, every species that makes the difference with the reason the data gives. Read by GET
-- /api/v1/compare/{from}/{to} (its `official` block, for the step the sheet counts), /ai/query's answers to "how
-- many new / renamed / abolished" and the build report.
--
-- ours, by ICTV's words (release_diff_detail of the step, species followed along their lineages):
--   New          added; with split, when the sheet has no "New Splits" row (it then counts them as new)
--   New Splits   split (a species split off one that carries on, or formed by the end of one)
--   Abolished    removed; with merged, when the sheet has no "Merged" row
--   Merged       merged (a species of the earlier release that went into another)
--   Renamed      renamed (the same lineage under another name)
--   Moved        reclassified into another genus under the same name (ICTV lists no species for this tally:
--                the nearest the lists allow, compared by count only)
--   Promoted, Demoted, Newly Promoted, Newly Demoted   0 (no species changes rank)
-- The species ICTV counts are read from its own records where it publishes them: the release's "Taxa Renamed or
-- Abolished" sheet (src.renames) for Renamed and Abolished, the species' "Last Change" column of the release
-- (marked New, Split, Merged) for the others. `differences`: the species in one and not in the other, each with
-- how the data counts it (ours), how ICTV marks it (ictv) and why (note).
-- depends: release_diff_detail
WITH sheet AS (  -- ICTV's counts, without the sign it gives to what leaves
  SELECT msl AS to_msl, change, abs(count)::INTEGER AS ictv, source,
         bool_or(change = 'New Splits') OVER (PARTITION BY msl) AS has_splits,
         bool_or(change = 'Merged') OVER (PARTITION BY msl) AS has_merged
  FROM src.official_changes WHERE rank = 'species'
),
steps AS (
  SELECT DISTINCT s.to_msl, r.msl AS from_msl, s.has_splits, s.has_merged
  FROM sheet s JOIN src.releases r ON r.msl = (SELECT max(msl) FROM src.releases x WHERE x.msl < s.to_msl)
),
diff AS (
  SELECT d.* FROM release_diff_detail d JOIN steps s ON s.from_msl = d.from_msl AND s.to_msl = d.to_msl
),
marked AS (  -- the release's own Last Change marks of the species it lists, changed in that release
  SELECT s.msl AS to_msl, s.species, s.last_change FROM src.species s JOIN steps t ON t.to_msl = s.msl
  WHERE s.msl_of_last_change = s.msl
),
listed AS (  -- the release's Taxa Renamed or Abolished sheet, species rows, by the last name of each path
  SELECT r.msl AS to_msl, coalesce(r.change, 'Renamed') AS change, split_part(r.old_name, ';', -1) AS old_name,
         split_part(r.new_name, ';', -1) AS new_name
  FROM src.renames r JOIN steps t ON t.to_msl = r.msl WHERE r.rank = 'species'
),
-- each tally's species on each side, keyed by the name that identifies them (the pair, for a rename)
ours AS (
  SELECT d.to_msl, 'New' AS tally, d.new_name AS species, d.change_type AS how FROM diff d JOIN steps s USING (to_msl)
  WHERE d.change_type = 'added' OR (d.change_type IN ('split', 'formed_by_merge') AND NOT s.has_splits)
  UNION ALL SELECT to_msl, 'New Splits', new_name, change_type FROM diff WHERE change_type IN ('split', 'formed_by_merge')
  UNION ALL SELECT d.to_msl, 'Abolished', d.old_name, d.change_type FROM diff d JOIN steps s USING (to_msl)
  WHERE d.change_type = 'removed' OR (d.change_type = 'merged' AND NOT s.has_merged)
  UNION ALL SELECT to_msl, 'Merged', new_name, change_type FROM diff WHERE change_type = 'merged'
  UNION ALL SELECT to_msl, 'Renamed', old_name || ' -> ' || new_name, change_type FROM diff WHERE change_type = 'renamed'
),
ictv AS (
  SELECT to_msl, 'New' AS tally, species, last_change AS how FROM marked WHERE last_change LIKE 'New%'
  UNION ALL SELECT to_msl, 'New Splits', species, last_change FROM marked WHERE last_change LIKE 'Split%'
  UNION ALL SELECT to_msl, 'Abolished', old_name, change FROM listed WHERE change LIKE 'Abolished%'
  UNION ALL SELECT to_msl, 'Merged', species, last_change FROM marked WHERE last_change LIKE 'Merged%'
  UNION ALL SELECT to_msl, 'Renamed', old_name || ' -> ' || new_name, change FROM listed WHERE change LIKE 'Renamed%'
),
counted AS (
  SELECT s.to_msl, s.change, s.ictv, s.source,
         CASE s.change
           WHEN 'Moved' THEN (SELECT count(*) FROM diff d WHERE d.to_msl = s.to_msl AND d.change_type = 'reclassified'
                                AND d.old_genus IS DISTINCT FROM d.new_genus)
           ELSE (SELECT count(*) FROM ours o WHERE o.to_msl = s.to_msl AND o.tally = s.change)
         END::INTEGER AS ours
  FROM sheet s
),
-- only where the counts differ: the species on one side only (ICTV's side is read where it publishes species)
one_side AS (
  SELECT o.to_msl, o.tally, o.species, o.how AS ours, i.how AS ictv FROM ours o
  LEFT JOIN ictv i ON i.to_msl = o.to_msl AND i.tally = o.tally AND i.species = o.species
  WHERE i.species IS NULL
  UNION ALL
  SELECT i.to_msl, i.tally, i.species, NULL, i.how FROM ictv i
  LEFT JOIN ours o ON o.to_msl = i.to_msl AND o.tally = i.tally AND o.species = i.species
  WHERE o.species IS NULL
),
explained AS (
  SELECT x.to_msl, x.tally, x.species, x.ours, x.ictv,
         CASE
           -- a correction ICTV made to the previous list after its spreadsheet: that release's VMR has the new name
           WHEN x.tally = 'Renamed' AND x.ictv IS NULL AND EXISTS (SELECT 1 FROM src.isolates v WHERE v.msl = s.from_msl
                AND v.species = split_part(x.species, ' -> ', 2))
             THEN 'a correction of a later version of MSL' || s.from_msl || ' (its VMR has the new name), so not in ICTV''s count'
           WHEN x.tally = 'Renamed' AND EXISTS (SELECT 1 FROM one_side y WHERE y.to_msl = x.to_msl AND y.tally = x.tally
                AND lower(y.species) = lower(x.species) AND y.species <> x.species)
             THEN 'the same rename, spelt ' || (SELECT any_value(y.species) FROM one_side y WHERE y.to_msl = x.to_msl AND y.tally = x.tally
                AND lower(y.species) = lower(x.species) AND y.species <> x.species) || (CASE WHEN x.ictv IS NULL THEN ' in ICTV''s sheet' ELSE ' in the list' END)
           WHEN x.ictv IS NULL THEN
             coalesce('ICTV''s list marks it ' || rtrim((SELECT m.last_change FROM marked m WHERE m.to_msl = x.to_msl
                        AND m.species = coalesce(nullif(split_part(x.species, ' -> ', 2), ''), x.species)), ','),
                      'not among the species ICTV records for this tally')
             || ' (the lineages count it ' || replace(x.ours, '_', ' ') || ')'
           ELSE 'ICTV marks it ' || rtrim(x.ictv, ',') || '; the lineages count it '
             || coalesce(replace((SELECT any_value(d.change_type) FROM diff d WHERE d.to_msl = x.to_msl
                  AND (d.new_name = x.species OR d.old_name = x.species)), '_', ' '), 'unchanged')
         END AS note
  FROM one_side x JOIN steps s USING (to_msl)
)
SELECT s.from_msl, c.to_msl, c.change, c.ictv, c.ours, c.source,
       CASE c.change WHEN 'New' THEN CASE WHEN s.has_splits THEN 'added' ELSE 'added, and split off (the sheet has no New Splits)' END
                     WHEN 'New Splits' THEN 'split off or formed by a split'
                     WHEN 'Abolished' THEN CASE WHEN s.has_merged THEN 'removed' ELSE 'removed, and merged into another (the sheet has no Merged)' END
                     WHEN 'Merged' THEN 'merged into another species'
                     WHEN 'Renamed' THEN 'renamed'
                     WHEN 'Moved' THEN 'moved to another genus under the same name'
                     ELSE 'none (species change no rank)' END AS ours_counts,
       coalesce((SELECT list({'species': e.species, 'ours': e.ours, 'ictv': rtrim(e.ictv, ','), 'note': e.note} ORDER BY e.species)
                 FROM explained e WHERE e.to_msl = c.to_msl AND e.tally = c.change AND c.ictv <> c.ours), []) AS differences,
       CASE WHEN c.ictv = c.ours THEN NULL
            WHEN c.change = 'Moved' THEN 'ICTV publishes no species list for this tally (its Taxa Renamed sheet lists '
              || (SELECT count(*) FROM listed l WHERE l.to_msl = c.to_msl AND l.change LIKE '%Moved%')
              || ' species renamed and moved; its Last Change column marks '
              || (SELECT count(*) FROM marked m WHERE m.to_msl = c.to_msl AND m.last_change LIKE '%Moved%')
              || ' species Moved), so the difference cannot be named species by species; the data set counts species that kept their name in another genus'
            ELSE NULL
       END AS note
FROM counted c JOIN steps s USING (to_msl)
ORDER BY c.to_msl, c.change

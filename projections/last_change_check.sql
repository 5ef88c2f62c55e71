-- last_change_check: one row per species whose ICTV "Last Change" happened in the release it is listed in
-- (MSL29 on), comparing ICTV's change log with our n-1 -> n transition. Read by the build report.
-- ICTV's flags: New, Renamed, Moved (others such as "Removed as Type Species", Merged, Split are not checked).
-- explained: a disagreement caused only by a rename of a higher taxon, which ICTV logs on the species as
-- "Moved" (up to MSL37) or "Renamed" (MSL38 on) while the species' own name and placement stay.
-- depends: species_transition
WITH lc AS (
  SELECT s.msl, s.taxnode_id, s.species, s.last_change, s.proposal,
         regexp_matches(s.last_change, '(^|,)\s*New\s*(,|$)') AS is_new,
         regexp_matches(s.last_change, '(^|,)\s*Renamed\s*(,|$)') AS renamed,
         regexp_matches(s.last_change, '(^|,)\s*Moved\s*(,|$)') AS moved
  FROM src.species s
  WHERE s.msl_of_last_change = s.msl
),
expected AS (
  SELECT *, CASE WHEN is_new THEN 'new' WHEN renamed AND moved THEN 'renamed+moved'
                 WHEN renamed THEN 'renamed' WHEN moved THEN 'moved' END AS ictv
  FROM lc
)
SELECT e.msl, e.species, e.last_change, e.ictv, t.change AS ours, t.from_name,
       e.ictv = t.change AS agrees,
       e.ictv <> t.change AND coalesce(t.higher_renamed, false) AS explained_by_higher_rename
FROM expected e
LEFT JOIN species_transition t ON t.to_taxnode = e.taxnode_id AND t.change NOT IN ('merged', 'abolished')
WHERE e.ictv IS NOT NULL
ORDER BY e.msl, e.species

-- species_history_doc: one row per lineage (species_identity.lineage_id): the lineage across every release
-- as one pre-rendered JSON document, read by GET /historical/species/:name/history after name_lookup has
-- turned a name into lineages. Unlike history_doc (only the releases the species is in, with its full
-- lineage strings), releases has one entry for every release of the data set, oldest first:
--   present   whether the lineage has a species in that release; name, family, genus: its placement there
--   change    how it came into that release (species_timeline: present on the first release, new, split, merged,
--             unchanged, renamed, moved, renamed+moved); null where it is absent
-- began/ended, split_from/merged_from, merged_into/split_into and abolished_in are lineage_summary's.
-- depends: lineage_summary, species_timeline
WITH grid AS (  -- every lineage x every release
  SELECT l.lineage_id, r.msl, r.version, r.year, t.name, t.family, t.genus, t.change, t.lineage_id IS NOT NULL AS present
  FROM lineage_summary l
  CROSS JOIN src.releases r
  LEFT JOIN species_timeline t ON t.lineage_id = l.lineage_id AND t.msl = r.msl
),
releases AS (
  SELECT lineage_id, count(*) FILTER (present) AS releases_present,
         list(json_object('version', version, 'year', year, 'present', present, 'name', name, 'family', family,
                          'genus', genus, 'change', CASE WHEN present THEN coalesce(change, 'present') END) ORDER BY msl) AS releases
  FROM grid GROUP BY lineage_id
)
SELECT l.lineage_id,
       json_object(
         'lineage_id', l.lineage_id,
         'current_name', l.current_name,
         'first_appearance', l.first_version,
         'last_appearance', l.last_version,
         'releases_present', g.releases_present,
         'names', l.names,
         'began', l.began,
         'ended', l.ended,
         'split_from', coalesce(l.split_from, []),
         'merged_from', coalesce(l.merged_from, []),
         'merged_into', coalesce(l.merged_into, []),
         'split_into', coalesce(l.split_into, []),
         'abolished_in', l.abolished_in,
         'releases', g.releases
       )::VARCHAR AS doc
FROM lineage_summary l
JOIN releases g ON g.lineage_id = l.lineage_id
ORDER BY l.lineage_id

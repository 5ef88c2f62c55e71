-- taxon_change_list: one row per record of a release's change lists ("Taxa Renamed" and abolished sheets,
-- src.renames, MSL38 on) that changes a taxon: the release, the rank as recorded ("family", "family>order"),
-- the change, and the last name of the old and new lineage paths. Read by src/read/taxonomy-facts.ts for
-- POST /ai/query: "which orders were renamed in 2022", "when was Caudovirales abolished", "what was
-- Orthoherpesviridae called before".
--   change     as recorded; the lists leave it empty on many rows, so an empty one is read from the names:
--              no new name is an abolition, a different last name a rename (a row that is neither is left out)
--   new_name   NULL for an abolition
SELECT * FROM (
  SELECT msl::INTEGER AS msl, rank,
         CASE WHEN change IS NOT NULL THEN change
              WHEN new_name IS NULL OR new_name = '' THEN 'Abolished'
              WHEN split_part(old_name, ';', -1) <> split_part(new_name, ';', -1) THEN 'Renamed' END AS change,
         split_part(old_name, ';', -1) AS old_name,
         nullif(split_part(new_name, ';', -1), '') AS new_name
  FROM src.renames
)
WHERE change IS NOT NULL
ORDER BY msl, rank, old_name

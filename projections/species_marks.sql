-- species_marks: one row per species row of a release's list that marks something about it: that it is the
-- type species of its genus (the spreadsheets of MSL23-35 mark them), or the change that release made to it
-- (the list's "last change" column, kept only on the release that made it: 'Merged', 'Split', 'New', ...).
-- Read by src/read/taxonomy-facts.ts for POST /ai/query: "what is the type species of Tobamovirus in 2015",
-- "which species were merged in MSL36" (the species each release's list itself marks merged or split).
--   change   the list's last_change of this release without its trailing comma ("Merged,Moved"), else NULL
SELECT msl::INTEGER AS msl, genus, species, coalesce(type_species, false) AS type_species,
       CASE WHEN msl_of_last_change = msl THEN nullif(rtrim(last_change, ', '), '') END AS change
FROM src.species
WHERE type_species OR (msl_of_last_change = msl AND nullif(rtrim(last_change, ', '), '') IS NOT NULL)
ORDER BY msl, genus, species

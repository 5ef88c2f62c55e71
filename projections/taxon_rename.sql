-- taxon_rename: one row per rename of a taxon above species between release n-1 and n (msl = n): its old
-- and new name. From ICTV's stable ids (src.taxon_nodes, up to MSL38) and the "Taxa Renamed" sheets
-- (src.renames, MSL38-40). Read by family_evolution, taxonomy_taxon and compare_doc, which follow higher taxa
-- across releases.
SELECT DISTINCT a.msl + 1 AS msl, a.name AS old_name, b.name AS new_name
FROM src.taxon_nodes a JOIN src.taxon_nodes b ON b.msl = a.msl + 1 AND b.ictv_id = a.ictv_id
WHERE a.name <> b.name AND coalesce(a.rank, '') <> 'species' AND coalesce(b.rank, '') <> 'species'
UNION
SELECT msl, list_last(string_split(old_name, ';')), list_last(string_split(new_name, ';'))
FROM src.renames
WHERE new_name IS NOT NULL AND rank <> 'species'
ORDER BY msl, old_name, new_name

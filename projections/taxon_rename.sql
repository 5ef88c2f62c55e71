-- taxon_rename: one row per rename of a taxon above species between a release and the next (msl = the
-- later one): its old and new name. From ICTV's stable ids (src.taxon_nodes, the releases with an ontology
-- file) and the "Taxa Renamed" sheets (src.renames, MSL38 on). Read by species_transition, family_evolution,
-- taxonomy_taxon and compare_doc, which follow higher taxa across releases.
WITH steps AS (
  SELECT msl AS from_msl, lead(msl) OVER (ORDER BY msl) AS to_msl FROM src.releases
)
SELECT DISTINCT st.to_msl AS msl, a.name AS old_name, b.name AS new_name
FROM src.taxon_nodes a
JOIN steps st ON st.from_msl = a.msl
JOIN src.taxon_nodes b ON b.msl = st.to_msl AND b.ictv_id = a.ictv_id
WHERE a.name <> b.name AND coalesce(a.rank, '') <> 'species' AND coalesce(b.rank, '') <> 'species'
UNION
SELECT msl, list_last(string_split(old_name, ';')), list_last(string_split(new_name, ';'))
FROM src.renames
WHERE new_name IS NOT NULL AND rank <> 'species'
ORDER BY msl, old_name, new_name

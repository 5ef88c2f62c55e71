-- compare_species: one row per species of every release, numbered within its release (idx 0, 1, ... in
-- lineage order): the species as a compare details row shows it, pre-rendered. Read by GET
-- /api/v1/compare/:from/:to/details, with compare_rows, which refers to species by (release, idx) so that a
-- reference takes two bytes (a release holds fewer than 65,535 species; the build checks it).
--   doc  {name, family, genus, lineage (ICTV's ';'-joined notation), lineage_id, proposal}
-- depends: species_timeline
SELECT msl,
       CASE WHEN row_number() OVER (PARTITION BY msl ORDER BY lineage_id) > 65535
            THEN error('a release holds 65,535 species or more: compare_rows needs wider references')
            ELSE (row_number() OVER (PARTITION BY msl ORDER BY lineage_id) - 1)::INTEGER END AS idx,
       lineage_id,
       json_object('name', name, 'family', family, 'genus', genus, 'lineage', full_lineage, 'lineage_id', lineage_id,
                   'proposal', proposal)::VARCHAR AS doc
FROM species_timeline
ORDER BY msl, idx

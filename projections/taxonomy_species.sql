-- taxonomy_species: one row per species of the latest release, keyed by its lower-cased name: species record A
-- of the interface spec (section 2.1) as one JSON doc. Read by GET /taxonomy/species/:name (which adds how the
-- name asked for matched, from the resolver) and POST /taxonomy/validate (the correct values).
-- Record A names the ranks `taxonomy` and the release `classification` (species_doc, record B, calls the ranks
-- `classification`), so the doc is species_doc's record re-shaped, values unchanged:
--   taxonomy         every rank realm..subgenus, null where the species has none
--   classification   {msl_version, msl_year} of the latest release
--   genome, hosts, hosts_from_version, ictv_id, taxnode_id, lineage_id, last_change   as in species_doc
-- depends: species_doc
SELECT d.name_key,
       json_object(
         'scientific_name', d.doc ->> 'scientific_name',
         'taxonomy', d.doc -> 'classification',
         'classification', json_object('msl_version', d.doc ->> 'msl_version', 'msl_year', (d.doc ->> 'msl_year')::INTEGER),
         'genome', d.doc -> 'genome',
         'hosts', d.doc -> 'hosts',
         'hosts_from_version', d.doc ->> 'hosts_from_version',
         'ictv_id', (d.doc ->> 'ictv_id')::BIGINT,
         'taxnode_id', (d.doc ->> 'taxnode_id')::BIGINT,
         'lineage_id', d.lineage_id,
         'last_change', d.doc -> 'last_change'
       )::VARCHAR AS doc
FROM species_doc d
WHERE d.msl = (SELECT max(msl) FROM src.releases)
ORDER BY d.name_key                                       -- keyed lookups read one block

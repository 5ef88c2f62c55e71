-- species_doc: one row per (msl, species name): the full species record as one pre-rendered JSON document, so
-- GET /api/v1/species/:version/:name is a single keyed lookup (msl or version, name_key) that sends `doc`
-- as it is. Every key is always present (null, or [] for hosts, where the release does not say).
-- Genome and exemplar values a release lacks are carried along the lineage from the nearest release
-- that has them (species_genome); *_from_version names that release.
-- depends: species_identity, species_genome
SELECT s.msl,
       r.version,
       lower(s.species) AS name_key,
       si.lineage_id,
       json_object(
         'scientific_name', s.species,
         'msl_version', r.version,
         'msl_year', r.year,
         'classification', json_object(
           'realm', s.realm, 'subrealm', s.subrealm, 'kingdom', s.kingdom, 'subkingdom', s.subkingdom,
           'phylum', s.phylum, 'subphylum', s.subphylum, 'class', s.class, 'subclass', s.subclass,
           'order', s."order", 'suborder', s.suborder, 'family', s.family, 'subfamily', s.subfamily,
           'genus', s.genus, 'subgenus', s.subgenus),
         'genome', json_object(
           'type', g.genome_composition,
           'type_from_version', 'MSL' || g.genome_composition_from_msl,
           'size', g.genome_size,
           'size_bp', g.genome_size_bp,
           'size_from_version', 'MSL' || g.genome_size_from_msl,
           -- the VMR's "Genome coverage" of the sequence measured: a 'Partial genome' length understates it
           'size_coverage', g.genome_size_coverage),
         'hosts', coalesce(g.hosts, []::VARCHAR[]),
         'hosts_from_version', 'MSL' || g.exemplar_from_msl,
         'ictv_id', si.ictv_id,
         'taxnode_id', s.taxnode_id,
         'lineage_id', si.lineage_id,
         'type_species', s.type_species,                   -- the spreadsheets stop flagging it after MSL35
         'last_change', json_object(
           'change', rtrim(s.last_change, ', '),           -- ICTV writes "Renamed,Moved," (trailing comma)
           'version', 'MSL' || s.msl_of_last_change,
           'proposal', s.proposal),
         'isolates_exemplar', json_object(
           'virus_names', g.exemplar_virus_names,
           'abbreviations', g.exemplar_abbreviations,
           'genbank', g.exemplar_genbank,
           'from_version', 'MSL' || g.exemplar_from_msl)
       )::VARCHAR AS doc
FROM src.species s
JOIN src.releases r ON r.msl = s.msl
JOIN species_identity si ON si.taxnode_id = s.taxnode_id
JOIN species_genome g ON g.taxnode_id = s.taxnode_id
-- A name is one key: where it stands for two species of a release (MSL22's 'Chayote mosaic virus', a
-- begomovirus and a tymovirus), the first in ICTV's order answers; a history by that name shows both.
QUALIFY row_number() OVER (PARTITION BY s.msl, lower(s.species) ORDER BY s.sort) = 1
ORDER BY s.msl, name_key                                  -- keyed lookups read one block

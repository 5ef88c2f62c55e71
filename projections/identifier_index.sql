-- identifier_index: one row per (identifier, lineage) of every identifier the data set gives a taxon, so the
-- resolver answers an accession, a taxid or an id with one keyed query. Read by src/read/identifiers.ts.
--   kind       accession  a GenBank or RefSeq accession of a VMR isolate (any VMR, exemplar or additional),
--                         without its version ("NC_001367.1" is "NC_001367")
--              taxid      an NCBI taxonomy id of a VMR isolate's RefSeq record (refseq_taxids)
--              ictv_id    ICTV's stable id of a taxon (species: src.species; higher taxa: the ontology files)
--              taxnode_id ICTV's id of a taxon in one release (src.species, src.taxa)
--   id_key     the identifier as looked up: upper case, digits only for the numeric kinds
--   lineage_id / rank   what it leads to: a species lineage (species_identity, rank 'species') or a higher
--              taxon's lineage (taxon_lineage.taxon_id, its rank)
--   name, first_msl, last_msl   the taxon's name where the identifier was last listed, and the releases it
--              was listed in
-- depends: species_identity, species_genome, taxon_lineage
WITH isolate AS (  -- VMR isolates with their species lineage
  SELECT g.lineage_id, g.species, i.msl, i.genbank, i.refseq, i.refseq_taxids
  FROM src.isolates i JOIN species_genome g ON g.msl = i.msl AND g.vmr_species = i.species
),
raw AS (
  -- accessions are cells of several segments ("DNA-A: AF049336; DNA-B: AF049337"); the labels never hold 5
  -- digits after their letters, so every such run is an accession
  SELECT 'accession' AS kind, unnest(regexp_extract_all(upper(coalesce(genbank, '') || ';' || coalesce(refseq, '')),
           '\b[A-Z]{1,6}_?[0-9]{5,9}\b')) AS id_key, lineage_id, 'species' AS rank, species AS name, msl
  FROM isolate
  UNION ALL
  SELECT 'taxid', unnest(regexp_extract_all(refseq_taxids, '[0-9]+')), lineage_id, 'species', species, msl
  FROM isolate
  UNION ALL
  SELECT 'ictv_id', s.ictv_id::VARCHAR, si.lineage_id, 'species', s.species, s.msl
  FROM src.species s JOIN species_identity si ON si.taxnode_id = s.taxnode_id
  WHERE s.ictv_id IS NOT NULL
  UNION ALL
  SELECT 'taxnode_id', s.taxnode_id::VARCHAR, si.lineage_id, 'species', s.species, s.msl
  FROM src.species s JOIN species_identity si ON si.taxnode_id = s.taxnode_id
  UNION ALL
  SELECT 'ictv_id', n.ictv_id::VARCHAR, t.taxon_id, t.rank, t.name, t.msl
  FROM src.taxon_nodes n JOIN taxon_lineage t ON t.msl = n.msl AND t.name = n.name
  WHERE n.rank IS DISTINCT FROM 'species' AND n.ictv_id IS NOT NULL
  UNION ALL
  SELECT 'taxnode_id', x.taxnode_id::VARCHAR, t.taxon_id, t.rank, t.name, t.msl
  FROM src.taxa x JOIN taxon_lineage t ON t.msl = x.msl AND t.name = x.name AND t.rank = x.rank
   AND t.family IS NOT DISTINCT FROM x.family
  WHERE x.rank <> 'species' AND x.taxnode_id IS NOT NULL
)
SELECT kind, id_key, lineage_id, any_value(rank) AS rank, arg_max(name, msl) AS name,
       min(msl) AS first_msl, max(msl) AS last_msl
FROM raw
GROUP BY kind, id_key, lineage_id
ORDER BY id_key, kind, lineage_id                         -- lookups by id_key read one block

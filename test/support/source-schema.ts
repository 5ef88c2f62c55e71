// The source tables a projection reads (schema of data/parquet), empty, for fixture data sets.
// Keep in step with build/stage-ingest.ts and build/sql/*.sql.
export const SOURCE_SCHEMA = `
CREATE TABLE genome_lengths ("accession" VARCHAR, "length_bp" BIGINT, "source" VARCHAR);
CREATE TABLE inputs ("msl" INTEGER, "role" VARCHAR, "file" VARCHAR, "sha256" VARCHAR, "bytes" BIGINT, "repository" VARCHAR, "commit" VARCHAR, "path" VARCHAR, "url" VARCHAR);
CREATE TABLE isolates ("row" INTEGER, "isolate_id" VARCHAR, "species_sort" INTEGER, "isolate_sort" INTEGER, "realm" VARCHAR, "subrealm" VARCHAR, "kingdom" VARCHAR, "subkingdom" VARCHAR, "phylum" VARCHAR, "subphylum" VARCHAR, "class" VARCHAR, "subclass" VARCHAR, "order" VARCHAR, "suborder" VARCHAR, "family" VARCHAR, "subfamily" VARCHAR, "genus" VARCHAR, "subgenus" VARCHAR, "species" VARCHAR, "ictv_id" BIGINT, "exemplar" VARCHAR, "virus_names" VARCHAR, "abbreviations" VARCHAR, "isolate_designation" VARCHAR, "genbank" VARCHAR, "refseq" VARCHAR, "genome_coverage" VARCHAR, "genome_composition" VARCHAR, "host_source" VARCHAR, "taxnode_id" BIGINT, "refseq_organism" VARCHAR, "refseq_taxids" VARCHAR, "prev_change" VARCHAR, "prev_species" VARCHAR, "prev_taxnode_id" BIGINT, "prev_proposal" VARCHAR, "msl" BIGINT);
CREATE TABLE merge_split ("prev_ictv_id" BIGINT, "next_ictv_id" BIGINT, "is_merged" BOOLEAN, "is_split" BOOLEAN, "is_recreated" BOOLEAN, "dist" INTEGER, "rev_count" INTEGER);
CREATE TABLE official_counts ("msl" INTEGER, "rank" VARCHAR, "count" INTEGER, "source" VARCHAR, "own_release" BOOLEAN);
CREATE TABLE official_changes ("msl" INTEGER, "rank" VARCHAR, "change" VARCHAR, "count" INTEGER, "source" VARCHAR);
CREATE TABLE releases ("version" VARCHAR, "msl" INTEGER, "year" INTEGER, "label" VARCHAR, "tree_id" BIGINT, "species_source" VARCHAR, "has_spreadsheet" BOOLEAN);
CREATE TABLE renames ("row" INTEGER, "ictv_id" BIGINT, "rank" VARCHAR, "change" VARCHAR, "old_name" VARCHAR, "new_name" VARCHAR, "proposal" VARCHAR, "msl" BIGINT);
CREATE TABLE species ("sort" BIGINT, "source" VARCHAR, "realm" VARCHAR, "subrealm" VARCHAR, "kingdom" VARCHAR, "subkingdom" VARCHAR, "phylum" VARCHAR, "subphylum" VARCHAR, "class" VARCHAR, "subclass" VARCHAR, "order" VARCHAR, "suborder" VARCHAR, "family" VARCHAR, "subfamily" VARCHAR, "genus" VARCHAR, "subgenus" VARCHAR, "species" VARCHAR, "type_species" BOOLEAN, "genome_composition" VARCHAR, "last_change" VARCHAR, "msl_of_last_change" INTEGER, "proposal" VARCHAR, "taxnode_id" BIGINT, "ictv_id" BIGINT, "attr_match" VARCHAR, "ictv_id_source" VARCHAR, "msl" BIGINT);
CREATE TABLE taxa ("rank" VARCHAR, "name" VARCHAR, "taxnode_id" BIGINT, "parent_taxnode_id" BIGINT, "realm" VARCHAR, "subrealm" VARCHAR, "kingdom" VARCHAR, "subkingdom" VARCHAR, "phylum" VARCHAR, "subphylum" VARCHAR, "class" VARCHAR, "subclass" VARCHAR, "order" VARCHAR, "suborder" VARCHAR, "family" VARCHAR, "subfamily" VARCHAR, "genus" VARCHAR, "subgenus" VARCHAR, "species" VARCHAR, "msl" BIGINT);
CREATE TABLE taxon_nodes ("taxnode_id" BIGINT, "ictv_id" BIGINT, "rank" VARCHAR, "name" VARCHAR, "parent_ictv_id" BIGINT, "parent_name" VARCHAR, "replaced_by" BIGINT[], "obsolescence" VARCHAR, "synonyms" VARCHAR[], "msl" BIGINT);
CREATE TABLE toc ("tree_id" BIGINT, "msl" INTEGER, "version_tag" VARCHAR, "comments" VARCHAR);
CREATE TABLE vocab_change_in ("change" VARCHAR, "notes" VARCHAR);
CREATE TABLE vocab_change_out ("change" VARCHAR, "notes" VARCHAR);
CREATE TABLE vocab_genome_coverage ("genome_coverage" VARCHAR, "name" VARCHAR, "priority" VARCHAR);
CREATE TABLE vocab_host_source ("host_source" VARCHAR);
CREATE TABLE vocab_level ("id" VARCHAR, "parent_id" VARCHAR, "name" VARCHAR, "plural" VARCHAR, "suffix" VARCHAR, "suffix_viroid" VARCHAR, "suffix_nuc_acid" VARCHAR, "suffix_viriform" VARCHAR, "notes" VARCHAR);
CREATE TABLE vocab_molecule ("id" VARCHAR, "abbrev" VARCHAR, "name" VARCHAR, "balt_group" VARCHAR, "balt_roman" VARCHAR, "description" VARCHAR, "left_idx" VARCHAR, "right_idx" VARCHAR);
`;

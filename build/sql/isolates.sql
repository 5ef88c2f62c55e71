-- isolates: one row per VMR isolate row (MSL37 on), published as data/parquet/isolates/msl=NN/. The columns
-- taxnode_id .. prev_proposal come only with ICTV's database table species_isolates (MSL41): the species'
-- taxnode, the NCBI taxids of the RefSeq records, and the species of the previous release it came from.
-- Kept as ICTV wrote them apart from trimming; the species columns join to species on (msl, species).
CREATE OR REPLACE TABLE isolates AS
SELECT * FROM raw_vmr ORDER BY msl, species_sort, isolate_sort, row;

-- isolates: one row per VMR isolate row (MSL37-40), published as data/parquet/isolates/msl=NN/.
-- Kept as ICTV wrote them apart from trimming; the species columns join to species on (msl, species).
CREATE OR REPLACE TABLE isolates AS
SELECT * FROM raw_vmr ORDER BY msl, species_sort, isolate_sort, row;

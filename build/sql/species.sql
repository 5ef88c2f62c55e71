-- species: one row per species per release (published as data/parquet/species/msl=NN/).
-- Membership and lineage come from ICTV's database tree export for the releases that have one (MSL1-36:
-- it carries ICTV's later corrections and the taxnode ids that link releases), from the official
-- spreadsheet otherwise (MSL37 on). Spreadsheet attributes are joined onto tree species by taxnode id,
-- else exact name, else a normalised name; attr_match records which rule matched, for the build report.

-- Names are matched by name_norm (build/name-norm.ts): "Barley yellow dwarf virus - GPV" (MSL23 spreadsheet) is
-- the tree's "Barley yellow dwarf virus-GPV", "Tai Forest ebolavirus" is "Taï Forest ebolavirus".

CREATE OR REPLACE TEMP TABLE tree_species AS
SELECT n.*, row_number() OVER (PARTITION BY n.msl ORDER BY n.walk_order) AS sort
FROM raw_tree_nodes n
WHERE n.rank = 'species';

-- Every plausible (tree species, spreadsheet row) pair with the rule that links them; lower prio wins.
CREATE OR REPLACE TEMP TABLE attr_candidates AS
SELECT t.msl, t.taxnode_id, m.row AS msl_row, 1 AS prio, 'taxnode' AS rule
FROM tree_species t JOIN raw_msl_rows m ON m.msl = t.msl AND m.taxnode_id = t.taxnode_id
UNION ALL
SELECT t.msl, t.taxnode_id, m.row, 2, 'exact'
FROM tree_species t JOIN raw_msl_rows m ON m.msl = t.msl AND m.species = t.species
UNION ALL
SELECT t.msl, t.taxnode_id, m.row, 3, 'normalised'
FROM tree_species t JOIN raw_msl_rows m ON m.msl = t.msl AND name_norm(m.species) = name_norm(t.species);

-- One spreadsheet row per tree species and one tree species per spreadsheet row: each side keeps its best.
CREATE OR REPLACE TEMP TABLE attr_match AS
SELECT msl, taxnode_id, msl_row, rule
FROM (
  SELECT *, row_number() OVER (PARTITION BY msl, msl_row ORDER BY best_prio, taxnode_id) AS row_rank
  FROM (
    SELECT *, min(prio) OVER (PARTITION BY msl, taxnode_id) AS best_prio,
           row_number() OVER (PARTITION BY msl, taxnode_id ORDER BY prio, msl_row) AS tree_rank
    FROM attr_candidates
  )
  WHERE tree_rank = 1
)
WHERE row_rank = 1;

CREATE OR REPLACE TEMP TABLE species_lineage AS
SELECT t.msl, 'tree' AS source, t.sort, t.taxnode_id,
       t.realm, t.subrealm, t.kingdom, t.subkingdom, t.phylum, t.subphylum, t.class, t.subclass,
       t."order", t.suborder, t.family, t.subfamily, t.genus, t.subgenus, t.species,
       m.type_species, m.genome_composition, m.last_change, m.msl_of_last_change, m.proposal,
       CAST(NULL AS BIGINT) AS sheet_ictv_id, a.rule AS attr_match
FROM tree_species t
LEFT JOIN attr_match a ON a.msl = t.msl AND a.taxnode_id = t.taxnode_id
LEFT JOIN raw_msl_rows m ON m.msl = a.msl AND m.row = a.msl_row
UNION ALL
SELECT m.msl, 'msl', coalesce(m.sort, row_number() OVER (PARTITION BY m.msl ORDER BY m.row)), m.taxnode_id,
       m.realm, m.subrealm, m.kingdom, m.subkingdom, m.phylum, m.subphylum, m.class, m.subclass,
       m."order", m.suborder, m.family, m.subfamily, m.genus, m.subgenus, m.species,
       m.type_species, m.genome_composition, m.last_change, m.msl_of_last_change, m.proposal,
       m.ictv_id, NULL
FROM raw_msl_rows m
WHERE m.msl NOT IN (SELECT DISTINCT msl FROM raw_tree_nodes);

-- The ontology has no ranks and no taxnode ids: a species' ictv_id is the ontology taxon carrying its name in
-- that release (exact, else normalised); where two taxa share a name, the one whose parent is the species'
-- parent wins (its tree parent, else the lowest rank above it), so each of two same-named species of one
-- release (MSL22's 'Chayote mosaic virus', a begomovirus and a tymovirus) gets its own id.
CREATE OR REPLACE TEMP TABLE species_parent AS
SELECT s.msl, s.taxnode_id, s.species,
       coalesce(p.name, s.subgenus, s.genus, s.subfamily, s.family, s.suborder, s."order") AS parent_name
FROM species_lineage s
LEFT JOIN raw_tree_nodes t ON t.taxnode_id = s.taxnode_id AND t.msl = s.msl
LEFT JOIN raw_tree_nodes p ON p.taxnode_id = t.parent_taxnode_id AND p.msl = t.msl;

CREATE OR REPLACE TEMP TABLE ontology_species AS
SELECT msl, taxnode_id, ictv_id FROM (
  SELECT s.msl, s.taxnode_id, o.ictv_id,
         row_number() OVER (PARTITION BY s.msl, s.taxnode_id
                            ORDER BY (o.name = s.species) DESC, (p.name = s.parent_name) DESC, o.ictv_id) AS pick
  FROM species_parent s
  JOIN raw_ontology o ON o.msl = s.msl AND name_norm(o.name) = name_norm(s.species)
  LEFT JOIN raw_ontology p ON p.msl = o.msl AND p.ictv_id = o.parent_ictv_id
)
WHERE pick = 1;

CREATE OR REPLACE TABLE species AS
SELECT s.msl, s.sort, s.source,
       s.realm, s.subrealm, s.kingdom, s.subkingdom, s.phylum, s.subphylum, s.class, s.subclass,
       s."order", s.suborder, s.family, s.subfamily, s.genus, s.subgenus, s.species,
       s.type_species, s.genome_composition, s.last_change, s.msl_of_last_change, s.proposal,
       s.taxnode_id,
       coalesce(s.sheet_ictv_id, o.ictv_id) AS ictv_id,
       s.attr_match
FROM species_lineage s
LEFT JOIN ontology_species o ON o.msl = s.msl AND o.taxnode_id = s.taxnode_id
ORDER BY s.msl, s.sort;  -- sorted output keeps each Parquet partition in ICTV's own order

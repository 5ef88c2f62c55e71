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

CREATE OR REPLACE TEMP TABLE own_ids AS
SELECT s.*, coalesce(s.sheet_ictv_id, o.ictv_id) AS own_ictv_id,
       CASE WHEN s.sheet_ictv_id IS NOT NULL THEN 'msl' WHEN o.ictv_id IS NOT NULL THEN 'ontology' END AS own_source
FROM species_lineage s
LEFT JOIN ontology_species o ON o.msl = s.msl AND o.taxnode_id = s.taxnode_id;

-- A release whose files give no ids at all (MSL39: its spreadsheet has no ICTV_ID column and no ontology
-- file covers it) takes them as ICTV assigns them, and as the read models do (projections/species_link.sql):
-- a species keeps the id of the previous release's species the ontology says it replaces, when it carries
-- that one on alone or is the merge's survivor (the predecessor not obsolete); a species created in the
-- release (new, or a split product) has its creation taxnode id as id.
CREATE OR REPLACE TEMP TABLE predecessor_links AS
SELECT DISTINCT p.taxnode_id AS from_taxnode, n.taxnode_id AS to_taxnode, p.own_ictv_id AS from_ictv_id, o.obsolescence
FROM own_ids p
JOIN raw_ontology o ON o.msl = p.msl AND o.ictv_id = p.own_ictv_id
CROSS JOIN unnest(o.replaced_by) AS u(next_taxnode)
JOIN own_ids n ON n.taxnode_id = u.next_taxnode
  AND n.msl = (SELECT min(msl) FROM own_ids WHERE msl > p.msl);

CREATE OR REPLACE TEMP TABLE inherited_ids AS
SELECT l.to_taxnode AS taxnode_id,
       CASE WHEN count(*) = 1 AND max(succ.n) = 1 THEN any_value(l.from_ictv_id)
            ELSE max(l.from_ictv_id) FILTER (l.obsolescence IS NULL AND succ.n = 1) END AS ictv_id
FROM predecessor_links l
JOIN (SELECT from_taxnode, count(*) AS n FROM predecessor_links GROUP BY ALL) succ ON succ.from_taxnode = l.from_taxnode
GROUP BY ALL;

CREATE OR REPLACE TEMP TABLE idless_releases AS
SELECT msl FROM own_ids GROUP BY msl HAVING count(own_ictv_id) = 0;

CREATE OR REPLACE TABLE species AS
SELECT s.msl, s.sort, s.source,
       s.realm, s.subrealm, s.kingdom, s.subkingdom, s.phylum, s.subphylum, s.class, s.subclass,
       s."order", s.suborder, s.family, s.subfamily, s.genus, s.subgenus, s.species,
       s.type_species, s.genome_composition, s.last_change, s.msl_of_last_change, s.proposal,
       s.taxnode_id,
       CASE WHEN x.msl IS NULL THEN s.own_ictv_id ELSE coalesce(i.ictv_id, s.taxnode_id) END AS ictv_id,
       s.attr_match,
       CASE WHEN x.msl IS NULL THEN s.own_source WHEN i.ictv_id IS NOT NULL THEN 'predecessor' ELSE 'taxnode' END AS ictv_id_source
FROM own_ids s
LEFT JOIN idless_releases x ON x.msl = s.msl
LEFT JOIN inherited_ids i ON i.taxnode_id = s.taxnode_id AND x.msl IS NOT NULL
ORDER BY s.msl, s.sort;  -- sorted output keeps each Parquet partition in ICTV's own order

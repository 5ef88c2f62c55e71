-- species_genome: one row per species of src.species (msl, taxnode_id): the genome facts of that species in
-- that release. Read by species_doc (and through it the species endpoints).
--   genome_size_bp / genome_size   length of the VMR exemplar's sequence record(s) summed over segments,
--                                  and the same as text ('48.5 kb'); SOURCES.md "Join recipe" steps 1-4
--   exemplar_*, host_source, hosts the VMR exemplar row (MSL37 on): virus names, accessions, hosts
--   genome_composition             the MSL spreadsheet's own column (MSL29 on)
--   vmr_species                    the release's own VMR spelling of the name (it differs for 31 species)
-- The VMRs start with MSL37, and a VMR accession does not always resolve to a length, so each group of
-- values is taken from the same release when it has one, else from the nearest release of the same
-- lineage (species_identity) that has one, later releases first; *_from_msl says which release that is.
-- genome_size_from_msl = 37 on an MSL30 row means "the MSL37 exemplar of this taxon is 48.5 kb long".
-- depends: species_identity
WITH exemplar AS (
  SELECT i.msl, i.species AS vmr_species, i.virus_names, i.abbreviations,
         i.genbank, i.refseq, i.genome_coverage, i.host_source, i.genome_composition,
         -- a cell's parts in order; the segment label is everything up to the last ':' ("DNA-A: X", "L: X")
         list_filter(list_transform(string_split_regex(coalesce(i.genbank, ''), '[;,]'),
                                    p -> trim(regexp_replace(p, '^.*:', ''))), p -> p <> '') AS gb_parts,
         list_filter(list_transform(string_split_regex(coalesce(i.refseq, ''), '[;,]'),
                                    p -> trim(regexp_replace(p, '^.*:', ''))), p -> p <> '') AS rs_parts
  FROM src.isolates i
  WHERE i.exemplar = 'E'                                      -- one exemplar per species and VMR
),
-- The MSL38 and MSL39 VMRs are later versions than the MSL spreadsheets (v1 vs v3, v4 vs v2) and spell
-- 31 species differently ("Simiispumavirus macfas" vs "Simiispumavirus macfasfo", "Alphabaculovirus
-- aucalifonicae" vs "Alphabaculovirus aucalifornicae", "Zohalivirus maramis" vs "Zohali maramis"). A VMR
-- species missing from the spreadsheet takes the spreadsheet species no VMR row names that is within two
-- edits of it or has the same epithet, when each is the other's closest such match.
claimed AS (
  SELECT DISTINCT e.msl, e.vmr_species, s.species
  FROM exemplar e LEFT JOIN src.species s ON s.msl = e.msl AND s.species = e.vmr_species
),
near AS (
  SELECT c.msl, c.vmr_species, s.species, levenshtein(c.vmr_species, s.species) AS edits
  FROM claimed c
  JOIN src.species s ON s.msl = c.msl
  ANTI JOIN claimed named ON named.msl = s.msl AND named.species = s.species
  WHERE c.species IS NULL
    AND (levenshtein(c.vmr_species, s.species) <= 2
         OR list_last(string_split(c.vmr_species, ' ')) = list_last(string_split(s.species, ' ')))
  QUALIFY row_number() OVER (PARTITION BY c.msl, c.vmr_species ORDER BY edits, s.species) = 1
      AND row_number() OVER (PARTITION BY c.msl, s.species ORDER BY edits, c.vmr_species) = 1
),
placed AS (
  SELECT e.*, coalesce(c.species, n.species) AS species
  FROM exemplar e
  JOIN claimed c ON c.msl = e.msl AND c.vmr_species = e.vmr_species
  LEFT JOIN near n ON n.msl = e.msl AND n.vmr_species = e.vmr_species
),
lengths AS (
  -- both tables hold an accession at most once; where both have it, ICTV's own map wins
  SELECT accession, arg_min(length_bp, CASE source WHEN 'ictv_refseq_map' THEN 1 ELSE 2 END) AS length_bp
  FROM src.genome_lengths
  GROUP BY accession
),
parts AS (
  SELECT x.msl, x.vmr_species, x.pos, x.part, x.rs_part,
         regexp_extract(x.part, '^(.*?)\s*\(\s*(\d+)\s*\.\.?\s*(\d+)\s*\)$', ['acc', 'start_bp', 'end_bp']) AS coord
  FROM (SELECT msl, vmr_species, unnest(gb_parts) AS part, generate_subscripts(gb_parts, 1) AS pos,
               rs_parts[generate_subscripts(gb_parts, 1)] AS rs_part
        FROM exemplar) x
),
part_lengths AS (
  SELECT p.msl, p.vmr_species,
         CASE
           -- 'ACC (start.end)': a prophage, GTA or retrotransposon inside a host chromosome; the accession
           -- is the whole chromosome, so it is never looked up. end <= start: digits lost in the VMR
           -- (MSL38 "AE006468 (2844298.877981)"). Spans over 500 kb are VMR errors, not element sizes: four
           -- MSL39/40 gene transfer agents span 0.66-2.48 Mb of their host chromosome (SOURCES.md), while
           -- every genuine range in the VMRs is 8-79 kb.
           WHEN p.coord.end_bp <> '' THEN
             CASE WHEN p.span_bp > 1 AND p.span_bp <= 500000 THEN p.span_bp END
           -- the REFSEQ column is only filled in the MSL37/38 VMRs; its part at the same position stands in
           ELSE coalesce(g.length_bp, r.length_bp)
         END AS length_bp
  FROM (SELECT *, TRY_CAST(coord.end_bp AS BIGINT) - TRY_CAST(coord.start_bp AS BIGINT) + 1 AS span_bp,
               CASE WHEN coord.end_bp = '' THEN upper(regexp_replace(part, '\.\d+$', '')) END AS gb_acc,
               CASE WHEN coord.end_bp = '' THEN upper(regexp_replace(rs_part, '\.\d+$', '')) END AS rs_acc
        FROM parts) p                                     -- the accessions without their version suffix
  LEFT JOIN lengths g ON g.accession = p.gb_acc
  LEFT JOIN lengths r ON r.accession = p.rs_acc
),
sized AS (
  SELECT msl, vmr_species, count(*) AS parts, count(length_bp) AS parts_resolved,
         -- a segmented genome counts only when every segment resolved
         CASE WHEN count(*) = count(length_bp) THEN sum(length_bp)::BIGINT END AS size_bp
  FROM part_lengths
  GROUP BY msl, vmr_species
),
vmr AS (
  SELECT si.lineage_id, p.msl, p.species, p.vmr_species, p.virus_names, p.abbreviations, p.genbank, p.refseq,
         p.genome_coverage, p.host_source, p.genome_composition, z.parts, z.parts_resolved, z.size_bp
  FROM placed p
  JOIN species_identity si ON si.msl = p.msl AND si.species = p.species  -- VMR releases have no homonyms
  LEFT JOIN sized z ON z.msl = p.msl AND z.vmr_species = p.vmr_species
),
-- carrying order: the row's own release, then later releases nearest first, then earlier ones
carried_exemplar AS (
  SELECT si.taxnode_id,
         arg_min(v, CASE WHEN v.msl >= si.msl THEN v.msl - si.msl ELSE 1000 + si.msl - v.msl END) AS ex
  FROM species_identity si JOIN vmr v ON v.lineage_id = si.lineage_id
  GROUP BY si.taxnode_id
),
carried_size AS (
  SELECT si.taxnode_id,
         arg_min(v, CASE WHEN v.msl >= si.msl THEN v.msl - si.msl ELSE 1000 + si.msl - v.msl END) AS ex
  FROM species_identity si JOIN vmr v ON v.lineage_id = si.lineage_id
  WHERE v.size_bp IS NOT NULL
  GROUP BY si.taxnode_id
),
carried_composition AS (
  SELECT si.taxnode_id,
         arg_min({'msl': o.msl, 'value': s.genome_composition},
                 CASE WHEN o.msl >= si.msl THEN o.msl - si.msl ELSE 1000 + si.msl - o.msl END) AS gc
  FROM species_identity si
  JOIN species_identity o ON o.lineage_id = si.lineage_id
  JOIN src.species s ON s.taxnode_id = o.taxnode_id
  WHERE s.genome_composition IS NOT NULL
  GROUP BY si.taxnode_id
)
SELECT si.msl, si.taxnode_id, si.species, si.lineage_id,
       cz.ex.size_bp AS genome_size_bp,
       CASE WHEN cz.ex.size_bp < 1000 THEN cz.ex.size_bp || ' bp'
            WHEN cz.ex.size_bp < 1000000 THEN printf('%.1f kb', round(cz.ex.size_bp / 1000, 1))
            ELSE printf('%.2f Mb', round(cz.ex.size_bp / 1000000, 2)) END AS genome_size,
       cz.ex.msl AS genome_size_from_msl,
       cz.ex.genome_coverage AS genome_size_coverage,      -- 'Partial genome': the length understates the genome
       own.vmr_species,                                    -- this release's VMR spelling of the species name
       own.parts AS exemplar_parts,                        -- this release's own exemplar: accessions listed
       own.parts_resolved AS exemplar_parts_resolved,      -- ... and how many got a length
       ce.ex.msl AS exemplar_from_msl,
       ce.ex.virus_names AS exemplar_virus_names,
       ce.ex.abbreviations AS exemplar_abbreviations,
       ce.ex.genbank AS exemplar_genbank,
       ce.ex.refseq AS exemplar_refseq,
       ce.ex.genome_coverage AS exemplar_genome_coverage,
       ce.ex.genome_composition AS vmr_genome_composition,
       ce.ex.host_source AS host_source,
       -- "invertebrates, vertebrates" -> two hosts; "(S)" marks a source environment and is kept
       CASE WHEN ce.ex IS NOT NULL THEN
         list_filter(list_transform(string_split_regex(coalesce(ce.ex.host_source, ''), '[,;]'), h -> trim(h)), h -> h <> '')
       END AS hosts,
       cc.gc.value AS genome_composition,
       cc.gc.msl AS genome_composition_from_msl
FROM species_identity si
LEFT JOIN carried_exemplar ce ON ce.taxnode_id = si.taxnode_id
LEFT JOIN carried_size cz ON cz.taxnode_id = si.taxnode_id
LEFT JOIN carried_composition cc ON cc.taxnode_id = si.taxnode_id
LEFT JOIN vmr own ON own.msl = si.msl AND own.species = si.species
ORDER BY si.msl, si.species

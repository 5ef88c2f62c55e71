-- name_index: one row per (name_norm, kind of lineage, lineage): every name that has ever led to a taxon of any
-- rank, so a name lookup or a "did you mean" is one query over one table. Read by name_lookup, the resolver's
-- suggestions (src/read/suggest.ts) and the search endpoints.
-- Names of species lineages (species_identity): every species name in an MSL (src.species), the VMR's own
-- spelling of a species name where it differs (MSL38/39), and the VMR virus names and abbreviations of all
-- isolates, exemplar or additional (MSL37 on). Names of higher taxa: every name a lineage of taxon_lineage
-- carried (kind 'taxon'; lineage_id is then taxon_lineage.taxon_id, rank its rank in its last release).
-- name_norm is name_norm(name) (build/name-norm.ts: "SARS-CoV-2" -> "sarscov2"), so spellings that differ only
-- in case, accents, punctuation or spaces share a row; name is the spelling to show (the species name if the
-- lineage ever used it as one, else the latest), variants lists every spelling seen.
--   kind           the strongest role the name had for the lineage: species > virus_name > abbreviation;
--                  kinds lists them all; taxon for a name of a higher taxon
--   rank           species for species lineages, else the higher taxon's rank
--   first_msl..last_msl, msls   the releases in which the name was used for the lineage (any kind);
--                  species_msls only those in which it was the taxon's official name
--   current_name   the lineage's name in the latest release; null when the lineage ends earlier
--                  (abolished, merged into or split off another lineage)
-- Typo-tolerant suggestions: name_len = length(name_norm) bounds the candidates.
-- depends: species_identity, species_genome, taxon_lineage
WITH used AS (
  SELECT si.lineage_id, si.msl, si.species AS name, 'species' AS kind, 1 AS strength, 'species' AS rank
  FROM species_identity si
  UNION ALL
  SELECT g.lineage_id, g.msl, g.vmr_species, 'species', 1, 'species'
  FROM species_genome g
  WHERE g.vmr_species <> g.species
  UNION ALL
  -- several names of one isolate are separated by ';' (a comma belongs to the name: "Leptolyngbya phage
  -- LPP-2, strain SPI"); 18 MSL39 cells hold a GenBank definition line instead ("MAG: Leviviridae sp.
  -- isolate ... gene, partial cds; and coat protein ...") whose ';' separates nothing
  SELECT g.lineage_id, i.msl,
         trim(unnest(CASE WHEN i.virus_names LIKE 'MAG:%' THEN [i.virus_names] ELSE string_split(i.virus_names, ';') END)),
         'virus_name', 2, 'species'
  FROM src.isolates i JOIN species_genome g ON g.msl = i.msl AND g.vmr_species = i.species
  UNION ALL
  -- abbreviations never contain a comma but are sometimes separated by one ("LuBoV, RBoV")
  SELECT g.lineage_id, i.msl, trim(unnest(string_split_regex(i.abbreviations, '[;,]'))), 'abbreviation', 3, 'species'
  FROM src.isolates i JOIN species_genome g ON g.msl = i.msl AND g.vmr_species = i.species
  UNION ALL
  SELECT t.taxon_id, t.msl, t.name, 'taxon', 1, last_value(t.rank) OVER (PARTITION BY t.taxon_id ORDER BY t.msl
           ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
  FROM taxon_lineage t
),
normalised AS (
  SELECT *, name_norm(name) AS name_norm
  FROM used
  WHERE name <> ''
),
current AS (
  SELECT 'species' AS lineage_kind, lineage_id, species AS current_name FROM species_identity WHERE msl = (SELECT max(msl) FROM src.releases)
  UNION ALL
  SELECT 'taxon', taxon_id, name FROM taxon_lineage WHERE msl = (SELECT max(msl) FROM src.releases)
),
grouped AS (
  SELECT name_norm, CASE WHEN kind = 'taxon' THEN 'taxon' ELSE 'species' END AS lineage_kind, lineage_id,
         any_value(rank) AS rank,
         arg_min(name, (strength, -msl)) AS name,
         arg_min(kind, strength) AS kind,
         list(DISTINCT kind) AS kind_set,
         min(msl) AS first_msl,
         max(msl) AS last_msl,
         list(DISTINCT msl ORDER BY msl) AS msls,
         list(DISTINCT msl ORDER BY msl) FILTER (kind IN ('species', 'taxon')) AS species_msls,
         list(DISTINCT name ORDER BY name) AS variants
  FROM normalised
  WHERE name_norm <> ''                                   -- nothing left to match on
  GROUP BY ALL
)
SELECT g.name, lower(g.name) AS name_key, g.name_norm, length(g.name_norm) AS name_len,
       g.kind, list_filter(['species', 'virus_name', 'abbreviation', 'taxon'], k -> list_contains(g.kind_set, k)) AS kinds, g.rank,
       g.lineage_id, g.first_msl, g.last_msl, g.msls,
       coalesce(g.species_msls, []::BIGINT[]) AS species_msls, g.variants, c.current_name
FROM grouped g
LEFT JOIN current c ON c.lineage_kind = g.lineage_kind AND c.lineage_id = g.lineage_id
ORDER BY g.name_norm, g.lineage_id                        -- lookups by name_norm read one block

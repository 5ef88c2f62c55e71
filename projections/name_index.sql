-- name_index: one row per (name_norm, lineage_id): every name that has ever led to a species lineage, so
-- a name lookup or a "did you mean" is one query over one table. Read by the search and history endpoints.
-- Names: every species name in an MSL (src.species), the VMR's own spelling of a species name where it
-- differs (MSL38/39), and the VMR virus names and abbreviations of all isolates, exemplar or additional
-- (MSL37 on). name_norm folds case, accents, punctuation and spaces ("SARS-CoV-2" -> "sarscov2"), so
-- spellings that differ only in those share a row; name is the spelling to show (the species name
-- if the lineage ever used it as one, else the latest), variants lists every spelling seen.
--   kind           the strongest role the name had for the lineage: species > virus_name > abbreviation;
--                  kinds lists them all
--   first_msl..last_msl, msls   the releases in which the name was used for the lineage (any kind);
--                  species_msls only those in which it was the species' official name
--   current_name   the lineage's name in the latest release; null when the lineage ends earlier
--                  (abolished, merged into or split off another lineage)
-- Typo-tolerant suggestions: name_len = length(name_norm) bounds the candidates, e.g.
--   SELECT name, kind, current_name, jaro_winkler_similarity(name_norm, $1) AS score FROM name_index
--   WHERE name_len BETWEEN length($1) - 3 AND length($1) + 3 ORDER BY score DESC, name LIMIT 10
-- with $1 the normalised query (~30 ms over the whole index).
-- depends: species_identity, species_genome
WITH used AS (
  SELECT si.lineage_id, si.msl, si.species AS name, 'species' AS kind, 1 AS strength
  FROM species_identity si
  UNION ALL
  SELECT g.lineage_id, g.msl, g.vmr_species, 'species', 1
  FROM species_genome g
  WHERE g.vmr_species <> g.species
  UNION ALL
  -- several names of one isolate are separated by ';' (a comma belongs to the name: "Leptolyngbya phage
  -- LPP-2, strain SPI"); 18 MSL39 cells hold a GenBank definition line instead ("MAG: Leviviridae sp.
  -- isolate ... gene, partial cds; and coat protein ...") whose ';' separates nothing
  SELECT g.lineage_id, i.msl,
         trim(unnest(CASE WHEN i.virus_names LIKE 'MAG:%' THEN [i.virus_names] ELSE string_split(i.virus_names, ';') END)),
         'virus_name', 2
  FROM src.isolates i JOIN species_genome g ON g.msl = i.msl AND g.vmr_species = i.species
  UNION ALL
  -- abbreviations never contain a comma but are sometimes separated by one ("LuBoV, RBoV")
  SELECT g.lineage_id, i.msl, trim(unnest(string_split_regex(i.abbreviations, '[;,]'))), 'abbreviation', 3
  FROM src.isolates i JOIN species_genome g ON g.msl = i.msl AND g.vmr_species = i.species
),
normalised AS (
  SELECT *, name_norm(name) AS name_norm
  FROM used
  WHERE name <> ''
),
current AS (
  SELECT lineage_id, species AS current_name FROM species_identity WHERE msl = (SELECT max(msl) FROM src.releases)
),
grouped AS (
  SELECT name_norm, lineage_id,
         arg_min(name, (strength, -msl)) AS name,
         arg_min(kind, strength) AS kind,
         list(DISTINCT kind) AS kind_set,
         min(msl) AS first_msl,
         max(msl) AS last_msl,
         list(DISTINCT msl ORDER BY msl) AS msls,
         list(DISTINCT msl ORDER BY msl) FILTER (kind = 'species') AS species_msls,
         list(DISTINCT name ORDER BY name) AS variants
  FROM normalised
  WHERE name_norm <> ''                                   -- nothing left to match on
  GROUP BY name_norm, lineage_id
)
SELECT g.name, lower(g.name) AS name_key, g.name_norm, length(g.name_norm) AS name_len,
       g.kind, list_filter(['species', 'virus_name', 'abbreviation'], k -> list_contains(g.kind_set, k)) AS kinds,
       g.lineage_id, g.first_msl, g.last_msl, g.msls,
       coalesce(g.species_msls, []::BIGINT[]) AS species_msls, g.variants, c.current_name
FROM grouped g
LEFT JOIN current c ON c.lineage_id = g.lineage_id
ORDER BY g.name_norm, g.lineage_id                        -- lookups by name_norm read one block

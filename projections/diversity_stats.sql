-- diversity_stats: one row per release: how many taxa of each rank, how its species spread over realms,
-- genome compositions, hosts and families, and how much it grew. Reads src tables only.
-- Read by the release statistics endpoints and timeline.
--
-- taxa: STRUCT of the number of taxa per rank (src.taxa, so taxa without species count too; 0 = rank unused).
-- species_per_*: LIST of STRUCT(<key>, species), largest first; a NULL key = species without that attribute
--   (no realm before MSL34). Genome composition is NULL before MSL29 and host source before MSL37 (their
--   sources do not have it): the list is then NULL and the *_note column says so. Hosts are the exemplar ('E')
--   rows of the VMR (src.isolates), one per species.
-- Diversity of species across families (and across genera): p_i = share of species in family i among the
--   species that have a family; Shannon H = -sum p_i ln p_i (natural log), Simpson = 1 - sum p_i^2.
--   Species without a family (without a genus) are left out rather than pooled into one 'unassigned' bucket,
--   which would count as one huge family (2,078 species in MSL37 after the Caudovirales reorganisation);
--   species_without_family says how many were left out.
-- species_delta / species_growth_pct: against the previous release (NULL on the first).
WITH rel AS (
  SELECT msl, version, year, lag(msl) OVER (ORDER BY msl) AS prev_msl FROM src.releases
),
total AS (
  SELECT msl, count(*) AS species,
         count(*) FILTER (family IS NULL) AS species_without_family,
         count(*) FILTER (genus IS NULL) AS species_without_genus,
         count(genome_composition) AS with_composition
  FROM src.species GROUP BY msl
),
taxa AS (
  SELECT msl, struct_pack(
           realm := count(*) FILTER (rank = 'realm'), subrealm := count(*) FILTER (rank = 'subrealm'),
           kingdom := count(*) FILTER (rank = 'kingdom'), subkingdom := count(*) FILTER (rank = 'subkingdom'),
           phylum := count(*) FILTER (rank = 'phylum'), subphylum := count(*) FILTER (rank = 'subphylum'),
           "class" := count(*) FILTER (rank = 'class'), subclass := count(*) FILTER (rank = 'subclass'),
           "order" := count(*) FILTER (rank = 'order'), suborder := count(*) FILTER (rank = 'suborder'),
           family := count(*) FILTER (rank = 'family'), subfamily := count(*) FILTER (rank = 'subfamily'),
           genus := count(*) FILTER (rank = 'genus'), subgenus := count(*) FILTER (rank = 'subgenus'),
           species := count(*) FILTER (rank = 'species')) AS taxa
  FROM src.taxa GROUP BY msl
),
realm AS (
  SELECT msl, list(struct_pack(realm := realm, species := n) ORDER BY n DESC, realm NULLS LAST) AS species_per_realm
  FROM (SELECT msl, realm, count(*) AS n FROM src.species GROUP BY ALL) GROUP BY msl
),
composition AS (
  SELECT msl, list(struct_pack(genome_composition := genome_composition, species := n) ORDER BY n DESC, genome_composition NULLS LAST)
           AS species_per_genome_composition
  FROM (SELECT msl, genome_composition, count(*) AS n FROM src.species GROUP BY ALL) GROUP BY msl
),
host AS (
  SELECT msl, list(struct_pack(host_source := host_source, species := n) ORDER BY n DESC, host_source NULLS LAST) AS species_per_host_source
  FROM (SELECT msl, host_source, count(*) AS n FROM src.isolates WHERE exemplar = 'E' GROUP BY ALL) GROUP BY msl
),
family_size AS (
  SELECT msl, family, count(*) AS n FROM src.species WHERE family IS NOT NULL GROUP BY ALL
),
family_div AS (
  SELECT msl, count(*) AS families_with_species,
         -sum(p * ln(p)) AS family_shannon, 1 - sum(p * p) AS family_simpson,
         list(struct_pack(family := family, species := n) ORDER BY n DESC, family)[1:10] AS top_families
  FROM (SELECT msl, family, n, n / sum(n) OVER (PARTITION BY msl) AS p FROM family_size)
  GROUP BY msl
),
genus_div AS (
  SELECT msl, count(*) AS genera_with_species, -sum(p * ln(p)) AS genus_shannon, 1 - sum(p * p) AS genus_simpson
  FROM (SELECT msl, genus, n / sum(n) OVER (PARTITION BY msl) AS p
        FROM (SELECT msl, genus, count(*) AS n FROM src.species WHERE genus IS NOT NULL GROUP BY ALL))
  GROUP BY msl
),
-- the first release with each attribute, for the notes
first_with AS (
  SELECT (SELECT min(msl) FROM src.species WHERE genome_composition IS NOT NULL) AS composition_from,
         (SELECT min(msl) FROM src.isolates WHERE exemplar = 'E') AS host_from
)
SELECT rel.msl, rel.version, rel.year,
       t.species, p.species AS prev_species,
       t.species - p.species AS species_delta,
       round(100.0 * (t.species - p.species) / p.species, 2) AS species_growth_pct,
       tx.taxa,
       r.species_per_realm,
       CASE WHEN t.with_composition > 0 THEN c.species_per_genome_composition END AS species_per_genome_composition,
       CASE WHEN t.with_composition = 0 THEN 'genome composition is not recorded in ' || rel.version
            || coalesce(' (first recorded in MSL' || fw.composition_from || ')', '') END AS genome_composition_note,
       h.species_per_host_source,
       CASE WHEN h.msl IS NULL THEN 'host source is not recorded in ' || rel.version
            || coalesce(' (the VMR exemplar rows start in MSL' || fw.host_from || ')', '') END AS host_source_note,
       fd.top_families,
       coalesce(fd.families_with_species, 0) AS families_with_species,
       t.species_without_family,
       fd.family_shannon, fd.family_simpson,
       coalesce(gd.genera_with_species, 0) AS genera_with_species,
       t.species_without_genus,
       gd.genus_shannon, gd.genus_simpson
FROM rel
JOIN total t ON t.msl = rel.msl
LEFT JOIN total p ON p.msl = rel.prev_msl
LEFT JOIN taxa tx ON tx.msl = rel.msl
LEFT JOIN realm r ON r.msl = rel.msl
LEFT JOIN composition c ON c.msl = rel.msl
LEFT JOIN host h ON h.msl = rel.msl
LEFT JOIN family_div fd ON fd.msl = rel.msl
LEFT JOIN genus_div gd ON gd.msl = rel.msl
CROSS JOIN first_with fw
ORDER BY rel.msl

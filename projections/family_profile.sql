-- family_profile: one row per family of the latest release (src.species): what its species' genomes and hosts
-- look like, for the metadata classifier of POST /ai/classify (src/ai/classify.ts) and the host and genome
-- questions of POST /ai/query ("which families infect archaea?").
--   compositions  LIST of STRUCT(composition, balt_group, species): the MSL's genome composition column.
--                 balt_group is the composition's Baltimore group (src.vocab_molecule), or that of the nearest
--                 broader term in the vocabulary's nested sets (ssDNA(+/-) lies inside ssDNA, group II); NULL
--                 when no broader term has one (ssRNA(+/-), ssRNA, "dsDNA; ssDNA").
--   hosts         LIST of STRUCT(host, species): the VMR exemplar's host source split into categories
--                 ("invertebrates, vertebrates" counts for both); "(S)" marks a source known only from sequences
--                 found there (soil, marine, ...) and is dropped, so "plants (S)" counts as plants
--   size_*        the exemplars' genome lengths in bp (species_genome.genome_size_bp: summed over segments,
--                 partial genomes included); NULL when none of its species has one
--   members       LIST of STRUCT(species, composition, hosts, size_bp): the per-species values the columns above
--                 count, so the classifier can be fitted from them and evaluated leaving one species out.
-- Species without a family (2,435 in MSL40, mostly tailed phages left unplaced by the Caudovirales
-- reorganisation) are not a family and are left out.
-- depends: species_genome
WITH latest AS (
  SELECT max(msl) AS msl FROM src.releases
),
vocab AS (
  SELECT abbrev, balt_roman, TRY_CAST(left_idx AS INTEGER) AS l, TRY_CAST(right_idx AS INTEGER) AS r
  FROM src.vocab_molecule
),
composition_group AS (
  SELECT v.abbrev AS composition,
         coalesce(v.balt_roman,
                  -- the narrowest enclosing term that has a group
                  (SELECT arg_min(p.balt_roman, p.r - p.l) FROM vocab p
                   WHERE p.l < v.l AND p.r > v.r AND p.balt_roman IS NOT NULL)) AS balt_group
  FROM vocab v
),
member AS (
  SELECT s.family, s.species, s.realm, s."order", s.genome_composition AS composition, g.genome_size_bp AS size_bp,
         list_distinct(list_filter(
           list_transform(string_split(coalesce(g.host_source, ''), ','), h -> trim(replace(h, '(S)', ''))),
           h -> h <> '')) AS hosts
  FROM src.species s
  JOIN latest ON latest.msl = s.msl
  LEFT JOIN species_genome g ON g.taxnode_id = s.taxnode_id
  WHERE s.family IS NOT NULL
),
by_composition AS (
  SELECT m.family, list({'composition': m.composition, 'balt_group': c.balt_group, 'species': m.n}
                        ORDER BY m.n DESC, m.composition) AS compositions
  FROM (SELECT family, composition, count(*) AS n FROM member WHERE composition IS NOT NULL GROUP BY ALL) m
  LEFT JOIN composition_group c ON c.composition = m.composition
  GROUP BY m.family
),
by_host AS (
  SELECT family, list({'host': host, 'species': n} ORDER BY n DESC, host) AS hosts
  FROM (SELECT family, host, count(*) AS n FROM member, unnest(member.hosts) AS u(host) GROUP BY ALL)
  GROUP BY family
)
SELECT m.family,
       any_value(m.realm) AS realm,
       any_value(m."order") AS "order",
       count(*) AS species,
       coalesce(any_value(c.compositions), []) AS compositions,
       coalesce(any_value(h.hosts), []) AS hosts,
       count(m.size_bp) AS size_n,
       min(m.size_bp) AS size_min_bp,
       quantile_disc(m.size_bp, 0.25) AS size_p25_bp,
       quantile_disc(m.size_bp, 0.5) AS size_median_bp,
       quantile_disc(m.size_bp, 0.75) AS size_p75_bp,
       max(m.size_bp) AS size_max_bp,
       list({'species': m.species, 'composition': m.composition, 'hosts': m.hosts, 'size_bp': m.size_bp}
            ORDER BY m.species) AS members
FROM member m
LEFT JOIN by_composition c ON c.family = m.family
LEFT JOIN by_host h ON h.family = m.family
GROUP BY m.family
ORDER BY m.family                                             -- optimise storage by sorting

-- taxon_ending: one row per lineage of a higher taxon (taxon_lineage) that ends before the latest release: how
-- it ended, in the first release without it, judged by where its species went. Read by taxon_history_doc.
--   kind          split     2+ taxa of its rank each took >= 10% (and >= 2) of its species, together >= 50%
--                           (into: those taxa, largest first; Cytorhabdovirus in MSL40)
--                 renamed   >= 50% of its species went on in one taxon of its rank that is new and took species
--                           from no other: a rename ICTV's rename lists do not record (a spelling corrected:
--                           Thyiavirua -> Thyiavirus in MSL40)
--                 merged    >= 50% of its species went on in one other taxon of its rank (into: that taxon)
--                 abolished otherwise (Myoviridae in MSL37: 278 of its 625 species went to 6 new families,
--                           340 to no family), ICTV's word for a name no longer used
--   destinations  where its species went on: for each species carried on (renamed, moved, merged or split
--                 into another), the lowest taxon holding it at the taxon's rank or above (a family's species
--                 left without a family count for their order, class, ...); LIST of STRUCT(taxon_id, rank,
--                 name, species), largest first
--   children      the taxa directly under it in its last release (taxon_id, rank, name), whose own
--                 lineages say what became of each
--   species_prev, species_abolished   its species in its last release, and how many of them were abolished
-- depends: taxon_lineage, species_transition
WITH steps AS (
  SELECT msl AS from_msl, lead(msl) OVER (ORDER BY msl) AS to_msl FROM src.releases
),
ranks AS (
  SELECT ['realm', 'subrealm', 'kingdom', 'subkingdom', 'phylum', 'subphylum', 'class', 'subclass',
          'order', 'suborder', 'family', 'subfamily', 'genus', 'subgenus'] AS r
),
last_row AS (
  SELECT * FROM (
    SELECT l.*, st.to_msl
    FROM taxon_lineage l
    JOIN steps st ON st.from_msl = l.msl
    QUALIFY max(l.msl) OVER (PARTITION BY l.taxon_id) = l.msl)
  WHERE to_msl IS NOT NULL
),
member AS (  -- species (by taxnode) of each release under each taxon, with the taxon's family to tell homonyms apart
  UNPIVOT (SELECT msl, taxnode_id, family AS species_family, realm, subrealm, kingdom, subkingdom, phylum,
                  subphylum, class, subclass, "order", suborder, family, subfamily, genus, subgenus FROM src.species)
  ON realm, subrealm, kingdom, subkingdom, phylum, subphylum, class, subclass, "order", suborder, family,
     subfamily, genus, subgenus
  INTO NAME rank VALUE name
),
own AS (  -- the species of each ended lineage in its last release
  SELECT e.taxon_id, m.taxnode_id
  FROM last_row e
  JOIN member m ON m.msl = e.msl AND m.rank = e.rank AND m.name = e.name
   AND (e.rank NOT IN ('subfamily', 'genus', 'subgenus') OR m.species_family IS NOT DISTINCT FROM e.family)
),
went AS (  -- each species carried on, with the lowest taxon at or above the ended taxon's rank that holds it
  SELECT o.taxon_id, o.taxnode_id, t.to_taxnode,
         arg_max(m.rank, list_position(ranks.r, m.rank)) AS dest_rank,
         arg_max(m.name, list_position(ranks.r, m.rank)) AS dest_name,
         arg_max(m.species_family, list_position(ranks.r, m.rank)) AS dest_family
  FROM own o
  JOIN last_row e ON e.taxon_id = o.taxon_id
  JOIN species_transition t ON t.from_taxnode = o.taxnode_id AND t.to_msl = e.to_msl AND t.to_taxnode IS NOT NULL
  CROSS JOIN ranks
  JOIN member m ON m.msl = e.to_msl AND m.taxnode_id = t.to_taxnode
   AND list_position(ranks.r, m.rank) <= list_position(ranks.r, e.rank)
  GROUP BY ALL
),
dest AS (
  SELECT w.taxon_id, d.taxon_id AS dest_id, w.dest_rank, w.dest_name, count(DISTINCT w.taxnode_id) AS species
  FROM went w
  JOIN last_row e ON e.taxon_id = w.taxon_id
  JOIN taxon_lineage d ON d.msl = e.to_msl AND d.rank = w.dest_rank AND d.name = w.dest_name
   AND (d.rank NOT IN ('subfamily', 'genus', 'subgenus') OR d.family IS NOT DISTINCT FROM w.dest_family)
  GROUP BY ALL
),
summary AS (
  SELECT e.taxon_id, e.rank,
         (SELECT count(*) FROM own o WHERE o.taxon_id = e.taxon_id) AS species_prev,
         (SELECT count(*) FROM own o JOIN species_transition t ON t.from_taxnode = o.taxnode_id AND t.to_msl = e.to_msl
          WHERE o.taxon_id = e.taxon_id AND t.change = 'abolished') AS species_abolished
  FROM last_row e
),
same_rank AS (
  SELECT d.taxon_id,
         list(struct_pack(taxon_id := d.dest_id, name := d.dest_name, species := d.species)
              ORDER BY d.species DESC, d.dest_name) AS dests,
         max(d.species) AS top,
         list(d.dest_name ORDER BY d.species DESC, d.dest_name) FILTER (d.species >= 2 AND d.species >= 0.1 * s.species_prev) AS big,
         sum(d.species) FILTER (d.species >= 2 AND d.species >= 0.1 * s.species_prev) AS big_species
  FROM dest d JOIN summary s ON s.taxon_id = d.taxon_id
  WHERE d.dest_rank = s.rank
  GROUP BY d.taxon_id
),
children AS (
  SELECT p.taxon_id, list(struct_pack(taxon_id := c.taxon_id, rank := c.rank, name := c.name) ORDER BY c.name) AS children
  FROM last_row p
  JOIN taxon_lineage c ON c.msl = p.msl AND c.above = concat_ws(';', nullif(p.above, ''), p.name)
  GROUP BY p.taxon_id
),
kinds AS (
  SELECT e.taxon_id,
         CASE WHEN len(sr.big) >= 2 AND sr.big_species >= 0.5 * s.species_prev THEN 'split'
              WHEN s.species_prev > 0 AND sr.top >= 0.5 * s.species_prev THEN
                CASE WHEN d.change = 'new' AND NOT EXISTS (  -- the new taxon's species carried on all came from it
                            SELECT 1
                            FROM member m
                            JOIN species_transition t ON t.to_taxnode = m.taxnode_id AND t.to_msl = m.msl
                            WHERE m.msl = e.to_msl AND m.rank = d.rank AND m.name = d.name AND t.from_taxnode IS NOT NULL
                              AND t.from_taxnode NOT IN (SELECT o.taxnode_id FROM own o WHERE o.taxon_id = e.taxon_id))
                     THEN 'renamed' ELSE 'merged' END
              ELSE 'abolished' END AS kind,
         CASE WHEN len(sr.big) >= 2 AND sr.big_species >= 0.5 * s.species_prev THEN sr.big
              WHEN s.species_prev > 0 AND sr.top >= 0.5 * s.species_prev THEN [sr.dests[1].name]
              ELSE [] END AS into
  FROM last_row e
  JOIN summary s ON s.taxon_id = e.taxon_id
  LEFT JOIN same_rank sr ON sr.taxon_id = e.taxon_id
  LEFT JOIN taxon_lineage d ON d.taxon_id = sr.dests[1].taxon_id AND d.msl = e.to_msl
)
SELECT e.taxon_id, e.msl AS last_msl, r.version AS ended_in, k.kind, k.into,
       s.species_prev, s.species_abolished,
       coalesce((SELECT list(struct_pack(taxon_id := d.dest_id, rank := d.dest_rank, name := d.dest_name, species := d.species)
                             ORDER BY d.species DESC, d.dest_name)
                 FROM dest d WHERE d.taxon_id = e.taxon_id), []) AS destinations,
       coalesce(c.children, []) AS children
FROM last_row e
JOIN src.releases r ON r.msl = e.to_msl
JOIN summary s ON s.taxon_id = e.taxon_id
JOIN kinds k ON k.taxon_id = e.taxon_id
LEFT JOIN children c ON c.taxon_id = e.taxon_id
ORDER BY e.taxon_id

-- caudovirales_dissolution: one row (key 'caudovirales'): the end of the order Caudovirales (the tailed
-- phages) as one pre-rendered JSON document, read by GET /historical/caudovirales-dissolution. Only the
-- order's name is given; every release, count and name below is read from the data:
--   abolished_in     the first release after the last one listing the order in src.taxa (MSL37, 2021); note
--                    dates it from the data, with when the class now holding its species first appeared (MSL35,
--                    2019: the year the change is often given)
--   last_release     what the order held in its last release (src.taxa: families, subfamilies, genera;
--                    src.species: species), with each family's size and fate
--   destinations     where the order's species went in the step last -> abolished_in (species_transition):
--                    how many carried on, were abolished or merged, and their family, order and class in the new
--                    release (NULL = none at that rank), each flagged new when the taxon did not exist before
--   renames          the order's species whose name changed in that step (renamed, renamed+moved), how many of
--                    the new names are binomials ("Genus epithet", the genus being its own), the 10 proposals
--                    that renamed most of them and one example per destination family (10 largest first)
--   families_abolished  family_evolution's abolition events of the order's families in that step
--   milestone        timeline's description of the event
-- depends: species_transition, family_evolution, timeline
WITH ord AS (
  SELECT 'Caudovirales' AS name  -- the subject of the endpoint; nothing else is typed in
),
span AS (
  SELECT min(t.msl) AS first_msl, max(t.msl) AS last_msl
  FROM src.taxa t JOIN ord ON t.rank = 'order' AND t.name = ord.name
),
rel AS (
  SELECT s.first_msl, s.last_msl, f.version AS first_version, f.year AS first_year,
         l.version AS last_version, l.year AS last_year, n.msl AS next_msl, n.version AS next_version, n.year AS next_year
  FROM span s
  JOIN src.releases f ON f.msl = s.first_msl
  JOIN src.releases l ON l.msl = s.last_msl
  JOIN src.releases n ON n.msl = (SELECT min(msl) FROM src.releases WHERE msl > s.last_msl)
),
parent AS (  -- the class above the order in its last release, and the first release with that class
  SELECT t.class, (SELECT min(c.msl) FROM src.taxa c WHERE c.rank = 'class' AND c.name = t.class) AS class_msl
  FROM src.taxa t JOIN ord ON t.rank = 'order' AND t.name = ord.name JOIN rel ON t.msl = rel.last_msl
),
held AS (  -- the order's taxa in its last release
  SELECT t.* FROM src.taxa t JOIN ord ON t."order" = ord.name JOIN rel ON t.msl = rel.last_msl
),
members AS (  -- its species, and what became of each in the next release
  SELECT s.species, s.family, tr.change, tr.proposal, n.species AS to_name, n.family AS to_family, n."order" AS to_order, n.class AS to_class
  FROM src.species s
  JOIN ord ON s."order" = ord.name
  JOIN rel ON s.msl = rel.last_msl
  LEFT JOIN main.species_transition tr ON tr.from_taxnode = s.taxnode_id
  LEFT JOIN src.species n ON n.taxnode_id = tr.to_taxnode
),
existed AS (  -- taxon names of the order's last release, to tell new taxa from old ones
  SELECT DISTINCT t.rank, t.name FROM src.taxa t JOIN rel ON t.msl = rel.last_msl
),
family_fate AS (
  SELECT h.name AS family,
         (SELECT count(*) FROM members m WHERE m.family = h.name) AS species,
         (SELECT count(*) FROM held g WHERE g.rank = 'genus' AND g.family = h.name) AS genera,
         nt.name IS NOT NULL AS kept,
         nt."order" AS next_order, nt.class AS next_class
  FROM held h
  JOIN rel ON true
  LEFT JOIN src.taxa nt ON nt.msl = rel.next_msl AND nt.rank = 'family' AND nt.name = h.name
  WHERE h.rank = 'family'
),
dest AS (  -- the order's continuing species per taxon of the next release, one rank at a time
  SELECT 'family' AS rank, to_family AS name, count(*) AS species FROM members WHERE to_name IS NOT NULL GROUP BY ALL
  UNION ALL
  SELECT 'order', to_order, count(*) FROM members WHERE to_name IS NOT NULL GROUP BY ALL
  UNION ALL
  SELECT 'class', to_class, count(*) FROM members WHERE to_name IS NOT NULL GROUP BY ALL
),
dest_list AS (
  SELECT d.rank,
         list(json_object(d.rank, d.name, 'species', d.species,   -- name NULL: no taxon at that rank, new NULL
                          'new', CASE WHEN d.name IS NOT NULL THEN NOT EXISTS (SELECT 1 FROM existed e WHERE e.rank = d.rank AND e.name = d.name) END)
              ORDER BY d.name IS NULL, d.species DESC, d.name) AS list
  FROM dest d GROUP BY d.rank
),
renamed AS (
  SELECT m.*, rank() OVER (PARTITION BY m.to_family ORDER BY m.species) AS nth
  FROM members m WHERE m.change IN ('renamed', 'renamed+moved')
),
proposal AS (
  SELECT m.proposal, count(*) AS species
  FROM members m
  WHERE m.change IN ('renamed', 'renamed+moved') AND m.proposal IS NOT NULL
  GROUP BY ALL
),
family_size AS (
  SELECT to_family, count(*) AS n FROM members WHERE to_family IS NOT NULL GROUP BY ALL
)
SELECT 'caudovirales' AS key,
       json_object(
         'order', ord.name,
         'first_version', rel.first_version,
         'last_version', rel.last_version,
         'last_year', rel.last_year,
         'abolished_in', rel.next_version,
         'abolished_year', rel.next_year,
         'note', 'The order '
                 || ord.name || ' is listed from ' || rel.first_version || ' (' || rel.first_year || ') to '
                 || rel.last_version || ' (' || rel.last_year || ') and is gone from ' || rel.next_version || ' ('
                 || rel.next_year || ')'
                 || coalesce('; the class above it, ' || parent.class || ', which holds its species after the abolition, '
                             || 'was introduced in MSL' || parent.class_msl || ' ('
                             || (SELECT year FROM src.releases WHERE msl = parent.class_msl) || ')', '')
                 || '. This document describes the abolition in ' || rel.next_version || '.',
         'milestone', (SELECT description FROM timeline t WHERE t.kind = 'taxon_abolished' AND t.subject = ord.name),
         'last_release', json_object(
           'version', rel.last_version,
           'class', parent.class,
           'families', (SELECT count(*) FROM held WHERE rank = 'family'),
           'subfamilies', (SELECT count(*) FROM held WHERE rank = 'subfamily'),
           'genera', (SELECT count(*) FROM held WHERE rank = 'genus'),
           'species', (SELECT count(*) FROM members),
           'family_list', (SELECT list(json_object('family', family, 'species', species, 'genera', genera,
                                                  'fate', CASE WHEN kept THEN 'kept' ELSE 'abolished' END,
                                                  'order_after', next_order, 'class_after', next_class)
                                       ORDER BY species DESC, family) FROM family_fate)),
         'families_abolished', (SELECT list(json_object('family', e.family, 'description', ev.description) ORDER BY e.family)
                                FROM family_evolution e
                                CROSS JOIN LATERAL (SELECT unnest(e.events, recursive := true)) AS ev
                                WHERE e.msl = rel.last_msl AND ev.kind = 'abolished' AND ev.msl_version = rel.next_version
                                  AND e.family IN (SELECT family FROM family_fate)),
         'destinations', json_object(
           'version', rel.next_version,
           'species_continued', (SELECT count(*) FROM members WHERE to_name IS NOT NULL),
           'species_abolished', (SELECT count(*) FROM members WHERE change = 'abolished'),
           'species_merged', (SELECT count(DISTINCT species) FROM members WHERE change = 'merged'),
           'by_family', (SELECT list FROM dest_list WHERE rank = 'family'),
           'by_order', (SELECT list FROM dest_list WHERE rank = 'order'),
           'by_class', (SELECT list FROM dest_list WHERE rank = 'class')),
         'renames', json_object(
           'version', rel.next_version,
           'species_renamed', (SELECT count(*) FROM renamed),
           'species_renamed_and_moved', (SELECT count(*) FROM renamed WHERE change = 'renamed+moved'),
           'to_binomial', (SELECT count(*) FROM renamed r JOIN src.species n ON n.msl = rel.next_msl AND n.species = r.to_name
                           WHERE len(string_split(r.to_name, ' ')) = 2 AND string_split(r.to_name, ' ')[1] = n.genus),
           'species_renamed_in_release', (SELECT count(*) FROM main.species_transition
                                          WHERE from_msl = rel.last_msl AND change IN ('renamed', 'renamed+moved')),
           'proposal_count', (SELECT count(*) FROM proposal),
           'proposals', (SELECT list(json_object('proposal', proposal, 'species', species) ORDER BY species DESC, proposal)[1:10]
                         FROM proposal),
           'examples', (SELECT list(json_object('old_name', r.species, 'new_name', r.to_name, 'family_before', r.family,
                                                'family_after', r.to_family) ORDER BY fs.n DESC, r.to_family)[1:10]
                        FROM renamed r JOIN family_size fs ON fs.to_family = r.to_family
                        WHERE r.nth = 1))
       )::VARCHAR AS doc
FROM ord CROSS JOIN rel LEFT JOIN parent ON true

-- taxon_lineage: one row per taxon above species per release (src.taxa) with the lineage it belongs to: the
-- same taxon followed from release to release, as species_identity does for species. Read by taxon_ending,
-- taxon_history_doc and name_index (every name a higher taxon ever had).
-- A taxon of one release is the same taxon in the next when
--   the next release has the same name (at any rank: Mandarivirus went from genus to subgenus in MSL37), or
--   ICTV renamed it (taxon_rename: ICTV ids up to MSL38, the "Taxa Renamed" sheets after), the old name being
--   gone and the new one not yet used: at the same rank or another (the subfamily Pneumovirinae became the
--   family Pneumoviridae in MSL30),
-- one to one: a name used for several taxa of one release (MSL15's four "Unnamed genus") pairs by family.
--   taxon_id   the lineage: numbered by first release, rank and name (stable while the releases before do not
--              change; not an ICTV identifier)
--   change     unchanged | renamed | moved | renamed+moved (moved: the taxa above it or its rank changed,
--              whatever the cause, as for species), new on a lineage's first row, null in the first release
--   above      the taxa above it in that release, realm first, ';'-joined
--   family     the family it is in or is (null above family): with the name, what tells MSL15's genera apart
--   species    species under it in that release
-- depends: taxon_rename
WITH RECURSIVE steps AS (
  SELECT msl AS from_msl, lead(msl) OVER (ORDER BY msl) AS to_msl FROM src.releases
),
node AS (
  SELECT t.msl, t.rank, t.name, t.family,
         list_position(['realm', 'subrealm', 'kingdom', 'subkingdom', 'phylum', 'subphylum', 'class', 'subclass',
                        'order', 'suborder', 'family', 'subfamily', 'genus', 'subgenus'], t.rank) AS rank_order,
         -- the taxa above it: the lineage columns of the ranks above its own
         array_to_string(list_filter(
           [t.realm, t.subrealm, t.kingdom, t.subkingdom, t.phylum, t.subphylum, t.class, t.subclass,
            t."order", t.suborder, t.family, t.subfamily, t.genus, t.subgenus][1:list_position(
              ['realm', 'subrealm', 'kingdom', 'subkingdom', 'phylum', 'subphylum', 'class', 'subclass',
               'order', 'suborder', 'family', 'subfamily', 'genus', 'subgenus'], t.rank) - 1],
           x -> x IS NOT NULL), ';') AS above,
         count(*) OVER (PARTITION BY t.msl, t.name) AS homonyms
  FROM src.taxa t
  WHERE t.rank <> 'species'
),
candidate AS (
  SELECT a.msl AS from_msl, a.name AS from_name, a.family AS from_family, b.msl AS to_msl, b.name AS to_name,
         b.family AS to_family, 1 AS prio
  FROM node a JOIN steps st ON st.from_msl = a.msl JOIN node b ON b.msl = st.to_msl AND b.name = a.name
  WHERE (a.homonyms = 1 AND b.homonyms = 1) OR a.family IS NOT DISTINCT FROM b.family
  UNION ALL
  SELECT a.msl, a.name, a.family, b.msl, b.name, b.family, 2
  FROM taxon_rename r
  JOIN steps st ON st.to_msl = r.msl
  JOIN node a ON a.msl = st.from_msl AND a.name = r.old_name
  JOIN node b ON b.msl = r.msl AND b.name = r.new_name
  WHERE NOT EXISTS (SELECT 1 FROM node x WHERE x.msl = r.msl AND x.name = r.old_name
                      AND (a.homonyms = 1 OR x.family IS NOT DISTINCT FROM a.family))
    AND NOT EXISTS (SELECT 1 FROM node x WHERE x.msl = st.from_msl AND x.name = r.new_name)
),
link AS (  -- one to one: each node keeps its best link on either side (same name first, then same family)
  SELECT * FROM (
    SELECT *, a.from_family IS NOT DISTINCT FROM a.to_family AS same_family
    FROM candidate a
    QUALIFY row_number() OVER (PARTITION BY from_msl, from_name, from_family ORDER BY prio, same_family DESC, to_name, to_family) = 1
  )
  QUALIFY row_number() OVER (PARTITION BY to_msl, to_name, to_family ORDER BY prio, same_family DESC, from_name, from_family) = 1
),
chain(start_msl, start_name, start_family, msl, name, family) AS (
  SELECT n.msl, n.name, n.family, n.msl, n.name, n.family
  FROM node n
  WHERE NOT EXISTS (SELECT 1 FROM link l WHERE l.to_msl = n.msl AND l.to_name = n.name
                      AND l.to_family IS NOT DISTINCT FROM n.family)
  UNION ALL
  SELECT c.start_msl, c.start_name, c.start_family, l.to_msl, l.to_name, l.to_family
  FROM chain c
  JOIN link l ON l.from_msl = c.msl AND l.from_name = c.name AND l.from_family IS NOT DISTINCT FROM c.family
),
lineage AS (
  SELECT DISTINCT c.start_msl, c.start_name, c.start_family,
         dense_rank() OVER (ORDER BY c.start_msl, n.rank_order, c.start_name, c.start_family)::INTEGER AS taxon_id
  FROM chain c JOIN node n ON n.msl = c.start_msl AND n.name = c.start_name AND n.family IS NOT DISTINCT FROM c.start_family
),
placed AS (
  SELECT l.taxon_id, n.*,
         lag(n.name) OVER w AS prev_name, lag(n.rank) OVER w AS prev_rank, lag(n.above) OVER w AS prev_above,
         lag(n.msl) OVER w AS prev_msl
  FROM chain c
  JOIN lineage l ON l.start_msl = c.start_msl AND l.start_name = c.start_name AND l.start_family IS NOT DISTINCT FROM c.start_family
  JOIN node n ON n.msl = c.msl AND n.name = c.name AND n.family IS NOT DISTINCT FROM c.family
  WINDOW w AS (PARTITION BY l.taxon_id ORDER BY n.msl)
),
member AS (  -- every species once per taxon above it; below family a taxon is known by its name and family
  UNPIVOT (SELECT msl, family AS species_family, realm, subrealm, kingdom, subkingdom, phylum, subphylum, class,
                  subclass, "order", suborder, family, subfamily, genus, subgenus FROM src.species)
  ON realm, subrealm, kingdom, subkingdom, phylum, subphylum, class, subclass, "order", suborder, family,
     subfamily, genus, subgenus
  INTO NAME rank VALUE name
),
species_in AS (
  SELECT msl, rank, name, CASE WHEN rank IN ('subfamily', 'genus', 'subgenus') THEN species_family END AS family,
         count(*) AS species
  FROM member GROUP BY ALL
)
SELECT p.taxon_id, p.msl, r.version, p.rank, p.name, p.family, p.above,
       CASE WHEN p.prev_msl IS NULL THEN CASE WHEN p.msl > (SELECT min(msl) FROM src.releases) THEN 'new' END
            WHEN p.name <> p.prev_name AND (p.above <> p.prev_above OR p.rank <> p.prev_rank) THEN 'renamed+moved'
            WHEN p.name <> p.prev_name THEN 'renamed'
            WHEN p.above <> p.prev_above OR p.rank <> p.prev_rank THEN 'moved'
            ELSE 'unchanged' END AS change,
       coalesce(c.species, 0) AS species
FROM placed p
JOIN src.releases r ON r.msl = p.msl
LEFT JOIN species_in c ON c.msl = p.msl AND c.rank = p.rank AND c.name = p.name
  AND c.family IS NOT DISTINCT FROM CASE WHEN p.rank IN ('subfamily', 'genus', 'subgenus') THEN p.family END
ORDER BY p.taxon_id, p.msl

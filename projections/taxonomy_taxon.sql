-- taxonomy_taxon: one row per taxon name above species ever used (src.taxa, every release), keyed by its lower-cased
-- name, with a JSON doc saying where it stands in the latest release, so a family or genus given by a client
-- is checked with a key read in memory. Read by GET /taxonomy/family/:name and GET /search/family/:name/summary
-- (the 404 that says what became of a former family) and POST /taxonomy/validate (is this genus in that family?).
--   doc.current          whether the latest release has the taxon; rank, classification and species_count are
--                        then from the latest release, else from the last release that had it
--   doc.classification   the taxon's own row of src.taxa: every rank from realm down to itself (lower ranks null)
--   doc.fate             null when current, else what happened in the first release without it:
--                        renamed (to renamed_to; renamed_to_current says whether that name is still in use) or
--                        abolished; summary is a short sentence ("Myoviridae was abolished in MSL37 (last listed
--                        in MSL36)"), detail a longer one (for families family_evolution's own event text,
--                        "Myoviridae abolished in MSL37: of its 625 species, 278 moved to 6 families, ...")
-- A name used at two ranks over time (Mandarivirus: genus, later subgenus) keeps its latest use.
-- depends: family_stability, taxon_rename
WITH latest AS (
  SELECT max(msl) AS msl FROM src.releases
),
last_use AS (  -- each name's latest row, and the span of releases it was used in
  SELECT lower(name) AS name_key, arg_max(t, t.msl) AS t, min(msl) AS first_msl, max(msl) AS last_msl
  FROM src.taxa t
  WHERE rank <> 'species'
  GROUP BY lower(name)
),
species_count AS (  -- species under each taxon in each release, whatever its rank
  SELECT s.msl, x.name, count(*) AS n
  FROM src.species s,
       unnest([s.realm, s.subrealm, s.kingdom, s.subkingdom, s.phylum, s.subphylum, s.class, s.subclass,
               s."order", s.suborder, s.family, s.subfamily, s.genus, s.subgenus]) AS x(name)
  WHERE x.name IS NOT NULL
  GROUP BY ALL
),
-- higher taxa renamed between n-1 and n: ICTV ids in src.taxon_nodes up to MSL38, the "Taxa Renamed" sheets
-- (src.renames) from MSL38 on (as in family_evolution)
taxon_rename AS (
  SELECT msl, old_name, new_name FROM taxon_rename
),
renamed AS (  -- the rename out of a taxon's last release, when the new name exists in the next one
  SELECT u.name_key, any_value(r.new_name ORDER BY r.new_name) AS new_name
  FROM last_use u
  JOIN taxon_rename r ON r.msl = u.last_msl + 1 AND r.old_name = u.t.name
  JOIN src.taxa n ON n.msl = r.msl AND n.name = r.new_name
  GROUP BY u.name_key
),
family_event AS (  -- family_evolution's sentence for how a family ended (the events dated the release after its
                    -- last): abolition first, else the rename
  SELECT lower(family) AS name_key, e.description, e.kind = 'abolished' AS abolished
  FROM (SELECT family, last_msl, unnest(events) AS e FROM family_stability WHERE NOT current)
  WHERE e.msl_version = 'MSL' || (last_msl + 1) AND e.kind IN ('abolished', 'renamed')
  QUALIFY row_number() OVER (PARTITION BY family ORDER BY e.kind) = 1   -- 'abolished' sorts before 'renamed'
),
ended AS (
  SELECT u.name_key,
         CASE WHEN r.new_name IS NOT NULL AND NOT coalesce(fe.abolished, false) THEN 'renamed' ELSE 'abolished' END AS change
  FROM last_use u
  LEFT JOIN renamed r ON r.name_key = u.name_key
  LEFT JOIN family_event fe ON fe.name_key = u.name_key AND u.t.rank = 'family'
  WHERE u.last_msl < (SELECT msl FROM latest)
)
SELECT u.name_key,
       u.t.name AS name,
       u.t.rank AS rank,
       u.last_msl = l.msl AS current,
       json_object(
         'name', u.t.name,
         'rank', u.t.rank,
         'current', u.last_msl = l.msl,
         'first_version', 'MSL' || u.first_msl,
         'last_version', 'MSL' || u.last_msl,
         'classification', json_object(
           'realm', u.t.realm, 'subrealm', u.t.subrealm, 'kingdom', u.t.kingdom, 'subkingdom', u.t.subkingdom,
           'phylum', u.t.phylum, 'subphylum', u.t.subphylum, 'class', u.t.class, 'subclass', u.t.subclass,
           'order', u.t."order", 'suborder', u.t.suborder, 'family', u.t.family, 'subfamily', u.t.subfamily,
           'genus', u.t.genus, 'subgenus', u.t.subgenus),
         'species_count', coalesce(c.n, 0),
         'fate', CASE WHEN u.last_msl < l.msl THEN json_object(
           -- a taxon renamed to another rank (Autographiviridae became order Autographivirales) was abolished
           -- at its own rank; its detail tells what it became
           'change', e.change,
           'version', 'MSL' || (u.last_msl + 1),
           'renamed_to', CASE WHEN e.change = 'renamed' THEN r.new_name END,
           'renamed_to_current', e.change = 'renamed' AND EXISTS (
             SELECT 1 FROM src.taxa x WHERE x.msl = l.msl AND x.name = r.new_name),
           'summary', u.t.name || ' was ' || CASE WHEN e.change = 'renamed' THEN 'renamed ' || r.new_name ELSE 'abolished' END
                      || ' in MSL' || (u.last_msl + 1) || ' (last listed in MSL' || u.last_msl || ')',
           'detail', coalesce(fe.description,
             CASE WHEN r.new_name IS NOT NULL
                  THEN upper(u.t.rank[1]) || u.t.rank[2:] || ' ' || u.t.name || ' renamed ' || r.new_name || ' in MSL' || (u.last_msl + 1)
                  ELSE upper(u.t.rank[1]) || u.t.rank[2:] || ' ' || u.t.name || ' abolished in MSL' || (u.last_msl + 1)
                       || ' (last listed in MSL' || u.last_msl || ' with ' || coalesce(c.n, 0) || ' species)' END))
         END
       )::VARCHAR AS doc
FROM last_use u
CROSS JOIN latest l
LEFT JOIN species_count c ON c.msl = u.last_msl AND c.name = u.t.name
LEFT JOIN renamed r ON r.name_key = u.name_key
LEFT JOIN family_event fe ON fe.name_key = u.name_key AND u.t.rank = 'family'
LEFT JOIN ended e ON e.name_key = u.name_key
ORDER BY u.name_key                                       -- keyed lookups read one block

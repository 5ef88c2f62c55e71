-- family_evolution_doc: one row per family name ever used (name_key = lower(name)): the whole history of the
-- family that carried it, as one pre-rendered JSON document, so GET /historical/family/:name/evolution is a
-- keyed lookup. A family renamed along the way (family_evolution.renamed_from: Herpesviridae ->
-- Orthoherpesviridae) is one family: every name it carried leads to the same document.
--   family            its name in the last release it is in
--   names             every name it carried, in order of use
--   status            current (in the latest release) or ended; ended_in = the first release without it
--   evolution         family_evolution's counts, one entry per release it is in (name = its name there)
--   major_events      family_evolution's events of every row, in order, each once (a rename is recorded on the
--                     rows of both names); the end of a family sits on its last row with msl_version = ended_in
-- depends: family_evolution
WITH RECURSIVE rename AS (
  SELECT DISTINCT renamed_from AS old_name, family AS new_name FROM family_evolution WHERE renamed_from IS NOT NULL
),
-- each name with the first name of its family (a name is never renamed back, so the walk ends)
named(name, root) AS (
  SELECT f.family, f.family
  FROM (SELECT DISTINCT family FROM family_evolution) f
  WHERE NOT EXISTS (SELECT 1 FROM rename r WHERE r.new_name = f.family)
  UNION ALL
  SELECT r.new_name, n.root FROM named n JOIN rename r ON r.old_name = n.name
),
rows AS (
  SELECT n.root, e.* FROM family_evolution e JOIN named n ON n.name = e.family
),
latest AS (
  SELECT max(msl) AS msl FROM src.releases
),
span AS (
  SELECT root, min(msl) AS first_msl, max(msl) AS last_msl, arg_max(family, msl) AS family, count(*) AS releases_present
  FROM rows GROUP BY root
),
names AS (
  SELECT root, list(family ORDER BY since, family) AS names
  FROM (SELECT root, family, min(msl) AS since FROM rows GROUP BY ALL) GROUP BY root
),
evolution AS (
  SELECT root,
         list(json_object('msl_version', version, 'year', year, 'name', family, 'species', species, 'genera', genera,
                          'species_prev', species_prev, 'species_delta', species_delta, 'gained', gained, 'lost', lost,
                          'renamed', renamed, 'moved_in', moved_in, 'moved_out', moved_out, 'abolished', abolished,
                          'merged', merged, 'split', split) ORDER BY msl) AS evolution
  FROM rows GROUP BY root
),
event AS (  -- a rename is one event, recorded on the last row of the old name and the first row of the new;
             -- the new name's row says what the family was called before (related = the old name)
  SELECT r.root, ev.msl_version, ev.kind, ev.description, ev.species, arg_max(ev.related, r.msl) AS related
  FROM rows r CROSS JOIN LATERAL (SELECT unnest(r.events, recursive := true)) AS ev
  GROUP BY ALL
),
events AS (
  SELECT root,
         list(json_object('msl_version', msl_version, 'kind', kind, 'description', description, 'species', species,
                          'related', related)
              ORDER BY CAST(substr(msl_version, 4) AS INTEGER),
                       list_position(['renamed', 'created', 'merged', 'moved_in', 'moved_out', 'split', 'abolished'], kind),
                       description) AS major_events
  FROM event GROUP BY root
),
doc AS (
  SELECT s.root,
         json_object(
           'family', s.family,
           'names', n.names,
           'status', CASE WHEN s.last_msl = l.msl THEN 'current' ELSE 'ended' END,
           'first_version', 'MSL' || s.first_msl,
           'last_version', 'MSL' || s.last_msl,
           'ended_in', (SELECT arg_min(r.version, r.msl) FROM src.releases r WHERE r.msl > s.last_msl),
           'releases_present', s.releases_present,
           'evolution', v.evolution,
           'major_events', coalesce(e.major_events, [])
         )::VARCHAR AS doc
  FROM span s
  CROSS JOIN latest l
  JOIN names n ON n.root = s.root
  JOIN evolution v ON v.root = s.root
  LEFT JOIN events e ON e.root = s.root
)
SELECT lower(nm.name) AS name_key, nm.name, d.doc
FROM named nm JOIN doc d ON d.root = nm.root
ORDER BY name_key

-- taxonomy_name: one row per normalised name (name_index.name_norm: case, accents, punctuation and spaces folded)
-- saying what GET /taxonomy/species/:name answers for it, so the lookup is one key read in memory followed by
-- the species' record (taxonomy_species). Read by GET /taxonomy/species/:name and POST /taxonomy/validate.
-- A name may lead to several lineages (a virus name shared by isolates of two species, a former name that is
-- now another species' virus name); the one answered is, in order: a lineage still present in the latest
-- release, the lineage whose current name it is, the strongest kind (species > virus_name > abbreviation),
-- the most recent use, the lowest lineage id.
--   found = true:  species_key (taxonomy_species.name_key), matched_name (the name as ICTV spells it),
--                  name_status  current | former (an earlier name of the species, or the VMR's spelling of it)
--                               | virus_name | abbreviation (of an isolate of the species in the VMR),
--                  renamed_in   for a former name, the first release in which the species had another name,
--                  also_matches the other species of the latest release the same name leads to
--   found = false: every lineage the name leads to ended before the latest release; fate says how the one
--                  chosen ended (lineage_summary): change abolished | merged | split, version (the first release
--                  without it), into (the species it was merged or split into, in that release),
--                  current_names (where those species are in the latest release, followed through later merges
--                  and splits) and detail, one sentence
-- depends: name_index, lineage_summary, species_timeline, species_identity
WITH RECURSIVE latest AS (
  SELECT max(msl) AS msl FROM src.releases
),
candidate AS (
  SELECT n.name_norm, n.name, n.kind, n.lineage_id, n.last_msl, n.current_name,
         coalesce(name_norm(n.current_name) = n.name_norm, false) AS is_current_name,
         list_max(n.species_msls) AS last_species_msl,
         row_number() OVER (
           PARTITION BY n.name_norm
           ORDER BY n.current_name IS NULL,
                    coalesce(name_norm(n.current_name) = n.name_norm, false) DESC,
                    list_position(['species', 'virus_name', 'abbreviation'], n.kind), n.last_msl DESC, n.lineage_id) AS pick
  FROM name_index n
),
also AS (  -- the other current species each name leads to
  SELECT c.name_norm, list(DISTINCT o.current_name ORDER BY o.current_name) AS names
  FROM candidate c
  JOIN candidate o ON o.name_norm = c.name_norm AND o.current_name IS NOT NULL AND o.current_name <> c.current_name
  WHERE c.pick = 1
  GROUP BY c.name_norm
),
renamed AS (  -- for a former name: the first release after its last use as the species' name
  SELECT c.name_norm, min(t.msl) AS msl
  FROM candidate c
  JOIN species_timeline t ON t.lineage_id = c.lineage_id AND t.msl > c.last_species_msl
  WHERE c.pick = 1 AND c.current_name IS NOT NULL AND NOT c.is_current_name AND c.kind = 'species'
  GROUP BY c.name_norm
),
-- where ended lineages went: merged_into / split_into name species of the release after the lineage's last
successor AS (
  SELECT l.lineage_id, si.lineage_id AS next_id
  FROM lineage_summary l, unnest(coalesce(l.merged_into, l.split_into, [])) AS u(name)
  JOIN species_identity si ON si.msl = (SELECT min(msl) FROM src.releases WHERE msl > l.last_msl) AND si.species = u.name
),
reach(start_id, lineage_id, depth) AS (
  SELECT lineage_id, lineage_id, 0 FROM lineage_summary WHERE ended <> 'current'
  UNION
  SELECT r.start_id, s.next_id, r.depth + 1
  FROM reach r JOIN successor s ON s.lineage_id = r.lineage_id
  WHERE r.depth < (SELECT count(*) FROM src.releases)    -- a guard: no chain is longer than the releases
),
today AS (
  SELECT r.start_id AS lineage_id, list(DISTINCT l.current_name ORDER BY l.current_name) FILTER (l.current_name IS NOT NULL) AS names
  FROM reach r JOIN lineage_summary l ON l.lineage_id = r.lineage_id
  GROUP BY r.start_id
),
gone AS (  -- how the chosen lineage of a name that leads to no current species ended
  SELECT c.name_norm, c.name, c.kind, l.ended,
         coalesce(l.abolished_in, 'MSL' || (l.last_msl + 1)) AS version,
         coalesce(l.merged_into, l.split_into, []) AS into,
         coalesce(t.names, []) AS current_names,
         CASE c.kind WHEN 'species' THEN 'species ''' || c.name || ''''
              ELSE '''' || c.name || ''' (' || replace(c.kind, '_', ' ') || ') named an isolate of species '''
                   || list_last(l.names) || ''', which' END
           || CASE l.ended
                WHEN 'abolished' THEN ' was abolished in ' || l.abolished_in
                WHEN 'merged' THEN ' was merged into ''' || l.merged_into[1] || ''' in MSL' || (l.last_msl + 1)
                ELSE ' was split into ' || array_to_string(list_transform(l.split_into, x -> '''' || x || ''''), ', ')
                     || ' in MSL' || (l.last_msl + 1)
              END
           || ' (last listed in ' || l.last_version || ')'
           || CASE WHEN len(t.names) > 0 AND t.names <> coalesce(l.merged_into, l.split_into)
                   THEN '; today ' || array_to_string(list_transform(t.names, x -> '''' || x || ''''), ', ') ELSE '' END AS detail
  FROM candidate c
  JOIN lineage_summary l ON l.lineage_id = c.lineage_id
  LEFT JOIN today t ON t.lineage_id = c.lineage_id
  WHERE c.pick = 1 AND c.current_name IS NULL
)
SELECT c.name_norm,
       CASE WHEN c.current_name IS NOT NULL THEN
         json_object(
           'found', true,
           'species_key', lower(c.current_name),
           'matched_name', c.name,
           'name_status', CASE WHEN c.is_current_name THEN 'current' WHEN c.kind = 'species' THEN 'former' ELSE c.kind END,
           'renamed_in', 'MSL' || r.msl,
           'also_matches', coalesce(a.names, []))
       ELSE
         json_object(
           'found', false,
           'matched_name', g.name,
           'name_status', CASE WHEN g.kind = 'species' THEN 'former' ELSE g.kind END,
           'fate', json_object('change', g.ended, 'version', g.version, 'into', g.into, 'current_names', g.current_names,
                               'detail', g.detail))
       END::VARCHAR AS doc
FROM candidate c
LEFT JOIN also a ON a.name_norm = c.name_norm
LEFT JOIN renamed r ON r.name_norm = c.name_norm
LEFT JOIN gone g ON g.name_norm = c.name_norm
WHERE c.pick = 1
ORDER BY c.name_norm                                      -- keyed lookups read one block

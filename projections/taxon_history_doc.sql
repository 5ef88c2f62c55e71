-- taxon_history_doc: one row per lineage of a taxon above species (taxon_lineage): its whole history as one
-- pre-rendered JSON document, the higher-rank counterpart of history_doc. Read by the resolver (any name of any
-- rank followed to a release: /api/v1/resolve, /api/v1/history, /api/v1/taxonomy, /ai).
--   rank, name      as in its last release; names: every name it carried, in order of first use
--   current_name    its name in the latest release, null when it ends earlier
--   ended           current | renamed | merged | split | abolished (taxon_ending), ended_in the first release
--                   without it, into the taxa it was renamed, merged or split into there
--   destinations    where its species went when it ended (taxon_ending), largest first
--   children        the taxa directly under it in its last release, each with its own lineage (taxon_id)
--   timeline        one entry per release it is in: rank, name, lineage (the taxa above it and itself,
--                   ';'-joined), change (as taxon_lineage), species under it
-- depends: taxon_lineage, taxon_ending
WITH latest AS (SELECT max(msl) AS msl FROM src.releases),
span AS (
  SELECT taxon_id, min(msl) AS first_msl, max(msl) AS last_msl,
         arg_max(rank, msl) AS rank, arg_max(name, msl) AS name
  FROM taxon_lineage GROUP BY taxon_id
),
named AS (  -- each name with the release it was first used in
  SELECT taxon_id, list(name ORDER BY since, name) AS names
  FROM (SELECT taxon_id, name, min(msl) AS since FROM taxon_lineage GROUP BY ALL)
  GROUP BY taxon_id
)
SELECT s.taxon_id,
       json_object(
         'taxon_id', s.taxon_id,
         'rank', s.rank,
         'name', s.name,
         'names', n.names,
         'first_appearance', 'MSL' || s.first_msl,
         'last_appearance', 'MSL' || s.last_msl,
         'current_name', CASE WHEN s.last_msl = l.msl THEN s.name END,
         'ended', coalesce(e.kind, 'current'),
         'ended_in', e.ended_in,
         'into', coalesce(e.into, []),
         'species_at_end', e.species_prev,
         'species_abolished', e.species_abolished,
         'destinations', coalesce(e.destinations, []),
         'children', coalesce(e.children, []),
         'timeline', (
           SELECT to_json(list(json_object(
                    'version', t.version, 'year', r.year, 'rank', t.rank, 'name', t.name,
                    'lineage', concat_ws(';', nullif(t.above, ''), t.name), 'change', coalesce(t.change, 'present'),
                    'species', t.species) ORDER BY t.msl))
           FROM taxon_lineage t JOIN src.releases r ON r.msl = t.msl
           WHERE t.taxon_id = s.taxon_id)
       )::VARCHAR AS doc
FROM span s
JOIN named n ON n.taxon_id = s.taxon_id
CROSS JOIN latest l
LEFT JOIN taxon_ending e ON e.taxon_id = s.taxon_id
ORDER BY s.taxon_id

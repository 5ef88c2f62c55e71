-- history_doc: one row per lineage: its whole history as one pre-rendered JSON document (the lineage part
-- of GET /api/v1/history/:name and GET /historical/species/:name/history), so a history is a key read.
-- depends: lineage_summary, species_timeline
SELECT l.lineage_id,
       json_object(
         'lineage_id', l.lineage_id,
         'first_appearance', l.first_version,
         'last_appearance', l.last_version,
         'current_name', l.current_name,
         'names', l.names,
         'began', l.began,
         'ended', l.ended,
         'split_from', coalesce(l.split_from, []),
         'merged_from', coalesce(l.merged_from, []),
         'merged_into', coalesce(l.merged_into, []),
         'split_into', coalesce(l.split_into, []),
         'abolished_in', l.abolished_in,
         'timeline', (
           SELECT to_json(list(json_object(
                    'version', t.version, 'year', r.year, 'name', t.name, 'family', t.family, 'genus', t.genus,
                    'lineage', t.full_lineage, 'change', coalesce(t.change, 'present'), 'proposal', t.proposal,
                    'merged_in', t.merged_in, 'split_off', t.split_off) ORDER BY t.msl))
           FROM species_timeline t JOIN src.releases r ON r.msl = t.msl
           WHERE t.lineage_id = l.lineage_id)
       )::VARCHAR AS doc
FROM lineage_summary l
ORDER BY l.lineage_id

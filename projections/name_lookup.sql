-- name_lookup: one row per normalised name (name_index.name_norm): the lineages of any rank the name leads to,
-- as one JSON array, so resolving a name (history, resolution, former-name answers) is a key read in memory.
-- Ordered so the lineage that used the name as its official species name, and most recently, comes first,
-- then higher taxa. species_first_msl/species_last_msl: the releases in which it was the taxon's official
-- name (null for names only ever used for isolates), which is what "the name stood until" means when
-- migrating a name. variants: every spelling seen, so an exact spelling can win over a normalised one.
-- depends: name_index
SELECT name_norm,
       to_json(list(json_object(
         'lineage_id', lineage_id, 'name', name, 'kind', kind, 'rank', rank, 'variants', variants,
         'first_msl', first_msl, 'last_msl', last_msl,
         'species_first_msl', list_min(species_msls), 'species_last_msl', list_max(species_msls),
         'current_name', current_name) ORDER BY kind = 'species' DESC, kind = 'taxon', last_msl DESC, lineage_id))::VARCHAR AS doc
FROM name_index
GROUP BY name_norm
ORDER BY name_norm

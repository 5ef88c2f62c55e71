-- release_diff_detail (a view): release_diff_change's rows with both sides spelled out, for analysts and
-- the tests; the API reads release_diff_change by position and looks the species up itself.
--   old_name, old_family, old_genus, old_lineage   the species in a (old_lineage_id's species_timeline row)
--   new_name, new_family, new_genus, new_lineage   the species in b (new_lineage_id's)
-- old_lineage / new_lineage are ICTV's own notation for a full lineage ("Taxa Renamed" sheets): the ranks
-- present, joined with ';'.
-- kind: view
-- depends: release_diff_change, species_timeline
SELECT c.from_msl, c.to_msl, c.change_type, c.pos, c.type_pos, c.lineage_id,
       x.name AS old_name, x.family AS old_family, x.genus AS old_genus, x.full_lineage AS old_lineage,
       y.name AS new_name, y.family AS new_family, y.genus AS new_genus, y.full_lineage AS new_lineage,
       c.counterparts, c.proposal
FROM release_diff_change c
LEFT JOIN species_timeline x ON x.msl = c.from_msl AND x.lineage_id = c.old_lineage_id
LEFT JOIN species_timeline y ON y.msl = c.to_msl AND y.lineage_id = c.new_lineage_id

-- compare_rows: one row per ordered pair of releases a -> b (a before b): release_diff_change's rows of the
-- pair in listing order (pos), packed as two little-endian 16-bit references per row (the species in a,
-- the species in b: compare_species idx, 65535 for none), base64 of the bytes. Read by GET
-- /api/v1/compare/:from/:to/details, which decodes only the rows of the page asked: a page is then two
-- keyed reads in memory and no query (a DuckDB query of the same rows, even prepared, cost most of a
-- request's CPU; README, Measured figures). The change type of a row follows from its position and the pair's counts in release_diff
-- (rows are grouped by type, in name order); the proposal is the b-side species' (compare_species), except
-- on the few rows of species that left, which compare_exit_proposal holds.
-- depends: release_diff_change, compare_species
WITH refs AS (
  SELECT c.from_msl, c.to_msl, c.pos, coalesce(x.idx, 65535) AS o, coalesce(y.idx, 65535) AS n
  FROM release_diff_change c
  LEFT JOIN compare_species x ON x.msl = c.from_msl AND x.lineage_id = c.old_lineage_id
  LEFT JOIN compare_species y ON y.msl = c.to_msl AND y.lineage_id = c.new_lineage_id
)
SELECT from_msl, to_msl, count(*)::INTEGER AS rows,
       to_base64(from_hex(string_agg(printf('%02x%02x%02x%02x', o % 256, o // 256, n % 256, n // 256), '' ORDER BY pos))) AS doc
FROM refs
GROUP BY from_msl, to_msl
ORDER BY from_msl, to_msl

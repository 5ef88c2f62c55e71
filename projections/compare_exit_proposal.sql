-- compare_exit_proposal: one row per compare details row of a species that left (merged, ended_by_split,
-- removed) and has a proposal: the proposal recorded on the species it went into (release_diff_change).
-- Keyed by (from_msl, to_msl, pos) for GET /api/v1/compare/:from/:to/details; every other row's proposal
-- is its b-side species' own.
-- depends: release_diff_change
SELECT from_msl, to_msl, pos, to_json(proposal)::VARCHAR AS doc
FROM release_diff_change
WHERE change_type IN ('merged', 'ended_by_split', 'removed') AND proposal IS NOT NULL
ORDER BY from_msl, to_msl, pos

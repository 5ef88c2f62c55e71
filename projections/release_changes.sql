-- release_changes: one row per taxon per step from a release to the next that it took part in, species and
-- higher taxa: what happened to it (the typed change the API's histories, compares and resolutions report).
-- Species from the read model species_transition (every species of both releases, unchanged ones too: a
-- merge or split has one row per pair); higher taxa from taxon_lineage (their change into the release
-- they are in) and taxon_ending (how a lineage ended, in the first release without it). Published as
-- data/parquet/release_changes.parquet (build/stage-export.ts) and read by the bulk changes download.
-- kind: view
-- depends: species_transition, species_identity, taxon_lineage, taxon_ending
SELECT t.from_msl, t.to_msl, 'MSL' || t.from_msl AS from_version, 'MSL' || t.to_msl AS to_version,
       'species' AS rank, t.from_name, t.to_name, t.change, t.proposal, t.higher_renamed,
       t.from_taxnode, t.to_taxnode, 'species' AS lineage_kind,
       coalesce(b.lineage_id, a.lineage_id) AS lineage_id, a.lineage_id AS from_lineage_id, b.lineage_id AS to_lineage_id,
       CAST(NULL AS VARCHAR[]) AS ended_into
FROM main.species_transition t
LEFT JOIN main.species_identity a ON a.taxnode_id = t.from_taxnode
LEFT JOIN main.species_identity b ON b.taxnode_id = t.to_taxnode
UNION ALL
SELECT r.prev, l.msl, 'MSL' || r.prev, l.version, l.rank, p.name, l.name, l.change, NULL, NULL,
       NULL, NULL, 'taxon', l.taxon_id, p.taxon_id, l.taxon_id, NULL
FROM main.taxon_lineage l
JOIN (SELECT msl, lag(msl) OVER (ORDER BY msl) AS prev FROM src.releases) r ON r.msl = l.msl AND r.prev IS NOT NULL
LEFT JOIN main.taxon_lineage p ON p.taxon_id = l.taxon_id AND p.msl = r.prev
UNION ALL
SELECT e.last_msl, n.msl, 'MSL' || e.last_msl, e.ended_in, l.rank, l.name, NULL, e.kind, NULL, NULL,
       NULL, NULL, 'taxon', e.taxon_id, e.taxon_id, NULL, e.into
FROM main.taxon_ending e
JOIN main.taxon_lineage l ON l.taxon_id = e.taxon_id AND l.msl = e.last_msl
JOIN src.releases n ON 'MSL' || n.msl = e.ended_in
ORDER BY from_msl, lineage_kind, rank, from_name NULLS FIRST, to_name

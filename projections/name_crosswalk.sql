-- name_crosswalk: one row per (name, lineage it leads to): every name of any rank ever used in an MSL, and
-- every VMR virus name and abbreviation, with the taxon it denotes and where that taxon is in the latest
-- release. Published as data/parquet/name_crosswalk.parquet (build/stage-export.ts). From the read models
-- name_index (the names, as every name lookup of the API reads them), lineage_summary (how a species lineage
-- ended), species_link (a merged or split species followed on to the latest release) and taxon_lineage /
-- taxon_ending (a higher taxon that ended followed on through the taxa its species went into, as the
-- resolver does). A name that leads to several lineages has a row for each (the API calls it ambiguous).
-- kind: view
-- depends: name_index, lineage_summary, species_link, species_identity, taxon_lineage, taxon_ending
WITH RECURSIVE latest AS (SELECT max(msl) AS msl FROM src.releases),
last_node AS (  -- the last species of each species lineage that ended in a merge or split
  SELECT i.lineage_id, arg_max(i.taxnode_id, i.msl) AS taxnode_id, max(i.msl) AS msl
  FROM main.species_identity i JOIN main.lineage_summary s ON s.lineage_id = i.lineage_id AND s.ended IN ('merged', 'split')
  GROUP BY ALL
),
onward(lineage_id, taxnode_id, msl) AS (  -- followed through every link (merges and splits too) to its end
  SELECT lineage_id, taxnode_id, msl FROM last_node
  UNION
  SELECT o.lineage_id, k.to_taxnode, k.to_msl FROM onward o JOIN main.species_link k ON k.from_taxnode = o.taxnode_id
),
species_now AS (
  SELECT o.lineage_id, list(DISTINCT i.species ORDER BY i.species) AS names
  FROM onward o JOIN main.species_identity i ON i.taxnode_id = o.taxnode_id, latest
  WHERE o.msl = latest.msl GROUP BY ALL
  UNION ALL
  SELECT lineage_id, [current_name] FROM main.lineage_summary WHERE ended = 'current'
),
taxon_last AS (  -- each higher-taxon lineage in its last release
  SELECT taxon_id, max(msl) AS last_msl, arg_max(name, msl) AS last_name, arg_max(rank, msl) AS rank
  FROM main.taxon_lineage GROUP BY ALL
),
taxon_next AS (  -- a lineage that ended -> the lineages of the taxa its species went into
  SELECT DISTINCT e.taxon_id, l.taxon_id AS next_id
  FROM main.taxon_ending e
  JOIN taxon_last t ON t.taxon_id = e.taxon_id
  CROSS JOIN unnest(e.into) AS u(name)
  JOIN src.releases r ON 'MSL' || r.msl = e.ended_in
  JOIN main.taxon_lineage l ON l.msl = r.msl AND l.name = u.name AND l.rank = t.rank
),
taxon_reach(taxon_id, reached) AS (  -- followed on until the latest release
  SELECT taxon_id, taxon_id FROM taxon_last
  UNION
  SELECT r.taxon_id, n.next_id FROM taxon_reach r JOIN taxon_next n ON n.taxon_id = r.reached
),
taxon_now AS (
  SELECT r.taxon_id, list(DISTINCT t.last_name ORDER BY t.last_name) AS names
  FROM taxon_reach r JOIN taxon_last t ON t.taxon_id = r.reached, latest
  WHERE t.last_msl = latest.msl GROUP BY ALL
),
state AS (  -- how each lineage stands in the latest release, and the taxa it leads to there
  SELECT 'species' AS lineage_kind, s.lineage_id, s.ended, coalesce(w.names, []) AS latest_names
  FROM main.lineage_summary s LEFT JOIN species_now w ON w.lineage_id = s.lineage_id
  UNION ALL
  SELECT 'taxon', t.taxon_id, CASE WHEN t.last_msl = (SELECT msl FROM latest) THEN 'current' ELSE e.kind END,
         coalesce(w.names, [])
  FROM taxon_last t
  LEFT JOIN main.taxon_ending e ON e.taxon_id = t.taxon_id
  LEFT JOIN taxon_now w ON w.taxon_id = t.taxon_id
),
names AS (
  SELECT *, CASE WHEN kind = 'taxon' THEN 'taxon' ELSE 'species' END AS lineage_kind FROM main.name_index
)
SELECT n.name, n.name_norm, n.kind, n.kinds, n.rank, n.lineage_kind, n.lineage_id,
       n.first_msl, n.last_msl, n.variants, st.ended,
       (SELECT 'MSL' || msl FROM latest) AS latest_version, st.latest_names
FROM names n
LEFT JOIN state st ON st.lineage_kind = n.lineage_kind AND st.lineage_id = n.lineage_id
ORDER BY n.name_norm, n.kind, n.lineage_id

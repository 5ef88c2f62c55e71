-- compare_doc: one row per ordered pair of different releases, in both directions, with the parts
-- of GET /historical/compare/:from/:to that release_diff does not hold: the changes per rank and the families
-- most affected. The change counts by type come from release_diff at request time (diffSummary, shared with
-- GET /api/v1/compare), so both endpoints give the same numbers. Key: (from_msl, to_msl).
--
-- by_rank: per rank used in either release, from_count/to_count taxa and how many were added, removed and
-- renamed between the two.
--   species        the lineage-followed counts of release_diff: added = added + split + formed_by_merge,
--                  removed = removed + merged + ended_by_split, renamed = renamed (so from_count - removed +
--                  added = to_count, release_diff's balance)
--   higher ranks   a taxon is followed from release to release by its name at the same rank, or through a
--                  rename of that step (ICTV ids in src.taxon_nodes for MSL1-38, the "Taxa Renamed" sheets in
--                  src.renames from MSL38 on, the same rule as family_evolution: the old name gone, the new
--                  one new). renamed = taxa of the earlier release that reach the later one under another
--                  name; removed / added = taxa that do not reach the other release (a taxon that changes rank,
--                  e.g. a family promoted to order, leaves one rank and joins another). from_count - removed +
--                  added = to_count holds here too.
-- largest_families_affected: the 10 families with the most changed species (release_diff_change rows; a
-- species counts for its family in both releases when it moved, once per family however many rows it has),
-- with the rows per change type. Species with a family on neither side count for no family
-- (changed_without_family). Read backwards (from later to earlier), added and removed, merged and split,
-- ended_by_split and formed_by_merge are exchanged, as diffSummary does.
-- source_files: the files each release was read from (src.inputs), compared by role (msl, tree, ontology, vmr):
-- added = a role only to_version has, deleted = only from_version has, modified = both, with
-- different contents (sha256). The specification asks the comparison to cover "added, deleted and modified files".
-- depends: release_diff, release_diff_change, species_timeline, taxon_rename
WITH RECURSIVE rel AS (
  SELECT msl, version, lag(msl) OVER (ORDER BY msl) AS prev_msl, lead(msl) OVER (ORDER BY msl) AS next_msl
  FROM src.releases
),
ranks AS (  -- the ranks in order, species last
  SELECT * FROM (VALUES (1, 'realm'), (2, 'subrealm'), (3, 'kingdom'), (4, 'subkingdom'), (5, 'phylum'),
                        (6, 'subphylum'), (7, 'class'), (8, 'subclass'), (9, 'order'), (10, 'suborder'),
                        (11, 'family'), (12, 'subfamily'), (13, 'genus'), (14, 'subgenus'), (15, 'species')) AS r(pos, rank)
),
taxon AS (
  SELECT DISTINCT msl, rank, name FROM src.taxa WHERE rank <> 'species'
),
taxon_rename AS (  -- higher taxa renamed between n-1 and n (msl = n), as family_evolution reads them
  SELECT msl, old_name, new_name FROM taxon_rename
),
link AS (  -- a taxon of n-1 carried on into n at the same rank: by its name, or renamed
  SELECT a.msl AS from_msl, a.rank, a.name AS from_name, b.name AS to_name
  FROM taxon a JOIN rel ON rel.msl = a.msl JOIN taxon b ON b.msl = rel.next_msl AND b.rank = a.rank AND b.name = a.name
  UNION
  SELECT o.msl, o.rank, o.name, n.name
  FROM taxon_rename r
  JOIN rel ON rel.msl = r.msl
  JOIN taxon o ON o.msl = rel.prev_msl AND o.name = r.old_name
  JOIN taxon n ON n.msl = r.msl AND n.name = r.new_name AND n.rank = o.rank
  WHERE NOT EXISTS (SELECT 1 FROM src.taxa x WHERE x.msl = r.msl AND x.name = r.old_name)
    AND NOT EXISTS (SELECT 1 FROM src.taxa x WHERE x.msl = rel.prev_msl AND x.name = r.new_name)
),
-- only one-to-one links carry a taxon on: two taxa renamed into one name (or one into two) end and start taxa
sole AS (
  SELECT l.* FROM link l
  WHERE (SELECT count(*) FROM link x WHERE x.from_msl = l.from_msl AND x.rank = l.rank AND x.from_name = l.from_name) = 1
    AND (SELECT count(*) FROM link x WHERE x.from_msl = l.from_msl AND x.rank = l.rank AND x.to_name = l.to_name) = 1
),
chain(start_msl, start_name, rank, msl, name) AS (
  SELECT t.msl, t.name, t.rank, t.msl, t.name
  FROM taxon t
  WHERE NOT EXISTS (SELECT 1 FROM sole s JOIN rel ON rel.msl = s.from_msl
                    WHERE rel.next_msl = t.msl AND s.rank = t.rank AND s.to_name = t.name)
  UNION ALL
  SELECT c.start_msl, c.start_name, c.rank, rel.next_msl, s.to_name
  FROM chain c JOIN sole s ON s.from_msl = c.msl AND s.rank = c.rank AND s.from_name = c.name
  JOIN rel ON rel.msl = c.msl
),
pairs AS (  -- every ordered pair, both directions
  SELECT a.msl AS from_msl, b.msl AS to_msl FROM src.releases a JOIN src.releases b ON a.msl <> b.msl
),
per_taxon AS (  -- per pair and followed taxon: on which side it is, and under how many names
  SELECT p.from_msl, p.to_msl, c.rank, c.start_msl, c.start_name,
         bool_or(c.msl = p.from_msl) AS in_from, bool_or(c.msl = p.to_msl) AS in_to, count(DISTINCT c.name) AS names
  FROM pairs p JOIN chain c ON c.msl IN (p.from_msl, p.to_msl)
  GROUP BY ALL
),
higher AS (
  SELECT from_msl, to_msl, rank,
         count(*) FILTER (in_from) AS from_count, count(*) FILTER (in_to) AS to_count,
         count(*) FILTER (in_to AND NOT in_from) AS added, count(*) FILTER (in_from AND NOT in_to) AS removed,
         count(*) FILTER (in_from AND in_to AND names > 1) AS renamed
  FROM per_taxon GROUP BY ALL
),
species AS (  -- release_diff holds forward pairs; a backward pair exchanges the two sides
  SELECT from_msl, to_msl, 'species' AS rank, from_total AS from_count, to_total AS to_count,
         species_added + species_split + species_formed_by_merge AS added,
         species_removed + species_merged + species_ended_by_split AS removed, species_renamed AS renamed
  FROM release_diff
  UNION ALL
  SELECT to_msl, from_msl, 'species', to_total, from_total,
         species_removed + species_merged + species_ended_by_split,
         species_added + species_split + species_formed_by_merge, species_renamed
  FROM release_diff
),
by_rank AS (
  SELECT x.from_msl, x.to_msl,
         list(json_object('rank', x.rank, 'from_count', x.from_count, 'to_count', x.to_count,
                          'added', x.added, 'removed', x.removed, 'renamed', x.renamed) ORDER BY r.pos) AS by_rank
  FROM (SELECT * FROM higher UNION ALL SELECT * FROM species) x JOIN ranks r ON r.rank = x.rank
  GROUP BY ALL
),
change_family AS (  -- the family of the species on each side of a change
  SELECT c.from_msl, c.to_msl, c.change_type, c.lineage_id, x.family AS old_family, y.family AS new_family
  FROM release_diff_change c
  LEFT JOIN species_timeline x ON x.msl = c.from_msl AND x.lineage_id = c.old_lineage_id
  LEFT JOIN species_timeline y ON y.msl = c.to_msl AND y.lineage_id = c.new_lineage_id
),
detail AS (  -- every detail row in both directions, the change type as read in that direction
  SELECT from_msl, to_msl, change_type, lineage_id, old_family, new_family FROM change_family
  UNION ALL
  SELECT to_msl, from_msl,
         CASE change_type WHEN 'added' THEN 'removed' WHEN 'removed' THEN 'added' WHEN 'merged' THEN 'split'
              WHEN 'split' THEN 'merged' WHEN 'ended_by_split' THEN 'formed_by_merge'
              WHEN 'formed_by_merge' THEN 'ended_by_split' ELSE change_type END,
         lineage_id, new_family, old_family
  FROM change_family
),
family_rows AS (  -- a row once per family it touches (both, when the species moved between families)
  SELECT from_msl, to_msl, change_type, lineage_id,
         unnest(list_distinct(list_filter([old_family, new_family], f -> f IS NOT NULL))) AS family
  FROM detail
),
family_count AS (
  SELECT from_msl, to_msl, family,
         count(DISTINCT lineage_id) AS species_changed,
         count(*) FILTER (change_type = 'added') AS added, count(*) FILTER (change_type = 'removed') AS removed,
         count(*) FILTER (change_type = 'renamed') AS renamed, count(*) FILTER (change_type = 'reclassified') AS reclassified,
         count(*) FILTER (change_type = 'merged') AS merged, count(*) FILTER (change_type = 'split') AS split,
         count(*) FILTER (change_type = 'ended_by_split') AS ended_by_split,
         count(*) FILTER (change_type = 'formed_by_merge') AS formed_by_merge
  FROM family_rows GROUP BY ALL
),
families AS (
  SELECT from_msl, to_msl, count(*) AS families_affected,
         list(json_object('family', family, 'species_changed', species_changed, 'added', added, 'removed', removed,
                          'renamed', renamed, 'reclassified', reclassified, 'merged', merged, 'split', split,
                          'ended_by_split', ended_by_split, 'formed_by_merge', formed_by_merge)
              ORDER BY species_changed DESC, family)[1:10] AS largest
  FROM family_count GROUP BY ALL
),
pair_role AS (  -- the roles of the files of either release
  SELECT DISTINCT p.from_msl, p.to_msl, i.role FROM pairs p JOIN src.inputs i ON i.msl IN (p.from_msl, p.to_msl)
),
file_pair AS (
  SELECT r.from_msl, r.to_msl, r.role, a.file AS from_file, a.sha256 AS from_sha256, b.file AS to_file, b.sha256 AS to_sha256
  FROM pair_role r
  LEFT JOIN src.inputs a ON a.msl = r.from_msl AND a.role = r.role
  LEFT JOIN src.inputs b ON b.msl = r.to_msl AND b.role = r.role
),
files AS (
  SELECT from_msl, to_msl,
         list(json_object('role', role, 'file', to_file, 'sha256', to_sha256) ORDER BY role) FILTER (from_file IS NULL) AS added,
         list(json_object('role', role, 'file', from_file, 'sha256', from_sha256) ORDER BY role) FILTER (to_file IS NULL) AS deleted,
         list(json_object('role', role, 'from_file', from_file, 'to_file', to_file, 'from_sha256', from_sha256, 'to_sha256', to_sha256)
              ORDER BY role) FILTER (from_file IS NOT NULL AND to_file IS NOT NULL AND from_sha256 IS DISTINCT FROM to_sha256) AS modified
  FROM file_pair GROUP BY ALL
),
no_family AS (
  SELECT from_msl, to_msl, count(DISTINCT lineage_id) AS n
  FROM detail WHERE old_family IS NULL AND new_family IS NULL GROUP BY ALL
)
SELECT p.from_msl, p.to_msl,
       json_object(
         'by_rank', coalesce(b.by_rank, []),
         'families_affected', coalesce(f.families_affected, 0),
         'changed_without_family', coalesce(n.n, 0),
         'largest_families_affected', coalesce(f.largest, []),
         'source_files', json_object('added', coalesce(sf.added, []), 'deleted', coalesce(sf.deleted, []),
                                     'modified', coalesce(sf.modified, []))
       )::VARCHAR AS doc
FROM pairs p
LEFT JOIN by_rank b ON b.from_msl = p.from_msl AND b.to_msl = p.to_msl
LEFT JOIN families f ON f.from_msl = p.from_msl AND f.to_msl = p.to_msl
LEFT JOIN no_family n ON n.from_msl = p.from_msl AND n.to_msl = p.to_msl
LEFT JOIN files sf ON sf.from_msl = p.from_msl AND sf.to_msl = p.to_msl
ORDER BY p.from_msl, p.to_msl

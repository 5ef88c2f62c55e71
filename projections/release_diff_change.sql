-- release_diff_change: one row per changed species per ordered pair of releases a -> b (a before b, every
-- pair, not only neighbours), saying how it changed between the two. Read by release_diff (the counts),
-- compare_doc and GET /api/v1/compare/:from/:to/details (?change_type=...), which reads a page by position;
-- release_diff_detail is the same rows with the names and placements spelled out. Unchanged species are not
-- listed.
--
-- The species themselves are referenced, not copied: with every pair of forty-odd releases there are
-- millions of rows, and the names repeated in each would take most of the database file. old_lineage_id is the
-- lineage whose species in a the row describes, new_lineage_id the one in b (species_timeline has their
-- name and placement in each release); for a merge or split they differ, or one is null when the species
-- on the other side is not a single one (counterparts then lists them).
--
-- A species is followed by its lineage (species_identity.lineage_id); only the end states a and b are
-- compared, so a species renamed twice between a and b is one rename (a-name -> b-name), and a name that
-- changes and changes back is no change at all.
--
-- change_type, for a species of a whose lineage is present in b (it "persists"):
--   renamed        its b-name differs from its a-name
--   reclassified   its lineage above species differs (realm..subgenus, compared as a whole: a new rank
--                  above it, a move to another genus, or a higher taxon renamed all count, as in
--                  species_transition's "moved")
--   A species both renamed and reclassified gets one row of each type (it counts in both columns of
--   release_diff, which therefore also carries species_renamed_and_reclassified).
-- for a species of a whose lineage is absent from b, by the step in which its lineage ended and whether
-- anything of it reaches b, following merges and splits forward (a merge target that itself later merged,
-- split or ended is followed on; only lineages present in b count as reaching it):
--   merged          its lineage ended by merging into another species (one successor), and reaches b
--   ended_by_split  its lineage ended by splitting into several species none of which carries it on, and
--                   reaches b (Orthoflavivirus encephalitidis in MSL41, split into two species with ids of
--                   their own; where ICTV kept the id, as for Amdoparvovirus carnivoran1 in MSL39,
--                   species_identity carries the lineage on and it counts as persisting)
--   removed         otherwise: abolished, or merged/split into species that did not survive to b (counting
--                   those as merged would name a species of b that holds nothing of it)
-- for a species of b whose lineage is absent from a, following merges and splits backward to a:
--   split           its lineage began by being split off a single species, and comes from a species of a
--   formed_by_merge its lineage began by a merge of several species none of which it carries on (e.g.
--                   Betacoronavirus 1 in MSL25, from five species), and comes from a species of a
--   added           otherwise: new, or descended only from species that are not in a either
-- Between neighbours these are species_transition's changes, except for the three MSL38 -> 39 merges and
-- splits in which ICTV kept a merged or split species' id (see species_timeline): lineages decide.
-- So each species of a is exactly one of persisting/merged/ended_by_split/removed and each species of b
-- exactly one of persisting/split/formed_by_merge/added: the balance release_diff checks.
--
-- For merges and splits, counterparts lists the species on the other side (the species of b it went into, or
-- of a it came from); old_lineage_id/new_lineage_id is set only when that is a single species.
-- proposal: the b-side species' proposal (ICTV's proposal of its
-- last change); for a species that left (merged, ended_by_split, removed) the proposal recorded on the
-- species it went into in the release right after its last; null where ICTV gives none (before MSL29).
-- pos: the row's place in its pair (1, 2, ...), in the order the details are listed: by change type, then
-- the species' name in a (in b when it is not in a), then its name in b; type_pos the same within its
-- change type. A page of details is then a range of positions, and the same order serves both directions.
-- depends: species_identity, species_link
WITH RECURSIVE pairs AS (
  SELECT a.msl AS from_msl, b.msl AS to_msl FROM src.releases a JOIN src.releases b ON a.msl < b.msl
),
sp AS (  -- one species of one release, with its lineage and its placement
  SELECT i.msl, i.lineage_id, s.species AS name, s.proposal,
         [s.realm, s.subrealm, s.kingdom, s.subkingdom, s.phylum, s.subphylum, s.class, s.subclass,
          s."order", s.suborder, s.family, s.subfamily, s.genus, s.subgenus] AS above
  FROM species_identity i JOIN src.species s ON s.taxnode_id = i.taxnode_id
),
-- The links that do not carry a taxon on, i.e. merges and splits, between the lineages at their ends.
edges AS (
  SELECT k.from_msl, k.to_msl, f.lineage_id AS from_lineage, t.lineage_id AS to_lineage,
         k.successors, k.predecessors,
         -- the from-lineage stops here (rather than continuing beside a species split off it)
         NOT EXISTS (SELECT 1 FROM sp x WHERE x.msl = k.to_msl AND x.lineage_id = f.lineage_id) AS exits,
         -- the to-lineage starts here (rather than absorbing a species merged into it)
         NOT EXISTS (SELECT 1 FROM sp x WHERE x.msl = k.from_msl AND x.lineage_id = t.lineage_id) AS enters
  FROM species_link k
  JOIN species_identity f ON f.taxnode_id = k.from_taxnode
  JOIN species_identity t ON t.taxnode_id = k.to_taxnode
  WHERE NOT k.continues
),
matched AS (  -- the lineages present in both releases of a pair
  SELECT p.from_msl, p.to_msl, x.lineage_id,
         x.name AS old_name, x.above AS old_above,
         y.name AS new_name, y.above AS new_above,
         y.proposal
  FROM pairs p
  JOIN sp x ON x.msl = p.from_msl
  JOIN sp y ON y.msl = p.to_msl AND y.lineage_id = x.lineage_id
),
gone AS (  -- species of a whose lineage is absent from b
  SELECT p.from_msl, p.to_msl, x.lineage_id
  FROM pairs p JOIN sp x ON x.msl = p.from_msl
  WHERE NOT EXISTS (SELECT 1 FROM sp y WHERE y.msl = p.to_msl AND y.lineage_id = x.lineage_id)
),
arrived AS (  -- species of b whose lineage is absent from a
  SELECT p.from_msl, p.to_msl, y.lineage_id
  FROM pairs p JOIN sp y ON y.msl = p.to_msl
  WHERE NOT EXISTS (SELECT 1 FROM sp x WHERE x.msl = p.from_msl AND x.lineage_id = y.lineage_id)
),
-- Forward from a gone lineage that ended by a merge or split, through the merges/splits that end each
-- lineage on the way (cur was entered at at_msl), until a lineage present in b. UNION (not ALL) keeps the
-- walk finite and free of duplicates. Only the few lineages with such an exit walk at all: the rest of
-- the gone (a few hundred thousand over all pairs) are plain abolitions.
fwd(from_msl, to_msl, origin, cur, at_msl) AS (
  SELECT g.from_msl, g.to_msl, g.lineage_id, g.lineage_id, g.from_msl
  FROM gone g SEMI JOIN edges e ON e.from_lineage = g.lineage_id AND e.exits
  UNION
  SELECT f.from_msl, f.to_msl, f.origin, e.to_lineage, e.to_msl
  FROM fwd f
  JOIN edges e ON e.from_lineage = f.cur AND e.exits AND e.from_msl >= f.at_msl AND e.to_msl <= f.to_msl
  WHERE NOT EXISTS (SELECT 1 FROM sp y WHERE y.msl = f.to_msl AND y.lineage_id = f.cur)
),
-- Backward from an arrived lineage that began by a merge or split, through the merges/splits that start
-- each lineage, until one present in a.
bwd(from_msl, to_msl, origin, cur, at_msl) AS (
  SELECT r.from_msl, r.to_msl, r.lineage_id, r.lineage_id, r.to_msl
  FROM arrived r SEMI JOIN edges e ON e.to_lineage = r.lineage_id AND e.enters
  UNION
  SELECT b.from_msl, b.to_msl, b.origin, e.from_lineage, e.from_msl
  FROM bwd b
  JOIN edges e ON e.to_lineage = b.cur AND e.enters AND e.to_msl <= b.at_msl AND e.from_msl >= b.from_msl
  WHERE NOT EXISTS (SELECT 1 FROM sp x WHERE x.msl = b.from_msl AND x.lineage_id = b.cur)
),
gone_fate AS (  -- per gone lineage that walked: how its lineage ended, and what of it is in b
  SELECT f.from_msl, f.to_msl, f.origin AS lineage_id,
         -- its exit step: several successors = split up, one = merged
         (SELECT max(e.successors) > 1 FROM edges e
          WHERE e.from_lineage = f.origin AND e.exits AND e.from_msl >= f.from_msl AND e.to_msl <= f.to_msl
            AND e.from_msl = (SELECT min(e2.from_msl) FROM edges e2 WHERE e2.from_lineage = f.origin AND e2.exits
                                AND e2.from_msl >= f.from_msl AND e2.to_msl <= f.to_msl)) AS split_up,
         (SELECT min(t.proposal) FROM edges e JOIN sp t ON t.msl = e.to_msl AND t.lineage_id = e.to_lineage
          WHERE e.from_lineage = f.origin AND e.exits AND e.from_msl >= f.from_msl AND e.to_msl <= f.to_msl) AS exit_proposal,
         coalesce(list(DISTINCT y.name ORDER BY y.name) FILTER (y.name IS NOT NULL), []) AS counterparts,
         CASE WHEN count(DISTINCT y.lineage_id) = 1 THEN max(y.lineage_id) END AS sole_counterpart
  FROM fwd f
  LEFT JOIN sp y ON y.msl = f.to_msl AND y.lineage_id = f.cur
  GROUP BY ALL
),
arrived_origin AS (  -- per arrived lineage that walked: how its lineage began, and what of a it comes from
  SELECT b.from_msl, b.to_msl, b.origin AS lineage_id,
         -- its entry step: several predecessors = formed by a merge, one = split off
         (SELECT max(e.predecessors) > 1 FROM edges e
          WHERE e.to_lineage = b.origin AND e.enters AND e.from_msl >= b.from_msl AND e.to_msl <= b.to_msl
            AND e.to_msl = (SELECT max(e2.to_msl) FROM edges e2 WHERE e2.to_lineage = b.origin AND e2.enters
                              AND e2.from_msl >= b.from_msl AND e2.to_msl <= b.to_msl)) AS merge_formed,
         coalesce(list(DISTINCT x.name ORDER BY x.name) FILTER (x.name IS NOT NULL), []) AS counterparts,
         CASE WHEN count(DISTINCT x.lineage_id) = 1 THEN max(x.lineage_id) END AS sole_counterpart
  FROM bwd b
  LEFT JOIN sp x ON x.msl = b.from_msl AND x.lineage_id = b.cur
  GROUP BY ALL
),
rows AS (
  SELECT from_msl, to_msl, 'renamed' AS change_type, lineage_id, lineage_id AS old_lineage_id, lineage_id AS new_lineage_id,
         old_name, new_name, NULL::VARCHAR[] AS counterparts, proposal
  FROM matched WHERE old_name <> new_name
  UNION ALL
  SELECT from_msl, to_msl, 'reclassified', lineage_id, lineage_id, lineage_id, old_name, new_name, NULL, proposal
  FROM matched WHERE old_above IS DISTINCT FROM new_above
  UNION ALL
  SELECT g.from_msl, g.to_msl,
         CASE WHEN coalesce(len(w.counterparts), 0) = 0 THEN 'removed' WHEN w.split_up THEN 'ended_by_split' ELSE 'merged' END,
         g.lineage_id, g.lineage_id, y.lineage_id, x.name, y.name, nullif(w.counterparts, []), w.exit_proposal
  FROM gone g
  JOIN sp x ON x.msl = g.from_msl AND x.lineage_id = g.lineage_id
  LEFT JOIN gone_fate w ON w.from_msl = g.from_msl AND w.to_msl = g.to_msl AND w.lineage_id = g.lineage_id
  LEFT JOIN sp y ON y.msl = g.to_msl AND y.lineage_id = w.sole_counterpart
  UNION ALL
  SELECT r.from_msl, r.to_msl,
         CASE WHEN coalesce(len(w.counterparts), 0) = 0 THEN 'added' WHEN w.merge_formed THEN 'formed_by_merge' ELSE 'split' END,
         r.lineage_id, x.lineage_id, r.lineage_id, x.name, y.name, nullif(w.counterparts, []), y.proposal
  FROM arrived r
  JOIN sp y ON y.msl = r.to_msl AND y.lineage_id = r.lineage_id
  LEFT JOIN arrived_origin w ON w.from_msl = r.from_msl AND w.to_msl = r.to_msl AND w.lineage_id = r.lineage_id
  LEFT JOIN sp x ON x.msl = r.from_msl AND x.lineage_id = w.sole_counterpart
)
SELECT from_msl::TINYINT AS from_msl, to_msl::TINYINT AS to_msl, change_type,
       row_number() OVER (PARTITION BY from_msl, to_msl ORDER BY change_type, coalesce(old_name, new_name), new_name, lineage_id)::INTEGER AS pos,
       row_number() OVER (PARTITION BY from_msl, to_msl, change_type ORDER BY coalesce(old_name, new_name), new_name, lineage_id)::INTEGER AS type_pos,
       lineage_id, old_lineage_id, new_lineage_id, counterparts, proposal
FROM rows
-- a pair's rows lie together, in listing order: a page is one small range of one row group
ORDER BY from_msl, to_msl, pos

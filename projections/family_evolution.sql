-- family_evolution: one row per (family, release) in which the family exists in src.taxa (named as in that
-- release), saying what happened to its species in the step from the previous release, and the family's major
-- events. Read by the family history endpoints, family_stability (churn, lifetime events) and timeline.
--
-- Counts of the step n-1 -> n (species_transition, families from src.species lineages; 0 on the first release):
--   species_prev  the family's species in n-1 (under renamed_from if the family was renamed in n; NULL if new)
--   gained        species new to the taxonomy in n placed in this family (change 'new')
--   split         species of n split off another species (change 'split')
--   moved_in      species carried on from n-1 whose family changed to this one (from no family included)
--   renamed       species renamed in n that were in this family in n-1 and still are
--   moved_out     species of the family in n-1 carried on into another family or into none
--   abolished     species of the family in n-1 abolished in n
--   merged        species of the family in n-1 merged into another species in n
--   lost          abolished + moved_out
-- so species = species_prev + gained + split + moved_in - lost - merged, except in the rare steps where a
-- merge or a split carries no predecessor's id on (13 family-steps, MSL24-39). A family renamed between n-1
-- and n (ICTV ids in src.taxon_nodes up to MSL38, the "Taxa Renamed" sheets in src.renames from MSL38 on) is
-- the same family: its species did not move.
--
-- events: LIST of STRUCT(msl_version, kind, description, species, related): species = the species concerned,
-- related = the other families involved, largest share first. An event sits on the row of the release it
-- describes, except that the end of a family (abolished; renamed, on the old name's side; split) sits on the
-- family's last row with msl_version = the first release without it (Myoviridae's last row is MSL36 and holds
-- its MSL37 abolition). Kinds:
--   created    the family name exists in n and not in n-1, and is not the new name of a renamed family (a
--              subfamily or genus promoted to family is created "by promoting" it); never on the first release
--   renamed    a family renamed between n-1 and n (on the last row of the old name and the first of the new)
--   abolished  the family exists in n-1 and not in n and was not renamed to another family (one renamed to
--              another rank, e.g. promoted to order, is abolished "becoming order X")
--   split      2+ families (itself included) each received >= 10% (and >= 2) of its n-1 species, and it
--              kept < 50% of them
--   merged     the family took >= 50% of the species of each of 2+ families of n-1 that are gone in n (its own
--              former self counts too when it kept >= 50% of its species)
--   moved_in / moved_out  a large move: >= 20 species, or >= 5 species that are >= 25% of the family (of its
--              species in n for moved_in, in n-1 for moved_out); not repeated when created/merged or
--              abolished/split already tell it
-- depends: species_transition, taxon_rename
WITH rel AS (
  SELECT msl, version, year, lag(msl) OVER (ORDER BY msl) AS prev_msl FROM src.releases
),
fam AS (
  SELECT msl, name AS family FROM src.taxa WHERE rank = 'family'
),
-- higher taxa renamed between n-1 and n, whatever their rank on either side
taxon_rename AS (
  SELECT msl, old_name, new_name FROM taxon_rename
),
-- those with a family on either side, with the ranks the names have in src.taxa; a rename only counts when
-- the old name is gone in n and the new one did not exist in n-1
rank_rename AS (
  SELECT DISTINCT r.msl, r.old_name, o.rank AS old_rank, r.new_name, n.rank AS new_rank
  FROM taxon_rename r
  JOIN rel ON rel.msl = r.msl
  JOIN src.taxa o ON o.msl = rel.prev_msl AND o.name = r.old_name
  JOIN src.taxa n ON n.msl = r.msl AND n.name = r.new_name
  WHERE 'family' IN (o.rank, n.rank)
    AND NOT EXISTS (SELECT 1 FROM src.taxa x WHERE x.msl = r.msl AND x.name = r.old_name)
    AND NOT EXISTS (SELECT 1 FROM src.taxa x WHERE x.msl = rel.prev_msl AND x.name = r.new_name)
),
family_rename AS (
  SELECT msl, old_name, new_name FROM rank_rename WHERE old_rank = 'family' AND new_rank = 'family'
),
-- every species link of step n-1 -> n with the family at each end; from_family_now is the n-1 family under
-- its name in n, so a renamed family's species compare equal
link AS (
  SELECT t.to_msl AS msl, t.change, t.from_taxnode, t.to_taxnode,
         p.family AS from_family,
         coalesce(fr.new_name, p.family) AS from_family_now,
         n.family AS to_family,
         t.change IN ('unchanged', 'renamed', 'moved', 'renamed+moved') AS continues
  FROM species_transition t
  LEFT JOIN src.species p ON p.taxnode_id = t.from_taxnode
  LEFT JOIN src.species n ON n.taxnode_id = t.to_taxnode
  LEFT JOIN family_rename fr ON fr.msl = t.to_msl AND fr.old_name = p.family
),
inflow AS (  -- keyed by the family in n
  SELECT msl, to_family AS family,
         count(DISTINCT to_taxnode) FILTER (change = 'new') AS gained,
         count(DISTINCT to_taxnode) FILTER (change = 'split') AS split,
         count(DISTINCT to_taxnode) FILTER (continues AND from_family_now IS DISTINCT FROM to_family) AS moved_in,
         count(DISTINCT to_taxnode) FILTER (continues AND from_family IS NULL) AS moved_in_unassigned,
         count(DISTINCT to_taxnode) FILTER (change IN ('renamed', 'renamed+moved') AND from_family_now = to_family) AS renamed
  FROM link
  WHERE to_family IS NOT NULL
  GROUP BY ALL
),
outflow AS (  -- keyed by the family in n-1
  SELECT msl, from_family AS family, any_value(from_family_now) AS family_now,
         count(DISTINCT from_taxnode) AS species_prev,
         count(DISTINCT from_taxnode) FILTER (change = 'abolished') AS abolished,
         count(DISTINCT from_taxnode) FILTER (change = 'merged') AS merged,
         count(DISTINCT from_taxnode) FILTER (continues AND to_family IS DISTINCT FROM from_family_now) AS moved_out,
         count(DISTINCT from_taxnode) FILTER (continues AND to_family IS NULL) AS moved_out_unassigned,
         count(DISTINCT from_taxnode) FILTER (continues AND to_family = from_family_now) AS kept
  FROM link
  WHERE from_family IS NOT NULL
  GROUP BY ALL
),
flow AS (  -- continuing species per (family in n-1, family in n), both sides known and different
  SELECT msl, from_family, from_family_now, to_family, count(*) AS species
  FROM link
  WHERE continues AND from_family IS NOT NULL AND to_family IS NOT NULL AND from_family_now <> to_family
  GROUP BY ALL
),
dest AS (  -- where a family's species went, largest first
  SELECT msl, from_family AS family,
         list(struct_pack(family := to_family, species := species) ORDER BY species DESC, to_family) AS dests
  FROM flow GROUP BY ALL
),
origin AS (  -- where a family's moved-in species came from, largest first
  SELECT msl, to_family AS family,
         list(struct_pack(family := from_family, species := species) ORDER BY species DESC, from_family) AS origins
  FROM flow GROUP BY ALL
),
size AS (
  SELECT msl, family, count(*) AS species FROM src.species WHERE family IS NOT NULL GROUP BY ALL
),
genera AS (
  SELECT msl, family, count(*) AS genera FROM src.taxa WHERE rank = 'genus' AND family IS NOT NULL GROUP BY ALL
),
fam_row AS (
  SELECT f.family, f.msl, rel.version, rel.year, rel.prev_msl, fr.old_name AS renamed_from,
         coalesce(sz.species, 0) AS species, coalesce(g.genera, 0) AS genera,
         CASE WHEN pf.family IS NOT NULL OR fr.old_name IS NOT NULL THEN coalesce(o.species_prev, 0) END AS species_prev,
         coalesce(i.gained, 0) AS gained, coalesce(i.split, 0) AS split, coalesce(i.moved_in, 0) AS moved_in,
         coalesce(i.moved_in_unassigned, 0) AS moved_in_unassigned, coalesce(i.renamed, 0) AS renamed,
         coalesce(o.moved_out, 0) AS moved_out, coalesce(o.moved_out_unassigned, 0) AS moved_out_unassigned,
         coalesce(o.abolished, 0) AS abolished, coalesce(o.merged, 0) AS merged, coalesce(o.kept, 0) AS kept,
         pf.family IS NOT NULL OR fr.old_name IS NOT NULL AS existed_before,
         og.origins, d.dests
  FROM fam f
  JOIN rel ON rel.msl = f.msl
  LEFT JOIN family_rename fr ON fr.msl = f.msl AND fr.new_name = f.family
  LEFT JOIN fam pf ON pf.msl = rel.prev_msl AND pf.family = coalesce(fr.old_name, f.family)
  LEFT JOIN size sz ON sz.msl = f.msl AND sz.family = f.family
  LEFT JOIN genera g ON g.msl = f.msl AND g.family = f.family
  LEFT JOIN inflow i ON i.msl = f.msl AND i.family = f.family
  LEFT JOIN outflow o ON o.msl = f.msl AND o.family = pf.family
  LEFT JOIN origin og ON og.msl = f.msl AND og.family = f.family
  LEFT JOIN dest d ON d.msl = f.msl AND d.family = pf.family
),
-- a family of n-1 that is gone in n, not renamed to another family
ended AS (
  SELECT pf.family, rel.prev_msl AS row_msl, rel.msl, rel.version,
         coalesce(o.species_prev, 0) AS species_prev, coalesce(o.moved_out, 0) AS moved_out,
         coalesce(o.moved_out_unassigned, 0) AS moved_out_unassigned,
         coalesce(o.abolished, 0) AS abolished, coalesce(o.merged, 0) AS merged, d.dests,
         rr.new_rank, rr.new_name
  FROM rel
  JOIN fam pf ON pf.msl = rel.prev_msl
  LEFT JOIN outflow o ON o.msl = rel.msl AND o.family = pf.family
  LEFT JOIN dest d ON d.msl = rel.msl AND d.family = pf.family
  LEFT JOIN rank_rename rr ON rr.msl = rel.msl AND rr.old_name = pf.family
  WHERE NOT EXISTS (SELECT 1 FROM fam f WHERE f.msl = rel.msl AND f.family = pf.family)
    AND NOT EXISTS (SELECT 1 FROM family_rename fr WHERE fr.msl = rel.msl AND fr.old_name = pf.family)
),
-- the families of n-1 whose species spread over 2+ families with >= 10% each, keeping < 50% themselves
split_family AS (
  SELECT o.msl, o.family, o.family_now, o.species_prev, o.kept, o.moved_out_unassigned,
         list_filter(d.dests, x -> x.species >= 2 AND x.species >= 0.1 * o.species_prev) AS big,
         len(d.dests) AS destinations,
         EXISTS (SELECT 1 FROM fam f WHERE f.msl = o.msl AND f.family = o.family_now) AS survives
  FROM outflow o JOIN dest d ON d.msl = o.msl AND d.family = o.family
  WHERE o.kept < 0.5 * o.species_prev
),
-- the families of n that took >= 50% of the species of 2+ families of n-1 that are gone in n (its own former
-- self counts when it kept >= 50% of its species)
merge_family AS (
  SELECT r.msl, r.family, list(x ORDER BY x.species DESC, x.family) AS parts
  FROM fam_row r
  JOIN (
    SELECT fl.msl, fl.to_family AS family, struct_pack(family := fl.from_family, species := fl.species, of := o.species_prev) AS x
    FROM flow fl
    JOIN outflow o ON o.msl = fl.msl AND o.family = fl.from_family
    JOIN ended e ON e.msl = fl.msl AND e.family = fl.from_family
    WHERE fl.species >= 0.5 * o.species_prev
    UNION ALL
    SELECT o.msl, o.family_now, struct_pack(family := o.family, species := o.kept, of := o.species_prev)
    FROM outflow o
    WHERE o.kept > 0 AND o.kept >= 0.5 * o.species_prev
  ) m ON m.msl = r.msl AND m.family = r.family
  GROUP BY ALL
  HAVING count(*) >= 2
),
event AS (
  SELECT r.family, r.msl AS row_msl, r.msl AS event_msl, r.version, 'created' AS kind,
         r.family || ' created in ' || r.version
           || coalesce(' by promoting ' || rr.old_rank || ' ' || rr.old_name, '')
           || ' with ' || format('{:,}', r.species) || ' species in ' || format('{:,}', r.genera)
           || CASE WHEN r.genera = 1 THEN ' genus' ELSE ' genera' END
           || coalesce(': ' || nullif(concat_ws('; ',
                CASE WHEN r.moved_in > r.moved_in_unassigned THEN
                  format('{:,}', r.moved_in - r.moved_in_unassigned) || ' moved from ' || len(r.origins) || ' famil'
                  || CASE WHEN len(r.origins) = 1 THEN 'y' ELSE 'ies' END || ' ('
                  || array_to_string(list_transform(r.origins[1:3], x -> x.family || ' ' || format('{:,}', x.species)), ', ')
                  || CASE WHEN len(r.origins) > 3 THEN ', ...' ELSE '' END || ')' END,
                CASE WHEN r.moved_in_unassigned > 0 THEN format('{:,}', r.moved_in_unassigned) || ' previously without a family' END,
                CASE WHEN r.gained > 0 THEN format('{:,}', r.gained) || ' new' END,
                CASE WHEN r.split > 0 THEN format('{:,}', r.split) || ' split off other species' END), ''), '') AS description,
         r.species, coalesce(list_transform(r.origins, x -> x.family), []) AS related
  FROM fam_row r
  LEFT JOIN rank_rename rr ON rr.msl = r.msl AND rr.new_name = r.family
  WHERE r.prev_msl IS NOT NULL AND NOT r.existed_before
  UNION ALL
  SELECT x.family, x.row_msl, fr.msl, rel.version, 'renamed',
         fr.old_name || ' renamed ' || fr.new_name || ' in ' || rel.version || ' (' || format('{:,}', coalesce(sz.species, 0)) || ' species)',
         coalesce(sz.species, 0), [CASE WHEN x.family = fr.old_name THEN fr.new_name ELSE fr.old_name END]
  FROM family_rename fr
  JOIN rel ON rel.msl = fr.msl
  LEFT JOIN size sz ON sz.msl = fr.msl AND sz.family = fr.new_name
  CROSS JOIN LATERAL (VALUES (fr.old_name, rel.prev_msl), (fr.new_name, fr.msl)) AS x(family, row_msl)
  UNION ALL
  SELECT e.family, e.row_msl, e.msl, e.version, 'abolished',
         e.family || ' abolished in ' || e.version
           || coalesce(' (became ' || e.new_rank || ' ' || e.new_name || ')', '')
           || ': of its ' || format('{:,}', e.species_prev) || ' species'
           || coalesce(', ' || nullif(concat_ws('; ',
                CASE WHEN e.moved_out > e.moved_out_unassigned THEN
                  format('{:,}', e.moved_out - e.moved_out_unassigned) || ' moved to ' || len(e.dests) || ' famil'
                  || CASE WHEN len(e.dests) = 1 THEN 'y' ELSE 'ies' END || ', largest '
                  || array_to_string(list_transform(e.dests[1:3], x -> x.family || ' (' || format('{:,}', x.species) || ')'), ', ') END,
                CASE WHEN e.moved_out_unassigned > 0 THEN format('{:,}', e.moved_out_unassigned) || ' left without a family' END,
                CASE WHEN e.abolished > 0 THEN format('{:,}', e.abolished) || ' abolished' END,
                CASE WHEN e.merged > 0 THEN format('{:,}', e.merged) || ' merged into other species' END), ''), ''),
         e.species_prev, coalesce(list_transform(e.dests, x -> x.family), [])
  FROM ended e
  UNION ALL
  SELECT CASE WHEN s.survives THEN s.family_now ELSE s.family END,
         CASE WHEN s.survives THEN s.msl ELSE rel.prev_msl END, s.msl, rel.version, 'split',
         s.family || ' split in ' || rel.version || ': of its ' || format('{:,}', s.species_prev) || ' species, '
           || array_to_string(list_transform(s.big, x -> format('{:,}', x.species) || ' went to ' || x.family
                || ' (' || format('{:.0f}', 100.0 * x.species / s.species_prev) || '%)'), ', ')
           || CASE WHEN s.destinations > len(s.big) THEN ', others to ' || (s.destinations - len(s.big)) || ' more famil'
                || CASE WHEN s.destinations - len(s.big) = 1 THEN 'y' ELSE 'ies' END ELSE '' END
           || CASE WHEN s.moved_out_unassigned > 0 THEN ', ' || format('{:,}', s.moved_out_unassigned) || ' to no family' ELSE '' END
           || CASE WHEN s.survives THEN ', ' || format('{:,}', s.kept) || ' stayed' ELSE '' END,
         s.species_prev, list_transform(s.big, x -> x.family)
  FROM split_family s JOIN rel ON rel.msl = s.msl
  WHERE len(s.big) + CASE WHEN s.survives AND s.kept >= 2 AND s.kept >= 0.1 * s.species_prev THEN 1 ELSE 0 END >= 2
  UNION ALL
  SELECT m.family, m.msl, m.msl, r.version, 'merged',
         array_to_string(list_transform(m.parts, x -> x.family || ' (' || format('{:,}', x.species) || ' of ' || format('{:,}', x.of) || ' species)'), ', ')
           || ' merged into ' || m.family || ' in ' || r.version,
         list_sum(list_transform(m.parts, x -> x.species)), list_filter(list_transform(m.parts, x -> x.family), x -> x <> m.family)
  FROM merge_family m JOIN fam_row r ON r.msl = m.msl AND r.family = m.family
  UNION ALL
  SELECT r.family, r.msl, r.msl, r.version, 'moved_in',
         r.family || ' received ' || format('{:,}', r.moved_in) || ' moved species in ' || r.version || ': '
           || concat_ws('; ',
                CASE WHEN r.origins IS NOT NULL THEN
                  format('{:,}', r.moved_in - r.moved_in_unassigned) || ' from ' || len(r.origins) || ' famil'
                  || CASE WHEN len(r.origins) = 1 THEN 'y' ELSE 'ies' END || ' ('
                  || array_to_string(list_transform(r.origins[1:3], x -> x.family || ' ' || format('{:,}', x.species)), ', ')
                  || CASE WHEN len(r.origins) > 3 THEN ', ...' ELSE '' END || ')' END,
                CASE WHEN r.moved_in_unassigned > 0 THEN format('{:,}', r.moved_in_unassigned) || ' previously without a family' END,
                'now ' || format('{:,}', r.species) || ' species'),
         r.moved_in, coalesce(list_transform(r.origins, x -> x.family), [])
  FROM fam_row r
  WHERE r.existed_before
    AND (r.moved_in >= 20 OR (r.moved_in >= 5 AND r.moved_in >= 0.25 * r.species))
    AND NOT EXISTS (SELECT 1 FROM merge_family m WHERE m.msl = r.msl AND m.family = r.family)
  UNION ALL
  SELECT r.family, r.msl, r.msl, r.version, 'moved_out',
         r.family || ' lost ' || format('{:,}', r.moved_out) || ' of its ' || format('{:,}', r.species_prev) || ' species to other families in ' || r.version
           || coalesce(': ' || array_to_string(list_transform(r.dests[1:3], x -> x.family || ' ' || format('{:,}', x.species)), ', ')
                || CASE WHEN len(r.dests) > 3 THEN ', ...' ELSE '' END, '')
           || CASE WHEN r.moved_out_unassigned > 0 THEN CASE WHEN r.dests IS NULL THEN ': ' ELSE ', ' END
                || format('{:,}', r.moved_out_unassigned) || ' to no family' ELSE '' END,
         r.moved_out, coalesce(list_transform(r.dests, x -> x.family), [])
  FROM fam_row r
  WHERE r.existed_before
    AND (r.moved_out >= 20 OR (r.moved_out >= 5 AND r.moved_out >= 0.25 * r.species_prev))
    AND NOT EXISTS (SELECT 1 FROM split_family s WHERE s.msl = r.msl AND s.family_now = r.family AND s.survives
                      AND len(s.big) + CASE WHEN s.kept >= 2 AND s.kept >= 0.1 * s.species_prev THEN 1 ELSE 0 END >= 2)
),
events AS (
  SELECT family, row_msl AS msl,
         list(struct_pack(msl_version := version, kind := kind, description := description, species := species, related := related)
              ORDER BY event_msl, list_position(['renamed', 'created', 'merged', 'moved_in', 'moved_out', 'split', 'abolished'], kind)) AS events
  FROM event
  GROUP BY ALL
)
SELECT r.family, r.msl, r.version, r.year, r.renamed_from,
       r.species, r.genera, r.species_prev, r.species - r.species_prev AS species_delta,
       r.gained, r.abolished + r.moved_out AS lost, r.renamed, r.moved_in, r.moved_out,
       r.abolished, r.merged, r.split,
       coalesce(e.events, []) AS events
FROM fam_row r
LEFT JOIN events e ON e.family = r.family AND e.msl = r.msl
ORDER BY r.family, r.msl  -- a family's history is read in order

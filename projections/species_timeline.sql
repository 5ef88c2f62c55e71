-- species_timeline: one row per (lineage_id, release) in which the lineage has a species: its name and
-- placement there and the change that brought it into that release. Read by GET /api/v1/history/:name and
-- GET /historical/species/:name/history (all rows of one lineage, by msl).
-- change, seen from the lineage (species_identity) so that a history and release_diff tell the same story:
--   unchanged | renamed | moved | renamed+moved   the lineage had a species in the previous release too;
--                      the same rule as species_transition (moved: the lineage above species changed)
--   new                first appearance, linked to nothing in the previous release
--   split              first appearance, split off from_names[1]
--   merged             first appearance, formed by merging from_names, none of which it carries on
--   NULL               first appearance in the first release of the data set: there is no previous
--                      release to compare with, so whether it was new then is not known here
-- This is species_transition's change into the species except where ICTV kept the id of a merged or split
-- species (Lagovirus europaeus, Polerovirus CLDV, Amdoparvovirus carnivoran1 in MSL39): there the lineage
-- carries on, so its change is the rename/move, and the merge or split shows in merged_in / split_off.
-- from_names: the species of the previous release linked into this one (its previous name, the species
-- merged into it, the species it was split from), by name; empty when none. Species are joined by taxnode
-- id (a name may stand for two species of one release, see species_link).
-- merged_in / split_off: other species merged into the lineage, or split off it, in this step while the
-- lineage carried on (split_off names species of this release).
-- proposal: ICTV's proposal of the species' last change as listed in that release (none before MSL29).
-- taxnode_id: the species' node in that release (ICTV's taxon pages are keyed by it).
-- depends: species_identity, species_link
WITH steps AS (  -- the release before each release
  SELECT msl, lag(msl) OVER (ORDER BY msl) AS prev_msl FROM src.releases
),
sp AS (
  SELECT i.lineage_id, s.*,
         [s.realm, s.subrealm, s.kingdom, s.subkingdom, s.phylum, s.subphylum, s.class, s.subclass,
          s."order", s.suborder, s.family, s.subfamily, s.genus, s.subgenus] AS above
  FROM src.species s JOIN species_identity i ON i.taxnode_id = s.taxnode_id
),
incoming AS (  -- the links into each species, with the lineages they come from
  SELECT k.to_taxnode AS taxnode_id,
         list(k.from_name ORDER BY k.from_name) AS from_names,
         max(k.predecessors) AS predecessors,
         list(k.from_name ORDER BY k.from_name) FILTER (f.lineage_id <> t.lineage_id) AS other_lineages
  FROM species_link k
  JOIN species_identity f ON f.taxnode_id = k.from_taxnode
  JOIN species_identity t ON t.taxnode_id = k.to_taxnode
  GROUP BY ALL
),
split_off AS (  -- species of a release split off a lineage's previous species, other lineages than its own
  SELECT k.to_msl AS msl, f.lineage_id, list(k.to_name ORDER BY k.to_name) AS names
  FROM species_link k
  JOIN species_identity f ON f.taxnode_id = k.from_taxnode
  JOIN species_identity t ON t.taxnode_id = k.to_taxnode
  WHERE t.lineage_id <> f.lineage_id AND k.successors > 1
  GROUP BY ALL
)
SELECT s.lineage_id, s.msl::INTEGER AS msl, r.version, s.taxnode_id, s.species AS name, s.family, s.genus,
       concat_ws(';', s.realm, s.subrealm, s.kingdom, s.subkingdom, s.phylum, s.subphylum, s.class, s.subclass,
                 s."order", s.suborder, s.family, s.subfamily, s.genus, s.subgenus, s.species) AS full_lineage,
       CASE
         WHEN p.species IS NOT NULL THEN
           CASE WHEN p.species <> s.species AND p.above <> s.above THEN 'renamed+moved'
                WHEN p.species <> s.species THEN 'renamed'
                WHEN p.above <> s.above THEN 'moved'
                ELSE 'unchanged' END
         WHEN st.prev_msl IS NULL THEN NULL
         WHEN t.taxnode_id IS NULL THEN 'new'
         WHEN t.predecessors > 1 THEN 'merged'
         ELSE 'split'
       END AS change,
       coalesce(t.from_names, []) AS from_names,
       CASE WHEN p.species IS NOT NULL THEN coalesce(t.other_lineages, []) ELSE [] END AS merged_in,
       CASE WHEN p.species IS NOT NULL THEN coalesce(o.names, []) ELSE [] END AS split_off,
       s.proposal
FROM sp s
JOIN src.releases r ON r.msl = s.msl
JOIN steps st ON st.msl = s.msl
LEFT JOIN sp p ON p.msl = st.prev_msl AND p.lineage_id = s.lineage_id  -- the lineage's previous species
LEFT JOIN incoming t ON t.taxnode_id = s.taxnode_id
LEFT JOIN split_off o ON o.msl = s.msl AND o.lineage_id = s.lineage_id
ORDER BY s.lineage_id, s.msl  -- a history is one lineage's rows, read together

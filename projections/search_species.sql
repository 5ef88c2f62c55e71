-- search_species: one row per (release, species): what the /search endpoints filter, rank and show, with the
-- filter keys lower-cased ahead so family names match in any letter case. Read by POST /search/species,
-- /search/faceted and /search/advanced (one bound query each) and by search_facets, search_statistics and
-- search_family_summary.
--   genome_composition, host_source, hosts   as species_doc shows them (species_genome): the MSL column from
--                  MSL29 on and the VMR exemplar's host source from MSL37 on, carried along the lineage to the
--                  releases that lack them; host_source is the VMR text ("invertebrates,vertebrates"), hosts
--                  its parts, host_keys the parts lower-cased without the "(S)" that marks a source environment
--   lineage_*      the species' lineage (species_identity): its releases, first and last, how it ended and its
--                  name in the latest release (null when it ended earlier)
--   last_change_msl / last_change   the latest release up to this one in which the lineage changed (new,
--                  split, merged, renamed, moved; its first release counts as a change), from species_timeline
-- depends: species_identity, species_genome, species_timeline, lineage_summary
WITH change AS (
  SELECT t.lineage_id, t.msl, coalesce(t.change, 'new') AS change  -- first release: first seen there
  FROM species_timeline t
  WHERE coalesce(t.change, 'new') <> 'unchanged'
),
msls AS (
  SELECT lineage_id, list(DISTINCT msl ORDER BY msl) AS msls FROM species_identity GROUP BY lineage_id
)
SELECT s.msl, r.version, s.sort, s.species, lower(s.species) AS name_key,
       si.lineage_id,
       s.realm, lower(s.realm) AS realm_key,
       s."order", s.family, lower(s.family) AS family_key, s.subfamily,
       s.genus, lower(s.genus) AS genus_key, s.subgenus,
       g.genome_composition, lower(g.genome_composition) AS genome_composition_key,
       g.host_source, lower(g.host_source) AS host_source_key,
       coalesce(g.hosts, []::VARCHAR[]) AS hosts,
       list_transform(coalesce(g.hosts, []::VARCHAR[]), h -> lower(trim(regexp_replace(h, '\(S\)$', '')))) AS host_keys,
       l.first_msl AS lineage_first_msl,
       l.last_msl AS lineage_last_msl,
       m.msls AS lineage_msls,
       s.msl = l.last_msl AS is_lineage_last,
       l.ended AS lineage_ended,
       l.current_name,
       c.msl AS last_change_msl,
       c.change AS last_change
FROM src.species s
JOIN src.releases r ON r.msl = s.msl
JOIN species_identity si ON si.taxnode_id = s.taxnode_id
JOIN species_genome g ON g.taxnode_id = s.taxnode_id
JOIN lineage_summary l ON l.lineage_id = si.lineage_id
JOIN msls m ON m.lineage_id = si.lineage_id
LEFT JOIN LATERAL (
  SELECT arg_max(x.msl, x.msl) AS msl, arg_max(x.change, x.msl) AS change
  FROM change x WHERE x.lineage_id = si.lineage_id AND x.msl <= s.msl
) c ON true
ORDER BY s.msl, s.family, s.genus, s.species              -- filters read one release, often one family

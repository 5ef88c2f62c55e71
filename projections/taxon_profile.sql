-- taxon_profile: one row per folded name of a taxon above species (taxon_counts.name_norm, every release): what
-- the name denotes and how big it was in each release, as one JSON document, so the /ai question parser can
-- recognise "Coronaviridae", "coronaviridae" or "Riboviria" in a question and answer its counts with a key read
-- held in memory (src/ai/parse.ts, src/ai/answer.ts).
--   doc  a JSON array, one entry per (rank, name) sharing the folded name (Mandarivirus was a genus, then a
--        subgenus), the most recently used first:
--        {rank, name, first_msl, last_msl, parents: [{rank, name}] (realm first, as in its last release),
--         counts: [{msl, species, genera, families, orders}] (one per release it is in, oldest first)}
-- depends: taxon_counts
WITH entry AS (
  SELECT name_norm, rank, name, max(msl) AS last_msl,
         json_object('rank', rank, 'name', name, 'first_msl', min(msl), 'last_msl', max(msl),
                     'parents', arg_max(parents, msl),
                     'counts', list(json_object('msl', msl, 'species', species, 'genera', genera,
                                                'families', families, 'orders', orders) ORDER BY msl)) AS doc
  FROM taxon_counts
  WHERE name_norm <> ''                                       -- nothing left to match on
  GROUP BY name_norm, rank, name
)
SELECT name_norm, to_json(list(doc ORDER BY last_msl DESC, rank))::VARCHAR AS doc
FROM entry
GROUP BY name_norm
ORDER BY name_norm

-- release_list_doc: one row (key 'all'): every release's release_doc, oldest first, and the cross-release
-- source files (src.inputs rows with no msl: ICTV's vocabularies, merge/split history, release list and the
-- genome-length enrichments, read for all releases), as one document. Read by GET /historical/releases.
-- depends: release_doc
SELECT 'all' AS key,
       json_object(
         'total_releases', (SELECT count(*) FROM release_doc),
         'first_version', (SELECT min_by(version, msl) FROM release_doc),
         'latest_version', (SELECT max_by(version, msl) FROM release_doc),
         'releases', (SELECT coalesce(list(doc::JSON ORDER BY msl), []) FROM release_doc),
         'cross_release_sources', (
           SELECT coalesce(list(json_object('role', role, 'file', file, 'sha256', sha256, 'bytes', bytes,
                                            'repository', repository, 'commit', "commit", 'path', path, 'url', url)
                                ORDER BY role, file), [])
           FROM src.inputs WHERE msl IS NULL)
       )::VARCHAR AS doc

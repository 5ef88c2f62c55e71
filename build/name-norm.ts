// The one normal form names are matched on, as a SQL macro: case, accents, punctuation and spaces ignored
// ("SARS-CoV-2" -> "sarscov2", "Taï Forest ebolavirus" -> "taiforestebolavirus"). Both stages define it: the
// ingest to join spreadsheet rows to tree species, the project stage in the published database, where every
// read model and the server's queries call it. src/read/names.ts has the same function in TypeScript;
// test/read-layer.test.ts checks the two agree on every name in the data.
export const NAME_NORM_MACRO = `CREATE OR REPLACE MACRO name_norm(s) AS regexp_replace(lower(strip_accents(s)), '[^a-z0-9]+', '', 'g')`;

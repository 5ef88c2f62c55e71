// npm run bench:resolver: how much of what users hold resolves, measured on the latest VMR. For every isolate
// row, each of its GenBank and RefSeq accessions, NCBI taxids, virus names and abbreviations is resolved to the
// latest release (resolveMany, as POST /api/v1/resolve does) and compared with the row's own species. Reports,
// per kind of input, the share of rows whose every value of that kind leads to exactly their species, to
// several species one of which is theirs (a name or accession shared by isolates of several species), to
// other species only, or to nothing; and the time the resolver took.
import { join } from 'node:path';
import { DB_FILE, DOC_SNAPSHOT_FILE } from '../src/store/files.js';
import { defaultPaths } from '../build/paths.js';
import { openStore } from '../src/read/documents.js';
import { latest } from '../src/read/releases.js';
import { resolveMany, type Resolution } from '../src/read/resolve.js';
import { Figures, writeMeasurement } from './measurement.js';

type Kind = 'accession' | 'taxid' | 'virus_name' | 'abbreviation';
type Outcome = 'exact' | 'among' | 'other' | 'unknown';

async function main(): Promise<void> {
  const { dataDir } = defaultPaths();
  const store = await openStore(join(dataDir, DB_FILE), 2, join(dataDir, DOC_SNAPSHOT_FILE));
  try {
    const v = latest(store);
    // the same splitting of cells as the read models (identifier_index, name_index)
    const rows = await store.query<{ row: number; species: string; values: Array<{ kind: Kind; value: string }> }>(`
      SELECT i.row, g.species,
             list_filter(
               list_transform(regexp_extract_all(upper(coalesce(i.genbank, '') || ';' || coalesce(i.refseq, '')), '\\b[A-Z]{1,6}_?[0-9]{5,9}\\b'),
                              x -> {'kind': 'accession', 'value': x})
               || list_transform(regexp_extract_all(coalesce(i.refseq_taxids, ''), '[0-9]+'), x -> {'kind': 'taxid', 'value': x})
               || list_transform(CASE WHEN i.virus_names LIKE 'MAG:%' THEN [i.virus_names] ELSE string_split(coalesce(i.virus_names, ''), ';') END,
                                 x -> {'kind': 'virus_name', 'value': trim(x)})
               || list_transform(string_split_regex(coalesce(i.abbreviations, ''), '[;,]'), x -> {'kind': 'abbreviation', 'value': trim(x)}),
               x -> x.value <> '') AS values
      FROM src.isolates i JOIN main.species_genome g ON g.msl = i.msl AND g.vmr_species = i.species
      WHERE i.msl = $1`, [v.msl]);
    const inputs = [...new Set(rows.flatMap((r) => r.values.map((x) => x.value)))];
    const t0 = performance.now();
    const resolved = await resolveMany(store, inputs, null, v);
    const seconds = (performance.now() - t0) / 1000;
    const byInput = new Map<string, Resolution>(inputs.map((x, i) => [x, resolved[i]!]));
    const outcomeOf = (value: string, species: string): Outcome => {
      const r = byInput.get(value)!;
      if (r.results.length === 0) return 'unknown';
      if (!r.results.includes(species)) return 'other';
      return r.results.length === 1 ? 'exact' : 'among';
    };
    const worst = (os: Outcome[]): Outcome => (['unknown', 'other', 'among', 'exact'] as const).find((o) => os.includes(o))!;
    const kinds: Kind[] = ['accession', 'taxid', 'virus_name', 'abbreviation'];
    const out = new Figures();
    out.log(`latest VMR (${v.version}): ${rows.length.toLocaleString('en')} isolate rows, ${inputs.length.toLocaleString('en')} distinct inputs resolved in ${seconds.toFixed(1)} s`, '',
      '| input | rows with one | exactly their species | their species among others | other species only | nothing |',
      '|---|---|---|---|---|---|');
    const pct = (x: number, n: number) => `${((100 * x) / n).toFixed(2)}%`;
    const line = (label: string, outcomes: Outcome[]) => {
      const n = outcomes.length;
      const count = (o: Outcome) => outcomes.filter((x) => x === o).length;
      out.log(`| ${label} | ${n.toLocaleString('en')} | ${pct(count('exact'), n)} | ${pct(count('among'), n)} | ${pct(count('other'), n)} | ${pct(count('unknown'), n)} |`);
    };
    for (const kind of kinds) {
      line(kind, rows.filter((r) => r.values.some((x) => x.kind === kind))
        .map((r) => worst(r.values.filter((x) => x.kind === kind).map((x) => outcomeOf(x.value, r.species)))));
    }
    line('every value of the row', rows.map((r) => worst(r.values.map((x) => outcomeOf(x.value, r.species)))));
    const bad = rows.flatMap((r) => r.values.filter((x) => ['other', 'unknown'].includes(outcomeOf(x.value, r.species))).map((x) => `${x.kind} '${x.value}' (${r.species}) -> ${byInput.get(x.value)!.results.join('; ') || byInput.get(x.value)!.status}`));
    if (bad.length > 0) out.log('', `first of ${bad.length} values that miss their species:`, '', ...bad.slice(0, 12).map((b) => `- ${b}`));
    writeMeasurement({ file: 'resolver.md', title: 'Resolution of the latest VMR\'s identifiers and names', command: 'npm run bench:resolver', body: out.text() });
  } finally {
    await store.close();
  }
}

await main();

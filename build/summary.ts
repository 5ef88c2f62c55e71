// The build's summary, data/build-report.txt, printed at the end of `npm run build`: what was built and how
// long each stage took, the counts of every release against ICTV's with a legend for each table, and every
// warning the readers raised. The full figures are in build-report.json.
import type { BuildReport } from './index.js';
import { seconds } from './progress.js';

const pct = (x: number) => `${(x * 100).toFixed(2)}%`;

export function summary(r: BuildReport): string {
  const warnings = [
    ...r.warnings.map((w) => `  ${w}`),
    ...r.releases.flatMap((x) => x.warnings.map((w) => `  ${x.version}: ${w}`)),
  ];
  const lines = [
    `build ${r.build_id}, started ${r.started_at}, in ${seconds(r.duration_ms)} (${Object.entries(r.stages)
      .map(([k, v]) => `${k} ${seconds(v.ms)}${v.skipped ? ' skipped' : ''}`).join(', ')})`,
    `parquet: ${r.parquet.files} files, ${(r.parquet.bytes / 1e6).toFixed(1)} MB; database ${(r.database.bytes / 1e6).toFixed(1)} MB${
      r.documents ? `; documents ${(r.documents.bytes / 1e6).toFixed(1)} MB` : ''}`,
    '',
    'release  species  genera  families  orders  realms  join rate  ictv ids  against ICTV',
    ...r.releases.map((x) => [
      x.version.padEnd(8), String(x.counts.species ?? 0).padStart(7), String(x.counts.genus ?? 0).padStart(7),
      String(x.counts.family ?? 0).padStart(9), String(x.counts.order ?? 0).padStart(7), String(x.counts.realm ?? 0).padStart(7),
      (x.attribute_join ? pct(x.attribute_join.rate) : 'n/a').padStart(10),
      `${(x.ictv_id_coverage * 100).toFixed(1)}%`.padStart(9),
      ` ${!x.counts_match ? 'COUNTS DIFFER' : x.count_differences.length > 0 ? `equal once explained (${x.count_differences.map((d) => d.rank).join(', ')})` : 'equal'}`,
    ].join(' ')),
    'legend: species .. realms: taxa of that rank in the release as the data holds them;',
    '  join rate: share of the species of a tree export given the spreadsheet\'s attributes (by taxnode id,',
    '  exact or normalised name; n/a: the release is read from one file);',
    '  ictv ids: share of species with an ICTV id;',
    '  against ICTV: the counts of realm, order, family, genus and species next to ICTV\'s own (equal;',
    '  equal once explained: a difference the tree export itself accounts for, listed below; COUNTS DIFFER',
    '  fails the build)',
    '',
    'where the data cannot reproduce ICTV\'s count:',
    ...r.releases.flatMap((x) => x.count_differences.map((d) =>
      `  ${x.version} ${d.rank}: ${d.ours} in the data, ICTV ${d.official}; ${d.reasons.join('; ')}`)),
    'names that stand for several taxa of one rank (each a taxon of its own, counted as ICTV counts them):',
    ...r.releases.flatMap((x) => x.shared_names.map((n) => `  ${x.version} ${n.rank} '${n.name}': ${n.taxa} taxa (${n.where})`)),
    '',
    'step          linked forward  abolished   |  release  ICTV Last Change agreement (with higher-taxon renames explained)',
    ...r.checks.identity_coverage.map((c) => {
      const a = r.checks.last_change_agreement.find((x) => x.version === c.to_version);
      return [
        `${c.from_version}->${c.to_version.slice(3)}`.padEnd(12),
        pct(c.coverage).padStart(15), String(c.abolished).padStart(10), '  | ',
        c.to_version.padEnd(8),
        a ? `${pct(a.rate)} of ${a.checked} (${pct(a.rate_with_explained)})` : 'n/a',
      ].join(' ');
    }),
    'legend: linked forward: share of the step\'s first-release species that continue as, or went into,',
    '  species of the next (same taxon, renamed, moved, merged, split);',
    '  abolished: species that ended with no successor;',
    '  ICTV Last Change agreement: share of the species ICTV\'s own "Last Change" column names in that',
    '  release whose change there agrees with the data\'s transition, of how many (n/a: no such column),',
    '  and in brackets once a rename of a taxon above the species counts as agreeing',
    '',
    'steps that link less than 95% of their species forward, as the data shows them:',
    ...r.checks.identity_coverage.filter((c) => c.coverage < 0.95).map((c) =>
      `  ${c.from_version}->${c.to_version}: ${Object.entries(c.changes).sort((x, y) => y[1] - x[1]).map(([k, n]) => `${n} ${k}`).join(', ')}; `
      + `most abolished in ${c.abolished_by_family.slice(0, 5).map((f) => `${f.family ?? 'no family'} (${f.abolished} of ${f.species})`).join(', ')}`),
    '',
    'species changes as ICTV counts them (Taxon Counts) and as the data set does (official_tally), every',
    'difference species by species:',
    ...r.checks.official_changes.flatMap((o) => [
      `  ${o.previous}->${o.version} (${o.source}): ${o.tallies.filter((t) => t.ictv !== 0 || t.ours !== 0)
        .map((t) => `${t.change} ${t.ictv}${t.ours === t.ictv ? ' (equal)' : ` / ours ${t.ours}`}`).join(', ')}`,
      ...o.tallies.filter((t) => t.ours !== t.ictv).flatMap((t) => [
        `    ${t.change}: ICTV ${t.ictv}, ours ${t.ours} (${t.ours_counts})${t.note ? `: ${t.note}` : ''}`,
        ...t.differences.map((d) => `      ${d.species}: ${d.note}`),
      ]),
    ]),
    '',
    `warnings: ${warnings.length === 0 ? 'none' : `${warnings.length} (also in build-report.json)`}`,
    ...warnings,
  ];
  return `${lines.join('\n')}\n`;
}

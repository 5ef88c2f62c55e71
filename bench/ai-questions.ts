// The questions npm run bench sends to POST /ai/query: the same on every run of the same build (seeded), drawn
// from the data set, so the mix follows the record as it grows. Names of every era (a species name of each
// release in turn, and virus names and abbreviations of the VMR) in the forms people write most ("what is X
// called now?", "which family is X in?", "history of X", "what was X called in <year>?"), and releases named
// the ways papers name them ("MSL30", "2015", "MSL30 (2015)", "the 12th release").
import { random } from '../test/support/misspellings.js';

export interface MixSource {
  /** Species names with the release they are listed in, from every release. */
  species: Array<{ name: string; msl: number; year: number }>;
  /** VMR virus names and abbreviations of the latest release. */
  viruses: string[];
  releases: Array<{ msl: number; year: number; label: string }>;
}

/** DuckDB over the database: the species names of each release (a few hundred each), and the latest VMR names. */
export const MIX_SQL = {
  species: `SELECT species AS name, s.msl::INTEGER AS msl, r.year::INTEGER AS year FROM src.species s JOIN src.releases r ON r.msl = s.msl
    QUALIFY row_number() OVER (PARTITION BY s.msl ORDER BY hash(species)) <= 200 ORDER BY s.msl, species`,
  viruses: `SELECT DISTINCT trim(v) AS name FROM (
      SELECT unnest(string_split(virus_names, ';')) AS v FROM src.isolates WHERE msl = (SELECT max(msl) FROM src.releases)
      UNION ALL SELECT unnest(string_split(abbreviations, ';')) FROM src.isolates WHERE msl = (SELECT max(msl) FROM src.releases))
    WHERE length(trim(v)) BETWEEN 3 AND 40 ORDER BY 1`,
  releases: 'SELECT msl::INTEGER AS msl, year::INTEGER AS year, label FROM src.releases ORDER BY msl',
};

const ORDINAL = (n: number) => `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;

/** n distinct questions: most about a name of some era, some about a release. */
export function aiQuestions(src: MixSource, n: number, seed: number): string[] {
  const rnd = random(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const soleYear = (y: number) => src.releases.filter((r) => r.year === y).length === 1;
  const releaseWords = (r: MixSource['releases'][number]) => pick([`MSL${r.msl}`, soleYear(r.year) ? String(r.year) : r.label,
    `MSL${r.msl} (${r.label})`, `the ${ORDINAL(r.msl)} release`]);
  const forms: Array<() => string> = [
    () => `what is ${pick(src.species).name} called now?`,
    () => `which family is ${pick(src.species).name} in?`,
    () => `history of ${pick(src.species).name}`,
    () => { const s = pick(src.species); return `what was ${s.name} called in ${s.year}?`; },
    () => `which family is ${pick(src.viruses)} in?`,
    () => `what is ${pick(src.viruses)} called now?`,
    () => `how many species were in ${releaseWords(pick(src.releases))}?`,
    () => `how many genera were listed in ${releaseWords(pick(src.releases))}?`,
  ];
  const out = new Set<string>();
  for (let tries = 0; out.size < n && tries < n * 20; tries++) out.add(forms[out.size % forms.length]!());
  return [...out];
}

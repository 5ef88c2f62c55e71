// npm run bench:suggestions: how well "did you mean" (src/read/suggest.ts) finds the name meant, measured on
// misspellings generated from real names, and how the resolver treats them. Writes the figures the threshold
// (MIN_SCORE) was chosen by to docs/measurements/suggestions.md:
//   1,000 misspellings: a random name of name_index (species, higher taxon or VMR virus name; abbreviations
//   are too short to misspell recognisably) with one or two random edits (substitute, delete, insert a
//   letter, swap two neighbours), skipping any that is itself a known name in some spelling;
//   1,000 controls: real names with their letters shuffled, which are misspellings of nothing.
// For each threshold: recall (the first suggestion is the name meant), precision (of first suggestions
// offered, the share that are the name meant) and how often a control gets a suggestion at all.
import { join } from 'node:path';
import { DB_FILE, DOC_SNAPSHOT_FILE } from '../src/store/files.js';
import { defaultPaths } from '../build/paths.js';
import { openStore } from '../src/read/documents.js';
import { lookupName, normaliseName } from '../src/read/names.js';
import { latest } from '../src/read/releases.js';
import { resolveMany } from '../src/read/resolve.js';
import { MIN_SCORE, suggest, type Suggestion } from '../src/read/suggest.js';
import type { Store } from '../src/store/store.js';
import { Figures, writeMeasurement } from './measurement.js';
import { misspell, random, shuffle } from '../test/support/misspellings.js';

const N = Number(process.env.SUGGEST_N ?? 1000);

interface Case { text: string; meant: string | null }

/** Whether a suggested name denotes the taxon the misspelt name did. */
function denotes(store: Store, suggestion: Suggestion, meant: string): boolean {
  const wanted = new Set(lookupName(store, meant).map((h) => `${h.kind === 'taxon'}:${h.lineage_id}`));
  return lookupName(store, suggestion.name).some((h) => wanted.has(`${h.kind === 'taxon'}:${h.lineage_id}`));
}

async function main(): Promise<void> {
  const { dataDir } = defaultPaths();
  const store = await openStore(join(dataDir, DB_FILE), 2, join(dataDir, DOC_SNAPSHOT_FILE));
  try {
    const names = (await store.query<{ name: string }>(`
      SELECT name FROM main.name_index WHERE kind IN ('species', 'taxon', 'virus_name') AND name_len >= 6 ORDER BY name, lineage_id`)).map((r) => r.name);
    const rnd = random(20261124);
    const typos: Case[] = [];
    const controls: Case[] = [];
    while (typos.length < N) {
      const meant = names[Math.floor(rnd() * names.length)]!;
      const text = misspell(meant, 1 + Math.floor(rnd() * 2), rnd);
      if (normaliseName(text).length < 3 || lookupName(store, text).length > 0) continue;
      typos.push({ text, meant });
    }
    while (controls.length < N) {
      const text = shuffle(names[Math.floor(rnd() * names.length)]!, rnd);
      if (lookupName(store, text).length > 0) continue;
      controls.push({ text, meant: null });
    }
    const floor = 0.5;
    const t0 = performance.now();
    const typoHits = await suggest(store, typos.map((c) => c.text), floor);
    const controlHits = await suggest(store, controls.map((c) => c.text), floor);
    const ms = performance.now() - t0;
    const top = (hits: Map<string, Suggestion[]>, c: Case) => hits.get(normaliseName(c.text))?.[0];
    const out = new Figures();
    out.log(`${N} misspellings (1 or 2 edits) and ${N} shuffled controls; suggestions for all ${2 * N} in ${(ms / 1000).toFixed(1)} s`, '',
      '| least similarity | recall (first suggestion right) | precision (first suggestion right, of offered) | right among first 3 | controls offered a suggestion |',
      '|---|---|---|---|---|');
    for (const t of [0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9]) {
      let offered = 0, right = 0, inTop3 = 0;
      for (const c of typos) {
        const list = (typoHits.get(normaliseName(c.text)) ?? []).filter((s) => s.score >= t);
        if (list.length === 0) continue;
        offered += 1;
        if (denotes(store, list[0]!, c.meant!)) right += 1;
        if (list.some((s) => denotes(store, s, c.meant!))) inTop3 += 1;
      }
      const noise = controls.filter((c) => (top(controlHits, c)?.score ?? 0) >= t).length;
      const pct = (x: number, n: number) => `${((100 * x) / n).toFixed(1)}%`;
      out.log(`| ${t}${t === MIN_SCORE ? ' (used)' : ''} | ${pct(right, N)} | ${pct(right, offered)} | ${pct(inTop3, N)} | ${pct(noise, N)} |`);
    }
    // the resolver itself: a misspelling is never answered as if it were the name meant (or any other)
    const resolved = await resolveMany(store, typos.map((c) => c.text), null, latest(store));
    const confident = resolved.filter((r) => r.status !== 'unknown');
    const firstRight = resolved.filter((r, i) => r.suggestions[0] !== undefined && denotes(store, { name: r.suggestions[0] } as Suggestion, typos[i]!.meant!)).length;
    out.log('', `resolver on the ${N} misspellings: first suggestion right ${firstRight} (${((100 * firstRight) / N).toFixed(1)}%), `
      + `answered as a known name ${confident.length}${confident.length ? ` (${confident.slice(0, 5).map((r) => `${r.name} -> ${r.results.join('; ')}`).join(', ')})` : ''}`);
    writeMeasurement({
      file: 'suggestions.md', title: '"Did you mean": generated misspellings of real names', command: 'npm run bench:suggestions',
      settings: { SUGGEST_N: N }, body: out.text(),
    });
  } finally {
    await store.close();
  }
}

await main();

// "Did you mean" from memory (src/read/name-matcher.ts) against DuckDB computing the same definition over
// every candidate pair, on the real name index: misspellings of real names (a letter changed, dropped,
// doubled or swapped), names shortened or lengthened, and strings that are no name at all.
import { expect } from 'chai';
import { join } from 'node:path';
import { random } from './support/misspellings.js';
import { DB_FILE } from '../src/store/files.js';
import { defaultPaths } from '../build/paths.js';
import { openStore } from '../src/read/documents.js';
import { MIN_SCORE, similaritySql, suggest } from '../src/read/suggest.js';
import type { Store } from '../src/store/store.js';
import { realBuild } from './support/data.js';

/** The definition as SQL: every name within 2 characters of the input's length sharing its first or last letter. */
const ORACLE = `
  WITH q AS (SELECT q, length(q) AS len FROM (SELECT unnest($1::VARCHAR[]) AS q)),
  scored AS (
    SELECT q.q, n.name, n.kind, n.last_msl, n.lineage_id, ${similaritySql('n.name_norm', 'q.q')} AS score
    FROM q JOIN main.name_index n ON n.name_len BETWEEN q.len - 2 AND q.len + 2
      AND (n.name_norm[1] = q.q[1] OR n.name_norm[-1] = q.q[-1])
  ),
  best AS (
    SELECT * FROM scored WHERE score >= $2
    QUALIFY row_number() OVER (PARTITION BY q, name ORDER BY kind IN ('species', 'taxon') DESC, last_msl DESC, lineage_id) = 1
  )
  SELECT q, list(struct_pack(name := name, score := round(score, 3))
                 ORDER BY score DESC, kind IN ('species', 'taxon') DESC, last_msl DESC, name)[1:3] AS hits
  FROM best GROUP BY q`;

function variants(names: string[], rnd: () => number, n: number): string[] {
  const letter = () => 'abcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(rnd() * 36)]!;
  const out: string[] = [];
  while (out.length < n) {
    const s = names[Math.floor(rnd() * names.length)]!;
    const i = Math.floor(rnd() * s.length);
    switch (out.length % 7) {
      case 0: out.push(s.slice(0, i) + letter() + s.slice(i + 1)); break;
      case 1: out.push(s.slice(0, i) + s.slice(i + 1)); break;
      case 2: out.push(s.slice(0, i) + s[i] + s.slice(i)); break;
      case 3: out.push(s.slice(0, i) + (s[i + 1] ?? '') + s[i] + s.slice(i + 2)); break;
      case 4: out.push(s.slice(0, Math.max(3, s.length - 2)) + letter() + letter()); break;
      case 5: out.push(Array.from({ length: 3 + Math.floor(rnd() * 20) }, letter).join('')); break;
      default: out.push(s);
    }
  }
  return out;
}

describe('name matcher: "did you mean" from memory', function () {
  let store: Store;
  let names: string[];

  before(async () => {
    await realBuild();
    store = await openStore(join(defaultPaths().dataDir, DB_FILE), 2);
    names = (await store.query<{ name_norm: string }>('SELECT DISTINCT name_norm FROM main.name_index ORDER BY name_norm')).map((r) => r.name_norm);
  });
  after(async () => store?.close());

  /** Checks that the matcher suggests what DuckDB does for every input; the number of inputs with a suggestion. */
  async function agrees(inputs: string[], minScore: number): Promise<number> {
    const ours = await suggest(store, inputs, minScore);
    const rows = await store.query<{ q: string; hits: Array<{ name: string; score: number }> }>(ORACLE, [inputs, minScore]);
    const theirs = new Map(rows.map((r) => [r.q, r.hits.map((h) => ({ name: h.name, score: Number(h.score) }))]));
    const mine = new Map([...ours].map(([q, hits]) => [q, hits.map((h) => ({ name: h.name, score: h.score }))]));
    // Both ways: the same inputs have suggestions, and they are the same, in the same order.
    const diff = [...new Set([...mine.keys(), ...theirs.keys()])].filter((q) => mine.has(q) !== theirs.has(q));
    expect(diff.map((q) => `${q}: ${JSON.stringify(theirs.get(q) ?? mine.get(q))}`), 'suggested by one only').to.deep.equal([]);
    expect([...mine.keys()].sort()).to.deep.equal([...theirs.keys()].sort());
    for (const [q, hits] of theirs) expect(mine.get(q), q).to.deep.equal(hits);
    return theirs.size;
  }

  for (const [label, minScore] of [['at the threshold served', MIN_SCORE], ['at a lower threshold (the bench sweeps it)', 0.6]] as const) {
    it(`gives DuckDB's suggestions for 1,000 misspelt, altered and made-up names, ${label}`, async () => {
      // Inputs are normal forms already; suggestions are for 3 characters or more.
      const inputs = variants(names, random(minScore * 1000), 1000).filter((q) => q.length >= 3);
      expect(await agrees(inputs, minScore), 'inputs with a suggestion').to.be.greaterThan(600);
    });
  }

  it("gives DuckDB's suggestions for names with a run of their letters shuffled (their letters kept, their bigrams not)", async () => {
    // The matcher rules names out by the bigrams they do not share, which a shuffle changes while keeping every
    // letter: runs of 2 to 12 letters shuffled put the inputs on both sides of the threshold.
    const rnd = random(17);
    const inputs = Array.from({ length: 600 }, () => {
      const s = names[Math.floor(rnd() * names.length)]!;
      const run = Math.min(s.length, 2 + Math.floor(rnd() * 11));
      const at = Math.floor(rnd() * (s.length - run + 1));
      const letters = [...s.slice(at, at + run)];
      for (let i = letters.length - 1; i > 0; i--) {
        const j = Math.floor(rnd() * (i + 1));
        [letters[i], letters[j]] = [letters[j]!, letters[i]!];
      }
      return s.slice(0, at) + letters.join('') + s.slice(at + run);
    }).filter((q) => q.length >= 3);
    const suggested = await agrees(inputs, MIN_SCORE);
    expect(suggested, 'inputs with a suggestion').to.be.greaterThan(0);
    expect(inputs.length - suggested, 'inputs without one').to.be.greaterThan(0);
  });
});

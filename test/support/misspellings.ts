// Misspellings of real names, the same on every run: what bench/suggestions.ts measures "did you mean" with,
// and what test/resolver-consistency.test.ts checks the resolver never answers as a known name.

/** A small seeded generator (mulberry32). */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** `name` with `edits` random edits of its letters: substitute, delete, insert a letter, or swap two neighbours. */
export function misspell(name: string, edits: number, rnd: () => number): string {
  let s = name;
  for (let e = 0; e < edits; e++) {
    const letters = [...s].map((c, i) => (/[a-z]/i.test(c) ? i : -1)).filter((i) => i >= 0);
    const at = letters[Math.floor(rnd() * letters.length)]!;
    const letter = LETTERS[Math.floor(rnd() * LETTERS.length)]!;
    switch (Math.floor(rnd() * 4)) {
      case 0: s = s.slice(0, at) + letter + s.slice(at + 1); break;
      case 1: s = s.slice(0, at) + s.slice(at + 1); break;
      case 2: s = s.slice(0, at) + letter + s.slice(at); break;
      default: if (at + 1 < s.length) s = s.slice(0, at) + s[at + 1] + s[at] + s.slice(at + 2);
    }
  }
  return s;
}

/** `name` with its characters shuffled: a misspelling of nothing. */
export function shuffle(name: string, rnd: () => number): string {
  const chars = [...name];
  for (let i = chars.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

// Which of a fixed list of strings contain a text, from memory: a trigram index. The strings are held as one
// text (a single flat string, which the garbage collector does not walk string by string) and the index as
// typed arrays, outside the V8 heap: for each of 2^16 hashed trigrams, the strings that hold it. A text of
// three characters or more is looked for only in the strings of its rarest trigram (a hash collision adds
// candidates, never loses one); a shorter one is looked for in the whole text.

import type { Field, Image } from '../store/index-image.js';

const SEP = '\x1f';
const BUCKETS = 1 << 16;

/** A trigram's bucket: a multiplicative hash of its three UTF-16 code units. */
function gram(s: string, i: number): number {
  const h = Math.imul(s.charCodeAt(i), 0x9e3779b1) ^ Math.imul(s.charCodeAt(i + 1), 0x85ebca6b) ^ Math.imul(s.charCodeAt(i + 2), 0xc2b2ae35);
  return (h ^ (h >>> 16)) & (BUCKETS - 1);
}

export class SubstringIndex {
  private constructor(
    /** Every string, each followed by SEP (no string holds it: the callers' keys are names). */
    private readonly text: string,
    /** Where string i starts in text; starts[n] is text.length. */
    private readonly starts: Int32Array,
    /** The strings holding a trigram of bucket b: ids[bucketStart[b]] .. ids[bucketStart[b + 1] - 1], ascending. */
    private readonly bucketStart: Int32Array,
    private readonly ids: Int32Array,
  ) {}

  static of(strings: readonly string[]): SubstringIndex {
    const starts = new Int32Array(strings.length + 1);
    let at = 0;
    strings.forEach((s, i) => {
      starts[i] = at;
      at += s.length + 1;
    });
    starts[strings.length] = at;
    // Two passes (count, then fill) over each string's distinct buckets.
    const counts = new Int32Array(BUCKETS + 1);
    const seen = new Int32Array(BUCKETS).fill(-1);
    const each = (fn: (b: number, id: number) => void) => strings.forEach((s, id) => {
      for (let i = 0; i + 3 <= s.length; i++) {
        const b = gram(s, i);
        if (seen[b] !== id) {
          seen[b] = id;
          fn(b, id);
        }
      }
    });
    each((b) => { counts[b + 1]! += 1; });
    for (let b = 0; b < BUCKETS; b++) counts[b + 1]! += counts[b]!;
    const ids = new Int32Array(counts[BUCKETS]!);
    const fill = counts.slice(0, BUCKETS);
    seen.fill(-1);
    each((b, id) => { ids[fill[b]!++] = id; });
    return new SubstringIndex(strings.map((s) => s + SEP).join(''), starts, counts, ids);
  }

  /** Its fields for an index image (index-image.ts), names prefixed. */
  fields(prefix: string): Record<string, Field> {
    return { [`${prefix}text`]: this.text, [`${prefix}starts`]: this.starts, [`${prefix}bucketStart`]: this.bucketStart, [`${prefix}ids`]: this.ids };
  }

  static read(image: Image, prefix: string): SubstringIndex {
    return new SubstringIndex(image.json(`${prefix}text`), image.i32(`${prefix}starts`), image.i32(`${prefix}bucketStart`), image.i32(`${prefix}ids`));
  }

  get size(): number {
    return this.starts.length - 1;
  }

  /** String i. */
  string(i: number): string {
    return this.text.slice(this.starts[i]!, this.starts[i + 1]! - 1);
  }

  /** String i's length. */
  length(i: number): number {
    return this.starts[i + 1]! - 1 - this.starts[i]!;
  }

  /** Whether string i is the text t. */
  is(i: number, t: string): boolean {
    return this.length(i) === t.length && this.text.startsWith(t, this.starts[i]!);
  }

  /** Whether string i starts with the text t. */
  startsWith(i: number, t: string): boolean {
    return this.length(i) >= t.length && this.text.startsWith(t, this.starts[i]!);
  }

  /** The ids of the strings that contain t (not empty), ascending. */
  containing(t: string): number[] {
    const out: number[] = [];
    if (t.length === 0 || t.includes(SEP)) return out;
    if (t.length < 3) {
      for (let p = this.text.indexOf(t); p >= 0; ) {
        const id = this.idAt(p);
        out.push(id);
        p = this.text.indexOf(t, this.starts[id + 1]!);
      }
      return out;
    }
    let best = -1;
    let fewest = Infinity;
    for (let i = 0; i + 3 <= t.length; i++) {
      const b = gram(t, i);
      const n = this.bucketStart[b + 1]! - this.bucketStart[b]!;
      if (n < fewest) {
        fewest = n;
        best = b;
      }
    }
    for (let k = this.bucketStart[best]!; k < this.bucketStart[best + 1]!; k++) {
      const id = this.ids[k]!;
      // a slice of the text, not a copy (V8 slices strings of 13 characters or more)
      if (this.text.slice(this.starts[id]!, this.starts[id + 1]! - 1).includes(t)) out.push(id);
    }
    return out;
  }

  /** The string whose span holds text position p. */
  private idAt(p: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      if (this.starts[mid]! <= p) lo = mid;
      else hi = mid;
    }
    return lo;
  }
}

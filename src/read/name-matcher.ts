// The names closest to a misspelt one, from memory: every normal form of name_index held once, bucketed by
// first and by last letter and length. A name is a candidate as suggest.ts defines it (within 2 characters
// of the input's length, sharing its first letter, or else its last); most candidates are ruled out by
// bounds no string distance can beat (the letters one has and the other lacks, from four bit masks per name;
// then the bigrams they do not share), and the Damerau-Levenshtein distance, the costly part, is computed
// only for the few left, on what remains once the prefix and suffix they share are set aside, and only as far
// as it can still be within the edits the least score allows: the threshold, or once three names are found
// the third's score (no name below it can be suggested). DuckDB computed the same over every candidate pair,
// costlier by an order of magnitude (README, Soak); test/name-matcher.test.ts checks that both give the same
// suggestions. The rows are held as columns (a few bytes each, repeated strings once), not as an object each;
// the bounds' masks and bigrams are made from the forms as the matcher is made (the image holds the forms).
// What the scan reads (FormScanner) is typed arrays only, in shared memory: the matcher thread
// (matcher-thread.ts) scans the same arrays, without a copy of them or of any string.

import type { Field, Image } from '../index-image.js';

/** Normal forms are [a-z0-9] (names.ts normaliseName): each letter or digit is one of 36 codes. */
const ALPHABET = 36;
const codeOf = (ch: number) => (ch <= 57 ? ch - 48 : ch - 87);
/** A letter's bit in a name's masks: the 26 letters a bit each, the digits folded onto 6 (a weaker bound, never a wrong one). */
const bitOf = (code: number) => 1 << (code < 10 ? code % 6 : code - 4);
/**
 * A name's letters as LEVELS bit masks: mask k has the letters (bitOf) it holds more than k times. The masks
 * one has and the other lacks, counted, are its letters the other lacks (each letter counted up to LEVELS times).
 */
const LEVELS = 4;

/** The level masks of a form (char codes), written at out[at] .. out[at + LEVELS - 1]. */
function levelsOf(f: string, out: Int32Array, at: number): void {
  for (let k = 0; k < f.length; k++) {
    const bit = bitOf(codeOf(f.charCodeAt(k)));
    for (let level = 0; level < LEVELS; level++) {
      if (!(out[at + level]! & bit)) {
        out[at + level]! |= bit;
        break;
      }
    }
  }
}
/** Two adjacent letters or digits (char codes) as one of GRAMS codes. */
const GRAMS = ALPHABET * ALPHABET;
const gramOf = (a: number, b: number) => codeOf(a) * ALPHABET + codeOf(b);

/** The bits set in four words together (the level masks one has and the other lacks), counted in parallel. */
function popcount4(a: number, b: number, c: number, d: number): number {
  a -= (a >>> 1) & 0x55555555;
  b -= (b >>> 1) & 0x55555555;
  c -= (c >>> 1) & 0x55555555;
  d -= (d >>> 1) & 0x55555555;
  a = (a & 0x33333333) + ((a >>> 2) & 0x33333333);
  b = (b & 0x33333333) + ((b >>> 2) & 0x33333333);
  c = (c & 0x33333333) + ((c >>> 2) & 0x33333333);
  d = (d & 0x33333333) + ((d >>> 2) & 0x33333333);
  // four bits a count hold two words' (up to 8), a byte four words' (up to 32)
  let x = a + b;
  let y = c + d;
  x = (x & 0x0f0f0f0f) + ((x >>> 4) & 0x0f0f0f0f);
  y = (y & 0x0f0f0f0f) + ((y >>> 4) & 0x0f0f0f0f);
  return Math.imul(x + y, 0x01010101) >>> 24;
}

/** What a row of name_index is: an official name (species, taxon), a VMR virus name or an abbreviation. */
export type NameKind = 'species' | 'virus_name' | 'abbreviation' | 'taxon';

/** A form found close to an input, and its score (1 - Damerau-Levenshtein distance / the longer length). */
export interface Found {
  form: number;
  score: number;
}

/** A row of the matcher (nameOf, kindOf, ... read it) and its name's score. */
export interface Match {
  row: number;
  /** 1 - Damerau-Levenshtein distance / the longer length. */
  score: number;
}

/** The typed arrays a FormScanner reads, in shared memory: what the matcher thread is given. */
export interface ScannerArrays {
  /** Every form's letter codes (codeOf), form i's at codes[codeStart[i]] .. codes[codeStart[i + 1] - 1]. */
  codes: Uint8Array;
  codeStart: Int32Array;
  /** The bigrams of every form (GRAMS of them), those of form i at grams[gramStart[i]] .. grams[gramStart[i + 1] - 1]. */
  grams: Uint16Array;
  gramStart: Int32Array;
  /** The forms by (first letter, length) and by (last letter, length) (Buckets). */
  byFirst: BucketArrays;
  byLast: BucketArrays;
}

/** A typed array of n elements in memory another thread can be given without a copy. */
function sharedArray<T>(Kind: { new (buffer: SharedArrayBuffer): T; BYTES_PER_ELEMENT: number }, n: number): T {
  return new Kind(new SharedArrayBuffer(Math.max(1, n) * Kind.BYTES_PER_ELEMENT));
}

/**
 * The forms closest to an input, from typed arrays alone (no string, no row): the part of the matcher that
 * the matcher thread runs too. Its work arrays are its own; one scanner serves one input at a time.
 */
export class FormScanner {
  private readonly codes: Uint8Array;
  private readonly codeStart: Int32Array;
  private readonly grams: Uint16Array;
  private readonly gramStart: Int32Array;
  private readonly byFirst: Buckets;
  private readonly byLast: Buckets;
  // Work arrays of the distance, grown to the longest pair seen.
  private matrix = new Int32Array(0);
  private readonly lastRowOf = new Int32Array(ALPHABET);
  private readonly lastColOf = new Int32Array(ALPHABET);
  /** The input being matched (prepare): its codes, its letters' level masks and its bigram counts. */
  private prepared = '';
  private qCodes = new Uint8Array(64);
  private qLength = 0;
  private readonly inputLevels = new Int32Array(LEVELS);
  private readonly inputGrams = new Int16Array(GRAMS);
  /** The bigrams of a candidate matched against the input's so far (scan). */
  private readonly takenGrams = new Int16Array(GRAMS);
  private readonly takenStamp = new Int32Array(GRAMS);
  private stamp = 0;

  constructor(readonly arrays: ScannerArrays) {
    ({ codes: this.codes, codeStart: this.codeStart, grams: this.grams, gramStart: this.gramStart } = arrays);
    this.byFirst = new Buckets(arrays.byFirst);
    this.byLast = new Buckets(arrays.byLast);
  }

  /** The scanner of a list of normal forms, in shared memory. */
  static of(forms: readonly string[]): FormScanner {
    let codeCount = 0;
    for (const f of forms) codeCount += f.length;
    const codes = sharedArray(Uint8Array, codeCount);
    const codeStart = sharedArray(Int32Array, forms.length + 1);
    const grams = sharedArray(Uint16Array, codeCount);
    const gramStart = sharedArray(Int32Array, forms.length + 1);
    const levels = new Int32Array(forms.length * LEVELS);
    const byFirst = new Map<number, number[]>();
    const byLast = new Map<number, number[]>();
    let at = 0;
    let gramAt = 0;
    forms.forEach((f, i) => {
      codeStart[i] = at;
      gramStart[i] = gramAt;
      for (let k = 0; k < f.length; k++) codes[at++] = codeOf(f.charCodeAt(k));
      for (let k = 1; k < f.length; k++) grams[gramAt++] = gramOf(f.charCodeAt(k - 1), f.charCodeAt(k));
      levelsOf(f, levels, i * LEVELS);
      push(byFirst, bucket(f.charCodeAt(0), f.length), i);
      push(byLast, bucket(f.charCodeAt(f.length - 1), f.length), i);
    });
    codeStart[forms.length] = at;
    gramStart[forms.length] = gramAt;
    return new FormScanner({
      codes, codeStart, grams, gramStart, byFirst: bucketArrays(byFirst, codes, codeStart, levels), byLast: bucketArrays(byLast, codes, codeStart, levels),
    });
  }

  /**
   * The forms that can be among the `limit` best (each form a name of its own) scoring at least minScore
   * against the normal form q, each with its score, in no order (NameMatcher.best ranks them).
   */
  find(q: string, minScore: number, limit: number): Found[] {
    const len = q.length;
    if (!/^[a-z0-9]+$/.test(q)) return [];
    const first = q.charCodeAt(0);
    const last = q.charCodeAt(len - 1);
    this.prepare(q);
    const found: Found[] = [];
    // A name that cannot be among the first `limit` is not worth its distance: once `limit` names are found,
    // the least of their scores is the bar. The names of the input's own length are scanned first, then
    // those a character longer or shorter: the closest names are likeliest there, and raise the bar soonest.
    const top = new Top(limit);
    for (const l of [len, len - 1, len + 1, len - 2, len + 2]) {
      if (l < 1) continue;
      const longer = Math.max(len, l);
      // The most edits a name may be away and still score minScore.
      const most = Math.floor((1 - minScore) * longer + 1e-9);
      this.scan(this.byFirst, bucket(first, l), -1, longer, most, found, top);
      // names sharing the last letter but not the first (those were scanned above)
      this.scan(this.byLast, bucket(last, l), first, longer, most, found, top);
    }
    return found;
  }

  /**
   * Every form within 2 characters of q's length that scores at least minScore against it, whatever its
   * first or last letter (a search ranks all of them; a suggestion, find(), needs only the likeliest).
   */
  close(q: string, minScore: number): Found[] {
    const found: Found[] = [];
    const len = q.length;
    if (!/^[a-z0-9]+$/.test(q)) return found;
    this.prepare(q);
    for (let l = Math.max(1, len - 2); l <= len + 2; l++) {
      const longer = Math.max(len, l);
      const most = Math.floor((1 - minScore) * longer + 1e-9);
      for (let c = 0; c < ALPHABET; c++) {
        this.scan(this.byFirst, bucket(c < 10 ? 48 + c : 87 + c, l), -1, longer, most, found, null);
      }
    }
    return found;
  }

  /** The Damerau-Levenshtein distance of form and the normal form q, when at most `most` (else more). */
  edits(form: number, q: string, most: number): number {
    this.prepare(q);
    return this.distance(form, most);
  }

  /** Reads q's codes, letters and bigrams, which scan() and distance() compare each form with. */
  private prepare(q: string): void {
    if (q === this.prepared) return;
    const old = this.prepared;
    for (let k = 1; k < old.length; k++) this.inputGrams[gramOf(old.charCodeAt(k - 1), old.charCodeAt(k))] = 0;
    for (let k = 1; k < q.length; k++) this.inputGrams[gramOf(q.charCodeAt(k - 1), q.charCodeAt(k))]! += 1;
    if (this.qCodes.length < q.length) this.qCodes = new Uint8Array(q.length * 2);
    for (let k = 0; k < q.length; k++) this.qCodes[k] = codeOf(q.charCodeAt(k));
    this.qLength = q.length;
    this.prepared = q;
    this.inputLevels.fill(0);
    levelsOf(q, this.inputLevels, 0);
  }

  /**
   * Scores the forms of one bucket (of one length) against q, adding those within `most` edits to found;
   * skipFirst: a first letter whose forms were scanned already; top: the best scores found for a suggestion,
   * below the least of which a form cannot rank (null: every form within `most` is wanted). The hot loop of a
   * batch of misspelt names, so it reads typed arrays only. Three bounds no distance can beat come before the
   * distance itself. Every letter one has and the other lacks costs at least one edit (a transposition moves
   * none), counted up to four times a letter from the level masks (bit counts), each way. And every edit
   * changes at most three bigrams of either string (a transposition three, a substitution two, an insertion
   * or deletion one of the one and two of the other), so the bigrams one has and the other lacks are at most
   * three times the edits: a name whose letters are shuffled has all its letters and few of its bigrams.
   */
  private scan(buckets: Buckets, key: number, skipFirst: number, longer: number, most: number, found: Found[], top: Top | null): void {
    const range = buckets.ranges.get(key);
    if (range === undefined) return;
    const { forms, levels, firsts } = buckets;
    const [q0, q1, q2, q3] = this.inputLevels as unknown as [number, number, number, number];
    const { gramStart, grams, inputGrams, takenGrams, takenStamp } = this;
    const inputGramCount = this.qLength - 1;
    let allowed = top ? Math.min(most, top.edits(longer)) : most;
    // a length's difference is as many edits at least
    if (Math.abs(bucketLength(key) - this.qLength) > allowed) return;
    const end = buckets.ends.get(key)!;
    for (let k = range; k < end; k++) {
      if (firsts[k] === skipFirst) continue;
      // a letter one has and the other lacks, or has twice where the other has it once, ..., is an edit at least
      // (the letters q has the form lacks first: most forms are ruled out by them)
      const at = k * LEVELS;
      const f0 = levels[at]!;
      const f1 = levels[at + 1]!;
      const f2 = levels[at + 2]!;
      const f3 = levels[at + 3]!;
      const lettersLost = popcount4(q0 & ~f0, q1 & ~f1, q2 & ~f2, q3 & ~f3);
      if (lettersLost > allowed) continue;
      const lettersAdded = popcount4(f0 & ~q0, f1 & ~q1, f2 & ~q2, f3 & ~q3);
      if (lettersAdded > allowed) continue;
      const form = forms[k]!;
      // the bigrams the two share (as multisets): takenGrams counts those of this form matched so far
      if (++this.stamp === 0x40000000) { this.stamp = 1; takenStamp.fill(0); }
      const stamp = this.stamp;
      const g0 = gramStart[form]!;
      const g1 = gramStart[form + 1]!;
      let shared = 0;
      for (let g = g0; g < g1; g++) {
        const code = grams[g]!;
        const want = inputGrams[code]!;
        if (want === 0) continue;
        if (takenStamp[code] !== stamp) { takenStamp[code] = stamp; takenGrams[code] = 0; }
        if (takenGrams[code]! < want) { takenGrams[code]! += 1; shared++; }
      }
      // q's bigrams the form lacks, plus q's letters it lacks, plus twice the letters it has more, are three
      // times the edits at most (and so the other way round)
      const grown = g1 - g0 - inputGramCount;
      if (inputGramCount - shared + lettersLost + (grown > 0 ? 2 * grown : 0) > 3 * allowed
        || g1 - g0 - shared + lettersAdded + (grown < 0 ? -2 * grown : 0) > 3 * allowed) continue;
      const edits = this.distance(form, allowed);
      if (edits <= allowed) {
        const score = 1 - edits / longer;
        found.push({ form, score });
        if (top?.add(score)) allowed = Math.min(most, top.edits(longer));
      }
    }
  }

  /**
   * The Damerau-Levenshtein distance of form and the input (prepare) (adjacent transpositions, any edits
   * between them: Lowrance and Wagner), as DuckDB's damerau_levenshtein computes it, of what remains once the common prefix and suffix are set
   * aside (they cost nothing in an optimal alignment), when it is at most `most`; otherwise some number above
   * `most`. Only cells within `most` of the diagonal can be on a path that costs `most` or less, so only
   * they are computed (the rest count as more), and the work stops at a row whose every cell is already
   * more: no later cell costs less than the cheapest of the row before it.
   */
  private distance(form: number, most: number): number {
    // form's codes are a[a0 ..], the input's b[0 .. qLength - 1] (prepare)
    const a = this.codes;
    const a0 = this.codeStart[form]!;
    const b = this.qCodes;
    let start = 0;
    let endA = this.codeStart[form + 1]! - a0;
    let endB = this.qLength;
    while (start < endA && start < endB && a[a0 + start] === b[start]) start++;
    while (endA > start && endB > start && a[a0 + endA - 1] === b[endB - 1]) { endA--; endB--; }
    const n = endA - start;
    const m = endB - start;
    if (n === 0) return m;
    if (m === 0) return n;
    if (Math.abs(n - m) > most) return most + 1;
    const width = m + 2;
    if (this.matrix.length < (n + 2) * width) this.matrix = new Int32Array((n + 2) * width * 2);
    const d = this.matrix;
    const inf = n + m;
    const over = most + 1;
    this.lastRowOf.fill(0);
    // the last column before the band where each letter appears in b, kept as the band moves right
    const lastColOf = this.lastColOf;
    lastColOf.fill(0);
    let passed = 0;
    d[0] = inf;
    for (let i = 0; i <= n; i++) { d[(i + 1) * width] = inf; d[(i + 1) * width + 1] = i; }
    for (let j = 0; j <= m; j++) { d[j + 1] = inf; d[width + j + 1] = j; }
    for (let i = 1; i <= n; i++) {
      const ca = a[a0 + start + i - 1]!;
      const from = Math.max(1, i - most);
      const to = Math.min(m, i + most);
      // the cells just outside the band count as more than `most`, for the row after this one
      if (from > 1) d[(i + 1) * width + from] = over;
      if (to < m) d[(i + 1) * width + to + 2] = over;
      // the last column (before the band) where a's letter appears in b, as the full computation tracks it
      for (; passed < from - 1; passed++) lastColOf[b[start + passed]!] = passed + 1;
      let lastColOfA = lastColOf[ca]!;
      let rowMin = over;
      for (let j = from; j <= to; j++) {
        const cb = b[start + j - 1]!;
        const i1 = this.lastRowOf[cb]!;
        const j1 = lastColOfA;
        let cost = 1;
        if (ca === cb) {
          cost = 0;
          lastColOfA = j;
        }
        const transposed = i1 > 0 && j1 > 0 && Math.abs(i1 - j1) <= most ? d[i1 * width + j1]! + (i - i1 - 1) + 1 + (j - j1 - 1) : inf;
        const v = Math.min(d[i * width + j]! + cost, d[(i + 1) * width + j]! + 1, d[i * width + j + 1]! + 1, transposed, over);
        d[(i + 1) * width + j + 1] = v;
        if (v < rowMin) rowMin = v;
      }
      if (rowMin > most) return over;
      this.lastRowOf[ca] = i;
    }
    return d[(n + 1) * width + m + 1]!;
  }
}

/** name_index's rows as the matcher holds them (built by NameMatcher.of, or read back from an index image). */
interface Columns {
  /** Distinct normal forms; the rows of form i are rowList[rowStart[i]] .. rowList[rowStart[i + 1] - 1]. */
  forms: string[];
  rowStart: Int32Array;
  rowList: Int32Array;
  names: string[];
  /** The distinct kinds, ranks and current names, which each row's codes index (-1: no current name). */
  values: string[];
  kindCodes: Int32Array;
  rankCodes: Int32Array;
  currentCodes: Int32Array;
  lineages: Int32Array;
  lastMsls: Int16Array;
}

export class NameMatcher {
  private readonly forms: string[];
  private readonly rowStart: Int32Array;
  private readonly rowList: Int32Array;
  private readonly names: string[];
  private readonly kinds: NameKind[];
  private readonly ranks: string[];
  private readonly lineages: Int32Array;
  private readonly currentNames: Array<string | null>;
  private readonly lastMsls: Int16Array;
  /** What the forms are scanned with, here or on the matcher thread. */
  readonly scanner: FormScanner;

  private constructor(private readonly columns: Columns) {
    ({ forms: this.forms, rowStart: this.rowStart, rowList: this.rowList, names: this.names, lineages: this.lineages, lastMsls: this.lastMsls } = columns);
    this.kinds = Array.from(columns.kindCodes, (k) => columns.values[k]! as NameKind);
    this.ranks = Array.from(columns.rankCodes, (r) => columns.values[r]!);
    this.currentNames = Array.from(columns.currentCodes, (c) => (c < 0 ? null : columns.values[c]!));
    this.scanner = FormScanner.of(this.forms);
  }

  /** text: every row of name_index as suggest.ts reads it, fields apart by US (0x1f), rows by RS (0x1e). */
  static of(text: string): NameMatcher {
    const index = new Map<string, number>();
    const once = new Map<string, number>();
    const distinct: string[] = [];
    const intern = (v: string) => once.get(v) ?? (once.set(v, distinct.length), distinct.push(v) - 1);
    const lines = text.split('\x1e');
    const forms: string[] = [];
    const rowsOf: number[][] = [];
    const names: string[] = [];
    const kinds: number[] = [];
    const ranks: number[] = [];
    const currents: number[] = [];
    const lineages: number[] = [];
    const lastMsls: number[] = [];
    for (const line of lines) {
      const fields = line.split('\x1f');
      // A field of NULL would be left out by concat_ws and shift the rest.
      if (fields.length !== 8) throw new Error(`name_index row with ${fields.length} fields, not 8: ${fields.join(' | ')}`);
      const [name, form, kind, rank, lineage, current, lastMsl, noCurrent] = fields;
      if (!/^[a-z0-9]+$/.test(form ?? '')) continue;
      names.push(name!);
      kinds.push(intern(kind!));
      ranks.push(intern(rank!));
      currents.push(noCurrent === '1' ? -1 : intern(current!));
      lineages.push(Number(lineage));
      lastMsls.push(Number(lastMsl));
      let i = index.get(form!);
      if (i === undefined) {
        i = forms.length;
        index.set(form!, i);
        forms.push(form!);
        rowsOf.push([]);
      }
      rowsOf[i]!.push(names.length - 1);
    }
    const rowStart = new Int32Array(forms.length + 1);
    const rowList = new Int32Array(names.length);
    let at = 0;
    rowsOf.forEach((rows, i) => {
      rowStart[i] = at;
      for (const r of rows) rowList[at++] = r;
    });
    rowStart[forms.length] = at;
    // The strings split off the text are views of it, which would keep all of it alive; a JSON round trip
    // makes each a string of its own, and the text goes.
    const own = (xs: string[]) => JSON.parse(JSON.stringify(xs)) as string[];
    return new NameMatcher({
      forms: own(forms), rowStart, rowList, names: own(names), values: own(distinct),
      kindCodes: Int32Array.from(kinds), rankCodes: Int32Array.from(ranks), currentCodes: Int32Array.from(currents),
      lineages: Int32Array.from(lineages), lastMsls: Int16Array.from(lastMsls),
    });
  }

  /** Its fields for an index image (index-image.ts). */
  fields(): Record<string, Field> {
    return { ...this.columns };
  }

  static read(image: Image): NameMatcher {
    return new NameMatcher({
      forms: image.json('forms'), rowStart: image.i32('rowStart'), rowList: image.i32('rowList'), names: image.json('names'),
      values: image.json('values'), kindCodes: image.i32('kindCodes'), rankCodes: image.i32('rankCodes'),
      currentCodes: image.i32('currentCodes'), lineages: image.i32('lineages'), lastMsls: image.i16('lastMsls'),
    });
  }

  /**
   * Up to `limit` rows (read by nameOf, kindOf, ...) whose names score at least minScore against the normal
   * form q, best first (best()).
   */
  match(q: string, minScore: number, limit: number): Match[] {
    return this.best(this.scanner.find(q, minScore, limit), limit);
  }

  /**
   * The rows of the forms found (FormScanner.find, here or on the matcher thread), up to `limit`, best first:
   * by score, official names before virus names and abbreviations, the later release, the name. A name is
   * offered once, with its strongest role (official first, then the later release, then the lower lineage id).
   */
  best(found: readonly Found[], limit: number): Match[] {
    const best = new Map<string, Match>();
    for (const { form, score } of found) {
      for (let k = this.rowStart[form]!; k < this.rowStart[form + 1]!; k++) {
        const row = this.rowList[k]!;
        const seen = best.get(this.names[row]!);
        if (!seen || this.strongerRole(row, seen.row) < 0) best.set(this.names[row]!, { row, score });
      }
    }
    return [...best.values()].sort((a, b) => b.score - a.score
      || Number(this.official(b.row)) - Number(this.official(a.row))
      || this.lastMsls[b.row]! - this.lastMsls[a.row]!
      || (this.names[a.row]! < this.names[b.row]! ? -1 : this.names[a.row]! > this.names[b.row]! ? 1 : 0)).slice(0, limit);
  }

  private official(row: number): boolean {
    const kind = this.kinds[row]!;
    return kind === 'species' || kind === 'taxon';
  }

  /** Negative when row a is the stronger role of a name than row b: official, then the later release, then the lower lineage id. */
  private strongerRole(a: number, b: number): number {
    return Number(this.official(b)) - Number(this.official(a)) || this.lastMsls[b]! - this.lastMsls[a]! || this.lineages[a]! - this.lineages[b]!;
  }

  /** Every form within 2 characters of q's length scoring at least minScore against it (FormScanner.close). */
  close(q: string, minScore: number): Found[] {
    return this.scanner.close(q, minScore);
  }

  /** 1 - Damerau-Levenshtein distance / the longer length of form i and the normal form q. */
  similarity(form: number, q: string): number {
    const f = this.forms[form]!;
    const longer = Math.max(f.length, q.length);
    if (longer === 0) return 1;
    // A form holding q (a search's substring matches, tens of thousands for a short query) is q with letters
    // added: as many edits as it has letters more, no fewer (the lengths differ by that), no table needed.
    const edits = f.length >= q.length && f.includes(q) ? f.length - q.length : this.scanner.edits(form, q, longer);
    return 1 - edits / longer;
  }

  /** The normal forms held, by index. */
  get formList(): readonly string[] {
    return this.forms;
  }

  // Form i's rows one at a time, without an object each (a search's short text matches tens of thousands):
  // rows rowAt(firstRow(i)) .. rowAt(endRow(i) - 1), each read by nameOf, kindOf, currentNameOf.
  firstRow(form: number): number {
    return this.rowStart[form]!;
  }

  endRow(form: number): number {
    return this.rowStart[form + 1]!;
  }

  rowAt(k: number): number {
    return this.rowList[k]!;
  }

  get rowCount(): number {
    return this.names.length;
  }

  nameOf(row: number): string {
    return this.names[row]!;
  }

  kindOf(row: number): NameKind {
    return this.kinds[row]!;
  }

  lineageOf(row: number): number {
    return this.lineages[row]!;
  }

  currentNameOf(row: number): string | null {
    return this.currentNames[row]!;
  }

  rankOf(row: number): string {
    return this.ranks[row]!;
  }
}

const bucket = (ch: number, len: number) => ch * 1024 + len;
const bucketLength = (key: number) => key % 1024;

/** A Buckets' typed arrays: the bucket keys, where each starts (and the last ends), and the forms' data in bucket order. */
interface BucketArrays {
  keys: Int32Array;
  starts: Int32Array;
  forms: Int32Array;
  levels: Int32Array;
  firsts: Uint8Array;
}

/**
 * Forms grouped in buckets (a bucket's forms one after another), with what scan() reads of each form laid out
 * in the same order, so that a scan reads memory in order rather than each form's letters by its index.
 * levels: the level masks of every form (LEVELS per form: levelsOf), by form.
 */
function bucketArrays(lists: Map<number, number[]>, codes: Uint8Array, codeStart: Int32Array, levels: Int32Array): BucketArrays {
  let n = 0;
  for (const list of lists.values()) n += list.length;
  const out: BucketArrays = {
    keys: sharedArray(Int32Array, lists.size), starts: sharedArray(Int32Array, lists.size + 1), forms: sharedArray(Int32Array, n),
    levels: sharedArray(Int32Array, n * LEVELS), firsts: sharedArray(Uint8Array, n),
  };
  let at = 0;
  let b = 0;
  for (const [key, list] of lists) {
    out.keys[b] = key;
    out.starts[b++] = at;
    for (const form of list) {
      out.forms[at] = form;
      for (let level = 0; level < LEVELS; level++) out.levels[at * LEVELS + level] = levels[form * LEVELS + level]!;
      // as a char code, as bucket keys are
      const code = codes[codeStart[form]!]!;
      out.firsts[at] = code < 10 ? 48 + code : 87 + code;
      at++;
    }
  }
  out.starts[b] = at;
  return out;
}

/** The buckets of a scanner: BucketArrays, and where each bucket is. */
class Buckets {
  /** Where each bucket starts and ends. */
  readonly ranges = new Map<number, number>();
  readonly ends = new Map<number, number>();
  readonly forms: Int32Array;
  /** The level masks of each form (LEVELS per form: levelsOf), and its first letter (char code). */
  readonly levels: Int32Array;
  readonly firsts: Uint8Array;

  constructor({ keys, starts, forms, levels, firsts }: BucketArrays) {
    keys.forEach((key, b) => {
      this.ranges.set(key, starts[b]!);
      this.ends.set(key, starts[b + 1]!);
    });
    this.forms = forms;
    this.levels = levels;
    this.firsts = firsts;
  }
}

/**
 * The best `limit` scores found so far for one input, as forms: each form is a name of its own (a name has
 * one normal form), so a form scoring less than the last of them cannot be among the first `limit` names.
 */
class Top {
  private readonly scores: number[] = [];
  constructor(private readonly limit: number) {}

  /** Adds a form's score; true when the bar (the least score that can still rank) has been set or raised. */
  add(score: number): boolean {
    const { scores, limit } = this;
    if (limit <= 0 || (scores.length === limit && score <= scores[limit - 1]!)) return false;
    let i = scores.length;
    while (i > 0 && scores[i - 1]! < score) i--;
    scores.splice(i, 0, score);
    if (scores.length > limit) scores.pop();
    return scores.length === limit;
  }

  /** The most edits a form with `longer` characters (the longer of the pair) may be away and still rank. */
  edits(longer: number): number {
    if (this.limit <= 0 || this.scores.length < this.limit) return Number.MAX_SAFE_INTEGER;
    const bar = this.scores[this.limit - 1]!;
    // the same arithmetic as the scores found (1 - edits / longer), so a tie with the bar is kept
    let e = Math.max(0, Math.floor((1 - bar) * longer + 1e-9));
    while (e > 0 && 1 - e / longer < bar) e--;
    while (1 - (e + 1) / longer >= bar) e++;
    return e;
  }
}

function push(map: Map<number, number[]>, key: number, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

// The names closest to a misspelt one, from memory: every normal form of name_index held once, bucketed by
// first and by last letter and length. A name is a candidate as suggest.ts defines it (within 2 characters
// of the input's length, sharing its first letter, or else its last); most candidates are ruled out by
// bounds no string distance can beat (the letters one has and the other lacks, from four bit masks per name;
// then the bigrams they do not share), and the Damerau-Levenshtein distance, the costly part, is computed
// only for the few left, on what remains once the prefix and suffix they share are set aside, and only as far
// as it can still be within the edits the least score allows: the threshold, or once three names are found
// the third's score (no name below it can be suggested). DuckDB computed the same over every candidate pair,
// costlier by an order of magnitude; test/name-matcher.test.ts checks that both give the same
// suggestions. The rows are held as columns (a few bytes each, repeated strings once), not as an object each;
// the bounds' masks and bigrams are made from the forms as the matcher is made (the image holds the forms).

import type { Field, Image } from '../store/index-image.js';

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

/** One row of name_index: a name of a lineage, with what its suggestion shows and is ordered by. */
export interface NameRow {
  name: string;
  name_norm: string;
  kind: 'species' | 'virus_name' | 'abbreviation' | 'taxon';
  rank: string;
  lineage_id: number;
  current_name: string | null;
  last_msl: number;
}

export interface Match {
  row: NameRow;
  /** 1 - Damerau-Levenshtein distance / the longer length. */
  score: number;
}

const official = (r: NameRow) => r.kind === 'species' || r.kind === 'taxon';

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
  private readonly kinds: NameRow['kind'][];
  private readonly ranks: string[];
  private readonly lineages: Int32Array;
  private readonly currentNames: Array<string | null>;
  private readonly lastMsls: Int16Array;
  /** The bigrams of every form (codeOf pairs, GRAMS of them), those of form i at grams[gramStart[i]] .. grams[gramStart[i + 1] - 1]. */
  private readonly gramStart: Int32Array;
  private readonly grams: Uint16Array;
  /** The forms by (first letter, length) and by (last letter, length). */
  private readonly byFirst: Buckets;
  private readonly byLast: Buckets;
  // Work arrays of the distance, grown to the longest pair seen.
  private matrix = new Int32Array(0);
  private readonly lastRowOf = new Int32Array(ALPHABET);
  private readonly lastColOf = new Int32Array(ALPHABET);
  private bCodes = new Uint8Array(64);
  private readonly inputLevels = new Int32Array(LEVELS);
  /** The input's bigram counts (prepare), and the bigrams of a candidate matched against them so far (scan). */
  private readonly inputGrams = new Int16Array(GRAMS);
  private readonly takenGrams = new Int16Array(GRAMS);
  private readonly takenStamp = new Int32Array(GRAMS);
  private stamp = 0;
  private prepared = '';

  private constructor(private readonly columns: Columns) {
    ({ forms: this.forms, rowStart: this.rowStart, rowList: this.rowList, names: this.names, lineages: this.lineages, lastMsls: this.lastMsls } = columns);
    this.kinds = Array.from(columns.kindCodes, (k) => columns.values[k]! as NameRow['kind']);
    this.ranks = Array.from(columns.rankCodes, (r) => columns.values[r]!);
    this.currentNames = Array.from(columns.currentCodes, (c) => (c < 0 ? null : columns.values[c]!));
    const levels = new Int32Array(this.forms.length * LEVELS);
    const byFirst = new Map<number, number[]>();
    const byLast = new Map<number, number[]>();
    this.gramStart = new Int32Array(this.forms.length + 1);
    let gramCount = 0;
    for (const f of this.forms) gramCount += Math.max(0, f.length - 1);
    this.grams = new Uint16Array(gramCount);
    let at = 0;
    this.forms.forEach((f, i) => {
      this.gramStart[i] = at;
      for (let k = 1; k < f.length; k++) this.grams[at++] = gramOf(f.charCodeAt(k - 1), f.charCodeAt(k));
      levelsOf(f, levels, i * LEVELS);
      push(byFirst, bucket(f.charCodeAt(0), f.length), i);
      push(byLast, bucket(f.charCodeAt(f.length - 1), f.length), i);
    });
    this.gramStart[this.forms.length] = at;
    this.byFirst = new Buckets(byFirst, this.forms, levels);
    this.byLast = new Buckets(byLast, this.forms, levels);
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
   * Up to `limit` rows whose names score at least minScore against the normal form q, best first: by score,
   * official names before virus names and abbreviations, the later release, the name. A name is offered once,
   * with its strongest role (official first, then the later release, then the lower lineage id).
   */
  match(q: string, minScore: number, limit: number): Match[] {
    const len = q.length;
    if (!/^[a-z0-9]+$/.test(q)) return [];
    const first = q.charCodeAt(0);
    const last = q.charCodeAt(len - 1);
    this.prepare(q);

    const found: Array<{ form: number; score: number }> = [];
    // A name that cannot be among the first `limit` is not worth its distance: once `limit` names are found,
    // the least of their scores is the bar. The names of the input's own length are scanned first, then
    // those a character longer or shorter: the closest names are likeliest there, and raise the bar soonest.
    const top = new Top(limit);
    for (const l of [len, len - 1, len + 1, len - 2, len + 2]) {
      if (l < 1) continue;
      const longer = Math.max(len, l);
      // The most edits a name may be away and still score minScore.
      const most = Math.floor((1 - minScore) * longer + 1e-9);
      this.scan(this.byFirst, bucket(first, l), -1, q, longer, most, found, top);
      // names sharing the last letter but not the first (those were scanned above)
      this.scan(this.byLast, bucket(last, l), first, q, longer, most, found, top);
    }

    // One row per name: its strongest role.
    const best = new Map<string, Match>();
    for (const { form, score } of found) {
      for (let k = this.rowStart[form]!; k < this.rowStart[form + 1]!; k++) {
        const row = this.row(this.rowList[k]!, form);
        const seen = best.get(row.name);
        if (!seen || strongerRole(row, seen.row) < 0) best.set(row.name, { row, score });
      }
    }
    return [...best.values()].sort((a, b) => b.score - a.score
      || Number(official(b.row)) - Number(official(a.row))
      || b.row.last_msl - a.row.last_msl
      || (a.row.name < b.row.name ? -1 : a.row.name > b.row.name ? 1 : 0)).slice(0, limit);
  }

  /** Reads q's letters and bigrams into inputLevels and inputGrams, which scan() compares each form with. */
  private prepare(q: string): void {
    const old = this.prepared;
    for (let k = 1; k < old.length; k++) this.inputGrams[gramOf(old.charCodeAt(k - 1), old.charCodeAt(k))] = 0;
    for (let k = 1; k < q.length; k++) this.inputGrams[gramOf(q.charCodeAt(k - 1), q.charCodeAt(k))]! += 1;
    this.prepared = q;
    this.inputLevels.fill(0);
    levelsOf(q, this.inputLevels, 0);
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

  kindOf(row: number): NameRow['kind'] {
    return this.kinds[row]!;
  }

  lineageOf(row: number): number {
    return this.lineages[row]!;
  }

  currentNameOf(row: number): string | null {
    return this.currentNames[row]!;
  }

  /** 1 - Damerau-Levenshtein distance / the longer length of form i and the normal form q. */
  similarity(form: number, q: string): number {
    const f = this.forms[form]!;
    const longer = Math.max(f.length, q.length);
    if (longer === 0) return 1;
    // A form holding q (a search's substring matches, tens of thousands for a short query) is q with letters
    // added: as many edits as it has letters more, no fewer (the lengths differ by that), no table needed.
    const edits = f.length >= q.length && f.includes(q) ? f.length - q.length : this.distance(f, q, longer);
    return 1 - edits / longer;
  }

  /**
   * Every form within 2 characters of q's length that scores at least minScore against it, whatever its
   * first or last letter (a search ranks all of them; a suggestion, match(), needs only the likeliest).
   */
  close(q: string, minScore: number): Array<{ form: number; score: number }> {
    const found: Array<{ form: number; score: number }> = [];
    const len = q.length;
    if (!/^[a-z0-9]+$/.test(q)) return found;
    this.prepare(q);
    for (let l = Math.max(1, len - 2); l <= len + 2; l++) {
      const longer = Math.max(len, l);
      const most = Math.floor((1 - minScore) * longer + 1e-9);
      for (let c = 0; c < ALPHABET; c++) {
        this.scan(this.byFirst, bucket(c < 10 ? 48 + c : 87 + c, l), -1, q, longer, most, found, null);
      }
    }
    return found;
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
  private scan(buckets: Buckets, key: number, skipFirst: number, q: string,
    longer: number, most: number, found: Array<{ form: number; score: number }>, top: Top | null): void {
    const range = buckets.ranges.get(key);
    if (range === undefined) return;
    const { forms, levels, firsts } = buckets;
    const [q0, q1, q2, q3] = this.inputLevels as unknown as [number, number, number, number];
    const { gramStart, grams, inputGrams, takenGrams, takenStamp } = this;
    const inputGramCount = q.length - 1;
    let allowed = top ? Math.min(most, top.edits(longer)) : most;
    // a length's difference is as many edits at least
    if (Math.abs(bucketLength(key) - q.length) > allowed) return;
    const end = range + buckets.sizes.get(key)!;
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
      const edits = this.distance(this.forms[form]!, q, allowed);
      if (edits <= allowed) {
        const score = 1 - edits / longer;
        found.push({ form, score });
        if (top?.add(score)) allowed = Math.min(most, top.edits(longer));
      }
    }
  }

  private row(i: number, form: number): NameRow {
    return {
      name: this.names[i]!, name_norm: this.forms[form]!, kind: this.kinds[i]!, rank: this.ranks[i]!,
      lineage_id: this.lineages[i]!, current_name: this.currentNames[i]!, last_msl: this.lastMsls[i]!,
    };
  }

  /**
   * The Damerau-Levenshtein distance (adjacent transpositions, any edits between them: Lowrance and Wagner),
   * as DuckDB's damerau_levenshtein computes it, of what remains once the common prefix and suffix are set
   * aside (they cost nothing in an optimal alignment), when it is at most `most`; otherwise some number above
   * `most`. Only cells within `most` of the diagonal can be on a path that costs `most` or less, so only
   * they are computed (the rest count as more), and the work stops at a row whose every cell is already
   * more: no later cell costs less than the cheapest of the row before it.
   */
  private distance(a: string, b: string, most: number): number {
    let start = 0;
    let endA = a.length;
    let endB = b.length;
    while (start < endA && start < endB && a.charCodeAt(start) === b.charCodeAt(start)) start++;
    while (endA > start && endB > start && a.charCodeAt(endA - 1) === b.charCodeAt(endB - 1)) { endA--; endB--; }
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
    const bCodes = this.bCodes.length >= m ? this.bCodes : (this.bCodes = new Uint8Array(m * 2));
    for (let j = 0; j < m; j++) bCodes[j] = codeOf(b.charCodeAt(start + j));
    d[0] = inf;
    for (let i = 0; i <= n; i++) { d[(i + 1) * width] = inf; d[(i + 1) * width + 1] = i; }
    for (let j = 0; j <= m; j++) { d[j + 1] = inf; d[width + j + 1] = j; }
    for (let i = 1; i <= n; i++) {
      const ca = codeOf(a.charCodeAt(start + i - 1));
      const from = Math.max(1, i - most);
      const to = Math.min(m, i + most);
      // the cells just outside the band count as more than `most`, for the row after this one
      if (from > 1) d[(i + 1) * width + from] = over;
      if (to < m) d[(i + 1) * width + to + 2] = over;
      // the last column (before the band) where a's letter appears in b, as the full computation tracks it
      for (; passed < from - 1; passed++) lastColOf[bCodes[passed]!] = passed + 1;
      let lastColOfA = lastColOf[ca]!;
      let rowMin = over;
      for (let j = from; j <= to; j++) {
        const cb = bCodes[j - 1]!;
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

const bucket = (ch: number, len: number) => ch * 1024 + len;
const bucketLength = (key: number) => key % 1024;

/**
 * Forms grouped in buckets (a bucket's forms one after another), with what scan() reads of each form laid out
 * in the same order, so that a scan reads memory in order rather than each form's letters by its index.
 */
class Buckets {
  /** Where each bucket starts, and how many forms it has. */
  readonly ranges = new Map<number, number>();
  readonly sizes = new Map<number, number>();
  readonly forms: Int32Array;
  /** The level masks of each form (LEVELS per form: levelsOf), and its first letter (char code). */
  readonly levels: Int32Array;
  readonly firsts: Uint8Array;

  constructor(lists: Map<number, number[]>, formList: readonly string[], levels: Int32Array) {
    let n = 0;
    for (const list of lists.values()) n += list.length;
    this.forms = new Int32Array(n);
    this.levels = new Int32Array(n * LEVELS);
    this.firsts = new Uint8Array(n);
    let at = 0;
    for (const [key, list] of lists) {
      this.ranges.set(key, at);
      this.sizes.set(key, list.length);
      for (const form of list) {
        this.forms[at] = form;
        for (let level = 0; level < LEVELS; level++) this.levels[at * LEVELS + level] = levels[form * LEVELS + level]!;
        this.firsts[at] = formList[form]!.charCodeAt(0);
        at++;
      }
    }
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

/** Negative when a is the stronger role of a name than b: official, then the later release, then the lower lineage id. */
function strongerRole(a: NameRow, b: NameRow): number {
  return Number(official(b)) - Number(official(a)) || b.last_msl - a.last_msl || a.lineage_id - b.lineage_id;
}

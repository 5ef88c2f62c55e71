// The names closest to a misspelt one, from memory: every normal form of name_index held once, bucketed by
// first and by last letter and length. A name is a candidate as suggest.ts defines it (within 2 characters
// of the input's length, sharing its first letter, or else its last); most candidates are ruled out by two
// bounds no string distance can beat (the distinct letters one has and the other lacks, from a bit mask per
// name; then the letters the two do not have in common, counted), and the Damerau-Levenshtein distance, the
// costly part, is computed only for the few left, on what remains once the prefix and suffix they share are
// set aside, and only as far as it can still be within the edits the least score allows. DuckDB computed the same over every candidate pair, costlier by an order of
// magnitude (README, Soak); test/name-matcher.test.ts checks that both give the same suggestions. The rows
// are held as columns (a few bytes each, repeated strings once), not as an object each.

import type { Field, Image } from '../index-image.js';

/** Normal forms are [a-z0-9] (names.ts normaliseName): each letter or digit is one of 36 codes. */
const ALPHABET = 36;
const codeOf = (ch: number) => (ch <= 57 ? ch - 48 : ch - 87);
/** A letter's bit in a name's mask: the 26 letters a bit each, the digits folded onto 6 (a weaker bound, never a wrong one). */
const bitOf = (code: number) => 1 << (code < 10 ? code % 6 : code - 4);

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
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
  /** Letter counts of every form, ALPHABET per form. */
  private readonly counts: Uint8Array;
  /** The letters each form has, as bits (bitOf). */
  private readonly masks: Int32Array;
  /** The letters each form has twice or more, as bits. */
  private readonly twice: Int32Array;
  /** The first letter of each form (its char code). */
  private readonly firsts: Uint8Array;
  /** Form indexes by (first letter, length) and by (last letter, length). */
  private readonly byFirst = new Map<number, Int32Array>();
  private readonly byLast = new Map<number, Int32Array>();
  // Work arrays of the distance, grown to the longest pair seen.
  private matrix = new Int32Array(0);
  private readonly lastRowOf = new Int32Array(ALPHABET);
  private readonly inputCounts = new Int32Array(ALPHABET);

  private constructor(private readonly columns: Columns) {
    ({ forms: this.forms, rowStart: this.rowStart, rowList: this.rowList, names: this.names, lineages: this.lineages, lastMsls: this.lastMsls } = columns);
    this.kinds = Array.from(columns.kindCodes, (k) => columns.values[k]! as NameRow['kind']);
    this.ranks = Array.from(columns.rankCodes, (r) => columns.values[r]!);
    this.currentNames = Array.from(columns.currentCodes, (c) => (c < 0 ? null : columns.values[c]!));
    this.counts = new Uint8Array(this.forms.length * ALPHABET);
    this.masks = new Int32Array(this.forms.length);
    this.twice = new Int32Array(this.forms.length);
    this.firsts = new Uint8Array(this.forms.length);
    const byFirst = new Map<number, number[]>();
    const byLast = new Map<number, number[]>();
    this.forms.forEach((f, i) => {
      for (let k = 0; k < f.length; k++) {
        const code = codeOf(f.charCodeAt(k));
        this.counts[i * ALPHABET + code]! += 1;
        if (this.masks[i]! & bitOf(code)) this.twice[i]! |= bitOf(code);
        this.masks[i]! |= bitOf(code);
      }
      this.firsts[i] = f.charCodeAt(0);
      push(byFirst, bucket(f.charCodeAt(0), f.length), i);
      push(byLast, bucket(f.charCodeAt(f.length - 1), f.length), i);
    });
    for (const [key, list] of byFirst) this.byFirst.set(key, Int32Array.from(list));
    for (const [key, list] of byLast) this.byLast.set(key, Int32Array.from(list));
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
    const { mask, twice, letters } = this.prepare(q);

    const found: Array<{ form: number; score: number }> = [];
    for (let l = Math.max(1, len - 2); l <= len + 2; l++) {
      const longer = Math.max(len, l);
      // The most edits a name may be away and still score minScore.
      const most = Math.floor((1 - minScore) * longer + 1e-9);
      this.scan(this.byFirst.get(bucket(first, l)), -1, q, mask, twice, letters, longer, most, found);
      // names sharing the last letter but not the first (those were scanned above)
      this.scan(this.byLast.get(bucket(last, l)), first, q, mask, twice, letters, longer, most, found);
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

  /** Counts q's letters into inputCounts (which scan() reads); its letter bit-masks (once, twice) and the letters it has. */
  private prepare(q: string): { mask: number; twice: number; letters: number[] } {
    this.inputCounts.fill(0);
    let mask = 0;
    let twice = 0;
    for (let k = 0; k < q.length; k++) {
      const code = codeOf(q.charCodeAt(k));
      this.inputCounts[code]! += 1;
      if (mask & bitOf(code)) twice |= bitOf(code);
      mask |= bitOf(code);
    }
    const letters: number[] = [];
    for (let c = 0; c < ALPHABET; c++) if (this.inputCounts[c]! > 0) letters.push(c);
    return { mask, twice, letters };
  }

  /** The normal forms held, by index. */
  get formList(): readonly string[] {
    return this.forms;
  }

  /** The rows of name_index whose normal form is form i. */
  rowsOf(form: number): NameRow[] {
    const out: NameRow[] = [];
    for (let k = this.rowStart[form]!; k < this.rowStart[form + 1]!; k++) out.push(this.row(this.rowList[k]!, form));
    return out;
  }

  /** 1 - Damerau-Levenshtein distance / the longer length of form i and the normal form q. */
  similarity(form: number, q: string): number {
    const f = this.forms[form]!;
    const longer = Math.max(f.length, q.length);
    return longer === 0 ? 1 : 1 - this.distance(f, q, longer) / longer;
  }

  /**
   * Every form within 2 characters of q's length that scores at least minScore against it, whatever its
   * first or last letter (a search ranks all of them; a suggestion, match(), needs only the likeliest).
   */
  close(q: string, minScore: number): Array<{ form: number; score: number }> {
    const found: Array<{ form: number; score: number }> = [];
    const len = q.length;
    if (!/^[a-z0-9]+$/.test(q)) return found;
    const { mask, twice, letters } = this.prepare(q);
    for (let l = Math.max(1, len - 2); l <= len + 2; l++) {
      const longer = Math.max(len, l);
      const most = Math.floor((1 - minScore) * longer + 1e-9);
      for (let c = 0; c < ALPHABET; c++) {
        this.scan(this.byFirst.get(bucket(c < 10 ? 48 + c : 87 + c, l)), -1, q, mask, twice, letters, longer, most, found);
      }
    }
    return found;
  }

  /**
   * Scores the forms of one bucket (of one length) against q, adding those within `most` edits to found;
   * skipFirst: a first letter whose forms were scanned already. The hot loop of a batch of misspelt names,
   * so it reads typed arrays only. Every letter one has and the other lacks costs at least one edit (a
   * transposition moves none): first the distinct letters and those held twice (bit counts), then every occurrence.
   */
  private scan(forms: Int32Array | undefined, skipFirst: number, q: string, mask: number, twice: number, letters: readonly number[],
    longer: number, most: number, found: Array<{ form: number; score: number }>): void {
    if (!forms) return;
    const { masks, counts, inputCounts, firsts } = this;
    const twices = this.twice;
    for (let k = 0; k < forms.length; k++) {
      const form = forms[k]!;
      if (firsts[form] === skipFirst) continue;
      const other = masks[form]!;
      // a letter one has and the other lacks, or has twice where the other has it once, is an edit at least
      const other2 = twices[form]!;
      if (popcount(mask & ~other) + popcount(twice & ~other2 & other) > most
        || popcount(other & ~mask) + popcount(other2 & ~twice & mask) > most) continue;
      let common = 0;
      const base = form * ALPHABET;
      for (let c = 0; c < letters.length; c++) {
        const code = letters[c]!;
        const x = counts[base + code]!;
        const y = inputCounts[code]!;
        common += x < y ? x : y;
      }
      if (longer - common > most) continue;
      const edits = this.distance(this.forms[form]!, q, most);
      if (edits <= most) found.push({ form, score: 1 - edits / longer });
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
      let lastColOfA = 0;
      // the last column (before the band) where a's letter appears in b, as the full computation tracks it
      for (let j = 1; j < from; j++) if (codeOf(b.charCodeAt(start + j - 1)) === ca) lastColOfA = j;
      let rowMin = over;
      for (let j = from; j <= to; j++) {
        const cb = codeOf(b.charCodeAt(start + j - 1));
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

function push(map: Map<number, number[]>, key: number, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Negative when a is the stronger role of a name than b: official, then the later release, then the lower lineage id. */
function strongerRole(a: NameRow, b: NameRow): number {
  return Number(official(b)) - Number(official(a)) || b.last_msl - a.last_msl || a.lineage_id - b.lineage_id;
}

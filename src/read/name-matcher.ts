// The names closest to a misspelt one, from memory: every normal form of name_index held once, bucketed by
// first and by last letter and length. A name is a candidate as suggest.ts defines it (within 2 characters
// of the input's length, sharing its first letter, or else its last); most candidates are ruled out by a
// bound no string distance can beat (the letters the two do not have in common), and the Damerau-Levenshtein
// distance, the costly part, is computed only for the few left, on what remains once the prefix and suffix
// they share are set aside. DuckDB computed the same over every candidate pair, costlier by an order of
// magnitude (README, Soak); test/name-matcher.test.ts checks that both give the same suggestions. The rows
// are held as columns (a few bytes each, repeated strings once), not as an object each.

/** Normal forms are [a-z0-9] (names.ts normaliseName): each letter or digit is one of 36 codes. */
const ALPHABET = 36;
const codeOf = (ch: number) => (ch <= 57 ? ch - 48 : ch - 87);

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

export class NameMatcher {
  /** Distinct normal forms, and the rows of each (indexes into the columns below). */
  private readonly forms: string[];
  private readonly rowsOf: number[][];
  private readonly names: string[];
  private readonly kinds: NameRow['kind'][];
  private readonly ranks: string[];
  private readonly lineages: Int32Array;
  private readonly currentNames: Array<string | null>;
  private readonly lastMsls: Int16Array;
  /** Letter counts of every form, ALPHABET per form. */
  private readonly counts: Uint8Array;
  /** Form indexes by (first letter, length) and by (last letter, length). */
  private readonly byFirst = new Map<number, number[]>();
  private readonly byLast = new Map<number, number[]>();
  // Work arrays of the distance, grown to the longest pair seen.
  private matrix = new Int32Array(0);
  private readonly lastRowOf = new Int32Array(ALPHABET);
  private readonly inputCounts = new Int32Array(ALPHABET);

  /** text: every row of name_index as suggest.ts reads it, fields apart by US (0x1f), rows by RS (0x1e). */
  constructor(text: string) {
    const index = new Map<string, number>();
    const once = new Map<string, string>();
    const intern = (v: string) => once.get(v) ?? (once.set(v, v), v);
    const lines = text.split('\x1e');
    this.forms = [];
    this.rowsOf = [];
    this.names = [];
    this.kinds = [];
    this.ranks = [];
    this.currentNames = [];
    this.lineages = new Int32Array(lines.length);
    this.lastMsls = new Int16Array(lines.length);
    for (const line of lines) {
      const fields = line.split('\x1f');
      // A field of NULL would be left out by concat_ws and shift the rest.
      if (fields.length !== 8) throw new Error(`name_index row with ${fields.length} fields, not 8: ${fields.join(' | ')}`);
      const [name, form, kind, rank, lineage, current, lastMsl, noCurrent] = fields;
      if (!/^[a-z0-9]+$/.test(form ?? '')) continue;
      const row = this.names.length;
      this.names.push(name!);
      this.kinds.push(intern(kind!) as NameRow['kind']);
      this.ranks.push(intern(rank!));
      this.currentNames.push(noCurrent === '1' ? null : intern(current!));
      this.lineages[row] = Number(lineage);
      this.lastMsls[row] = Number(lastMsl);
      let i = index.get(form!);
      if (i === undefined) {
        i = this.forms.length;
        index.set(form!, i);
        this.forms.push(form!);
        this.rowsOf.push([]);
      }
      this.rowsOf[i]!.push(row);
    }
    this.counts = new Uint8Array(this.forms.length * ALPHABET);
    this.forms.forEach((f, i) => {
      for (let k = 0; k < f.length; k++) this.counts[i * ALPHABET + codeOf(f.charCodeAt(k))]! += 1;
      push(this.byFirst, bucket(f.charCodeAt(0), f.length), i);
      push(this.byLast, bucket(f.charCodeAt(f.length - 1), f.length), i);
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
    this.inputCounts.fill(0);
    for (let k = 0; k < len; k++) this.inputCounts[codeOf(q.charCodeAt(k))]! += 1;
    const letters: number[] = [];
    for (let c = 0; c < ALPHABET; c++) if (this.inputCounts[c]! > 0) letters.push(c);

    const found: Array<{ form: number; score: number }> = [];
    const consider = (form: number, formLen: number) => {
      const longer = Math.max(len, formLen);
      // The most edits a name may be away and still score minScore.
      const most = Math.floor((1 - minScore) * longer + 1e-9);
      // Every letter one has and the other lacks costs at least one edit (a transposition moves none).
      let common = 0;
      const base = form * ALPHABET;
      for (const c of letters) common += Math.min(this.counts[base + c]!, this.inputCounts[c]!);
      if (longer - common > most) return;
      const score = 1 - this.distance(this.forms[form]!, q) / longer;
      if (score >= minScore) found.push({ form, score });
    };
    for (let l = Math.max(1, len - 2); l <= len + 2; l++) {
      for (const f of this.byFirst.get(bucket(first, l)) ?? []) consider(f, l);
      for (const f of this.byLast.get(bucket(last, l)) ?? []) if (this.forms[f]!.charCodeAt(0) !== first) consider(f, l);
    }

    // One row per name: its strongest role.
    const best = new Map<string, Match>();
    for (const { form, score } of found) {
      for (const i of this.rowsOf[form]!) {
        const row = this.row(i, form);
        const seen = best.get(row.name);
        if (!seen || strongerRole(row, seen.row) < 0) best.set(row.name, { row, score });
      }
    }
    return [...best.values()].sort((a, b) => b.score - a.score
      || Number(official(b.row)) - Number(official(a.row))
      || b.row.last_msl - a.row.last_msl
      || (a.row.name < b.row.name ? -1 : a.row.name > b.row.name ? 1 : 0)).slice(0, limit);
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
   * aside (they cost nothing in an optimal alignment).
   */
  private distance(a: string, b: string): number {
    let start = 0;
    let endA = a.length;
    let endB = b.length;
    while (start < endA && start < endB && a.charCodeAt(start) === b.charCodeAt(start)) start++;
    while (endA > start && endB > start && a.charCodeAt(endA - 1) === b.charCodeAt(endB - 1)) { endA--; endB--; }
    const n = endA - start;
    const m = endB - start;
    if (n === 0) return m;
    if (m === 0) return n;
    const width = m + 2;
    if (this.matrix.length < (n + 2) * width) this.matrix = new Int32Array((n + 2) * width * 2);
    const d = this.matrix;
    const inf = n + m;
    this.lastRowOf.fill(0);
    d[0] = inf;
    for (let i = 0; i <= n; i++) { d[(i + 1) * width] = inf; d[(i + 1) * width + 1] = i; }
    for (let j = 0; j <= m; j++) { d[j + 1] = inf; d[width + j + 1] = j; }
    for (let i = 1; i <= n; i++) {
      const ca = codeOf(a.charCodeAt(start + i - 1));
      let lastColOfA = 0;
      for (let j = 1; j <= m; j++) {
        const cb = codeOf(b.charCodeAt(start + j - 1));
        const i1 = this.lastRowOf[cb]!;
        const j1 = lastColOfA;
        let cost = 1;
        if (ca === cb) {
          cost = 0;
          lastColOfA = j;
        }
        d[(i + 1) * width + j + 1] = Math.min(
          d[i * width + j]! + cost,
          d[(i + 1) * width + j]! + 1,
          d[i * width + j + 1]! + 1,
          d[i1 * width + j1]! + (i - i1 - 1) + 1 + (j - j1 - 1),
        );
      }
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

// Names for a search box, as one types: every name of name_index (species, VMR virus names and abbreviations,
// higher taxa, of every release) whose words begin with the words typed, each word allowed one typo once it
// has four letters ("tobaco mosaic" finds Tobacco mosaic virus). suggest.ts answers a different question (the
// whole name misspelt, for a 404); this one matches beginnings of words, as a text still being typed is.
import { Image, writeImage } from '../store/index-image.js';
import { eachInSlices } from './slices.js';
import type { Store } from '../store/store.js';
import type { NameHit } from './names.js';

export interface TypeaheadHit {
  name: string;
  kind: NameHit['kind'];
  rank: string;
  /** The taxon's name in the latest release; null when its lineage ended earlier. */
  current_name: string | null;
  /** Typos needed to match (0: every word typed begins a word of the name). */
  typos: number;
}

/**
 * Every name of name_index, packed: its text, current name and words in three flat strings with offsets, its
 * kind and rank as codes. Tens of thousands of small objects (a name, its words) would stay in the V8 heap for
 * every major collection to walk; these are a handful of strings and typed arrays.
 */
interface Names {
  count: number;
  text: string;
  textStart: Int32Array;
  current: string;
  currentStart: Int32Array;
  kinds: Array<NameHit['kind']>;
  kind: Uint8Array;
  ranks: string[];
  rank: Uint8Array;
  /** The words of every name, each followed by a space; word w is words[wordStart[w]] .. before wordStart[w + 1] - 1. */
  words: string;
  wordStart: Int32Array;
  /** Name i's words are firstWord[i] .. firstWord[i + 1] - 1. */
  firstWord: Int32Array;
  /** The first letters of its words (initialBits): a typed word never matches a word of another initial. */
  initials: Int32Array;
}

/** Shorter words are matched exactly: one typo in three letters matches too much to be a suggestion. */
const MIN_TYPO_LENGTH = 4;
/** The order of kinds among equally good matches: official names before the names of isolates. */
const KIND_ORDER: Record<string, number> = { species: 0, taxon: 1, virus_name: 2, abbreviation: 3 };

const NAMES_SQL = `
  SELECT string_agg(concat_ws(chr(31), name, kind, rank, coalesce(current_name, '')), chr(30)) AS text
  FROM main.name_index`;

const loaded = new WeakMap<Store, Promise<Names>>();

/** One bit per initial letter (digits share one): a name is a candidate only if it has every typed word's. */
function initialBits(words: readonly string[]): number {
  let bits = 0;
  for (const w of words) {
    const c = w.charCodeAt(0) - 97;
    bits |= 1 << (c >= 0 && c < 26 ? c : 26);
  }
  return bits;
}

/** The words of a name as matched: accents dropped, lower case, split at anything not a letter or digit. */
export function nameWords(name: string): string[] {
  return name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
}

/** Codes of the distinct values of a column, in order of first appearance. */
function coder<T extends string>(): { codes: T[]; code(value: T): number } {
  const codes: T[] = [];
  const index = new Map<T, number>();
  return {
    codes,
    code: (value) => index.get(value) ?? (index.set(value, codes.length), codes.push(value) - 1),
  };
}

function packNames(rows: string[]): Names {
  const count = rows.length;
  const textStart = new Int32Array(count + 1);
  const currentStart = new Int32Array(count + 1);
  const kind = new Uint8Array(count);
  const rank = new Uint8Array(count);
  const firstWord = new Int32Array(count + 1);
  const initials = new Int32Array(count);
  const kinds = coder<NameHit['kind']>();
  const ranks = coder<string>();
  const text: string[] = [];
  const current: string[] = [];
  const words: string[] = [];
  const wordStarts: number[] = [0];
  let textAt = 0;
  let currentAt = 0;
  let wordAt = 0;
  rows.forEach((row, i) => {
    const [name, k, r, now] = row.split('\x1f') as [string, NameHit['kind'], string, string];
    const own = nameWords(name);
    text.push(name);
    textStart[i] = textAt;
    textAt += name.length;
    current.push(now);
    currentStart[i] = currentAt;
    currentAt += now.length;
    kind[i] = kinds.code(k);
    rank[i] = ranks.code(r);
    firstWord[i] = wordStarts.length - 1;
    initials[i] = initialBits(own);
    for (const w of own) {
      words.push(w, ' ');
      wordAt += w.length + 1;
      wordStarts.push(wordAt);
    }
  });
  textStart[count] = textAt;
  currentStart[count] = currentAt;
  firstWord[count] = wordStarts.length - 1;
  return {
    count, text: text.join(''), textStart, current: current.join(''), currentStart,
    kinds: kinds.codes, kind, ranks: ranks.codes, rank,
    words: words.join(''), wordStart: Int32Array.from(wordStarts), firstWord, initials,
  };
}

/** Names as index-image.ts reads them back. */
function readNames(image: Image): Names {
  return {
    count: image.json('count'), text: image.json('text'), textStart: image.i32('textStart'), current: image.json('current'),
    currentStart: image.i32('currentStart'), kinds: image.json('kinds'), kind: image.u8('kind'), ranks: image.json('ranks'),
    rank: image.u8('rank'), words: image.json('words'), wordStart: image.i32('wordStart'), firstWord: image.i32('firstWord'),
    initials: image.i32('initials'),
  };
}

/**
 * Loads the names of a store (documents.ts, when it opens): taken over from the store it replaces when that
 * is of the same build, else read from its snapshot, or else from name_index.
 */
export async function loadTypeahead(store: Store, previous?: Store): Promise<Names> {
  let names = previous?.buildId === store.buildId ? loaded.get(previous) : loaded.get(store);
  const saved = store.savedImage('typeahead');
  if (!names && saved) names = Promise.resolve(readNames(new Image(saved)));
  names ??= store.query<{ text: string }>(NAMES_SQL).then(([row]) => {
    const text = row?.text ?? '';
    return packNames(text === '' ? [] : text.split('\x1e'));
  });
  loaded.set(store, names);
  const ready = await names;
  store.keepImage('typeahead', () => writeImage({ ...ready }));
  return ready;
}

/** Typos to turn typed into the beginning of word w (0 or 1), or null when one is not enough. */
function prefixTypos(typed: string, names: Names, w: number): number | null {
  const at = names.wordStart[w]!;
  const end = names.wordStart[w + 1]! - 1;
  if (typed.length <= end - at && names.words.startsWith(typed, at)) return 0;
  if (typed.length < MIN_TYPO_LENGTH || names.words[at] !== typed[0]) return null;
  const word = names.words.slice(at, end);
  // the typed text may be one letter short of, one over, or as long as the beginning it stands for
  for (const len of [typed.length, typed.length + 1, typed.length - 1]) {
    if (len <= word.length && withinOneEdit(typed, word.slice(0, len))) return 1;
  }
  return null;
}

/** Damerau-Levenshtein distance <= 1 (one insertion, deletion, substitution or swap of neighbours). */
function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (i === a.length) return true;
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** Typos for the typed words to begin distinct words of name i, in any order, or null. */
function match(typed: string[], names: Names, i: number): number | null {
  const first = names.firstWord[i]!;
  const used = new Array<boolean>(names.firstWord[i + 1]! - first).fill(false);
  let typos = 0;
  for (const t of typed) {
    let best: number | null = null;
    let at = -1;
    for (let j = 0; j < used.length && best !== 0; j++) {
      if (used[j]) continue;
      const n = prefixTypos(t, names, first + j);
      if (n !== null && (best === null || n < best)) { best = n; at = j; }
    }
    if (best === null) return null;
    used[at] = true;
    typos += best;
  }
  return typos;
}

/**
 * Up to limit names for the text typed, fewest typos first, then official names, current ones, shorter ones;
 * each name once for where it leads (now, when it still leads somewhere).
 */
export async function typeahead(store: Store, text: string, limit: number): Promise<TypeaheadHit[]> {
  const typed = nameWords(text);
  if (typed.length === 0) return [];
  const initials = initialBits(typed);
  const hits: TypeaheadHit[] = [];
  const names = await loaded.get(store);
  if (!names) throw new Error('the typeahead names of this store were not loaded');
  await eachInSlices(names.initials, (bits, i) => {
    if ((bits & initials) !== initials) return;
    const typos = match(typed, names, i);
    if (typos === null) return;
    const current = names.current.slice(names.currentStart[i], names.currentStart[i + 1]);
    hits.push({
      name: names.text.slice(names.textStart[i], names.textStart[i + 1]), kind: names.kinds[names.kind[i]!]!,
      rank: names.ranks[names.rank[i]!]!, current_name: current || null, typos,
    });
  });
  hits.sort((a, b) => a.typos - b.typos
    || (KIND_ORDER[a.kind] ?? 9) - (KIND_ORDER[b.kind] ?? 9)
    || Number(a.current_name === null) - Number(b.current_name === null)
    || a.name.length - b.name.length
    || a.name.localeCompare(b.name));
  // One row per name and where it leads: a name also held by a lineage that ended long ago (Zika virus, a
  // species abolished in MSL14 and another from MSL18 on) is offered for where it leads now, and the same
  // name under two kinds (a species and a VMR virus name) once.
  const leadsSomewhere = new Set(hits.filter((h) => h.current_name !== null).map((h) => h.name.toLowerCase()));
  const offered = new Set<string>();
  return hits.filter((h) => {
    const name = h.name.toLowerCase();
    if (h.current_name === null && leadsSomewhere.has(name)) return false;
    const key = `${name}\u0000${h.current_name}`;
    if (offered.has(key)) return false;
    offered.add(key);
    return true;
  }).slice(0, limit);
}

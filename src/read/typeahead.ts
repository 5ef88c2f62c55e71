// Names for a search box, as one types: every name of name_index (species, VMR virus names and abbreviations,
// higher taxa, of every release) whose words begin with the words typed, each word allowed one typo once it
// has four letters ("tobaco mosaic" finds Tobacco mosaic virus). suggest.ts answers a different question (the
// whole name misspelt, for a 404); this one matches beginnings of words, as a text still being typed is.
import { eachInSlices } from '../slices.js';
import type { Store } from '../store.js';
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

interface Entry {
  name: string;
  kind: NameHit['kind'];
  rank: string;
  current_name: string | null;
  words: string[];
  /** The first letters of its words (initialBits): a typed word never matches a word of another initial. */
  initials: number;
}

/** Shorter words are matched exactly: one typo in three letters matches too much to be a suggestion. */
const MIN_TYPO_LENGTH = 4;
/** The order of kinds among equally good matches: official names before the names of isolates. */
const KIND_ORDER: Record<string, number> = { species: 0, taxon: 1, virus_name: 2, abbreviation: 3 };

const NAMES_SQL = `
  SELECT string_agg(concat_ws(chr(31), name, kind, rank, coalesce(current_name, '')), chr(30)) AS text
  FROM main.name_index`;

const entries = new WeakMap<Store, Promise<Entry[]>>();

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

/** Loads the names of a store (documents.ts, when it opens) or takes them over from the store it replaces. */
export function loadTypeahead(store: Store, previous?: Store): Promise<Entry[]> {
  let list = previous?.buildId === store.buildId ? entries.get(previous) : entries.get(store);
  if (!list) {
    list = store.query<{ text: string }>(NAMES_SQL).then(([row]) => (row?.text ?? '').split('\x1e').map((r) => {
      const [name, kind, rank, current] = r.split('\x1f') as [string, NameHit['kind'], string, string];
      const words = nameWords(name);
      return { name, kind, rank, current_name: current || null, words, initials: initialBits(words) };
    }));
  }
  entries.set(store, list);
  return list;
}

/** Typos to turn typed into a beginning of word (0 or 1), or null when one is not enough. */
function prefixTypos(typed: string, word: string): number | null {
  if (word.startsWith(typed)) return 0;
  if (typed.length < MIN_TYPO_LENGTH || word[0] !== typed[0]) return null;
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

/** Typos for the typed words to begin distinct words of the name, in any order, or null. */
function match(typed: string[], words: string[]): number | null {
  const used = new Array<boolean>(words.length).fill(false);
  let typos = 0;
  for (const t of typed) {
    let best: number | null = null;
    let at = -1;
    for (let j = 0; j < words.length && best !== 0; j++) {
      if (used[j]) continue;
      const n = prefixTypos(t, words[j]!);
      if (n !== null && (best === null || n < best)) { best = n; at = j; }
    }
    if (best === null) return null;
    used[at] = true;
    typos += best;
  }
  return typos;
}

/** Up to limit names for the text typed, fewest typos first, then official names, current ones, shorter ones. */
export async function typeahead(store: Store, text: string, limit: number): Promise<TypeaheadHit[]> {
  const typed = nameWords(text);
  if (typed.length === 0) return [];
  const initials = initialBits(typed);
  const hits: TypeaheadHit[] = [];
  await eachInSlices(await loadTypeahead(store), (e) => {
    if ((e.initials & initials) !== initials) return;
    const typos = match(typed, e.words);
    if (typos !== null) hits.push({ name: e.name, kind: e.kind, rank: e.rank, current_name: e.current_name, typos });
  });
  hits.sort((a, b) => a.typos - b.typos
    || (KIND_ORDER[a.kind] ?? 9) - (KIND_ORDER[b.kind] ?? 9)
    || Number(a.current_name === null) - Number(b.current_name === null)
    || a.name.length - b.name.length
    || a.name.localeCompare(b.name));
  return hits.slice(0, limit);
}

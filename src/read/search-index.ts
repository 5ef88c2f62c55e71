// Search from memory: what GET /api/v1/search and the /search endpoints match and rank, answered without
// DuckDB. Loaded with the store (documents.ts), so no request waits for it.
//
// GET /api/v1/search reads api_search: each (release, species) row's keys (every name its lineage carried,
// family, genus, order, realm, host source, lower-cased) are held as ids into one list of distinct strings,
// with a trigram index (substring-index.ts) over that list and, for each string, the rows that hold it. A
// search finds the strings containing the text, then the rows of the release that hold one in the field
// asked, and ranks them as the DuckDB query did (projections/api_search.sql). The rows' result JSON is held
// as bytes, outside the V8 heap.
//
// The /search endpoints match normal forms of name_index: the name matcher's forms (suggest.ts), with a
// trigram index over them for prefixes and substrings and the matcher's own scan for misspellings.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { Image, writeImage, type Field } from '../store/index-image.js';
import { jsonArray } from './json-text.js';
import type { Store } from '../store/store.js';
import { releases } from './releases.js';
import { nameMatcher } from './suggest.js';
import { recentAnswers } from './recent.js';
import { similarityOf, SpeciesRanker, tierOf, type LatestSpecies, type MatchingForms } from './species-ranking.js';
import { SubstringIndex } from './substring-index.js';

export type SearchField = 'name' | 'family' | 'host' | 'all';

/**
 * api_search's rows of one release in species order: species name, how many of its keys are names, family,
 * host, every key (all_key: names first, joined by US), apart by RS, rows apart by GS; and their result JSON,
 * apart by RS (JSON text escapes control characters). Read a release at a time: the native memory of a
 * result is freed only when V8 collects it.
 */
const RELEASE_SQL = `
  SELECT encode(string_agg(concat_ws(chr(30), coalesce(name_key, ''), len(string_split(names_key, chr(31))),
                                     coalesce(family_key, ''), coalesce(host_key, ''), coalesce(all_key, '')),
                           chr(29) ORDER BY species)),
         encode(string_agg(result, chr(30) ORDER BY species))
  FROM main.api_search WHERE msl = $1`;

/**
 * Ranked rows of recent searches are kept up to about this many bytes in all (recent.ts): a page after the
 * first, or the same text typed again, costs a slice of a kept list.
 */
const CACHED_ROW_BYTES = 1 << 22;

/** Pages of results of recent searches are kept up to about this many bytes in all. */
const CACHED_PAGE_BYTES = 1 << 22;

/**
 * Rows per deflated block of result JSON: neighbouring rows (one release's species in order) compress well
 * together, and a page of results inflates only the blocks its rows are in.
 */
const RESULT_BLOCK = 64;

/** CSR lists: the items of list i are items[start[i]] .. items[start[i + 1] - 1]. */
interface Lists {
  start: Int32Array;
  items: Int32Array;
}

/** Lists built in two passes (count, then fill) from a walk that gives each (list, item) pair once, items ascending. */
function listsOf(n: number, walk: (add: (list: number, item: number) => void) => void): Lists {
  const start = new Int32Array(n + 1);
  walk((list) => { start[list + 1]! += 1; });
  for (let i = 0; i < n; i++) start[i + 1]! += start[i]!;
  const items = new Int32Array(start[n]!);
  const fill = start.slice(0, n);
  walk((list, item) => { items[fill[list]!++] = item; });
  return { start, items };
}

/** What a ReleaseSearch is made of: built from api_search (ReleaseSearch.of) or read back from an index image. */
interface Parts {
  /** Every distinct key (names, family, genus, order, realm, host source, lower-cased), with its trigram index. */
  strings: SubstringIndex;
  /** Each release's rows: [msl, from, to). */
  releases: Array<[number, number, number]>;
  nameKey: Int32Array;
  family: Int32Array;
  host: Int32Array;
  /** Key set k's keys (string ids), its names first (nameCount[k] of them). */
  keys: Lists;
  nameCount: Int32Array;
  /** The first and last row of each key set (a lineage's releases are a run of rows' releases). */
  setFirstRow: Int32Array;
  setLastRow: Int32Array;
  /** The key sets holding string s; each row's key set. */
  setsOf: Lists;
  setOfRow: Int32Array;
  /** Rows' result JSON, deflated RESULT_BLOCK rows at a time (a page of results inflates a few blocks). */
  resultBlocks: Buffer;
  blockStart: Int32Array;
  /** Where row r's result starts in the results laid end to end (inflated), each followed by RS. */
  resultStart: Int32Array;
}

/** The typed-array fields of Parts, saved and read back as they are. */
const ARRAYS = ['nameKey', 'family', 'host', 'nameCount', 'setFirstRow', 'setLastRow', 'setOfRow', 'blockStart', 'resultStart'] as const;

export class ReleaseSearch {
  readonly strings: SubstringIndex;
  /** Rows of each release: [from, to). */
  private readonly releases = new Map<number, [number, number]>();
  private readonly nameKey: Int32Array;
  private readonly family: Int32Array;
  private readonly host: Int32Array;
  private readonly keys: Lists;
  private readonly nameCount: Int32Array;
  private readonly setFirstRow: Int32Array;
  private readonly setLastRow: Int32Array;
  private readonly setsOf: Lists;
  private readonly setOfRow: Int32Array;
  private readonly resultBlocks: Buffer;
  private readonly blockStart: Int32Array;
  private readonly resultStart: Int32Array;
  private lastBlock: { index: number; bytes: Buffer } | null = null;
  // Work arrays of a search.
  private readonly flagged: Uint8Array;
  private readonly seen: Uint8Array;
  private readonly state: Uint8Array;
  private readonly cache = recentAnswers<Int32Array>(CACHED_ROW_BYTES, (ranked) => ranked.byteLength);
  private readonly pages = recentAnswers<{ total: number; results: Buffer }>(CACHED_PAGE_BYTES, (page) => page.results.length);
  /** The latest release's species in species order (POST /search/species ranks them). */
  readonly latest: LatestSpecies[];

  private constructor(parts: Parts) {
    ({
      strings: this.strings, nameKey: this.nameKey, family: this.family, host: this.host, keys: this.keys, nameCount: this.nameCount,
      setFirstRow: this.setFirstRow, setLastRow: this.setLastRow, setsOf: this.setsOf, setOfRow: this.setOfRow,
      resultBlocks: this.resultBlocks, blockStart: this.blockStart, resultStart: this.resultStart,
    } = parts);
    for (const [msl, from, to] of parts.releases) this.releases.set(msl, [from, to]);
    this.flagged = new Uint8Array(this.strings.size);
    this.seen = new Uint8Array(this.nameCount.length);
    this.state = new Uint8Array(this.nameCount.length);
    this.latest = [];
    const last = Math.max(...this.releases.keys());
    const [from, to] = this.releases.get(last) ?? [0, 0];
    for (let r = from; r < to; r++) {
      const doc = this.result(r) as { scientific_name: string; family: string | null; genus: string | null; realm: string | null };
      this.latest.push({
        name: doc.scientific_name, family: doc.family, genus: doc.genus, realm: doc.realm,
        familyKey: this.strings.string(this.family[r]!), genusKey: (doc.genus ?? '').toLowerCase(),
      });
    }
  }

  /** releases: each release's rows and results as RELEASE_SQL reads them, in release order. */
  static of(releases: Array<{ msl: number; rows: string; results: Buffer }>): ReleaseSearch {
    const ids = new Map<string, number>();
    const list: string[] = [];
    const intern = (s: string) => ids.get(s) ?? (ids.set(s, list.length), list.push(s) - 1);
    // key sets by their text: a lineage keeps its names from release to release, so most rows share one
    const setIds = new Map<string, number>();
    const setKeys: number[][] = [];
    const nameCounts: number[] = [];
    const lines = releases.flatMap((r) => (r.rows.length > 0 ? r.rows.split('\x1d') : []));
    const n = lines.length;
    const nameKey = new Int32Array(n);
    const family = new Int32Array(n);
    const host = new Int32Array(n);
    const setOfRow = new Int32Array(n);
    const spans: Array<[number, number, number]> = [];
    let r = 0;
    for (const { msl, rows } of releases) {
      const count = rows.length > 0 ? rows.split('\x1d').length : 0;
      if (count > 0) spans.push([msl, r, r + count]);
      r += count;
    }
    lines.forEach((line, row) => {
      const fields = line.split('\x1e');
      if (fields.length !== 5) throw new Error(`api_search row with ${fields.length} fields, not 5: ${fields.join(' | ')}`);
      const [key, names, fam, hst, all] = fields as [string, string, string, string, string];
      nameKey[row] = intern(key);
      family[row] = intern(fam);
      host[row] = intern(hst);
      const setText = `${names}\x1e${all}`;
      let set = setIds.get(setText);
      if (set === undefined) {
        set = setKeys.length;
        setIds.set(setText, set);
        // names are distinct and first: a key also found later (a genus named as a species) stays a name
        setKeys.push([...new Set(all.split('\x1f').map(intern))]);
        nameCounts.push(Number(names));
      }
      setOfRow[row] = set;
    });
    const setFirstRow = new Int32Array(setKeys.length).fill(n);
    const setLastRow = new Int32Array(setKeys.length).fill(-1);
    for (let row = 0; row < n; row++) {
      const k = setOfRow[row]!;
      if (row < setFirstRow[k]!) setFirstRow[k] = row;
      setLastRow[k] = row;
    }

    const results = Buffer.concat(releases.flatMap((x, i) => (i === 0 ? [x.results] : [Buffer.from([0x1e]), x.results])));
    const resultStart = new Int32Array(n + 1);
    let at = 0;
    for (let row = 0; row < n; row++) {
      resultStart[row] = at;
      const end = results.indexOf(0x1e, at);
      at = end < 0 ? results.length + 1 : end + 1;
    }
    resultStart[n] = at;
    if (at !== results.length + 1) throw new Error(`api_search: ${n} rows but more results`);
    // one buffer for all blocks: zlib's answer for each is a slice of a chunk several times its size
    const blocks: Buffer[] = [];
    for (let row = 0; row < n; row += RESULT_BLOCK) {
      const end = resultStart[Math.min(n, row + RESULT_BLOCK)]!;
      blocks.push(deflateRawSync(results.subarray(resultStart[row]!, Math.min(end, results.length))));
    }
    const blockStart = new Int32Array(blocks.length + 1);
    blocks.forEach((b, i) => { blockStart[i + 1] = blockStart[i]! + b.length; });

    return new ReleaseSearch({
      strings: SubstringIndex.of(list), releases: spans, nameKey, family, host,
      keys: listsOf(setKeys.length, (add) => setKeys.forEach((keys, k) => { for (const s of keys) add(k, s); })),
      nameCount: Int32Array.from(nameCounts), setFirstRow, setLastRow,
      setsOf: listsOf(list.length, (add) => setKeys.forEach((keys, k) => { for (const s of keys) add(s, k); })),
      setOfRow, resultBlocks: Buffer.concat(blocks), blockStart, resultStart,
    });
  }

  /** Its fields for an index image (index-image.ts). */
  fields(): Record<string, Field> {
    const out: Record<string, Field> = {
      ...this.strings.fields('strings.'),
      releases: [...this.releases].map(([msl, [from, to]]) => [msl, from, to]),
      'keys.start': this.keys.start, 'keys.items': this.keys.items, 'setsOf.start': this.setsOf.start, 'setsOf.items': this.setsOf.items,
      resultBlocks: this.resultBlocks,
    };
    for (const name of ARRAYS) out[name] = this[name];
    return out;
  }

  static read(image: Image): ReleaseSearch {
    const arrays = Object.fromEntries(ARRAYS.map((name) => [name, image.i32(name)])) as Record<(typeof ARRAYS)[number], Int32Array>;
    return new ReleaseSearch({
      ...arrays,
      strings: SubstringIndex.read(image, 'strings.'),
      releases: image.json('releases'),
      keys: { start: image.i32('keys.start'), items: image.i32('keys.items') },
      setsOf: { start: image.i32('setsOf.start'), items: image.i32('setsOf.items') },
      resultBlocks: image.bytes('resultBlocks'),
    });
  }

  /** Row r's result as api_search renders it. */
  result(r: number): unknown {
    return JSON.parse(this.resultText(r).toString()) as unknown;
  }

  /** Row r's result as JSON text (as JSON.stringify writes it: api_search's json_object is compact too). */
  private resultText(r: number): Buffer {
    const index = Math.floor(r / RESULT_BLOCK);
    if (this.lastBlock?.index !== index) this.lastBlock = { index, bytes: inflateRawSync(this.resultBlocks.subarray(this.blockStart[index], this.blockStart[index + 1])) };
    const base = this.resultStart[index * RESULT_BLOCK]!;
    return this.lastBlock.bytes.subarray(this.resultStart[r]! - base, this.resultStart[r + 1]! - 1 - base);
  }

  /**
   * A page of search(): how many rows match, and the JSON array of the page's results, spliced from the
   * stored text (no object is made of them). The pages of recent searches are kept: a page inflates the
   * blocks its rows are in, each a zlib stream of its own.
   */
  page(msl: number, field: SearchField, term: string, limit: number, offset: number): { total: number; results: Buffer } {
    const key = `${msl}|${field}|${limit}|${offset}|${term}`;
    const kept = this.pages.get(key);
    if (kept) return kept;
    const { total, rows } = this.search(msl, field, term, limit, offset);
    // a buffer of its own: a small one from Buffer's shared pool would keep the pool's whole slab alive
    const text = jsonArray(rows.map((r) => this.resultText(r)));
    const page = { total, results: Buffer.allocUnsafeSlow(text.length) };
    text.copy(page.results);
    this.pages.set(key, page);
    return page;
  }

  /**
   * The rows of release msl whose `field` contains term (lower-cased), ranked as GET /api/v1/search ranks:
   * the species' own name equal to the text, then another of its names equal to it, then its own name
   * starting with it, then another name, then its own name containing it; then by species name.
   */
  search(msl: number, field: SearchField, term: string, limit: number, offset: number, matched?: number[]): { total: number; rows: number[] } {
    const ranked = this.ranked(msl, field, term, matched);
    const rows: number[] = [];
    for (let i = offset; i < Math.min(ranked.length, offset + limit); i++) rows.push(ranked[i]!);
    return { total: ranked.length, rows };
  }

  /**
   * The matching rows, best first, then in species order. matched: the keys that contain the term as another
   * index finds them (bench/search.ts compares indexes under the same ranking); uncached then.
   */
  private ranked(msl: number, field: SearchField, term: string, given?: number[]): Int32Array {
    const cacheKey = `${msl}|${field}|${term}`;
    const cached = given ? undefined : this.cache.get(cacheKey);
    if (cached) return cached;
    const range = this.releases.get(msl);
    if (!range) return new Int32Array(0);
    const [from, to] = range;
    const { flagged, seen, keys, strings } = this;
    const matched = given ?? strings.containing(term);
    const touched: number[] = [];
    for (const s of matched) {
      flagged[s] = 1;
      for (let i = this.setsOf.start[s]!; i < this.setsOf.start[s + 1]!; i++) {
        const k = this.setsOf.items[i]!;
        // a key set with no row in the release is passed over
        if (!seen[k] && this.setLastRow[k]! >= from && this.setFirstRow[k]! < to) {
          seen[k] = 1;
          touched.push(k);
        }
      }
    }
    // each touched key set's match: 1 | another name equal (2) | another name starting with the text (4)
    const { state } = this;
    for (const k of touched) {
      seen[k] = 0;
      const first = keys.start[k]!;
      const namesEnd = first + this.nameCount[k]!;
      // field=name and field=all are decided by the key set; family and host by each row
      let hit = field === 'family' || field === 'host';
      let bits = 0;
      for (let i = first; i < keys.start[k + 1]!; i++) {
        const s = keys.items[i]!;
        if (flagged[s] !== 1) continue;
        if (field === 'all' || i < namesEnd) hit = true;
        if (i < namesEnd) bits |= strings.is(s, term) ? 6 : strings.startsWith(s, term) ? 4 : 0;
      }
      if (hit) state[k] = 1 | bits;
    }
    // the release's rows in order, each put in the bucket of its rank: sorted without a sort
    const buckets: number[][] = Array.from({ length: 32 }, () => []);
    let total = 0;
    for (let r = from; r < to; r++) {
      const st = state[this.setOfRow[r]!]!;
      if (st === 0) continue;
      if (field === 'family' ? flagged[this.family[r]!] !== 1 : field === 'host' ? flagged[this.host[r]!] !== 1 : false) continue;
      const own = this.nameKey[r]!;
      const ownContains = flagged[own] === 1;
      const bits = (ownContains && strings.is(own, term) ? 16 : 0) | ((st & 2) << 2)
        | (ownContains && strings.startsWith(own, term) ? 4 : 0) | ((st & 4) >> 1) | (ownContains ? 1 : 0);
      buckets[31 - bits]!.push(r);
      total++;
    }
    for (const k of touched) state[k] = 0;
    const ranked = new Int32Array(total);
    let at = 0;
    for (const bucket of buckets) for (const r of bucket) ranked[at++] = r;
    for (const s of matched) flagged[s] = 0;
    if (given) return ranked;
    this.cache.set(cacheKey, ranked);
    return ranked;
  }
}

/** How a name matched a search text, best first (the `type` of a match). */
export const MATCH_TYPES = ['exact', 'prefix', 'substring', 'typo'] as const;

/** A name of name_index that matched a normal form: the name, its role and how it matched. */
export interface NameHit {
  name: string;
  kind: 'species' | 'virus_name' | 'abbreviation';
  lineage_id: number;
  current_name: string | null;
  /** 1 exact, 2 prefix, 3 substring, 4 typo (MATCH_TYPES). */
  tier: number;
  /** 1 - Damerau-Levenshtein distance / the longer length, to 3 decimals. */
  similarity: number;
}

/** Name matches of texts of 5 characters or more may be misspellings; shorter ones match too much by chance. */
const TYPO_MIN_LENGTH = 5;

/** What each open store searches with, loaded with it: the saved indexes and the species ranker made from them. */
interface Indexes {
  release: ReleaseSearch;
  forms: SubstringIndex;
  species: SpeciesRanker;
  /** Work array of a match: the forms found to hold the text (1), which a misspelling does not match again. */
  holding: Uint8Array;
}
const indexes = new WeakMap<Store, Indexes>();

/**
 * previous: the store being replaced; of the same build, its indexes are taken over. Otherwise they are read
 * from the store's snapshot, or else built from api_search and the name matcher (a build, or a snapshot that
 * did not match); either way the store can save them in its next snapshot.
 */
export async function loadSearch(store: Store, previous?: Store): Promise<void> {
  const found = (previous?.buildId === store.buildId ? indexes.get(previous) : undefined) ?? withRanker(store, await readOrBuild(store));
  indexes.set(store, found);
  store.keepImage('search', () => writeImage({ ...found.release.fields(), ...found.forms.fields('forms.') }));
}

async function readOrBuild(store: Store): Promise<{ release: ReleaseSearch; forms: SubstringIndex }> {
  const saved = store.savedImage('search');
  if (saved) {
    const image = new Image(saved);
    return { release: ReleaseSearch.read(image), forms: SubstringIndex.read(image, 'forms.') };
  }
  // one release at a time: DuckDB's answers for all of them at once would sit in native memory together
  const parts: Array<{ msl: number; rows: string; results: Buffer }> = [];
  for (const { msl } of releases(store)) {
    const [rows, results] = await store.bytes(RELEASE_SQL, [msl]);
    parts.push({ msl, rows: rows!.toString('utf8'), results: results! });
  }
  return { release: ReleaseSearch.of(parts.filter((p) => p.rows.length > 0)), forms: SubstringIndex.of(nameMatcher(store).formList) };
}

function withRanker(store: Store, { release, forms }: { release: ReleaseSearch; forms: SubstringIndex }): Indexes {
  return { release, forms, species: new SpeciesRanker(nameMatcher(store), release.latest), holding: new Uint8Array(forms.size) };
}

function indexesOf(store: Store): Indexes {
  const found = indexes.get(store);
  if (!found) throw new Error('the search index of this store was not loaded');
  return found;
}

export function releaseSearch(store: Store): ReleaseSearch {
  return indexesOf(store).release;
}

/**
 * The normal forms of name_index that equal, start with or contain the normal form q, or for q of 5+ characters
 * are within the similarity of "did you mean" of it at about the same length (minScore); exactOnly: only those
 * equal to it. Each with how it matched (1 exact, 2 prefix, 3 substring, 4 typo) and its similarity to q in
 * thousandths.
 */
function matchingForms(store: Store, q: string, exactOnly: boolean, minScore: number): MatchingForms {
  return (visit) => {
    const { forms, holding } = indexesOf(store);
    const holders = forms.containing(q);
    for (const f of holders) {
      const len = forms.length(f);
      const tier = len === q.length ? 1 : forms.startsWith(f, q) ? 2 : 3;
      if (exactOnly && tier !== 1) continue;
      holding[f] = 1;
      // a form holding q is q with letters added: as many edits as it has more (NameMatcher.similarity)
      visit(f, tier, Math.round((1 - (len - q.length) / len) * 1000));
    }
    if (!exactOnly && q.length >= TYPO_MIN_LENGTH) {
      const matcher = nameMatcher(store);
      for (const { form } of matcher.close(q, minScore)) if (holding[form] !== 1) visit(form, 4, Math.round(matcher.similarity(form, q) * 1000));
    }
    for (const f of holders) holding[f] = 0;
  };
}

/** Every name of a species lineage (not a higher taxon) whose normal form matches q (matchingForms), and how. */
export function matchNames(store: Store, q: string, exactOnly: boolean, minScore: number): NameHit[] {
  const matcher = nameMatcher(store);
  const hits: NameHit[] = [];
  matchingForms(store, q, exactOnly, minScore)((form, tier, milli) => {
    for (let i = matcher.firstRow(form), end = matcher.endRow(form); i < end; i++) {
      const row = matcher.rowAt(i);
      const kind = matcher.kindOf(row);
      if (kind === 'taxon') continue;
      hits.push({ name: matcher.nameOf(row), kind, lineage_id: matcher.lineageOf(row), current_name: matcher.currentNameOf(row), tier, similarity: milli / 1000 });
    }
  });
  return hits;
}

/** a before b when it matched better: tier, then similarity, then name. */
export function betterHit(a: NameHit, b: NameHit): number {
  return a.tier - b.tier || b.similarity - a.similarity || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/** A match as the results show it: which name (current, former, virus name, abbreviation) and how. */
export function matchJson(h: Pick<NameHit, 'name' | 'kind' | 'tier' | 'similarity'>, current: string | null): { name: string; kind: string; type: string; similarity: number } {
  const kind = h.kind === 'species' && current !== null && h.name.toLowerCase() === current.toLowerCase() ? 'current'
    : h.kind === 'species' ? 'former' : h.kind;
  return { name: h.name, kind, type: MATCH_TYPES[h.tier - 1]!, similarity: h.similarity };
}

/**
 * The species of the latest release any of whose names match the normal form q (matchNames), each once by its
 * best-matching name, best first (tier, similarity, species name); family and genus: lower-cased filters. How many
 * there are, and the first `limit`.
 */
export function speciesSearch(store: Store, q: string, exactOnly: boolean, minScore: number, family: string | null, genus: string | null, limit: number):
  { total: number; results: Array<{ scientific_name: string; family: string | null; genus: string | null; realm: string | null; match: ReturnType<typeof matchJson> }> } {
  const { species: ranker } = indexesOf(store);
  const matcher = nameMatcher(store);
  const { species, rows, keys } = ranker.rank(JSON.stringify([q, exactOnly, minScore, family, genus]), family, genus, matchingForms(store, q, exactOnly, minScore));
  // every match counts in the total; only the first `limit` are shown (a short query matches thousands)
  const results = [];
  for (let i = 0; i < Math.min(limit, species.length); i++) {
    const s = ranker.list[species[i]!]!;
    const row = rows[i]!;
    // rows of higher taxa name no species (SpeciesRanker)
    const hit = { name: matcher.nameOf(row), kind: matcher.kindOf(row) as NameHit['kind'], tier: tierOf(keys[i]!), similarity: similarityOf(keys[i]!) };
    results.push({ scientific_name: s.name, family: s.family, genus: s.genus, realm: s.realm, match: matchJson(hit, s.name) });
  }
  return { total: species.length, results };
}

// The species lineages as the resolver walks them (resolve.ts view()): per lineage how it began and ended, and
// per release it is in its name, the taxa above it, the change and proposal that brought it there and the
// species split off it. The same facts as history_doc's documents (both are read from lineage_summary and
// species_timeline; test/species-walks.test.ts holds the two together), held as typed arrays and one string
// of strings: a walk read a lineage document, inflated and parsed whole, for the few fields it needs, which was
// most of the cost of resolving a batch of names.
import { Image, writeImage, type Field } from '../store/index-image.js';
import type { Store } from '../store/store.js';
import { lineageDoc, mslOf, type LineageDoc } from './lineages.js';

/**
 * Lineages per query while loading: each query's text is under a MB, and splitting it up is a few
 * milliseconds of the event loop between two queries (the walks load while the server answers).
 */
const LOAD_BATCH = 1024;

/**
 * Strings interned while loading, then held as one string and the offsets of each in it: a string is a
 * slice of it (no copy, no decoding), and the garbage collector sees one flat string instead of ~80,000.
 */
class StringPool {
  private readonly ids = new Map<string, number>();
  private list: string[] = [];
  private text = '';
  private offsets = new Uint32Array(1);

  intern(s: string): number {
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.list.length;
      this.ids.set(s, id);
      this.list.push(s);
    }
    return id;
  }

  seal(): void {
    this.offsets = new Uint32Array(this.list.length + 1);
    this.list.forEach((s, i) => { this.offsets[i + 1] = this.offsets[i]! + s.length; });
    // joined and flattened into a string of its own (not a rope over the loaded text, which would keep it alive)
    this.text = JSON.parse(JSON.stringify(this.list.join(''))) as string;
    this.list = [];
    this.ids.clear();
  }

  get(id: number): string {
    return this.text.slice(this.offsets[id]!, this.offsets[id + 1]!);
  }

  fields(): Record<string, Field> {
    // offsets fit in an Int32Array (the text is far below 2^31 characters); index-image.ts holds those
    return { 'strings.text': this.text, 'strings.offsets': new Int32Array(this.offsets.buffer, this.offsets.byteOffset, this.offsets.length) };
  }

  static read(image: Image): StringPool {
    const pool = new StringPool();
    const offsets = image.i32('strings.offsets');
    pool.text = image.json('strings.text');
    pool.offsets = new Uint32Array(offsets.buffer as ArrayBuffer, offsets.byteOffset, offsets.length);
    return pool;
  }

  /** At most two bytes a character, and the offsets. */
  get byteLength(): number {
    return 2 * this.text.length + this.offsets.byteLength;
  }
}

/** A growable Int32Array while loading. */
class Ints {
  private data = new Int32Array(1024);
  length = 0;
  push(x: number): void {
    if (this.length === this.data.length) {
      const more = new Int32Array(this.data.length * 2);
      more.set(this.data);
      this.data = more;
    }
    this.data[this.length++] = x;
  }
  seal(): Int32Array {
    return this.data.slice(0, this.length);
  }
}

/** One entry of a lineage's timeline, as the walk reads it. */
export interface WalkEntry {
  msl: number;
  version: string;
  name: string;
  /** The taxa above it (its lineage without itself), ';'-joined. */
  parent: string;
  change: string;
  proposal: string | null;
  split_off: string[];
}

/** A species lineage as the walk reads it (resolve.ts View, kind species). */
export interface SpeciesWalk {
  entries: WalkEntry[];
  first: number;
  last: number;
  began: string | null;
  began_from: string[];
  ended: 'current' | 'abolished' | 'merged' | 'split';
  ended_in: string | null;
  into: string[];
}

const US = '\x1f';
const RS = '\x1e';
const GS = '\x1d';

/** "MSL39" of 39, made once per release: a walk's entries name their release, and a walk is read per request. */
const VERSIONS: string[] = [];
const versionOf = (msl: number): string => (VERSIONS[msl] ??= `MSL${msl}`);

/** The split_off of most entries: none, one array for all (walks are only read). */
const NO_SPLITS: string[] = Object.freeze([]) as unknown as string[];

/** Species lineages as one text per batch: lineage fields, then each timeline entry, apart by US/RS/GS. */
const LINEAGES_SQL = `
  WITH l AS (SELECT * FROM main.lineage_summary WHERE lineage_id BETWEEN $1 AND $2)
  SELECT string_agg(concat_ws(chr(31), l.lineage_id, l.first_msl, l.last_msl, coalesce(l.began, ''), (l.began IS NULL)::INTEGER, l.ended,
           CASE WHEN l.ended = 'current' THEN '' ELSE coalesce(l.abolished_in, 'MSL' || (l.last_msl + 1)) END,
           array_to_string(CASE l.began WHEN 'split' THEN coalesce(l.split_from, []) WHEN 'merged' THEN coalesce(l.merged_from, []) ELSE [] END, chr(29)),
           array_to_string(CASE l.ended WHEN 'merged' THEN coalesce(l.merged_into, []) WHEN 'split' THEN coalesce(l.split_into, []) ELSE [] END, chr(29)),
           t.entries, array_to_string(l.names, chr(29)), coalesce(l.current_name, ''), (l.current_name IS NULL)::INTEGER), chr(30) ORDER BY l.lineage_id) AS text
  FROM l JOIN (
    SELECT lineage_id, string_agg(concat_ws(chr(28), msl, name,
             CASE WHEN contains(full_lineage, ';') THEN regexp_replace(full_lineage, ';[^;]*$', '') ELSE '' END,
             coalesce(change, 'present'), coalesce(proposal, ''), (proposal IS NULL)::INTEGER,
             array_to_string(coalesce(split_off, []), chr(29))), chr(27) ORDER BY msl) AS entries
    FROM main.species_timeline WHERE lineage_id BETWEEN $1 AND $2 GROUP BY lineage_id
  ) t USING (lineage_id)`;

/** The typed-array fields of SpeciesWalks, saved in an index image and read back as they are. */
const ARRAYS = ['ids', 'spans', 'listStart', 'entryStart', 'lists', 'fromCount', 'entries', 'splits', 'nameStart', 'nameList', 'currentNames'] as const;

export class SpeciesWalks {
  private constructor(private readonly strings = new StringPool()) {}
  private ids!: Int32Array;
  /** Per lineage: first and last release, began (string id, -1 null), ended (string id), ended_in (string id, -1 null). */
  private spans!: Int32Array;
  /** Per lineage: where its began_from, into and entries start (lists, entries), +1 at the end. */
  private listStart!: Int32Array;
  private entryStart!: Int32Array;
  /** began_from then into of every lineage, string ids; per lineage the count of began_from. */
  private lists!: Int32Array;
  private fromCount!: Int32Array;
  /** Per entry: msl, name, parent, change, proposal (-1 null), start of its split_off in splits, and its count. */
  private entries!: Int32Array;
  private splits!: Int32Array;
  /** Per lineage: where its names start in nameList (+1 at the end), and its current name (-1: none). */
  private nameStart!: Int32Array;
  private nameList!: Int32Array;
  private currentNames!: Int32Array;

  static readonly ENTRY = 7;
  static readonly SPAN = 5;

  /** Loads every species lineage of the store's database. */
  static async load(store: Store): Promise<SpeciesWalks> {
    const walks = new SpeciesWalks();
    const pool = walks.strings;
    const ids = new Ints();
    const spans = new Ints();
    const listStart = new Ints();
    const entryStart = new Ints();
    const lists = new Ints();
    const fromCount = new Ints();
    const entries = new Ints();
    const splits = new Ints();
    const nameStart = new Ints();
    const nameList = new Ints();
    const currentNames = new Ints();
    const all = (await store.query<{ id: number }>('SELECT lineage_id::INTEGER AS id FROM main.lineage_summary ORDER BY lineage_id')).map((r) => r.id);
    for (let at = 0; at < all.length; at += LOAD_BATCH) {
      const [row] = await store.query<{ text: string | null }>(LINEAGES_SQL, [all[at]!, all[Math.min(all.length, at + LOAD_BATCH) - 1]!]);
      for (const line of (row?.text ?? '').split(RS)) {
        if (line === '') continue;
        const f = line.split(US);
        if (f.length !== 13) throw new Error(`species walk with ${f.length} fields, not 13: ${line.slice(0, 200)}`);
        const [id, first, last, began, noBegan, ended, endedIn, from, into, timeline, names, current, noCurrent] = f as
          [string, string, string, string, string, string, string, string, string, string, string, string, string];
        ids.push(Number(id));
        spans.push(Number(first));
        spans.push(Number(last));
        spans.push(noBegan === '1' ? -1 : pool.intern(began));
        spans.push(pool.intern(ended));
        spans.push(endedIn === '' ? -1 : pool.intern(endedIn));
        listStart.push(lists.length);
        const froms = from === '' ? [] : from.split(GS);
        fromCount.push(froms.length);
        for (const s of froms) lists.push(pool.intern(s));
        for (const s of into === '' ? [] : into.split(GS)) lists.push(pool.intern(s));
        nameStart.push(nameList.length);
        for (const s of names === '' ? [] : names.split(GS)) nameList.push(pool.intern(s));
        currentNames.push(noCurrent === '1' ? -1 : pool.intern(current));
        entryStart.push(entries.length / SpeciesWalks.ENTRY);
        for (const e of timeline.split('\x1b')) {
          const g = e.split('\x1c');
          if (g.length !== 7) throw new Error(`species walk entry with ${g.length} fields, not 7: ${e.slice(0, 200)}`);
          const [msl, name, parent, change, proposal, noProposal, splitOff] = g as [string, string, string, string, string, string, string];
          entries.push(Number(msl));
          entries.push(pool.intern(name));
          entries.push(pool.intern(parent));
          entries.push(pool.intern(change));
          entries.push(noProposal === '1' ? -1 : pool.intern(proposal));
          const offs = splitOff === '' ? [] : splitOff.split(GS);
          entries.push(splits.length);
          entries.push(offs.length);
          for (const s of offs) splits.push(pool.intern(s));
        }
      }
    }
    listStart.push(lists.length);
    nameStart.push(nameList.length);
    entryStart.push(entries.length / SpeciesWalks.ENTRY);
    pool.seal();
    walks.ids = ids.seal();
    for (let i = 1; i < walks.ids.length; i++) if (walks.ids[i]! <= walks.ids[i - 1]!) throw new Error('species walks: lineage ids out of order');
    walks.spans = spans.seal();
    walks.listStart = listStart.seal();
    walks.entryStart = entryStart.seal();
    walks.lists = lists.seal();
    walks.fromCount = fromCount.seal();
    walks.entries = entries.seal();
    walks.splits = splits.seal();
    walks.nameStart = nameStart.seal();
    walks.nameList = nameList.seal();
    walks.currentNames = currentNames.seal();
    return walks;
  }

  /** Its fields for an index image (index-image.ts). */
  fields(): Record<string, Field> {
    const out: Record<string, Field> = this.strings.fields();
    for (const name of ARRAYS) out[name] = this[name];
    return out;
  }

  static read(image: Image): SpeciesWalks {
    const walks = new SpeciesWalks(StringPool.read(image));
    for (const name of ARRAYS) walks[name] = image.i32(name);
    return walks;
  }

  /** Bytes held. */
  get byteLength(): number {
    return this.strings.byteLength + [this.ids, this.spans, this.listStart, this.entryStart, this.lists, this.fromCount, this.entries, this.splits,
      this.nameStart, this.nameList, this.currentNames]
      .reduce((n, a) => n + a.byteLength, 0);
  }

  get size(): number {
    return this.ids.length;
  }

  private indexOf(id: number): number {
    let lo = 0;
    let hi = this.ids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const x = this.ids[mid]!;
      if (x === id) return mid;
      if (x < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** What a history says of the lineage beside its document (history.ts): its span, every name, its current name. */
  summary(id: number): { first: number; last: number; names: string[]; current_name: string | null } | undefined {
    const i = this.indexOf(id);
    if (i < 0) return undefined;
    const names: string[] = [];
    for (let k = this.nameStart[i]!; k < this.nameStart[i + 1]!; k++) names.push(this.strings.get(this.nameList[k]!));
    const current = this.currentNames[i]!;
    return {
      first: this.spans[i * SpeciesWalks.SPAN]!, last: this.spans[i * SpeciesWalks.SPAN + 1]!, names,
      current_name: current < 0 ? null : this.strings.get(current),
    };
  }

  /** The lineage's name in the latest release (null: it is not in it), or undefined when there is no such lineage. */
  currentName(id: number): string | null | undefined {
    const i = this.indexOf(id);
    if (i < 0) return undefined;
    const current = this.currentNames[i]!;
    return current < 0 ? null : this.strings.get(current);
  }

  /**
   * The lineage's name in release msl (null: not listed there) and the first and last releases it is listed
   * in; undefined when there is no such lineage. Read from the arrays, without making the walk's entries.
   */
  placeOf(id: number, msl: number): LineagePlace | undefined {
    const i = this.indexOf(id);
    if (i < 0) return undefined;
    const e = this.entries;
    const E = SpeciesWalks.ENTRY;
    const from = this.entryStart[i]!, to = this.entryStart[i + 1]!;
    let name: string | null = null;
    for (let k = from; k < to; k++) if (e[k * E] === msl) name = this.strings.get(e[k * E + 1]!);
    return { name, first: e[from * E]!, last: e[(to - 1) * E]! };
  }

  /** The releases in which the lineage took another name, with the names before and after; undefined: no such lineage. */
  renames(id: number): Rename[] | undefined {
    const i = this.indexOf(id);
    if (i < 0) return undefined;
    const e = this.entries;
    const E = SpeciesWalks.ENTRY;
    const out: Rename[] = [];
    // names are interned: a name is the same string id wherever it recurs
    for (let k = this.entryStart[i]! + 1; k < this.entryStart[i + 1]!; k++) {
      if (e[k * E + 1] !== e[(k - 1) * E + 1]) out.push({ version: versionOf(e[k * E]!), from: this.strings.get(e[(k - 1) * E + 1]!), to: this.strings.get(e[k * E + 1]!) });
    }
    return out;
  }

  /** The lineage, or undefined when there is none of that id. */
  get(id: number): SpeciesWalk | undefined {
    const i = this.indexOf(id);
    if (i < 0) return undefined;
    const s = this.strings;
    const str = (x: number) => (x < 0 ? null : s.get(x));
    const span = i * SpeciesWalks.SPAN;
    const listAt = this.listStart[i]!;
    const froms = this.fromCount[i]!;
    const began_from: string[] = [];
    for (let k = listAt; k < listAt + froms; k++) began_from.push(s.get(this.lists[k]!));
    const into: string[] = [];
    for (let k = listAt + froms; k < this.listStart[i + 1]!; k++) into.push(s.get(this.lists[k]!));
    const entries: WalkEntry[] = [];
    const E = SpeciesWalks.ENTRY;
    for (let k = this.entryStart[i]!; k < this.entryStart[i + 1]!; k++) {
      const e = this.entries;
      const msl = e[k * E]!;
      const split_off: string[] = e[k * E + 6]! === 0 ? NO_SPLITS : [];
      for (let j = e[k * E + 5]!; j < e[k * E + 5]! + e[k * E + 6]!; j++) split_off.push(s.get(this.splits[j]!));
      entries.push({
        msl, version: versionOf(msl), name: s.get(e[k * E + 1]!), parent: s.get(e[k * E + 2]!), change: s.get(e[k * E + 3]!),
        proposal: str(e[k * E + 4]!), split_off,
      });
    }
    return {
      entries, first: this.spans[span]!, last: this.spans[span + 1]!, began: str(this.spans[span + 2]!), began_from,
      ended: s.get(this.spans[span + 3]!) as SpeciesWalk['ended'], ended_in: str(this.spans[span + 4]!), into,
    };
  }
}

/** Where a species lineage is in one release: its name there (null: not listed), and its first and last release. */
export interface LineagePlace { name: string | null; first: number; last: number }

/** A release in which a lineage took another name. */
export interface Rename { version: string; from: string; to: string }

/**
 * A species lineage's name in release msl and the span of releases it is listed in, as its document's timeline
 * has them (equal on every lineage): from its walk once the walks are loaded, without reading and parsing the
 * document; else from the document.
 */
export function lineagePlace(store: Store, id: number, msl: number): LineagePlace {
  const held = speciesWalks(store)?.placeOf(id, msl);
  if (held) return held;
  const timeline = lineageDoc(store, id).timeline;
  return { name: timeline.find((t) => mslOf(t.version) === msl)?.name ?? null, first: mslOf(timeline[0]!.version), last: mslOf(timeline[timeline.length - 1]!.version) };
}

/** What /ai/query reads of a species lineage: its span, names, how it began and ended, and its timeline of names. */
export type LineageOutline = Pick<LineageDoc, 'lineage_id' | 'first_appearance' | 'last_appearance' | 'current_name' | 'names' | 'began'
  | 'ended' | 'split_from' | 'merged_from' | 'merged_into' | 'split_into' | 'abolished_in'> & {
  /** Each release: its version, the lineage's name there and its full lineage (';'-joined, the name last). */
  timeline: Array<{ version: string; name: string; lineage: string }>;
};

/**
 * A species lineage's outline: from its walk once the walks are loaded (without reading and parsing its
 * document, several kilobytes for a lineage of every release), else from its document.
 */
export function lineageOutline(store: Store, id: number): LineageOutline {
  const w = speciesWalks(store)?.get(id);
  const names = speciesWalks(store)?.summary(id);
  if (!w || !names) return lineageDoc(store, id);
  const last = w.entries[w.entries.length - 1]!;
  return {
    lineage_id: id, first_appearance: versionOf(w.first), last_appearance: versionOf(w.last), current_name: names.current_name, names: names.names,
    began: w.began, ended: w.ended,
    split_from: w.began === 'split' ? w.began_from : [], merged_from: w.began === 'merged' ? w.began_from : [],
    merged_into: w.ended === 'merged' ? w.into : [], split_into: w.ended === 'split' ? w.into : [],
    abolished_in: w.ended === 'abolished' ? w.ended_in : null,
    timeline: w.entries.map((e) => ({ version: e.version, name: e.name, lineage: e.parent ? `${e.parent};${e.name}` : e.name })),
    // (the last entry is the lineage's last release: its name there is the current one when it is current)
    ...(w.ended === 'current' && names.current_name === null ? { current_name: last.name } : {}),
  };
}

/** The renames in a timeline of names, release by release. */
export function renamesIn(timeline: ReadonlyArray<{ version: string; name: string }>): Rename[] {
  const out: Rename[] = [];
  for (let i = 1; i < timeline.length; i++) {
    const a = timeline[i - 1]!, b = timeline[i]!;
    if (a.name !== b.name) out.push({ version: b.version, from: a.name, to: b.name });
  }
  return out;
}

/** The renames of a species lineage (its walk once loaded, else its document's timeline). */
export function lineageRenames(store: Store, id: number): Rename[] {
  return speciesWalks(store)?.renames(id) ?? renamesIn(lineageDoc(store, id).timeline);
}

/** A species lineage's name in the latest release (null: it is not in it), from its walk once loaded, else its document. */
export function lineageCurrentName(store: Store, id: number): string | null {
  const held = speciesWalks(store)?.currentName(id);
  return held === undefined ? lineageDoc(store, id).current_name : held;
}

/** The walks of each open store once loaded, and the loading. */
const walksOf = new WeakMap<Store, SpeciesWalks>();
const loading = new WeakMap<Store, Promise<SpeciesWalks | null>>();

/**
 * Starts loading the walks of a store that has just opened, without holding up its opening (the server
 * starts answering meanwhile, from the documents: speciesWalks). previous: the store being replaced; of the
 * same build, its walks are taken over at once. A store closed while loading, or a failure, leaves the
 * store reading documents: the same answers, at the documents' cost.
 */
export function loadSpeciesWalks(store: Store, previous?: Store): void {
  const saved = store.savedImage('walks');
  const ready = (previous?.buildId === store.buildId ? walksOf.get(previous) : undefined) ?? (saved ? SpeciesWalks.read(new Image(saved)) : undefined);
  const loaded = (walks: SpeciesWalks) => {
    walksOf.set(store, walks);
    store.keepImage('walks', () => writeImage(walks.fields()));
    return walks;
  };
  loading.set(store, ready ? Promise.resolve(loaded(ready)) : SpeciesWalks.load(store).then(loaded, () => null));
}

/** The species walks of an open store, or undefined while they load (read the documents then). */
export function speciesWalks(store: Store): SpeciesWalks | undefined {
  return walksOf.get(store);
}

/** The walks once loaded (null when loading failed), for tests and benches that measure them. */
export function speciesWalksLoaded(store: Store): Promise<SpeciesWalks | null> {
  return loading.get(store) ?? Promise.resolve(null);
}

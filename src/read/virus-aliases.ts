// Short names people give a virus that no list holds as such: "phage T4", "phiX174", "lambda" for the VMR's
// "Escherichia phage T4", "Escherichia phage phiX174", "Escherichia phage Lambda". Every VMR virus name and
// species name of the form "<host> phage|virus <tail>" gives its tail, and "phage <tail>", as aliases; an alias
// is kept only when every name it comes from denotes one and the same species lineage (a tail shared by phages
// of two species names neither). Plus a few words no list holds at all ("flu"). Read from name_index once per
// opened build.
import type { Store } from '../store/store.js';
import { normaliseName } from './names.js';

/** Common words for a virus that no list spells out; the value is a VMR virus name. */
const COMMON_WORDS: Record<string, string> = {
  flu: 'influenza A virus',
  influenza: 'influenza A virus',
  covid: 'severe acute respiratory syndrome coronavirus 2',
  covid19: 'severe acute respiratory syndrome coronavirus 2',
  hcv: 'hepatitis C virus',
  hbv: 'hepatitis B virus',
  hiv: 'human immunodeficiency virus 1',
};

export interface Alias {
  /** The list name the alias stands for (a VMR virus name or species name). */
  name: string;
  lineage_id: number;
}

const built = new WeakMap<Store, Promise<Map<string, Alias>>>();
// the table once built, handed out without a promise: a question then awaits nothing for it
const ready = new WeakMap<Store, Map<string, Alias>>();

async function build(store: Store): Promise<Map<string, Alias>> {
  const rows = await store.query<{ name: string; lineage_id: number | bigint }>(
    `SELECT name, lineage_id FROM name_index WHERE kind IN ('virus_name', 'species') AND rank = 'species'
       AND regexp_matches(name, '^\\S.* (?:phage|virus) \\S+$', 'i')`);
  const seen = new Map<string, Alias | null>();
  const add = (key: string, alias: Alias) => {
    if (key.length < 3) return;
    const had = seen.get(key);
    if (had === undefined) seen.set(key, alias);
    else if (had !== null && had.lineage_id !== alias.lineage_id) seen.set(key, null);
  };
  for (const r of rows) {
    const m = /^\S.* (phage|virus) (\S+)$/i.exec(r.name);
    if (!m) continue;
    const alias = { name: r.name, lineage_id: Number(r.lineage_id) };
    const tail = normaliseName(m[2]!);
    add(normaliseName(`${m[1]!} ${m[2]!}`), alias);
    // a bare tail stands for the phage only when it is not a plain word or a short code ("T4" alone is too short)
    if (tail.length >= 5 || (tail.length >= 4 && /\d/.test(tail))) add(tail, alias);
  }
  const out = new Map<string, Alias>();
  for (const [k, v] of seen) if (v) out.set(k, v);
  for (const [word, name] of Object.entries(COMMON_WORDS)) out.set(word, { name, lineage_id: 0 });
  return out;
}

/** The alias table of an opened build: built on first use (a promise of it meanwhile), then held for the build's life. */
export function virusAliases(store: Store): Map<string, Alias> | Promise<Map<string, Alias>> {
  const held = ready.get(store);
  if (held) return held;
  let p = built.get(store);
  if (!p) {
    p = build(store);
    built.set(store, p);
    void p.then((table) => ready.set(store, table), () => built.delete(store));
  }
  return p;
}

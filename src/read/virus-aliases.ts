// Short names people give a virus that no list holds as such: "phage T4", "phiX174", "lambda" for the VMR's
// "Escherichia phage T4", "Escherichia phage phiX174", "Escherichia phage Lambda". Every VMR virus name and
// species name of the form "<host> phage|virus <tail>" gives its tail, "phage <tail>" and "<tail> phage" as aliases; an alias
// is kept only when every name it comes from denotes one and the same species lineage (a tail shared by phages
// of two species names neither). A short code of a phage ("T4", "MS2") is kept apart (SHORT_KEY), for the
// parser to read only where it is written as a code. And the initials of every name a species ever had
// ("HHV-6": Human herpesvirus 6, "VSV": Vesicular stomatitis virus), kept apart too (INITIALS_KEY), for an
// abbreviation no list holds: as with tails, only initials of one lineage's names. Plus a few words no list
// holds at all ("flu"). Read from name_index once per opened build.
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
  // ("hep b virus": not the VMR's "B virus", a macaque herpesvirus)
  'hep a': 'hepatitis A virus', 'hep a virus': 'hepatitis A virus',
  'hep b': 'hepatitis B virus', 'hep b virus': 'hepatitis B virus',
  'hep c': 'hepatitis C virus', 'hep c virus': 'hepatitis C virus',
  'hep e': 'hepatitis E virus', 'hep e virus': 'hepatitis E virus',
  // the names papers give viruses whose lists say them otherwise: the VMR has "human parvovirus B19" and
  // "hepatitis D virus 1" ... "8", the species lists had "Hepatitis delta virus" (to MSL35) and "Adeno-associated
  // dependoparvovirus A" (the species of adeno-associated viruses 1-4 and 6, the primate ones papers mean)
  'parvovirus B19': 'human parvovirus B19',
  'hepatitis D virus': 'Hepatitis delta virus',
  'hepatitis delta': 'Hepatitis delta virus',
  'adeno-associated virus': 'Adeno-associated dependoparvovirus A',
  // abbreviations papers use that the VMR gives other viruses: HTLV2 is its Hubei toti-like virus 2 (the human
  // T-lymphotropic viruses are its PTLV1-3), CaMV its Chinese artichoke mosaic virus's initials (it writes
  // cauliflower mosaic virus CMV)
  'htlv-1': 'primate T-lymphotropic virus 1',
  'htlv-2': 'primate T-lymphotropic virus 2',
  camv: 'cauliflower mosaic virus',
  // WHO's name of the disease (2022), which papers now give the virus; the VMR keeps "monkeypox virus"
  mpox: 'monkeypox virus',
  'mpox virus': 'monkeypox virus',
  // the diseases people name a virus by, where one virus causes the disease ("smallpox": variola virus)
  smallpox: 'variola virus',
  'smallpox virus': 'variola virus',
  chickenpox: 'varicella-zoster virus',
  'chickenpox virus': 'varicella-zoster virus',
  shingles: 'varicella-zoster virus',
  varicella: 'varicella-zoster virus',
  'varicella virus': 'varicella-zoster virus',

  // the disease is caused by several enteroviruses, mostly enterovirus A71 and coxsackievirus A16, which are
  // of one species; "foot-and-mouth disease virus" inside the words is another virus (an aphthovirus)
  'hand foot and mouth disease': 'Enterovirus A',
  'hand foot and mouth disease virus': 'Enterovirus A',
  'hand foot mouth disease': 'Enterovirus A',
  hfmd: 'Enterovirus A',
  'hfmd virus': 'Enterovirus A',
  'herpes zoster': 'varicella-zoster virus',
  'herpes zoster virus': 'varicella-zoster virus',
  sars: 'severe acute respiratory syndrome coronavirus',
  'sars virus': 'severe acute respiratory syndrome coronavirus',
  mers: 'Middle East respiratory syndrome-related coronavirus',
  'mers virus': 'Middle East respiratory syndrome-related coronavirus',
};

export interface Alias {
  /** The list name the alias stands for (a VMR virus name or species name). */
  name: string;
  lineage_id: number;
}

/** The key of a phage's short code ("T4" -> "short:t4"), read only where a question writes it as a code. */
export const SHORT_KEY = (norm: string): string => `short:${norm}`;
/** The key of the initials of a species name ("HHV-6" -> "initials:hhv6"). */
export const INITIALS_KEY = (norm: string): string => `initials:${norm}`;

// words an abbreviation leaves out ("Vesicular exanthema of swine virus": VESV)
const UNWRITTEN = new Set(['of', 'and', 'the', 'de', 'in', 'from']);

/**
 * The initials of a name as virologists abbreviate it, lower case: each word's first letter, "virus" (alone or
 * ending a word) as V, numbers whole ("Human herpesvirus 6" -> "hhv6", "Human T-lymphotropic virus 1" ->
 * "htlv1"); null for a name that is no run of words (a bracket, a symbol) or too short to be read as one.
 */
export function initialsOf(name: string): string | null {
  if (/[^A-Za-z0-9 -]/.test(name)) return null;
  let out = '';
  for (const w of name.toLowerCase().split(/[\s-]+/)) {
    if (w === '' || UNWRITTEN.has(w)) continue;
    if (/^\d+[a-z]?$/.test(w)) out += w;
    else if (!/^[a-z]/.test(w)) return null;
    else out += w === 'virus' ? 'v' : w.endsWith('virus') ? `${w[0]}v` : w[0];
  }
  return out.length >= 3 && out.length <= 8 && /v/.test(out) ? out : null;
}

const built = new WeakMap<Store, Promise<Map<string, Alias>>>();
// the table once built, handed out without a promise: a question then awaits nothing for it
const ready = new WeakMap<Store, Map<string, Alias>>();

async function build(store: Store): Promise<Map<string, Alias>> {
  // current: the lineage is listed in the latest release, under any of its names
  const CURRENT = 'bool_or(last_msl = (SELECT max(last_msl) FROM name_index)) OVER (PARTITION BY lineage_id) AS current';
  const rows = await store.query<{ name: string; lineage_id: number | bigint; current: boolean }>(
    `SELECT name, lineage_id, current FROM (SELECT name, lineage_id, kind, ${CURRENT} FROM name_index WHERE rank = 'species')
     WHERE kind IN ('virus_name', 'species') AND regexp_matches(name, '^\\S.* (?:phage|virus) \\S+$', 'i')`);
  // each key's aliases by lineage; a key stands for one lineage, or for the one of its lineages still listed
  // ("phage MS2": the species of MSL1-17 ended, the one listed since goes on)
  const seen = new Map<string, Map<number, { alias: Alias; current: boolean }>>();
  const add = (key: string, alias: Alias, current: boolean) => {
    if (key.length < 3) return;
    let had = seen.get(key);
    if (!had) seen.set(key, (had = new Map()));
    if (!had.has(alias.lineage_id)) had.set(alias.lineage_id, { alias, current });
  };
  for (const r of rows) {
    const m = /^\S.* (phage|virus) (\S+)$/i.exec(r.name);
    if (!m) continue;
    const alias = { name: r.name, lineage_id: Number(r.lineage_id) };
    const tail = normaliseName(m[2]!);
    add(normaliseName(`${m[1]!} ${m[2]!}`), alias, r.current);
    // "lambda phage", "P22 phage": the order people also write a phage's name in (no list does, but an old
    // genus may: "Lambda phage", MSL1-3, which the short name is read before and so is no answer from alone)
    if (/^phage$/i.test(m[1]!)) add(normaliseName(`${m[2]!} ${m[1]!}`), alias, r.current);
    // "T4", "MS2", "P22": a phage's code of letters and digits
    if (tail.length <= 4 && /\d/.test(tail) && /^[a-z]/.test(tail)) add(SHORT_KEY(tail), alias, r.current);
    // a bare tail stands for the phage only when it is not a plain word or a short code ("T4" alone is too short),
    // nor a number ("ssRNA phage 1995": a question's 1995 is a year)
    if ((tail.length >= 5 || (tail.length >= 4 && /\d/.test(tail))) && !/^\d+$/.test(tail)) add(tail, alias, r.current);
  }
  const names = await store.query<{ name: string; lineage_id: number | bigint; current: boolean }>(
    `SELECT DISTINCT name, lineage_id, current FROM (SELECT name, lineage_id, kind, ${CURRENT} FROM name_index WHERE rank = 'species') WHERE kind = 'species'`);
  for (const r of names) {
    const initials = initialsOf(r.name);
    if (initials) add(INITIALS_KEY(initials), { name: r.name, lineage_id: Number(r.lineage_id) }, r.current);
  }
  const out = new Map<string, Alias>();
  for (const [k, byLineage] of seen) {
    const all = [...byLineage.values()];
    const current = all.filter((x) => x.current);
    if (all.length === 1) out.set(k, all[0]!.alias);
    else if (current.length === 1) out.set(k, current[0]!.alias);
  }
  for (const [word, name] of Object.entries(COMMON_WORDS)) out.set(normaliseName(word), { name, lineage_id: 0 });
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

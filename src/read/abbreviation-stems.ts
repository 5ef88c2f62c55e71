// Abbreviations people write without the type the VMR lists them with: "DENV" for DENV-1..DENV-4, "HCV" for
// HCV1a, HCV1b, ..., "PRRSV" for PRRSV-1 and PRRSV-2. ICTV's lists hold only the typed forms, so such an input
// matched nothing (or, "PRRSV", only privet ringspot virus's "PrRSV" by its case). The stem of an abbreviation
// is what is left without a trailing type: digits (a letter after them: "1a"), or one capital after a hyphen
// ("FMDV-O"); the resolver reads a stem as every abbreviation it begins (resolve.ts identify). Built from
// name_index once per opened build.
import type { Store } from '../store/store.js';
import { asWritten, normaliseName } from './names.js';

/**
 * A trailing type: digits with an optional letter ("HPV16", "HCV1a", "PRRSV-1"), or a single capital after a
 * hyphen ("FMDV-O"; without the hyphen it is part of the name: "MERS-CoV"). The stem ends in a letter and has
 * two characters at least, so "T4" gives none.
 */
const TYPED = /^(.*[A-Za-z])(?:[-_ ]?[0-9]+[a-z]?|-[A-Z])$/;

/** The abbreviations a stem begins, by the stem's normal form. */
export interface StemGroup {
  /** The stem as the abbreviations spell it (one per spelling: "PRRSV"; "BCV" of "BCV-1" and "BCV1" is one). */
  stems: string[];
  /** The abbreviations, in order. */
  members: string[];
}

const groups = new WeakMap<Store, Map<string, StemGroup>>();

/** The stem of an abbreviation, or null when it ends in no type. */
function stemOf(abbreviation: string): string | null {
  const m = TYPED.exec(abbreviation);
  return m && m[1]!.length >= 2 ? m[1]! : null;
}

/** Reads the stems of every abbreviation of name_index; previous: the store replaced, whose stems are taken over when of the same build. */
export async function loadAbbreviationStems(store: Store, previous?: Store): Promise<void> {
  const known = previous?.buildId === store.buildId ? groups.get(previous) : undefined;
  if (known) {
    groups.set(store, known);
    return;
  }
  const rows = await store.query<{ name: string }>("SELECT DISTINCT name FROM main.name_index WHERE kind = 'abbreviation' ORDER BY name");
  const byStem = new Map<string, StemGroup>();
  for (const { name } of rows) {
    const stem = stemOf(name);
    if (stem === null) continue;
    const key = normaliseName(stem);
    const group = byStem.get(key) ?? { stems: [], members: [] };
    if (!group.stems.includes(stem)) group.stems.push(stem);
    group.members.push(name);
    byStem.set(key, group);
  }
  groups.set(store, byStem);
}

/** The abbreviations an input is the stem of (any case or punctuation), or null; inputNorm: normaliseName(input), when the caller has it. */
export function stemGroup(store: Store, input: string, inputNorm = normaliseName(input)): StemGroup | null {
  const group = groups.get(store)?.get(inputNorm);
  return group ?? null;
}

/**
 * The group's abbreviations whose stem is written as the input is, case included, when the group spells its stem
 * more than one way: "HDV" is HDV1 ... HDV8 (hepatitis D viruses), not HdV22 (Hubei diptera virus 22), as the VMR
 * tells abbreviations apart by their case. All of them when the input is written in none of those ways, or the
 * group in one.
 */
export function membersAsWritten(group: StemGroup, input: string): string[] {
  if (group.stems.length < 2) return group.members;
  const written = asWritten(input);
  const own = group.members.filter((m) => stemOf(m) === written);
  return own.length > 0 ? own : group.members;
}

/** Whether the input is written as the group's stem is (case included): "PRRSV" of PRRSV-1, not "prrsv". */
export function writtenAsStem(group: StemGroup, input: string): boolean {
  return group.stems.includes(asWritten(input));
}

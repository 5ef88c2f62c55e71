// Resolution: whatever a user holds (a name of any rank in any spelling, a former name, a VMR virus name or
// abbreviation, an accession, a taxid, an ICTV or taxnode id) -> the taxon it denotes, followed from the
// release it was used in to the release asked for, forwards or backwards, through renames, moves, merges,
// splits and abolitions (the lineages of history_doc and taxon_history_doc, held in memory). Every endpoint
// that answers for a name answers with this: /api/v1/resolve, /species, /history, /taxonomy, /historical,
// /search and /ai.
import { eachInSlices, mapInSlices } from './slices.js';
import type { Store } from '../store/store.js';
import { identifierKeys, lookupIdentifiers, type IdentifierHit, type IdentifierKind } from './identifiers.js';
import { lineageDoc, mslOf, speciesDoc, taxonDoc, type LineageDoc, type SpeciesDoc } from './lineages.js';
import { membersAsWritten, stemGroup, writtenAsStem, type StemGroup } from './abbreviation-stems.js';
import { asWritten, findName, lookupName, normaliseName, type NameHit, type Spelling } from './names.js';
import { latest, type ResolvedVersion } from './releases.js';
import { lineagePlace, speciesWalks, type WalkEntry } from './species-walks.js';
import { suggest } from './suggest.js';

export type MatchType = Spelling | 'former_name' | 'later_name' | 'virus_name' | 'abbreviation' | IdentifierKind | 'fuzzy';
export type Status = 'unchanged' | 'renamed' | 'moved' | 'renamed+moved' | 'merged' | 'split' | 'abolished' | 'new'
  | 'ambiguous' | 'unknown';

export interface ChainStep {
  version: string;
  change: string;
  from_name: string | null;
  to_name: string | null;
  proposal: string | null;
}

/** Where the species of a higher taxon that ended went, or one of the taxa that were under it. */
export interface Successor {
  rank: string;
  /** As named in the release the taxon ended into. */
  name: string;
  /** How many of its species (destinations), or null (members). */
  species: number | null;
  status: Status;
  /** Where that taxon is in the release asked for. */
  results: string[];
}

export interface Resolution {
  name: string;
  status: Status;
  /** species, or the rank of the higher taxon the input denotes. */
  rank: string | null;
  matched_name: string | null;
  matched_kind: NameHit['kind'] | IdentifierKind | null;
  match_type: MatchType | null;
  /** How sure the match of the input to the taxon is, 0..1 (see MATCH_CONFIDENCE). */
  confidence: number;
  from_version: string | null;
  to_version: string;
  results: string[];
  chain: ChainStep[];
  /** A higher taxon that ended before the release asked for: where its species went. */
  destinations: Successor[];
  /** A higher taxon that ended before the release asked for: the taxa that were under it, and where each is. */
  members: Successor[];
  /** Anything the answer must not be read without (a from_version the name was not used in). */
  note: string | null;
  suggestions: string[];
  /** The lineages the input denotes (for callers that read their documents; not part of any response). */
  lineages: Array<{ kind: LineageKind; id: number }>;
}

/**
 * How much the kind of match leaves in doubt. An official name spelt as ICTV spells it leaves none; a virus
 * name can be shared by isolates of several species, an abbreviation more so; a spelling that differs in
 * punctuation may be another name. Multiplied together (a normalised virus name: 0.9 * 0.95), divided among
 * the taxa of an ambiguous name, and lowered when the name was not used in the from_version given.
 */
export const MATCH_CONFIDENCE = {
  exact: 1, case_diacritics: 0.98, normalised: 0.9,
  species: 1, taxon: 1, virus_name: 0.95, abbreviation: 0.85,
  accession: 0.99, taxid: 0.97, ictv_id: 1, taxnode_id: 1,
  not_in_from_version: 0.9, abbreviation_stem: 0.9,
} as const;

// --- the lineages, species and higher taxa alike ----------------------------------------------------------

export type LineageKind = 'species' | 'taxon';

/** A lineage as the walk reads it: its entries, how it began and how it ended. */
interface View {
  kind: LineageKind;
  id: number;
  rank: string;
  entries: WalkEntry[];
  first: number;
  last: number;
  began: 'new' | 'split' | 'merged' | null;
  began_from: string[];
  ended: 'current' | 'abolished' | 'merged' | 'split' | 'renamed';
  /** The first release without it, when it ended. */
  ended_in: string | null;
  into: string[];
}

function view(store: Store, kind: LineageKind, id: number): View {
  if (kind === 'taxon') {
    const d = taxonDoc(store, id);
    return {
      kind, id, rank: d.rank,
      entries: d.timeline.map((t) => ({ msl: mslOf(t.version), version: t.version, name: t.name, parent: above(t.lineage), change: t.change, proposal: null, split_off: [] })),
      first: mslOf(d.first_appearance), last: mslOf(d.last_appearance),
      began: d.timeline[0]!.change === 'new' ? 'new' : null, began_from: [],
      ended: d.ended, ended_in: d.ended_in, into: d.into,
    };
  }
  // species lineages from the compact walks (species-walks.ts) once they are loaded: a lineage document costs
  // more to read than the walk
  const w = speciesWalks(store)?.get(id);
  if (w) return { kind, id, rank: 'species', ...w, began: w.began as View['began'] };
  const d = lineageDoc(store, id);
  return {
    kind, id, rank: 'species',
    entries: d.timeline.map((t) => ({ msl: mslOf(t.version), version: t.version, name: t.name, parent: above(t.lineage), change: t.change, proposal: t.proposal, split_off: t.split_off ?? [] })),
    first: mslOf(d.first_appearance), last: mslOf(d.last_appearance),
    began: d.began as View['began'], began_from: d.began === 'split' ? d.split_from : d.began === 'merged' ? d.merged_from : [],
    ended: d.ended,
    ended_in: d.ended === 'current' ? null : d.abolished_in ?? `MSL${mslOf(d.last_appearance) + 1}`,
    into: d.ended === 'merged' ? d.merged_into : d.ended === 'split' ? d.split_into : [],
  };
}

/** The lineage of this kind that carried `name` as its official name in release msl. */
function lineageNamed(store: Store, kind: LineageKind, name: string, msl: number): number | null {
  const hits = lookupName(store, name).filter((h) => (kind === 'taxon' ? h.kind === 'taxon' : h.kind === 'species')
    && (h.species_first_msl ?? h.first_msl) <= msl && (h.species_last_msl ?? h.last_msl) >= msl);
  const exact = hits.find((h) => h.variants.includes(name));
  return (exact ?? hits[0])?.lineage_id ?? null;
}

// --- the walk -----------------------------------------------------------------------------------------------

interface Walked {
  names: string[];
  /** present: the lineage is in the target release; otherwise how the way there went. */
  outcome: 'present' | 'gap' | Exclude<View['ended'], 'current'> | 'new';
  /** The lineage itself split species off (while carrying on) between the two releases. */
  splitOff: boolean;
  chain: ChainStep[];
  ended: View | null;
}

const MAX_DEPTH = 20;
const CHANGES = new Set(['renamed', 'moved', 'renamed+moved']);

/** Follows a lineage forwards from release `from` (which it is in) to `to`. */
function forward(store: Store, v: View, from: number, to: number, depth = 0): Walked {
  const chain: ChainStep[] = [];
  const extra: string[] = [];
  let prev = v.entries.filter((e) => e.msl <= from).pop() ?? v.entries[0]!;
  for (const e of v.entries) {
    if (e.msl <= from || e.msl > to) continue;
    if (CHANGES.has(e.change)) chain.push({ version: e.version, change: e.change, from_name: prev.name, to_name: e.name, proposal: e.proposal });
    for (const s of e.split_off) {
      chain.push({ version: e.version, change: 'split', from_name: prev.name, to_name: s, proposal: e.proposal });
      const id = lineageNamed(store, v.kind, s, e.msl);
      if (id !== null && depth < MAX_DEPTH) {
        const onward = forward(store, view(store, v.kind, id), e.msl, to, depth + 1);
        extra.push(...onward.names);
        chain.push(...onward.chain);
      }
    }
    prev = e;
  }
  const splitOff = extra.length > 0 || chain.some((c) => c.change === 'split');
  const there = v.entries.find((e) => e.msl === to);
  if (there) return { names: unique([there.name, ...extra]), outcome: 'present', splitOff, chain, ended: null };
  if (v.last > to) return { names: extra, outcome: 'gap', splitOff, chain, ended: null };
  if (v.ended === 'current' || v.ended === 'abolished' || depth >= MAX_DEPTH) {
    chain.push({ version: v.ended_in ?? `MSL${v.last + 1}`, change: 'abolished', from_name: prev.name, to_name: null, proposal: null });
    return { names: extra, outcome: 'abolished', splitOff, chain, ended: v };
  }
  const next = mslOf(v.ended_in!);
  const names = [...extra];
  for (const target of v.into) {
    chain.push({ version: v.ended_in!, change: v.ended, from_name: prev.name, to_name: target, proposal: null });
    const id = lineageNamed(store, v.kind, target, next);
    if (id === null) continue;
    const onward = forward(store, view(store, v.kind, id), next, to, depth + 1);
    names.push(...onward.names);
    chain.push(...onward.chain);
  }
  return { names: unique(names), outcome: v.ended, splitOff, chain, ended: v };
}

/** Follows a lineage backwards from release `from` (which it is in) to an earlier release `to`. */
function backward(store: Store, v: View, from: number, to: number, depth = 0): Walked {
  const chain: ChainStep[] = [];
  const entries = v.entries.filter((e) => e.msl <= from);
  for (let i = entries.length - 1; i > 0; i--) {
    const e = entries[i]!;
    if (e.msl <= to) break;
    if (CHANGES.has(e.change)) chain.push({ version: e.version, change: e.change, from_name: e.name, to_name: entries[i - 1]!.name, proposal: e.proposal });
  }
  const there = v.entries.find((e) => e.msl === to);
  if (there) return { names: [there.name], outcome: 'present', splitOff: false, chain, ended: null };
  if (to >= v.first) return { names: [], outcome: 'gap', splitOff: false, chain, ended: null };
  const firstEntry = v.entries[0]!;
  if ((v.began === 'split' || v.began === 'merged') && depth < MAX_DEPTH) {
    const names: string[] = [];
    for (const source of v.began_from) {
      chain.push({ version: firstEntry.version, change: `${v.began}_from`, from_name: firstEntry.name, to_name: source, proposal: firstEntry.proposal });
      const id = lineageNamed(store, v.kind, source, v.first - 1);
      if (id === null) continue;
      const src = view(store, v.kind, id);
      const prior = src.entries.filter((e) => e.msl < v.first).pop();
      if (!prior) continue;
      const onward = backward(store, src, prior.msl, to, depth + 1);
      names.push(...onward.names);
      chain.push(...onward.chain);
    }
    return { names: unique(names), outcome: v.began, splitOff: false, chain, ended: null };
  }
  chain.push({ version: firstEntry.version, change: 'new', from_name: firstEntry.name, to_name: null, proposal: firstEntry.proposal });
  return { names: [], outcome: 'new', splitOff: false, chain, ended: null };
}

const unique = (xs: string[]) => [...new Set(xs)];
const above = (lineage: string) => lineage.split(';').slice(0, -1).join(';');

/** A lineage from release `start` (which it is in) to `to`: its status, names there and the chain. */
function walk(store: Store, v: View, start: number, to: number): Walked & { status: Status } {
  const w = to >= start ? forward(store, v, start, to) : backward(store, v, start, to);
  // in the order the changes happened (a split-off's own changes were followed where it split off)
  const sign = to >= start ? 1 : -1;
  w.chain.sort((a, b) => sign * (mslOf(a.version) - mslOf(b.version)));
  if (w.outcome === 'present') {
    if (w.splitOff) return { ...w, status: 'split' };
    const origin = v.entries.filter((e) => e.msl <= start).pop() ?? v.entries[0]!;
    const target = v.entries.find((e) => e.msl === to)!;
    const renamed = origin.name !== target.name;
    const moved = origin.parent !== target.parent;
    return { ...w, status: renamed && moved ? 'renamed+moved' : renamed ? 'renamed' : moved ? 'moved' : 'unchanged' };
  }
  return { ...w, status: w.outcome === 'gap' ? 'abolished' : w.outcome };
}

/** For a higher taxon that ended before `to`: where its species went, and its child taxa, each followed to `to`. */
function dispersal(store: Store, v: View, to: number): { destinations: Successor[]; members: Successor[] } {
  if (v.kind !== 'taxon' || v.ended_in === null || mslOf(v.ended_in) > to) return { destinations: [], members: [] };
  const doc = taxonDoc(store, v.id);
  const follow = (id: number, from: number) => {
    const w = walk(store, view(store, 'taxon', id), from, to);
    return { status: w.status, results: w.names };
  };
  return {
    destinations: doc.destinations.map((d) => ({ rank: d.rank, name: d.name, species: d.species, ...follow(d.taxon_id, mslOf(v.ended_in!)) })),
    members: doc.children.map((c) => ({ rank: c.rank, name: c.name, species: null, ...follow(c.taxon_id, v.last) })),
  };
}

// --- what an input denotes ------------------------------------------------------------------------------------

/** One lineage an input denotes. */
export interface Candidate {
  kind: LineageKind;
  id: number;
  rank: string;
  matched_name: string;
  matched_kind: NameHit['kind'] | IdentifierKind;
  /** The releases the name or identifier was used in for it, in any role. */
  first_msl: number;
  last_msl: number;
  /** The releases in which it was the taxon's own name (null: never; only a VMR isolate's name). */
  official: [number, number] | null;
  /** The taxon's name in the latest release, when the input is a name (identifiers do not say). */
  current_name: string | null;
}

export interface Identification {
  candidates: Candidate[];
  match_type: MatchType;
  confidence: number;
  /** Set when from_version was given and the input was not used in it. */
  note: string | null;
  /** The release each candidate's walk starts from. */
  start: number[];
}

function candidateOfName(h: NameHit): Candidate {
  return {
    kind: h.kind === 'taxon' ? 'taxon' : 'species', id: h.lineage_id, rank: h.rank, matched_name: h.name, matched_kind: h.kind,
    first_msl: h.first_msl, last_msl: h.last_msl,
    official: h.species_first_msl === null || h.species_last_msl === null ? null : [h.species_first_msl, h.species_last_msl],
    current_name: h.current_name,
  };
}

function candidateOfId(h: IdentifierHit): Candidate {
  return {
    kind: h.rank === 'species' ? 'species' : 'taxon', id: h.lineage_id, rank: h.rank, matched_name: h.name, matched_kind: h.kind,
    first_msl: h.first_msl, last_msl: h.last_msl, official: null, current_name: null,
  };
}

const round = (x: number) => Math.round(x * 1000) / 1000;
const isOfficial = (c: Candidate) => c.matched_kind === 'species' || c.matched_kind === 'taxon';
/** The release a name is taken from when none is given: the last in which it was the taxon's own name, else its last use. */
const lastUse = (c: Candidate) => c.official?.[1] ?? c.last_msl;

/**
 * An input read as the stem of abbreviations the VMR lists with a type (abbreviation-stems.ts): when it is
 * no name at all ("DENV": DENV-1..DENV-4), or only an abbreviation in another case ("PRRSV" is privet
 * ringspot virus's "PrRSV" so; PRRSV-1 and PRRSV-2 are porcine reproductive and respiratory syndrome
 * viruses). Written as the stem is, case included, the input means the typed abbreviations; written in
 * another case ("prrsv"), it may mean either, and all are its candidates. A name matched in its own spelling,
 * or any name other than an abbreviation, is never read as a stem.
 */
function stemMatch(store: Store, input: string, found: ReturnType<typeof findName>, group: StemGroup): { hits: NameHit[]; note: string } | null {
  if (found && found.hits.some((h) => h.kind !== 'abbreviation')) return null;
  const members = found ? group.members : membersAsWritten(group, input);
  const typed = typedHits(store, members);
  if (typed.length === 0) return null;
  const name = `'${asWritten(input)}'`;
  const shown = listed(members);
  const other = found ? [...new Set(found.hits.map((h) => h.name))].join(', ') : '';
  if (!found) return { hits: typed, note: `${name} is no abbreviation in ICTV's lists; read as the beginning of the VMR's abbreviations ${shown}` };
  if (writtenAsStem(group, input)) return { hits: typed, note: `${name} is read as the beginning of the VMR's abbreviations ${shown}, not as ${other}, which differs in case` };
  return { hits: [...found.hits, ...typed], note: `${name} may be ${other} in another case, or the beginning of the VMR's abbreviations ${shown}` };
}

/**
 * For an abbreviation matched as written that also begins typed abbreviations of other taxa ("HPV" is Hart
 * Park virus in the VMR; HPV1, HPV16, ... are papillomaviruses of other species), a note naming them: the
 * match stands (a stem is often a coincidence: PRV and PRV1 are unrelated), but a paper's "HPV" rarely means
 * Hart Park virus, and the answer should say what else the reader may have meant.
 */
function stemAside(store: Store, input: string, found: NonNullable<ReturnType<typeof findName>>, group: StemGroup): string | null {
  if (found.hits.some((h) => h.kind !== 'abbreviation')) return null;
  const own = new Set(found.hits.map((h) => h.lineage_id));
  const others = [...new Set(typedHits(store, group.members).filter((h) => !own.has(h.lineage_id)).map((h) => h.name))];
  return others.length === 0 ? null
    : `'${asWritten(input)}' also begins the VMR's abbreviations ${listed(others)} of other taxa; the whole abbreviation names one of those`;
}

/** The typed abbreviations given (of one stem), as name_lookup has them, in their order. */
function typedHits(store: Store, members: string[]): NameHit[] {
  return members.flatMap((m) => lookupName(store, m).filter((h) => h.kind === 'abbreviation' && h.name === m));
}

/** stemAside's note for an input matched as written, else null: what /ai adds to an answer about it. */
export function abbreviationAside(store: Store, input: string): string | null {
  const group = stemGroup(store, input);
  if (!group) return null;
  const found = findName(store, input);
  return found?.spelling === 'exact' ? stemAside(store, input, found, group) : null;
}

/**
 * For an abbreviation matched as written that also begins typed ones of other taxa ("HPV": Hart Park virus, and
 * HPV1, HPV16, ...), the lineages of those typed abbreviations and how many there are, else null: what /ai asks a
 * yes-or-no question of when the whole abbreviation's own answer may not be the one meant.
 */
export function stemLineages(store: Store, input: string): { lineage_ids: number[]; abbreviations: string; shared: string[] } | null {
  const group = stemGroup(store, input);
  if (!group) return null;
  const found = findName(store, input);
  if (found?.spelling !== 'exact' || found.hits.some((h) => h.kind !== 'abbreviation')) return null;
  const own = new Set(found.hits.map((h) => h.lineage_id));
  const members = membersAsWritten(group, input);
  // a typed abbreviation that is itself two viruses' ("HPV2": human papillomavirus 2 and herpesvirus papio 2) says
  // nothing of which the stem means: it is set aside, and named
  const shared: string[] = [];
  const ids = new Set<number>();
  for (const m of members) {
    const hits = typedHits(store, [m]);
    if (new Set(hits.map((h) => h.lineage_id)).size > 1) shared.push(m);
    else for (const h of hits) if (!own.has(h.lineage_id)) ids.add(h.lineage_id);
  }
  return ids.size > 0 ? { lineage_ids: [...ids], abbreviations: listed(members), shared } : null;
}

/** A few abbreviations and how many there are in all: "HPV1, HPV10, HPV100, HPV101, ... (183)". */
const listed = (names: string[]) => (names.length > 4 ? `${names.slice(0, 4).join(', ')}, ... (${names.length})` : names.join(', '));

/**
 * The abbreviations an input is read as the beginning of, where it is (as identify reads it), else null.
 * inputNorm: normaliseName(input), when the caller has it.
 */
export function stemReading(store: Store, input: string, inputNorm?: string): NameHit[] | null {
  const group = stemGroup(store, input, inputNorm);
  if (!group) return null;
  const found = findName(store, input);
  return found?.spelling === 'exact' ? null : stemMatch(store, input, found, group)?.hits ?? null;
}

/**
 * The taxa an input denotes, best match only: a name by its closest spelling; the taxa it was used for in
 * from_version when it is given, else in its latest use; an official name before a virus name or abbreviation;
 * identifiers when it is no name. Null when nothing matches (the caller suggests).
 */
export function identify(store: Store, input: string, from: ResolvedVersion | null, ids?: IdentifierHit[]): Identification | null {
  const found = findName(store, input);
  const group = stemGroup(store, input);
  const stem = group && found?.spelling !== 'exact' ? stemMatch(store, input, found, group) : null;
  const aside = group && found?.spelling === 'exact' ? stemAside(store, input, found, group) : null;
  let candidates: Candidate[];
  if (stem) candidates = stem.hits.map(candidateOfName);
  else if (found) candidates = found.hits.map(candidateOfName);
  else if (ids && ids.length > 0) candidates = ids.map(candidateOfId);
  else return null;
  let unused: string | null = null;
  if (from) {
    const used = candidates.filter((c) => c.first_msl <= from.msl && c.last_msl >= from.msl);
    if (used.length > 0) candidates = used;
    else {
      const span = `MSL${Math.min(...candidates.map((c) => c.first_msl))}..MSL${Math.max(...candidates.map((c) => c.last_msl))}`;
      unused = `'${input.trim()}' was not used in ${from.version} (it is known in ${span}); resolved from the last release it was used in`;
    }
  }
  const note = [stem?.note, aside, unused].filter(Boolean).join('; ') || null;
  // without a release the name was used in, it means what it meant last: the taxa it was last used for, in
  // any role ('Marek's disease virus' was a species abolished long ago and is the name of a virus of
  // Mardivirus gallidalpha2 in the latest VMR), and of these the ones whose own name it was most recently
  const latestMeaning = !from || unused !== null;
  const lastOf = (use: (c: Candidate) => number) => {
    const last = Math.max(...candidates.map(use));
    candidates = candidates.filter((c) => use(c) === last);
  };
  if (latestMeaning) lastOf((c) => c.last_msl);
  if (candidates.some(isOfficial)) candidates = candidates.filter(isOfficial);
  if (latestMeaning) lastOf(lastUse);
  // one candidate per lineage (a number that is a taxnode id and an ICTV id of one taxon is one candidate)
  const seen = new Set<string>();
  candidates = candidates.filter((c) => !seen.has(`${c.kind}:${c.id}`) && seen.add(`${c.kind}:${c.id}`));
  const start = candidates.map((c) => (from && !unused ? from.msl : lastUse(c)));
  // what the name was in the release it is taken from: a taxon's own name there, or (a former species name
  // still borne by an isolate: Tobacco mosaic virus in MSL40) a virus name
  const roles = candidates.map((c, i): MatchType => {
    if (!isOfficial(c)) return c.matched_kind as MatchType;
    return c.official && c.official[0] <= start[i]! && c.official[1] >= start[i]! ? 'exact' : 'virus_name';
  });
  const confidenceOf = (c: Candidate, role: MatchType) => (role === 'exact' ? MATCH_CONFIDENCE[c.matched_kind] : MATCH_CONFIDENCE[role as keyof typeof MATCH_CONFIDENCE] ?? 1);
  let base = Math.min(...candidates.map((c, i) => confidenceOf(c, roles[i]!)));
  if (stem) base *= MATCH_CONFIDENCE.abbreviation_stem;
  else if (found) base *= MATCH_CONFIDENCE[found.spelling];
  if (unused) base *= MATCH_CONFIDENCE.not_in_from_version;
  const match_type = !stem && found && found.spelling !== 'exact' ? found.spelling : roles[0]!;
  return { candidates, match_type, confidence: round(base / candidates.length), note, start };
}

/**
 * Every lineage a name has stood for by its closest spelling (official names before virus names), not only
 * its latest meaning: a history of 'Zika virus' shows the species abolished in MSL14 beside the one
 * created in MSL18. Null when the input is no known name.
 */
export function lineagesNamed(store: Store, input: string): Array<{ kind: LineageKind; id: number }> | null {
  const found = findName(store, input);
  if (!found) return null;
  let candidates = found.hits.map(candidateOfName);
  if (candidates.some(isOfficial)) candidates = candidates.filter(isOfficial);
  const seen = new Set<string>();
  return candidates.filter((c) => !seen.has(`${c.kind}:${c.id}`) && seen.add(`${c.kind}:${c.id}`))
    .sort((a, b) => (a.official?.[0] ?? a.first_msl) - (b.official?.[0] ?? b.first_msl))
    .map((c) => ({ kind: c.kind, id: c.id }));
}

const EMPTY = { destinations: [] as Successor[], members: [] as Successor[] };

/** What a match says, before the walk. */
type Matched = Pick<Resolution, 'rank' | 'matched_name' | 'matched_kind' | 'confidence' | 'note' | 'lineages'>;

// A resolution is made by one of two object literals, each with its keys in the order the API has always
// shown them (the JSON answers are the same bytes): one shape each, where spreading objects together made a
// slow object of every resolution, for resolving and for serialising alike.
function unknownResolution(name: string, from: ResolvedVersion | null, to: ResolvedVersion): Resolution {
  return {
    name, from_version: from?.version ?? null, to_version: to.version, suggestions: [], destinations: EMPTY.destinations, members: EMPTY.members,
    status: 'unknown', rank: null, matched_name: null, matched_kind: null, match_type: null, confidence: 0, results: [], chain: [], note: null, lineages: [],
  };
}

function matchedResolution(name: string, from: ResolvedVersion | null, to: ResolvedVersion, m: Matched, match_type: MatchType, status: Status,
  results: string[], chain: ChainStep[], dispersed = EMPTY): Resolution {
  return {
    name, from_version: from?.version ?? null, to_version: to.version, suggestions: [], destinations: dispersed.destinations, members: dispersed.members,
    rank: m.rank, matched_name: m.matched_name, matched_kind: m.matched_kind, confidence: m.confidence, note: m.note, lineages: m.lineages,
    match_type, status, results, chain,
  };
}

export function resolveOne(store: Store, name: string, from: ResolvedVersion | null, to: ResolvedVersion, ids?: IdentifierHit[]): Resolution {
  const found = identify(store, name, from, ids);
  if (!found) return unknownResolution(name, from, to);
  const { candidates, start } = found;
  const lineages = candidates.map((c) => ({ kind: c.kind, id: c.id }));
  const first = candidates[0]!;
  const matched: Matched = {
    rank: candidates.every((c) => c.rank === first.rank) ? first.rank : null,
    matched_name: first.matched_name, matched_kind: first.matched_kind, confidence: found.confidence, note: found.note, lineages,
  };
  if (candidates.length > 1) {
    const results = unique(candidates.flatMap((c, i) => walk(store, view(store, c.kind, c.id), start[i]!, to.msl).names));
    return matchedResolution(name, from, to, matched, found.match_type, 'ambiguous', results, []);
  }
  // A name used in the latest release (a taxon's, or a VMR virus name or abbreviation of one) asked for in
  // the latest release: nothing to walk, its taxon there is its current name (the commonest question, and
  // a walk costs more than the rest of the resolution)
  if (start[0] === to.msl && first.current_name !== null && to.msl === latest(store).msl) {
    return matchedResolution(name, from, to, matched, found.match_type, 'unchanged', [first.current_name], []);
  }
  const v = view(store, first.kind, first.id);
  const w = walk(store, v, start[0]!, to.msl);
  // an official name followed to a release where the taxon has another name is a former (or, going back in
  // time, a later) name; otherwise it is exact: the taxon's name in the release it is taken from
  const renamedThere = w.names.length > 0 && !w.names.includes(first.matched_name);
  const match_type: MatchType = found.match_type !== 'exact' || !renamedThere ? found.match_type
    : to.msl > start[0]! ? 'former_name' : 'later_name';
  const dispersed = w.ended && w.ended.ended !== 'renamed' ? dispersal(store, w.ended, to.msl) : EMPTY;
  return matchedResolution(name, from, to, matched, match_type, w.status, w.names, w.chain, dispersed);
}

/** Names resolved in one slice of a batch (resolveInSlices): the most resolutions a batch's caller holds at once. */
const SLICE_NAMES = 500;

/**
 * Resolves a batch a slice of names at a time, each slice with its suggestions, handed over before the next is
 * resolved: a caller that turns each into text (resolve-batch.ts) never holds the resolutions of the whole
 * batch. Identifiers are looked up in one query for the batch, names in memory, suggestions for the inputs of
 * a slice that matched nothing (suggest.ts). Resolving is synchronous work on in-memory documents: 10,000 names
 * in one go would hold every other request for a second, so it is done in slices of time (slices.ts), and
 * lookups keep being answered between them.
 */
export async function* resolveInSlices(store: Store, names: readonly string[], from: ResolvedVersion | null, to: ResolvedVersion): AsyncGenerator<Resolution[]> {
  const idInputs: string[] = [];
  const times = new Map<string, number>();
  await eachInSlices(names, (n) => {
    times.set(n, (times.get(n) ?? 0) + 1);
    if (identifierKeys(n) !== null && findName(store, n) === null) idInputs.push(n);
  });
  const ids = await lookupIdentifiers(store, idInputs);
  // an input given several times (a species column repeats its names) is resolved once, each row a copy
  const once = new Map<string, Resolution>();
  for (let at = 0; at < names.length; at += SLICE_NAMES) {
    const results = await mapInSlices(names.slice(at, at + SLICE_NAMES), (n) => {
      const seen = once.get(n);
      if (seen) return { ...seen };
      const r = resolveOne(store, n, from, to, ids.get(n));
      if (times.get(n)! > 1) once.set(n, r);
      return r;
    });
    const unknown = results.filter((r) => r.status === 'unknown');
    if (unknown.length > 0) {
      const suggestions = await suggest(store, unknown.map((r) => r.name));
      await eachInSlices(unknown, (r) => {
        r.suggestions = (suggestions.get(normaliseName(r.name)) ?? []).map((s) => s.name);
        if (r.suggestions.length > 0) r.match_type = 'fuzzy';
      });
    }
    yield results;
  }
}

/** Resolves a batch (resolveInSlices, every slice kept). */
export async function resolveMany(store: Store, names: readonly string[], from: ResolvedVersion | null, to: ResolvedVersion): Promise<Resolution[]> {
  const out: Resolution[] = [];
  for await (const slice of resolveInSlices(store, names, from, to)) for (const r of slice) out.push(r);
  return out;
}

/** One input resolved (resolveMany of one). */
export async function resolveName(store: Store, name: string, from: ResolvedVersion | null, to: ResolvedVersion): Promise<Resolution> {
  return (await resolveMany(store, [name], from, to))[0]!;
}

export interface Placement {
  lineage: LineageDoc;
  /** The species record in the release asked, or in the release it went on as (merged, split). */
  species: SpeciesDoc | null;
  /** present: the lineage is in that release; ended: it ended before it (resolution says where it went);
   *  not_yet: the release predates it; gap: it is missing from that release only. */
  status: 'present' | 'ended' | 'not_yet' | 'gap';
  resolution: Resolution | null;
}

/**
 * Where a species lineage stands in a release: its own species there, or what it became. Its names release by
 * release come from its walk (lineagePlace), so the lineage's document is read and parsed only when an answer
 * reads `lineage`.
 */
export function placeIn(store: Store, lineageId: number, name: string, target: ResolvedVersion): Placement {
  let doc: LineageDoc | undefined;
  const lineage = (): LineageDoc => (doc ??= lineageDoc(store, lineageId));
  const placed = (p: Omit<Placement, 'lineage'>): Placement => Object.defineProperty(p, 'lineage', { get: lineage, enumerable: true }) as Placement;
  const here = lineagePlace(store, lineageId, target.msl);
  if (here.name !== null) return placed({ species: speciesDoc(store, target.msl, here.name), status: 'present', resolution: null });
  if (target.msl < here.first) return placed({ species: null, status: 'not_yet', resolution: null });
  if (target.msl < here.last) return placed({ species: null, status: 'gap', resolution: null });
  const resolution = resolveOne(store, name, null, target);
  const successor = resolution.results[0];
  return placed({ species: successor ? speciesDoc(store, target.msl, successor) : null, status: 'ended', resolution });
}

/** A resolution as the API shows it: everything but the lineage ids the read layer works with. */
export function shownResolution(r: Resolution): Omit<Resolution, 'lineages'> {
  // key by key, in the resolution's order: the copies share one shape (Object.entries made a slow object of each)
  const shown: Record<string, unknown> = {};
  for (const key in r) if (key !== 'lineages') shown[key] = r[key as keyof Resolution];
  return shown as Omit<Resolution, 'lineages'>;
}

/**
 * The step of a resolution's chain that ended the taxon or began it (abolished, merged, split, new, or going
 * back split_from / merged_from), and the taxa it went into or came from there.
 */
export function endingOf(r: Resolution): { step: ChainStep; into: string[] } | null {
  const step = r.chain.find((c) => ['abolished', 'merged', 'split', 'new', 'split_from', 'merged_from'].includes(c.change));
  if (!step) return null;
  return { step, into: r.chain.filter((c) => c.version === step.version && c.change === step.change && c.to_name).map((c) => c.to_name!) };
}

const article = (word: string) => (/^[aeiou]/i.test(word) ? 'an' : 'a');

/**
 * Why a resolved input is not one taxon of `rank` in release `v` (resolved to v): another rank, not yet
 * classified, ended, or several taxa. The sentence every 404 for a known name says.
 */
export function absence(r: Resolution, v: ResolvedVersion, rank: string): string {
  const q = `'${r.name}'`;
  const names = (xs: string[]) => xs.map((x) => `'${x}'`).join(', ');
  const where = r.results.length > 0 && !(r.results.length === 1 && r.results[0] === r.name) ? ` (in ${v.version}: ${names(r.results)})` : '';
  if (r.status === 'ambiguous') return `${q} names several taxa${r.results.length > 0 ? `, in ${v.version} ${names(r.results)}` : ''}`;
  if (r.rank !== null && r.rank !== rank) return `${q} is ${article(r.rank)} ${r.rank}${where}, not ${article(rank)} ${rank}`;
  const now = r.results.length > 0 ? `; in ${v.version} it is ${names(r.results)}` : '';
  const ending = endingOf(r);
  if (!ending) {
    const rename = r.chain.find((c) => c.change.startsWith('renamed'));
    return rename
      ? `${q} is not ${article(rank)} ${rank} of ${v.version}: it was renamed '${rename.to_name}' in ${rename.version}${now}`
      : `${q} is not ${article(rank)} ${rank} of ${v.version}${now}`;
  }
  const { step, into } = ending;
  const taxon = `the ${r.rank ?? 'taxon'}${step.from_name ? ` '${step.from_name}'` : ''}`;
  switch (step.change) {
    case 'new': return `${q} is not in ${v.version}: ${taxon} was first listed in ${step.version}`;
    case 'abolished': return `${q} is not in ${v.version}: ${taxon} was abolished in ${step.version}${now}`;
    case 'split_from': return `${q} is not in ${v.version}: ${taxon} was split off ${names(into)} in ${step.version}${now}`;
    case 'merged_from': return `${q} is not in ${v.version}: ${taxon} was formed by merging ${names(into)} in ${step.version}${now}`;
    default: return `${q} is not ${article(rank)} ${rank} of ${v.version}: ${taxon} was ${step.change} ${into.length > 0 ? `into ${names(into)} ` : ''}in ${step.version}${now}`;
  }
}

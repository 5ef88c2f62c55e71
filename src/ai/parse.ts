// The deterministic language layer of POST /ai/query: a question in, its intent and the things it names out.
// No model and no guessing: releases are read with patterns ("MSL39", "39", "2019", "2018b", "latest"), species
// and virus names by looking every run of words up in name_lookup (any name a species ever had, VMR virus names
// and abbreviations), higher taxa in taxon_profile, hosts and genome types in vocabulary.ts; the intent is then
// chosen by ordered rules over what was found and the words left around it. A question this cannot read gets
// the intent 'unknown' (and an honest answer), never a best guess.
import type { Store } from '../store/store.js';
import { identifierKeys, type IdentifierHit, type IdentifierKind } from '../read/identifiers.js';
import type { Rank } from '../read/lineages.js';
import { lookupName, normaliseName, type NameHit } from '../read/names.js';
import { releases as releaseRows, type ReleaseRow } from '../read/releases.js';
import { stemReading } from '../read/resolve.js';
import type { Alias } from '../read/virus-aliases.js';
import { matches } from './matches.js';
import { findGenomeTypes, findHosts } from './vocabulary.js';

export const INTENTS = [
  'classification', 'current_name', 'former_names', 'species_history', 'genome', 'hosts', 'count_release',
  'count_taxon', 'release_changes', 'compare_releases', 'family_evolution', 'family_stability', 'largest_taxa',
  'fastest_growing', 'milestones', 'taxon_history', 'families_by_host', 'families_by_genome', 'release_info',
  'help', 'unknown',
] as const;
export type Intent = (typeof INTENTS)[number];


export type ChangeKind = 'added' | 'removed' | 'renamed' | 'reclassified' | 'merged' | 'split';

/** One entry of taxon_profile's document: a taxon name at one rank, and its size in each release it is in. */
export interface TaxonEntry {
  rank: string;
  name: string;
  first_msl: number;
  last_msl: number;
  parents: Array<{ rank: string; name: string }>;
  counts: Array<{ msl: number; species: number; genera: number; families: number; orders: number }>;
}

export interface ReleaseRef {
  text: string;
  version: string;
  msl: number;
  year: number;
  label: string;
  /** Set when the words did not name exactly one release ("2018" has two). */
  note?: string;
  /** The labels of the releases a year had when it had several ("2018" -> 2018a, 2018b). */
  ambiguous?: string[];
}

export interface SpeciesRef {
  text: string;
  matched_name: string;
  kind: NameHit['kind'] | IdentifierKind;
  lineage_ids: number[];
  current_name: string | null;
  /** The releases the name itself was used in (as species name, VMR virus name or abbreviation). */
  first_msl: number;
  last_msl: number;
  /** Found through a short name ("phage T4") or a misspelling rather than a name as a list spells it. */
  via?: { how: 'alias' | 'typo'; name: string };
}

export interface TaxonRef {
  text: string;
  rank: string;
  name: string;
  entry: TaxonEntry;
  /** Found through a common plural ("coronaviruses" -> Coronaviridae) rather than the taxon's own name. */
  common?: boolean;
}

export interface Parsed {
  /** The question as the cache keys it: lower case, straight quotes, single spaces, no trailing punctuation. */
  normalised: string;
  intent: Intent;
  releases: ReleaseRef[];
  species: SpeciesRef[];
  taxa: TaxonRef[];
  hosts: string[];
  genomeTypes: string[];
  /** What the question counts or ranks ("how many genera", "largest orders"); null when it names no rank. */
  targetRank: Rank | null;
  /** The rank word asked about for a species ("what family is ..."). */
  askedRank: Rank | null;
  change: ChangeKind | null;
  /** "top 5", "10 largest". */
  limit: number | null;
  /** "more than 10,000 species". */
  threshold: number | null;
  /** Words that look like a name but match none ("Foobar virus"), for the honest answer. */
  unknownNames: string[];
  /** Other words that are neither question words nor anything recognised. */
  leftovers: string[];
  /** Release words that name no release ("MSL99", "2030"). */
  badReleases: string[];
  /** The question's words with every recognised name replaced by a placeholder: what the intent rules read. */
  residue: string;
}

/** Where names are looked up; the store's in-memory documents in the service, anything in a unit test. */
export interface Lexicon {
  names(norm: string): NameHit[];
  taxa(norm: string): TaxonEntry[];
  releases: ReleaseRow[];
  /** Species identifiers (accessions, taxids, ICTV ids) of the question's words, looked up beforehand. */
  identifiers?: Map<string, IdentifierHit[]>;
  /** Short names of viruses ("phage T4", "phiX174", "flu"), by normalised form (read/virus-aliases.ts). */
  aliases?: Map<string, Alias>;
  /** The abbreviations a word is read as the beginning of ("DENV": DENV-1..4), as the resolver reads it, else null. */
  stems?(text: string): NameHit[] | null;
}

/**
 * The words of a question that may be identifiers of a species: accessions, "txid12242", "ICTV19710322" (a bare
 * number is a release, a year or a count in a question, never an identifier).
 */
export function identifierWords(query: string): string[] {
  const text = clean(query);
  // every kind of identifier has a digit, and most questions none
  if (!/\d/.test(text)) return [];
  return tokenise(text).map((t) => t.text).filter((t) => !/^\d+$/.test(t) && identifierKeys(t) !== null);
}

// Every run of a question's words is looked up, most of them missing: the same few thousand runs ("how many",
// "species in") recur from question to question, so their lookups are kept per opened build, up to a bound.
const MEMO_SIZE = 20_000;
const memos = new WeakMap<Store, Map<string, unknown>>();

function memo<T>(store: Store, kind: string, norm: string, look: () => T): T {
  let m = memos.get(store);
  if (!m) {
    m = new Map();
    memos.set(store, m);
  }
  const key = `${kind}${norm}`;
  let v = m.get(key) as T | undefined;
  if (v === undefined) {
    if (m.size >= MEMO_SIZE) m.clear();
    v = look();
    m.set(key, v);
  }
  return v;
}

export function storeLexicon(store: Store, identifiers?: Map<string, IdentifierHit[]>, aliases?: Map<string, Alias>): Lexicon {
  const lex: Lexicon = {
    // species, virus names and abbreviations; higher taxa are the taxa lexicon's
    names: (norm) => memo(store, 'n', norm, () => lookupName(store, norm).filter((h) => h.kind !== 'taxon')),
    taxa: (norm) => memo(store, 't', norm, () => store.docJson<TaxonEntry[]>('taxon_profile', norm) ?? []),
    stems: (text) => stemReading(store, text),
    releases: releaseRows(store),
  };
  // set, not spread in: spreading them showed in a profile of every question
  if (identifiers) lex.identifiers = identifiers;
  if (aliases) lex.aliases = aliases;
  return lex;
}

/** The cache key form of a question. */
export function normaliseQuestion(q: string): string {
  return normalisedOf(clean(q));
}

const normalisedOf = (cleaned: string): string => cleaned.toLowerCase().replace(/[\s?!.]+$/, '').trim();

function clean(q: string): string {
  // printable ASCII but the backtick, as most questions are, has nothing for NFKC or the quotes and dashes to change
  const text = /^[\x20-\x5f\x61-\x7e]*$/.test(q) ? q : q.normalize('NFKC').replace(/[‘’`´]/g, "'").replace(/[“”]/g, '"').replace(/[‐‑‒–—]/g, '-');
  return text.replace(/\s+/g, ' ').trim();
}

// Words of questions, never names on their own: a one-word match must not be one of these ("have" is the
// abbreviation HAVE, "cov" one of COV). Several-word names are matched whatever their words.
const QUESTION_WORDS = new Set(`
  a about above across after again against all also am an and any anything are as ask at be been before being
  below between both but by can could did do does doing done during each either else ever every few for from
  further give given had has have having here how however i if in into is it its itself just know let like list
  many may me might more most much must my name named names need no nor not now of off on once one only or other
  our out over own please same say see shall she should show since so some such tell than that the their them
  then there these they this those through to too two three four five six seven eight nine ten under until up
  us very was we were what whats when where whether which while who whom whose why will with within would you
  your yes current currently latest newest recent most-recent today present earliest oldest first last previous
  former formerly old new newly still called call known classified classify classification taxonomy taxonomic
  lineage belong belongs belonged placed part group grouped rank ranks taxon taxa family families genus genera
  species order orders realm realms class classes phylum phyla kingdom kingdoms subfamily subfamilies subgenus
  subgenera suborder suborders subphylum subphyla subrealm subrealms subclass subkingdom virus viruses viral
  phage phages bacteriophage bacteriophages release releases released version versions msl year years edition
  list lists compare compared comparison versus vs difference differences differ different changed change changes
  changing happened happen happens history historical evolution evolve evolved evolving over time through
  stable stability stablest unstable churn count counts number numbers total totals how-many largest biggest
  smallest top fastest growing grew grow growth gained gain lost most least increase increased milestone
  milestones event events major key timeline abolished abolish abolition removed remove deleted delete merged
  merge split splits renamed rename renaming reclassified reclassify moved added add created introduced appear
  appeared appearance exist exists existed existence listed infect infects infected infecting host hosts hosted
  genome genomes genomic type types kind kinds size length long big small dna rna nucleic acid segment segments
  segmented sense strand stranded double single positive negative ambisense kb bp mb nt base bases pairs
  archaea bacteria plants fungi insects animals humans vertebrates invertebrates protists algae
  ictv msl help example examples hello hi thanks thank please kindly describe explain info information detail
  details summary summarise summarize overview data set dataset now today anymore exactly approximately about
  mean means meaning tell me its it's dissolution dissolved end ended ending demise fate
`.split(/\s+/).filter(Boolean));

/** A word of questions ("how", "many", "virus"), never a name on its own. */
export function isQuestionWord(word: string): boolean {
  return QUESTION_WORDS.has(word.toLowerCase());
}

/** Words that name a rank, singular and plural, in lower case. */
const RANK_WORDS = new Map<string, Rank>([
  ['subrealm', 'subrealm'], ['subrealms', 'subrealm'], ['realm', 'realm'], ['realms', 'realm'],
  ['subkingdom', 'subkingdom'], ['subkingdoms', 'subkingdom'], ['kingdom', 'kingdom'], ['kingdoms', 'kingdom'],
  ['subphylum', 'subphylum'], ['subphyla', 'subphylum'], ['phylum', 'phylum'], ['phyla', 'phylum'],
  ['subclass', 'subclass'], ['subclasses', 'subclass'], ['class', 'class'], ['classes', 'class'],
  ['suborder', 'suborder'], ['suborders', 'suborder'], ['order', 'order'], ['orders', 'order'],
  ['subfamily', 'subfamily'], ['subfamilies', 'subfamily'], ['family', 'family'], ['families', 'family'],
  ['subgenus', 'subgenus'], ['subgenera', 'subgenus'], ['genus', 'genus'], ['genera', 'genus'], ['species', 'species'],
]);

// a lookup rather than a pattern per rank: the name finder asks it of the words around every run of words
export function rankOf(word: string): Rank | null {
  return RANK_WORDS.get(word.toLowerCase()) ?? null;
}

interface Token {
  text: string;
  start: number;
  end: number;
  /** Part of a release mention, a name or a vocabulary phrase already. */
  used: boolean;
}

function tokenise(text: string): Token[] {
  const tokens: Token[] = [];
  for (const m of matches(/\S+/g, text)) {
    let t = m[0];
    let start = m.index;
    // trim punctuation at the ends, keeping a closing parenthesis that closes one inside ("ssRNA(+)")
    const lead = /^[("'[{¿¡]+/.exec(t)?.[0].length ?? 0;
    t = t.slice(lead);
    start += lead;
    t = t.replace(/['’]s$/i, '');
    while (t.length > 0 && /[.,;:!?"'\]}]$/.test(t)) t = t.slice(0, -1);
    if (t.endsWith(')') && !t.includes('(')) t = t.slice(0, -1);
    if (t.length > 0) tokens.push({ text: t, start, end: start + t.length, used: false });
  }
  return tokens;
}

// --- releases ------------------------------------------------------------------------------------------------

interface Mention {
  start: number;
  end: number;
  refs: ReleaseRef[];
  bad?: string;
}

// a number followed by these words counts something ("40 species", "2020 names") rather than naming a release
const RANK_OR_COUNT_AFTER = /^\s*(?:%|percent|species|genera|genus|famil|orders?|realms?|class|phyl|kingdom|names?|taxa|top|largest|most|more|kb|bp|mb|nt)/i;

function findReleases(lower: string, all: ReleaseRow[]): Mention[] {
  const out: Mention[] = [];
  const first = all[0]!, last = all[all.length - 1]!;
  const span = `${first.version} (${first.year}) to ${last.version} (${last.year})`;
  const byMsl = (n: number) => all.find((r) => r.msl === n);
  const ref = (r: ReleaseRow, text: string, note?: string): ReleaseRef =>
    ({ text, version: r.version, msl: r.msl, year: r.year, label: r.label, ...(note ? { note } : {}) });
  const push = (m: RegExpMatchArray, refs: ReleaseRef[], bad?: string) => {
    const start = m.index!, end = start + m[0].length;
    if (out.some((o) => start < o.end && end > o.start)) return;
    out.push({ start, end, refs, ...(bad ? { bad } : {}) });
  };

  // a release by its place next to another: "the release before MSL41", "the one after 2018a", "the previous
  // release" and "the release before last" (the one before the latest)
  const named = (t: string): ReleaseRow | undefined => {
    const n = /^(?:msl\s*-?\s*|release\s+)(\d{1,3})$/.exec(t);
    return n ? byMsl(Number(n[1])) : all.find((r) => r.label === t) ?? (all.filter((r) => String(r.year) === t).length === 1 ? all.find((r) => String(r.year) === t) : undefined);
  };
  for (const m of matches(/\b(?:the\s+)?(?:release|version|msl|list|one)\s+(?:that\s+)?(?:(?:came|comes|was\s+(?:published|released))\s+)?(before|after|following|preceding|prior\s+to)\s+(?:the\s+)?(msl\s*-?\s*\d{1,3}|release\s+\d{1,3}|(?:19|20)\d\d[ab]?|last|latest)\b/g, lower)) {
    const at = /^(?:last|latest)$/.test(m[2]!) ? last : named(m[2]!);
    if (!at) continue;
    const r = byMsl(at.msl + (/^(?:before|preceding|prior)/.test(m[1]!) ? -1 : 1));
    if (r) push(m, [ref(r, m[0])]);
    else push(m, [], `there is no release ${m[1]} ${at.version} in this data set (${span})`);
  }
  // "the previous release": the one before the release the question names, else before the latest (below)
  const previous: Mention[] = [];
  for (const m of matches(/\b(?:the\s+)?(?:previous|penultimate|second[- ]to[- ]last|second[- ]latest|last[- ]but[- ]one)\s+(?:release|version|msl|list)\b|\bthe\s+(?:one|release|version|list)\s+before\s+(?:it|that|this|this one)\b/g, lower)) {
    const before = out.length;
    push(m, []);
    if (out.length > before) previous.push(out[out.length - 1]!);
  }
  // every pattern from here to the bare release number needs a digit, and most questions have none
  if (/\d/.test(lower)) {
    for (const m of matches(/\bmsl\s*-?\s*(\d{1,3})\b/g, lower)) {
      const r = byMsl(Number(m[1]));
      if (r) push(m, [ref(r, m[0])]);
      else push(m, [], `${m[0].toUpperCase().replace(/\s|-/g, '')} is not a release in this data set (${span})`);
    }
    // "the 23rd MSL", "the 5th release": a release by its number
    for (const m of matches(/\b(\d{1,3})(?:st|nd|rd|th)\s+(?:(?:ictv|master|species|official)\s+){0,2}(?:msl|release|version|list|edition)\b/g, lower)) {
      const r = byMsl(Number(m[1]));
      if (r) push(m, [ref(r, m[0])]);
      else push(m, [], `there is no ${m[1]}th release in this data set (${span})`);
    }
    // "release 39", "version 39", "release 5"
    for (const m of matches(/\b(?:release|version)\s+(?:number\s+|no\.?\s+|#)?(\d{1,3})\b(?!\s*(?:species|genera|famil))/g, lower)) {
      const r = byMsl(Number(m[1]));
      if (r) push(m, [ref(r, m[0])]);
      else push(m, [], `${m[0]} is not a release in this data set (${span})`);
    }
    // "the 1800s", "the 1960s": decades before the first release (or after the last)
    for (const m of matches(/\b(1\d|20)(\d)0'?s\b/g, lower)) {
      const from = Number(`${m[1]}${m[2]}0`);
      if (from + 9 < first.year || from > last.year) push(m, [], `no release dates from the ${m[0]}; the data set covers ${span}`);
      else push(m, []);   // a decade of the record is read whole (understood.ts), never as its first year
    }
    // "the first 1999 release", "the second release of 2018": one of a year's two releases
    for (const m of matches(/\b(first|second|earlier|later|last|1st|2nd)\s+(?:((?:19|20)\d\d)\s+(?:release|version|list|msl)|(?:release|version|list|msl)\s+(?:of|in)\s+((?:19|20)\d\d))\b/g, lower)) {
      const inYear = all.filter((r) => r.year === Number(m[2] ?? m[3]));
      const r = /^(?:first|earlier|1st)$/.test(m[1]!) ? inYear[0] : inYear[1];
      if (r && inYear.length > 1) push(m, [ref(r, m[0])]);
    }
    // "the 1850 release", "MSL of 1066": a year no release can be of
    for (const m of matches(/\b(1[0-8]\d\d|19[0-6]\d)\b/g, lower)) {
      if (/^\s*(?:release|version|list|msl|edition|taxonomy)/.test(lower.slice(m.index! + m[0].length)) || /\b(?:in|of|from|since|until|year)\s*(?:the\s+)?$/.test(lower.slice(0, m.index))) {
        push(m, [], `no release dates from ${m[1]}; the data set covers ${span}`);
      }
    }
    // "2018b" names one release by its label ("1999c" none); "2019" the release(s) of that year
    for (const m of matches(/\b((?:19|20)\d\d)([a-rt-z])?\b/g, lower)) {
      const year = Number(m[1]);
      if (m[2]) {
        const r = all.find((x) => x.label === `${m[1]}${m[2]}`);
        if (r) push(m, [ref(r, m[0])]);
        else push(m, [], `there is no release labelled ${m[0]} (releases: ${span})`);
        continue;
      }
      if (RANK_OR_COUNT_AFTER.test(lower.slice(m.index! + m[0].length)) && !/\b(?:in|of|from|to|since|until|and|between)\s*$/.test(lower.slice(0, m.index))) continue;
      const inYear = all.filter((r) => r.year === year);
      if (inYear.length === 1) push(m, [ref(inYear[0]!, m[0])]);
      else if (inYear.length > 1) {
        // two releases in one year (2018a, 2018b): the later one was in force at the end of it
        const chosen = inYear[inYear.length - 1]!;
        push(m, [{ ...ref(chosen, m[0], `${year} had ${inYear.length} releases (${inYear.map((r) => `${r.version} = ${r.label}`).join(', ')})`), ambiguous: inYear.map((r) => r.label) }]);
      } else if (year >= first.year && year <= last.year) {
        // never the release in force instead: the question named a release that does not exist
        const before = all.filter((r) => r.year < year).pop()!;
        const after = all.find((r) => r.year > year)!;
        push(m, [], `no release was published in ${year} (${before.version} is of ${before.label}, ${after.version} of ${after.label})`);
      } else {
        push(m, [], `no release dates from ${year}; the data set covers ${span}`);
      }
    }
    // a bare release number, when the words around it make it one: "in 39", "between 35 and 40"
    for (const m of matches(/\b(\d{2})\b/g, lower)) {
      const n = Number(m[1]);
      const r = byMsl(n);
      if (!r) continue;
      const before = lower.slice(0, m.index);
      const after = lower.slice(m.index! + m[0].length);
      if (!/\b(?:in|of|for|from|to|and|between|vs\.?|versus|since|until|with|msl|release|version)\s*$/.test(before)) continue;
      if (RANK_OR_COUNT_AFTER.test(after) || /^\s*,\d{3}/.test(after) || /^[.,]\d/.test(after)) continue;
      push(m, [ref(r, m[0])]);
    }
  }
  // "the latest release", "currently", "between MSL39 and the latest", or the word alone as the whole question
  for (const m of matches(/\b(?:the\s+)?(?:latest|newest|current|most recent|last)\s+(?:release|version|msl|list|taxonomy)\b|\b(?:currently|nowadays|today|now)\b|\bright now\b|(?<=\b(?:and|to|with|vs\.?|versus|than)\s+)(?:the\s+)?(?:latest|newest|current|most recent)(?:\s+one)?\b|^(?:the\s+)?(?:latest|newest|current|most recent)(?:\s+one)?(?=[\s?.!]*$)/g, lower)) {
    push(m, [ref(last, m[0])]);
  }
  for (const m of matches(/\b(?:the\s+)?(?:very\s+)?(?:first|earliest|oldest)\s+(?:(?:ictv|species|master|official|taxonomy)\s+){0,3}(?:release|version|msl|list)\b/g, lower)) {
    push(m, [ref(first, m[0])]);
  }
  for (const p of previous) {
    const other = out.find((o) => !previous.includes(o) && o.refs.length === 1);
    const r = byMsl((other?.refs[0]!.msl ?? last.msl) - 1);
    const text = lower.slice(p.start, p.end);
    if (r) p.refs = [ref(r, text)];
    else p.bad = `there is no release before ${other?.refs[0]!.version ?? last.version} in this data set (${span})`;
  }
  return out.sort((a, b) => a.start - b.start);
}

// --- names -----------------------------------------------------------------------------------------------------

const MAX_NAME_WORDS = 12;

interface NameMatch {
  start: number;
  end: number;
  text: string;
  species?: SpeciesRef;
  taxon?: TaxonRef;
}

function speciesRef(text: string, hits: NameHit[]): SpeciesRef {
  // as resolveOne does: a name used as a species' own name wins over a virus name or abbreviation
  const chosen = hits.some((h) => h.kind === 'species') ? hits.filter((h) => h.kind === 'species') : hits;
  const best = chosen[0]!;
  return {
    text, matched_name: best.name, kind: best.kind, lineage_ids: [...new Set(chosen.map((h) => h.lineage_id))],
    current_name: best.current_name, first_msl: best.first_msl, last_msl: best.last_msl,
  };
}

function identifierRef(text: string, hits: IdentifierHit[]): SpeciesRef {
  const best = hits[0]!;
  return {
    text, matched_name: best.name, kind: best.kind, lineage_ids: [...new Set(hits.map((h) => h.lineage_id))],
    current_name: null, first_msl: best.first_msl, last_msl: best.last_msl,
  };
}

function findNames(tokens: Token[], lex: Lexicon): NameMatch[] {
  const out: NameMatch[] = [];
  // normaliseName works letter by letter, so a run's normal form is its words' joined: each word's once
  const norms = tokens.map((t) => normaliseName(t.text));
  const lowers = tokens.map((t) => t.text.toLowerCase());
  const textOf = (from: number, to: number) => tokens.slice(from, to).map((t) => t.text).join(' ');
  const normOf = (from: number, to: number) => norms.slice(from, to).join('');
  const take = (from: number, to: number, match: Omit<NameMatch, 'start' | 'end'>) => {
    for (let k = from; k < to; k++) tokens[k]!.used = true;
    out.push({ start: tokens[from]!.start, end: tokens[to - 1]!.end, ...match });
  };
  for (let i = 0; i < tokens.length; i++) {
    // no name starts with a question word, but for a short name beginning with "phage" ("phage T4")
    if (tokens[i]!.used || (QUESTION_WORDS.has(lowers[i]!) && lowers[i] !== 'phage')) continue;
    // the longest run from here that takes in no word already read (a release, or a name found before)
    let longest = 1;
    while (longest < MAX_NAME_WORDS && i + longest < tokens.length && !tokens[i + longest]!.used) longest++;
    for (let n = longest; n >= 1; n--) {
      const end = i + n;
      const first = lowers[i]!, last = lowers[end - 1]!;
      // a name never starts or ends with a question word ("is TMV" is not the abbreviation ISTMV), except a
      // capital letter ending one ("Rotavirus A", "Influenza B virus" is caught whole anyway)
      const endsWithLetter = n > 1 && /^[A-Z]$/.test(tokens[end - 1]!.text);
      const norm = normOf(i, end);
      // "phage T4": a short name may start with the word phage, which no other name does
      const alias = n <= 3 && (first === 'phage' || !QUESTION_WORDS.has(first)) && lex.aliases?.has(norm) ? aliasRef(textOf(i, end), norm, lex) : null;
      if (alias) {
        take(i, end, { text: alias.text, species: alias });
        i += n - 1;
        break;
      }
      if (QUESTION_WORDS.has(first) || (n > 1 && QUESTION_WORDS.has(last) && last !== 'virus' && !endsWithLetter)) continue;
      if (n === 1 && /^\d+$/.test(first)) continue;
      const text = textOf(i, end);
      const ids = n === 1 ? lex.identifiers?.get(text)?.filter((h) => h.rank === 'species') ?? [] : [];
      if (ids.length > 0) {
        take(i, end, { text, species: identifierRef(text, ids) });
        break;
      }
      if (norm.length < 2) continue;
      const previous = i > 0 ? rankOf(tokens[i - 1]!.text) : null;
      const next = end < tokens.length ? rankOf(tokens[end]!.text) : null;
      let match = lookupSpan(text, norm, lex, previous ?? next);
      // "family of zika", "measles genome": the virus name without its last word "virus"
      // (not when the next word is name-shaped itself: "Zika viruss" is a misspelt name, not "Zika")
      const following = tokens[end]?.text ?? '';
      if (!match && last !== 'virus' && !/\d$/.test(norm) && norm.length >= 4 && !NAME_SHAPED.test(following) && !/vir/i.test(following)
        && lowers.slice(i, end).every((w) => !QUESTION_WORDS.has(w))) {
        const hits = lex.names(`${norm}virus`);
        if (hits.length > 0) match = { species: speciesRef(text, hits) };
      }
      if (!match) continue;
      take(i, end, { text, ...match });
      i += n - 1;
      break;
    }
  }
  return out;
}

/** A short name of a virus ("phage T4", "phiX174", "flu") as the species its list name denotes. */
function aliasRef(text: string, norm: string, lex: Lexicon): SpeciesRef | null {
  const alias = lex.aliases?.get(norm);
  if (!alias) return null;
  const hits = lex.names(normaliseName(alias.name));
  if (hits.length === 0) return null;
  return { ...speciesRef(text, hits), via: { how: 'alias', name: alias.name } };
}

function lookupSpan(text: string, norm: string, lex: Lexicon, rankHint: Rank | null): Pick<NameMatch, 'species' | 'taxon'> | null {
  let entries = lex.taxa(norm);
  let common = false;
  // "coronaviruses", "flaviviruses": the family the word is the common name of
  if (entries.length === 0 && /viruses$/i.test(text) && !/\s/.test(text) && norm.length > 'viruses'.length + 2) {
    entries = lex.taxa(norm.replace(/viruses$/, 'viridae'));
    common = entries.length > 0;
  }
  const stemmed = lex.stems?.(text) ?? null;
  const hits = stemmed ?? lex.names(norm);
  // read as a stem, the word itself is the name matched: the resolver reads it so again (answer.ts currentName)
  const ref = (): SpeciesRef => (stemmed ? { ...speciesRef(text, hits), matched_name: text } : speciesRef(text, hits));
  const taxon = (): TaxonRef | undefined => {
    if (entries.length === 0) return undefined;
    const entry = entries.find((e) => e.rank === rankHint) ?? entries[0]!;
    return { text, rank: entry.rank, name: entry.name, entry, ...(common ? { common } : {}) };
  };
  if (entries.length > 0 && hits.length > 0) {
    // "Ebolavirus" (one word, as the genus is spelt, or after the word genus) is the genus; "Ebola virus" the virus
    const t = taxon()!;
    const spelledAsTaxon = text.toLowerCase() === t.name.toLowerCase() || /^viruses$/.test(text.slice(-7));
    return rankHint === 'species' || !(spelledAsTaxon || (rankHint !== null && entries.some((e) => e.rank === rankHint)))
      ? { species: ref() } : { taxon: t };
  }
  if (entries.length > 0) return { taxon: taxon()! };
  if (hits.length > 0) {
    // one word that is only an abbreviation must look like one; "as" or "have" typed in a question are words
    if (!/\s/.test(text) && hits.every((h) => h.kind === 'abbreviation') && QUESTION_WORDS.has(text.toLowerCase())) return null;
    return { species: ref() };
  }
  return null;
}

// Name-shaped words that matched nothing: "Foobar virus", "Xyzviridae", "FBV". Used to answer "I do not know
// that name" instead of answering a different question.
const NAME_SHAPED = /(?:vir(?:us|idae|ales|inae|ia|ae|icetes|icota|icotina|oid)|phage)s?$/i;

/** Words of no known kind left in a question ("hiv" in "what family does hiv belong to"): candidates for suggestions. */
function leftoverWords(tokens: Token[]): string[] {
  const out: string[] = [];
  let run: string[] = [];
  for (const t of [...tokens, null]) {
    if (t && !t.used && !QUESTION_WORDS.has(t.text.toLowerCase()) && !/^\d+$/.test(t.text)) run.push(t.text);
    else if (run.length) {
      out.push(run.join(' '));
      run = [];
    }
  }
  return out;
}

function unknownNames(tokens: Token[], text: string): string[] {
  const out: string[] = [];
  let run: Token[] = [];
  const flush = () => {
    const words = run.map((t) => t.text);
    const shaped = run.some((t, k) => NAME_SHAPED.test(t.text) && !QUESTION_WORDS.has(t.text.toLowerCase())
      || (/^[A-Z]/.test(t.text) && (k > 0 || t.start > 0) && !/[.?!]\s*$/.test(text.slice(0, t.start)))
      || /^[A-Z0-9-]{2,}$/.test(t.text) && /[A-Z]/.test(t.text));
    if (run.length > 0 && shaped) out.push(words.join(' '));
    run = [];
  };
  for (const t of tokens) {
    const lower = t.text.toLowerCase();
    const word = t.used || (QUESTION_WORDS.has(lower) && !(run.length > 0 && /^(?:virus|viruses|phage)$/.test(lower)));
    if (word || /^\d+$/.test(t.text)) flush();
    else run.push(t);
  }
  flush();
  return out;
}

// --- intent ------------------------------------------------------------------------------------------------------

const has = (re: RegExp, s: string) => re.test(s);

const KW = {
  help: /^(?:help|hi|hello|hey|examples?|what can (?:you|i) (?:do|ask)\b.*|how (?:do|does) (?:this|it) work.*|what (?:questions|kinds? of questions) .*)$/,
  compare: /\b(?:compar\w*|differen\w*|differ|versus|vs\.?|between|against|relative to)\b/,
  changed: /\b(?:chang\w*|happen\w*|new in|what'?s new|news|updates?|differen\w*)\b/,
  count: /\b(?:how many|number of|count(?:s|ed)?|total|how much|tally|how big|size of)\b/,
  added: /\b(?:add\w*|new(?:ly)?|creat\w*|introduc\w*|describ\w*|recogni[sz]ed|ratified|appear\w*|gained)\b/,
  removed: /\b(?:abolish\w*|remov\w*|delet\w*|dropp\w*|discontinu\w*|eliminat\w*|retir\w*|lost|withdrawn)\b/,
  renamed: /\b(?:renam\w*|name changes?|new names?)\b/,
  reclassified: /\b(?:reclassif\w*|moved|relocated|reassigned|transferred)\b/,
  merged: /\bmerg\w*/,
  split: /\bsplit\w*/,
  largest: /\b(?:(?:what|which) (?:are|were) the [a-z]+|list (?:the |all )?[a-z]+|name the [a-z]+|largest|biggest|most (?:species|genera|diverse|speciose|members|taxa)|richest|top(?: \d+)?|leading|the most\b.*\bspecies|more species than any)\b/,
  growth: /\b(?:fastest|grew|grow\w*|growth|gained the most|added the most|increas\w*|expan\w*)\b/,
  stability: /\b(?:stab\w*|churn\w*|volatil\w*|unstable|turbulent|turnover)\b/,
  evolution: /\b(?:evol\w*|over time|through time|over the years|across releases|history|historic\w*|chang\w*|develop\w*|trajectory|timeline|story)\b/,
  milestone: /\b(?:milestones?|major events?|key events?|turning points?|landmarks?|big(?:gest)? changes in the history|timeline of (?:the )?(?:ictv|taxonomy|viral taxonomy))\b/,
  realmIntro: /\bfirst realms?\b(?! ?§)|\brealms?\b.*\b(?:introduc|first|creat|establish|appear|began|start|added)\w*|\b(?:introduc|first|creat|establish|appear|began|start|added)\w*\b.*\brealms?\b/,
  rankIntro: /\b(?:introduc|first|creat|establish|appear|began|start|added)\w*\b/,
  currentName: /\b(?:current(?:ly)?|now|new|latest|today|present|accepted|official|valid|proper|correct|binomial)\b[^?]*\bnames?\b|\bcalled (?:now|today|nowadays|currently)\b|\bnames? (?:now|today|nowadays)\b|\b(?:now|currently) (?:called|known|named)\b|\brenamed (?:to|as|into)\b|\bwhat (?:is|was) (?:\S+ )?renamed\b|\bwhat (?:is|are) .*\bcalled\b|\bstill called\b/,
  formerNames: /\bchang\w* (?:its |their |the )?names?\b|\b(?:was|were)\b[^?]*\b(?:called|named|known as)\b[^?]*\b(?:before|previously|formerly|originally|earlier|once|first|in the past)\b|\bcalled before\b|\b(?:former(?:ly)?|previous(?:ly)?|old(?:er)?|earlier|past|prior|original(?:ly)?|other|alternative|historic(?:al)?)\b[^?]*\bnames?\b|\bnames?\b[^?]*\b(?:before|over time|history|used|had|carried|changed)\b|\bsynonyms?\b|\bformerly\b|\bused to be (?:called|named|known)\b|\b(?:was|were) (?:once |previously )?(?:called|named|known as)\b|\brenam\w*|\bhow many names\b|\bnames? (?:did|has|have)\b|\bwhen did .* (?:get|receive) (?:its|a) (?:new |current )?name\b/,
  history: /\b(?:first|last|earliest|latest|initially)\b[^?]*§rel|\b(?:first|last|earliest|latest|initially)\b[^?]*\b(?:appear\w*|listed|list|recogni[sz]ed|releases?|msl|seen|included|added|introduced|classified|described|ratified)\b|\b(?:appear\w*|introduc\w*|added|ratified)\b|\bhistory\b|\bstill\b|\b(?:abolish\w*|merg\w*|split\w*|remov\w*|exist\w*|delet\w*|when|since|valid|disappear\w*|fate|happened|end(?:ed)?|obsolete|gone|lifespan|span)\b/,
  genome: /\bgenom\w*|\b(?:dna|rna|nucleic|segment\w*|kb|bp|base pairs?|nucleotides?|length|how long|how big|size|strand\w*|sense|baltimore)\b/,
  host: /\bhosts?\b|\b(?:infect\w*|hosted|reservoir|vectors?|attack\w*|affect\w*|pathogens? of|found in|isolated from|liv(?:e|es|ed|ing)|parasit\w*)\b/,
  releaseInfo: /\b(?:releas\w*|versions?|msls?|editions?)\b/,
  when: /\b(?:when|what year|which year|date|dated|published)\b/,
  threshold: /\b(?:more than|over|exceed\w*|pass\w*|surpass\w*|reach\w*|above|cross\w*|hit|top(?:ped)?)\b/,
};

function targetRankOf(residue: string): Rank | null {
  // the rank right after the counting words: "how many (different) genera", "number of families", "largest orders"
  const m = /\b(?:how many|number of|count of|count|total|largest|biggest|smallest|top(?: \d+)?|\d+ largest|\d+ biggest|fastest[- ]growing|most|which|what)\s+(?:(?:different|distinct|virus|viral|recognised|recognized|ictv|official|accepted|new|the|of|are|were)\s+)*([a-z]+)/.exec(residue);
  const r = m ? rankOf(m[1]!) : null;
  if (r) return r;
  for (const word of residue.split(/[^a-z]+/)) {
    const rank = rankOf(word);
    if (rank) return rank;
  }
  return null;
}

function changeOf(residue: string): ChangeKind | null {
  if (has(KW.renamed, residue)) return 'renamed';
  if (has(KW.merged, residue)) return 'merged';
  if (has(KW.split, residue)) return 'split';
  if (has(KW.reclassified, residue)) return 'reclassified';
  if (has(KW.removed, residue)) return 'removed';
  if (has(KW.added, residue)) return 'added';
  return null;
}

/** Reads a question. Pure: everything it needs to look up comes from the lexicon. */
export function parseQuestion(query: string, lex: Lexicon): Parsed {
  const text = clean(query);
  const lower = text.toLowerCase();
  const normalised = normalisedOf(text);

  const mentions = findReleases(lower, lex.releases);
  const tokens = tokenise(text);
  for (const t of tokens) if (mentions.some((m) => t.start < m.end && t.end > m.start)) t.used = true;
  const names = findNames(tokens, lex);

  // what is left once releases and names are taken out is what the intent rules read
  const spans = [...mentions.map((m) => ({ start: m.start, end: m.end, mark: ' §rel ' })),
    ...names.map((n) => ({ start: n.start, end: n.end, mark: n.species ? ' §sp ' : ' §tx ' }))]
    .sort((a, b) => b.start - a.start);
  let residue = lower;
  for (const s of spans) residue = residue.slice(0, s.start) + s.mark + residue.slice(s.end);
  residue = residue.replace(/\s+/g, ' ').trim();

  const genome = findGenomeTypes(residue);
  const hostMatches = findHosts(residue);
  const hosts = [...new Set(hostMatches.flatMap((m) => m.values))];
  const genomeTypes = [...new Set(genome.flatMap((m) => m.values))];
  // their words are understood: not candidates for unknown names
  const vocabularyWords = new Set([...hostMatches, ...genome].flatMap((m) => m.text.split(/\s+/)));
  for (const t of tokens) if (vocabularyWords.has(t.text.toLowerCase())) t.used = true;

  const limitMatch = /\btop\s+(\d{1,2})\b|\b(\d{1,2})\s+(?:largest|biggest|fastest|most|smallest)\b|\b(\d{1,2})\s+famil/.exec(residue);
  const thresholdMatch = /\b(\d{1,3}(?:,\d{3})+|\d{4,6})\s*(?:species|taxa)?\b/.exec(residue);
  const parsed: Parsed = {
    normalised,
    intent: 'unknown',
    releases: mentions.flatMap((m) => m.refs),
    species: names.flatMap((n) => (n.species ? [n.species] : [])),
    taxa: names.flatMap((n) => (n.taxon ? [n.taxon] : [])),
    hosts,
    genomeTypes,
    targetRank: targetRankOf(residue),
    askedRank: null,
    change: changeOf(residue),
    limit: limitMatch ? Number(limitMatch[1] ?? limitMatch[2] ?? limitMatch[3]) : null,
    threshold: thresholdMatch ? Number(thresholdMatch[1]!.replaceAll(',', '')) : null,
    unknownNames: unknownNames(tokens, text),
    leftovers: leftoverWords(tokens),
    badReleases: mentions.flatMap((m) => (m.bad ? [m.bad] : [])),
    residue,
  };
  parsed.askedRank = askedRankOf(residue);
  parsed.intent = chooseIntent(parsed, lex.releases[lex.releases.length - 1]?.msl ?? 0);
  return parsed;
}

/** The rank a species question asks for: "what family ...", "in which realm ...", "its genus", "the order of". */
function askedRankOf(residue: string): Rank | null {
  const words = residue.split(/[^a-z§]+/).filter(Boolean);
  const lead = new Set(['what', 'which', 'whose', 'its', 'the', 'in', 'to', 'a']);
  for (let i = 0; i < words.length; i++) {
    const r = rankOf(words[i]!);
    if (!r || r === 'species') continue;
    // "what family", "which virus family", "family of", "family?" (the rank asked for on its own)
    if ((i > 0 && lead.has(words[i - 1]!)) || (i > 1 && lead.has(words[i - 2]!) && !rankOf(words[i - 1]!)) || words[i + 1] === 'of' || words.length <= 3) return r;
  }
  return null;
}

/** The ordered rules: what was found decides first, the words around it second. */
function chooseIntent(p: Parsed, latestMsl: number): Intent {
  const r = p.residue;
  const species = p.species.length > 0;
  const taxon = p.taxa.length > 0;
  if (has(KW.help, r.replace(/[\s?.!]+$/, '')) && !species && !taxon) return 'help';

  if (!species && !taxon) {
    if (p.releases.length >= 2 && (has(KW.compare, r) || has(KW.changed, r) || /\bfrom §rel to §rel\b/.test(r))) {
      return has(KW.growth, r) && (p.targetRank ?? 'species') !== 'species' ? 'fastest_growing' : 'compare_releases';
    }
    if (has(KW.milestone, r) || (has(KW.realmIntro, r) && !has(KW.count, r))) return 'milestones';
    // "when did the number of species pass 10,000?": a threshold crossed, not a count
    if (p.threshold !== null && p.threshold >= 1000 && has(KW.threshold, r) && (!has(KW.count, r) || /\b(?:when|which|what|first)\b/.test(r))) return 'milestones';
    // "when was the rank class first used": a rank word with an introduction verb and no release
    const whichRelease = /\b(?:which|what) (?:release|version|msl|year)\b/.test(r);
    if (p.targetRank && p.targetRank !== 'species' && has(KW.rankIntro, r) && (has(KW.when, r) || whichRelease) && p.releases.length === 0) return 'milestones';
    // "which release had 1906 species?"
    if (whichRelease && p.threshold !== null && p.threshold >= 1000) return 'milestones';
    if (/\b(?:which|what) (?:release|version|msl|year)\b.*\b(?:most|largest|biggest|fewest)\b/.test(r)) return 'milestones';
  }
  if (species) {
    if ((has(KW.genome, r) || p.genomeTypes.length > 0) && !has(/\b(?:families|genera)\b/, r)) return 'genome';
    if (has(KW.host, r)) return 'hosts';
    const pastRelease = p.releases.some((x) => x.msl !== latestMsl);
    // "when did X get its new name" asks when it was renamed, not what it is called
    if (/\bwhen\b/.test(r) && has(KW.formerNames, r)) return 'former_names';
    if (!pastRelease && has(KW.currentName, r) && !/\b(?:former|previous|old|earlier|other|before|originally)\b/.test(r)) return 'current_name';
    if (has(KW.formerNames, r) && !(pastRelease && /\bcalled\b/.test(r) && !/\b(?:former|previous|old|other)\b/.test(r))) return 'former_names';
    if (has(KW.history, r) && !(pastRelease && has(/\b(?:famil\w*|genus|genera|order|realm|classif\w*|belong\w*)\b/, r))) return 'species_history';
    return 'classification';
  }
  // "which families are retroviruses (ssRNA-RT)?": the common name describes the genomes asked about
  if (taxon && p.taxa[0]!.common && p.targetRank === 'family' && !species) {
    if (p.genomeTypes.length > 0) return 'families_by_genome';
    if (p.hosts.length > 0) return 'families_by_host';
  }
  if (taxon) {
    const t = p.taxa[0]!;
    if (has(KW.stability, r)) return 'family_stability';
    if (has(KW.host, r) || (p.hosts.length > 0 && !has(KW.count, r))) return 'hosts';
    if (has(KW.genome, r) && !has(KW.count, r)) return 'genome';
    if (has(KW.largest, r) && p.targetRank && p.targetRank !== t.rank) return 'largest_taxa';
    if (has(KW.growth, r) && !has(KW.count, r)) return t.rank === 'family' ? 'family_evolution' : 'taxon_history';
    if (has(KW.count, r)) return 'count_taxon';
    // "how did Flaviviridae change between 2010 and 2020": its size in each
    if (p.releases.length >= 2 && (has(KW.evolution, r) || has(KW.growth, r) || has(KW.compare, r))) return 'count_taxon';
    if (has(KW.removed, r) || has(KW.merged, r) || has(KW.split, r) || has(KW.rankIntro, r)
      || /\b(?:when|happened|fate|end(?:ed)?|gone|dissol\w*|still|exist\w*|abolition|demise|bec[oa]me|turned into|replaced|successor|renamed (?:to|into|as)|renamed\b.*\bto)\b|\bcalled (?:§rel|now|today|nowadays)|\b(?:current|new|present|latest) name\b|\bname (?:§rel|now|today)/.test(r)) {
      return t.rank === 'family' && has(/\b(?:evol\w*|over time|history|histor\w*)\b/, r) ? 'family_evolution' : 'taxon_history';
    }
    if (has(KW.evolution, r)) return t.rank === 'family' ? 'family_evolution' : 'taxon_history';
    return 'classification';
  }
  if (has(KW.largest, r) && !has(/\b(?:releases?|versions?|msls?|years?|editions?)\b/, r)) return 'largest_taxa';
  if (has(KW.growth, r) && (p.targetRank !== null && p.targetRank !== 'species' || has(/\b(?:fastest|most)\b/, r))) return 'fastest_growing';
  if (has(KW.stability, r)) return 'family_stability';
  // host and genome questions without a name are about the families of the latest release
  const aboutFamilies = p.targetRank === null || p.targetRank === 'family' || p.targetRank === 'species';
  if (p.hosts.length > 0 && aboutFamilies) return 'families_by_host';
  if (p.genomeTypes.length > 0 && aboutFamilies) return 'families_by_genome';
  if (p.unknownNames.length > 0) return 'unknown';
  if (p.badReleases.length > 0) return 'unknown';
  if (p.releases.length >= 2 && /\b(?:more|fewer|less|than|differ\w*|grew|increase\w*)\b/.test(r) && (p.targetRank ?? 'species') === 'species') return 'compare_releases';
  if (has(KW.count, r) && p.change && p.releases.length <= 1 && (p.targetRank ?? 'species') === 'species') return 'release_changes';
  // "how many species did MSL37 add over MSL36": the changes between the two
  if (p.releases.length === 2 && p.change && (p.targetRank ?? 'species') === 'species') return 'compare_releases';
  if (has(KW.count, r) && /\b(?:releases|versions|msls|editions)\b/.test(r)) return 'release_info';
  if (has(KW.count, r) && (p.targetRank !== null || p.releases.length > 0)) return 'count_release';
  if (p.releases.length === 1 && (has(KW.changed, r) || p.change !== null)) return 'release_changes';
  if (p.releases.length >= 2) return 'compare_releases';
  if (has(KW.releaseInfo, r) || (p.releases.length === 1 && has(KW.when, r))) return 'release_info';
  // a release named and nothing else asked of it: "What is the latest release?", "Tell me about MSL36"
  if (p.releases.length === 1 && p.unknownNames.length === 0) return 'release_info';
  return 'unknown';
}

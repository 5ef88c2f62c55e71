// The deterministic language layer of POST /ai/query: a question in, what it asks and the things it names out,
// read once. No model and no guessing: releases are read with patterns (release-words.ts: "MSL39", "39", "2019",
// "2018b", "the tenth release", "latest", "MSL30 (2015)"), species and virus names by looking every run of words up
// in name_lookup (any name a species ever had, VMR virus names and abbreviations), higher taxa in taxon_profile,
// everyday group names in group-names.yaml ("coronavirus", "flavivirus", "arbovirus"), hosts, genome types,
// changes and ranks in vocabulary.ts; the form of the question (yes or no, how many, which, a comparison) in one
// place here; the intent is then chosen by ordered rules over what was found and the words left around it
// (intent.ts). The answers read this reading, never the question's text. A question this cannot read gets the
// intent 'unknown' (and an honest answer), never a best guess.
import type { Store } from '../store/store.js';
import { identifierKeys, type IdentifierHit, type IdentifierKind } from '../read/identifiers.js';
import { lineageDoc, type Rank } from '../read/lineages.js';
import { lookupName, normaliseName, type NameHit } from '../read/names.js';
import { releases as releaseRows, type ReleaseRow } from '../read/releases.js';
import { stemReading } from '../read/resolve.js';
import { INITIALS_KEY, SHORT_KEY, type Alias } from '../read/virus-aliases.js';
import { GROUP_WORDS_MAX, groupNamed, startsGroup, type GroupEntry } from './groups.js';
import { chooseIntent } from './intent.js';
import { findReleases } from './release-words.js';
import { americanSpelling, changeIn, countedRank, findGenomeTypes, findHosts, firstRank, QUALIFIERS, rankOf, type ChangeKind, type VocabularyMatch } from './vocabulary.js';

export { rankOf, type ChangeKind };

/** The intents an answer reports (GET /ai/health lists them; the contract's AiIntent). */
export const INTENTS = [
  'classification', 'current_name', 'former_names', 'species_history', 'genome', 'hosts', 'count_release',
  'count_taxon', 'release_changes', 'compare_releases', 'family_evolution', 'family_stability', 'largest_taxa',
  'fastest_growing', 'milestones', 'taxon_history', 'families_by_host', 'families_by_genome', 'release_info',
  'type_species', 'same_taxon', 'genome_type', 'still_in_use', 'compare_taxa', 'which_changed', 'group_membership',
  'not_a_taxon', 'help', 'unknown',
] as const;
export type Intent = (typeof INTENTS)[number];

/**
 * What exactly a question asks, finer than its intent: the answer function that reads it (answers/index.ts),
 * reported as `understood.relation`. Readings ending in "_unread" are recognised questions missing a part the
 * answer names.
 */
export type Reading =
  | Exclude<Intent, 'help' | 'unknown'>
  | 'year_counts' | 'releases_of_year' | 'releases_in_years' | 'years_between' | 'release_is_year' | 'rank_is'
  | 'taxon_threshold' | 'member_of' | 'taxon_in_taxon' | 'same_rank_taxon' | 'changes_summed' | 'taxa_of_release' | 'taxon_became' | 'species_moved' | 'taxon_genome_type' | 'has_host' | 'taxon_former_names' | 'name_in_release' | 'still_named' | 'listed_in'
  | 'two_taxa' | 'two_taxa_between' | 'two_taxa_first' | 'between_releases' | 'taxa_changed_between' | 'every_rank_changed'
  | 'which_changed_within' | 'span_unread' | 'compare_rank_unread' | 'changes_or_unread' | 'change_unread'
  | 'within_rank_unread' | 'help' | 'unknown';

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
  /** Found through an everyday group name ("coronavirus", "flavivirus"): the table's entry. */
  group?: GroupEntry;
}

/** A word that names no taxon ("arbovirus"): the table's entry says what it groups viruses by. */
export interface GroupWord {
  text: string;
  entry: GroupEntry;
}

/**
 * The form of the question, read from its words once: what the answers need to know beyond the things it names
 * (whether it asks yes or no, how many or which, a comparison and its direction, a sum, a share, a span).
 */
export interface Form {
  /** Opens with is, are, was, does, did, has, can ...: the answer opens with Yes or No. */
  yesNo: boolean;
  typeSpecies: boolean;
  /** "how many", "number of", "count". */
  howMany: boolean;
  /** "which", "what", "list", "name", "show": the answer names them. */
  which: boolean;
  /** The words of a release ("release", "MSL", "version", "list", "edition"), and no rank word. */
  aboutReleases: boolean;
  /** The releases of a year read together: "both", "the two 2018 releases", "the 2018 lists". */
  yearTogether: boolean;
  /** Counting or comparing words around a year of several releases. */
  yearCounting: boolean;
  /** "since 2019", "after MSL30": a span of releases, and its word. */
  span: string | null;
  /** "how many years between ...". */
  years: boolean;
  /** "was MSL37 released in 2021": a release and a year of publication. */
  releasedIn: boolean;
  sameOrBoth: boolean;
  still: boolean;
  /** "still a thing", "still exist", "still used": a taxon still in use. */
  stillInUse: boolean;
  /** "more than 10 species": a threshold of a taxon's size. */
  more: { how: string; n: number; rank: Rank } | null;
  /** "a DNA virus", "an RNA virus"; the nucleic acid named. */
  nucleicVirus: boolean;
  nucleic: 'dna' | 'rna' | null;
  or: boolean;
  than: boolean;
  /** "in", "part of", "belong", "member", "a", "one of": membership asked. */
  member: boolean;
  /** "what was it called before", "formerly": a taxon's earlier names. */
  formerName: boolean;
  /** "name", "called", "known as". */
  naming: boolean;
  /** A rank above species named in words ("family", "genus" ...). */
  higherRankWord: boolean;
  /** "current", "now", "today", "nowadays", "these days": the name asked is today's. */
  now: boolean;
  comparing: boolean;
  counting: boolean;
  /** "gained", "lost", "added": a change of size between releases. */
  gainOrLoss: boolean;
  /** "which ... the most": a ranking, not two totals. */
  ranking: boolean;
  /** A change of taxa asked in so many words (renamed, merged, split, abolished, reclassified, added, new, created,
   *  introduced, removed); growing or losing species is a change of size instead. */
  changeAsked: boolean;
  /** "combined", "together", "in total". */
  sum: boolean;
  /** "fewer", "less", "smaller": the comparison asks which is smaller. */
  fewer: boolean;
  /** "lost", "shrank", "decreased": a fall asked. */
  fell: boolean;
  /** "fewer", "dropped", "went down": a fall between releases. */
  down: boolean;
  /** "more", "grew", "rose": a rise between releases. */
  up: boolean;
  /** "changed", "differ": whether anything changed. */
  changed: boolean;
  /** "is the difference bigger than 1000": the change against a number. */
  against: { op: 'more' | 'less'; n: number } | null;
  /** "percent", "share", "%". */
  percent: boolean;
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
  /** Words that name no taxon ("arbovirus"). */
  groupWords: GroupWord[];
  /** Two names of one release that disagree ("MSL40 (2019)"): what each names. */
  conflicts: string[];
  /** "releases between 2000 and 2010", "releases of the 1990s": years as the bounds of a span. */
  yearSpan: { from: number; to: number } | null;
  form: Form;
  /** The first rank word of the question, names aside; and the rank a comparison counts. */
  rankWord: Rank | null;
  countedRank: Rank | null;
  /** What exactly is asked (the answer function); the intent is what an answer reports. */
  relation: Reading;
  /** The rank the relation is about, where it reads one. */
  relationRank: Rank | null;
  /** The release a name was used in, for "the current name of the species listed in 1971 as X". */
  nameRelease: ReleaseRef | null;
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
  stems?(text: string, textNorm?: string): NameHit[] | null;
  /** Whether a species lineage goes on (listed now, or merged or split into others) apart from another's species. */
  goesOnApart?(lineageId: number, otherId: number): boolean;
}

/**
 * The words of a question that may be identifiers of a species: accessions, "txid12242", "ICTV19710322" (a bare
 * number is a release, a year or a count in a question, never an identifier).
 */
export function identifierWords(query: string): string[] {
  const text = clean(query);
  // every kind of identifier has a digit, and most questions none
  if (!/\d/.test(text)) return [];
  // the words with a digit, their punctuation trimmed as tokenise trims it; a word followed by "virus" or "phage"
  // is part of a virus name ("CoAr57389 virus"), never an accession
  const out: string[] = [];
  for (const [written, at] of words(text)) {
    // a number, with the punctuation that may follow it ("2016?", "39,"), is no identifier
    if (!/\d/.test(written) || /^\d+[.,;:!?"'\]}]*$/.test(written)) continue;
    const word = written.replace(/^[("'[{¿¡]+/, '').replace(/['’]s$/i, '').replace(/[.,;:!?"'\]}]+$/, '').replace(/^([^(]*)\)$/, '$1');
    if (/^\d+$/.test(word) || identifierKeys(word) === null) continue;
    if (/^\s+(?:virus|viruses|phage|phages)\b/i.test(text.slice(at + written.length, at + written.length + 9))) continue;
    out.push(word);
  }
  return out;
}

/** JavaScript's \s, by code unit. */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || (c >= 0xa0 && (c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a)
    || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff));
}

/**
 * The runs of a text between its spaces (what /\S+/g matches) with where each starts: a scan of the characters,
 * where the pattern run through matches() cost more than the rest of reading the words.
 */
function words(text: string): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  let from = -1;
  for (let k = 0; k <= text.length; k++) {
    if (k < text.length && !isSpace(text.charCodeAt(k))) {
      if (from < 0) from = k;
    } else if (from >= 0) {
      out.push([text.slice(from, k), from]);
      from = -1;
    }
  }
  return out;
}

/** A word of letters and digits alone, as most are: nothing to trim from it. */
function plainWord(t: string): boolean {
  for (let k = 0; k < t.length; k++) {
    const c = t.charCodeAt(k);
    if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57))) return false;
  }
  return t.length > 0;
}

// Every run of a question's words is looked up, most of them missing: the same few thousand runs ("how many",
// "species in") recur from question to question, so their lookups are kept per opened build, up to a bound.
// One map per kind, keyed by the normal form itself: a run's normal form is looked up as an alias, a taxon and a
// name in turn, and a string keeps its hash once computed, where a key made per lookup ("t" + norm) was a new
// string to build and hash each time.
const MEMO_SIZE = 20_000;
interface Memo { names: Map<string, NameHit[]>; taxa: Map<string, TaxonEntry[]> }
const memos = new WeakMap<Store, Memo>();

function memo<K extends keyof Memo>(store: Store, kind: K, norm: string, look: () => NonNullable<ReturnType<Memo[K]['get']>>): NonNullable<ReturnType<Memo[K]['get']>> {
  let m = memos.get(store);
  if (!m) {
    m = { names: new Map(), taxa: new Map() };
    memos.set(store, m);
  }
  const map = m[kind] as Map<string, NonNullable<ReturnType<Memo[K]['get']>>>;
  let v = map.get(norm);
  if (v === undefined) {
    if (m.names.size + m.taxa.size >= MEMO_SIZE) {
      m.names.clear();
      m.taxa.clear();
    }
    v = look();
    map.set(norm, v);
  }
  return v;
}

// the lexicon of a store and its aliases, made once: most questions hold no identifier and share it
const lexicons = new WeakMap<Store, { aliases: Map<string, Alias> | undefined; lex: Lexicon }>();

export function storeLexicon(store: Store, identifiers?: Map<string, IdentifierHit[]>, aliases?: Map<string, Alias>): Lexicon {
  if (!identifiers) {
    const held = lexicons.get(store);
    if (held && held.aliases === aliases) return held.lex;
    const lex = makeLexicon(store, undefined, aliases);
    lexicons.set(store, { aliases, lex });
    return lex;
  }
  return makeLexicon(store, identifiers, aliases);
}

function makeLexicon(store: Store, identifiers?: Map<string, IdentifierHit[]>, aliases?: Map<string, Alias>): Lexicon {
  const lex: Lexicon = {
    // species, virus names and abbreviations; higher taxa are the taxa lexicon's
    names: (norm) => memo(store, 'names', norm, () => lookupName(store, norm).filter((h) => h.kind !== 'taxon')),
    taxa: (norm) => memo(store, 'taxa', norm, () => store.docJson<TaxonEntry[]>('taxon_profile', norm) ?? []),
    stems: (text, textNorm) => stemReading(store, text, textNorm),
    goesOnApart: (id, otherId) => {
      const l = lineageDoc(store, id);
      if (l.ended === 'abolished') return false;
      const other = new Set(lineageDoc(store, otherId).names);
      return ![...l.merged_into, ...l.split_into].some((n) => other.has(n));
    },
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

// The question cleaned last: the router keys its cache by it, askQuestion reads its identifiers, then parses it.
let cleanedFrom: string | undefined;
let cleaned = '';

function clean(q: string): string {
  if (q === cleanedFrom) return cleaned;
  cleanedFrom = q;
  cleaned = cleanOf(q);
  return cleaned;
}

function cleanOf(q: string): string {
  // printable ASCII but the backtick, as most questions are, has nothing for NFKC or the quotes and dashes to change
  const text = /^[\x20-\x5f\x61-\x7e]*$/.test(q) ? q : q.normalize('NFKC').replace(/[‘’`´]/g, "'").replace(/[“”]/g, '"').replace(/[‐‑‒–—]/g, '-');
  // most questions are written with single spaces: then there is nothing to replace
  const spaced = (/\s\s|[^\S ]/.test(text) ? text.replace(/\s+/g, ' ') : text).trim();
  // "the (ICTV) Master Species List" spelt out is the word for a release list: MSL
  const msl = /master species/i.test(spaced) ? spaced.replace(/\b(?:ictv'?s? )?master species lists?\b/gi, 'MSL') : spaced;
  return NUMBER_WORD.test(msl) ? inDigits(msl) : msl;
}

const ONES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen',
  'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
/** A number from one to ninety-nine in words ("forty", "twenty six", "twenty-two"). */
const UNDER_100 = `(?:(?:${TENS.slice(2).join('|')})(?:[\\s-](?:${ONES.slice(1, 10).join('|')}))?|${ONES.slice(1).join('|')})`;
const NUMBER_WORD = new RegExp(`\\b(?:${TENS.slice(2).join('|')}|${ONES.slice(10).join('|')}|thousand)\\b`, 'i');
/** Ten to ninety-nine in words: the second half of a year said in two ("nineteen ninety", not "twenty five"). */
const TEN_UP = `(?:(?:${TENS.slice(2).join('|')})(?:[\\s-](?:${ONES.slice(1, 10).join('|')}))?|${ONES.slice(10).join('|')})`;
// "nineteen ninety", "twenty twenty-two", "twenty oh five"; "two thousand (and) fifteen"; "MSL forty", "release twenty six"
const YEAR_WORDS = new RegExp(`\\b(nineteen|twenty)[\\s-](oh[\\s-](?:${ONES.slice(1, 10).join('|')})|${TEN_UP})\\b`, 'gi');
const THOUSANDS = new RegExp(`\\btwo thousand(?:(?: and)? (${UNDER_100}))?\\b`, 'gi');
const RELEASE_NUMBER = new RegExp(`\\b(msl|release)[\\s-](${UNDER_100})\\b`, 'gi');

/** A number in words, one to ninety-nine, as a number. */
function wordsToNumber(words: string): number {
  const [a, b] = words.toLowerCase().split(/[\s-]+/);
  const tens = TENS.indexOf(a!);
  return tens >= 2 ? tens * 10 + (b ? ONES.indexOf(b) : 0) : ONES.indexOf(a!);
}

/**
 * Years and release numbers written in words, in digits: "in twenty twenty" is 2020, "MSL forty" MSL40 (else
 * they were read as no release at all, and the answer was the latest release's). Other number words stay.
 */
function inDigits(text: string): string {
  return text
    .replace(YEAR_WORDS, (_m, century: string, rest: string) => {
      const n = /^oh/i.test(rest) ? wordsToNumber(rest.slice(3)) : wordsToNumber(rest);
      return String((century.toLowerCase() === 'nineteen' ? 1900 : 2000) + n);
    })
    .replace(THOUSANDS, (_m, rest?: string) => String(2000 + (rest ? wordsToNumber(rest) : 0)))
    .replace(RELEASE_NUMBER, (_m, word: string, n: string) => `${word}${/^msl$/i.test(word) ? '' : ' '}${wordsToNumber(n)}`);
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
  mean means meaning tell me its it's dissolution dissolved end ended ending demise fate recognised recognized
  recognise recognize ratified established accepted official officially ever
`.split(/\s+/).filter(Boolean));

/** A word of questions ("how", "many", "virus"), never a name on its own. */
export function isQuestionWord(word: string): boolean {
  return QUESTION_WORDS.has(word.toLowerCase());
}

interface Token {
  text: string;
  /** The word with a possessive "'s" it ends in, which a name may hold inside ("Marek's disease virus"). */
  raw: string;
  start: number;
  end: number;
  /** Part of a release mention, a name or a vocabulary phrase already. */
  used: boolean;
}

function tokenise(text: string): Token[] {
  const tokens: Token[] = [];
  for (const [word, at] of words(text)) {
    if (plainWord(word)) {
      tokens.push({ text: word, raw: word, start: at, end: at + word.length, used: false });
      continue;
    }
    let t = word;
    let start = at;
    // trim punctuation at the ends, keeping a closing parenthesis that closes one inside ("ssRNA(+)")
    const lead = /^[("'[{¿¡]+/.exec(t)?.[0].length ?? 0;
    t = t.slice(lead);
    start += lead;
    while (t.length > 0 && /[.,;:!?"'\]}]$/.test(t)) t = t.slice(0, -1);
    if (t.endsWith(')') && !t.includes('(')) t = t.slice(0, -1);
    const raw = t;
    t = t.replace(/['’]s$/i, '');
    // a dash, a colon or an equals sign written as a word joins the parts of a question ("Zika virus - a
    // flavivirus?"), never a name
    if (t.length > 0 && /[\p{L}\p{N}]/u.test(t)) tokens.push({ text: t, raw, start, end: start + t.length, used: false });
  }
  return tokens;
}

// --- names -----------------------------------------------------------------------------------------------------

const MAX_NAME_WORDS = 12;

interface NameMatch {
  start: number;
  end: number;
  text: string;
  species?: SpeciesRef;
  taxon?: TaxonRef;
  group?: GroupWord;
}

/**
 * An everyday group name starting at token i ("coronavirus", "hepatitis viruses"), as the taxon it names or a
 * word that names none. Not after a rank word ("the genus Flavivirus" is the genus), and not a word that spells a
 * taxon of the latest release (then that taxon is meant).
 */
function groupAt(tokens: Token[], lowers: string[], i: number, lex: Lexicon): { n: number; match: Omit<NameMatch, 'start' | 'end'> } | null {
  if (i > 0 && rankOf(lowers[i - 1]!)) return null;
  const latest = latestMsl(lex);
  for (let n = Math.min(GROUP_WORDS_MAX, tokens.length - i); n >= 1; n--) {
    if (tokens.slice(i, i + n).some((t) => t.used)) continue;
    const phrase = lowers.slice(i, i + n).join(' ');
    const entry = groupNamed(phrase);
    if (!entry) continue;
    const text = tokens.slice(i, i + n).map((t) => t.text).join(' ');
    // ("Tumor virus X": a species of MSL14-27 whose name begins with the group word)
    if (i + n < tokens.length && lex.names(normaliseName(`${phrase} ${lowers[i + n]}`)).length > 0) return null;
    if (entry.not_a_taxon) return { n, match: { text, group: { text, entry } } };
    // a taxon's own name, written as one ("Flavivirus", the genus of MSL2-37) or of the latest release, is that taxon
    const spelt = lex.taxa(normaliseName(phrase));
    if (!entry.taxon || spelt.some((e) => e.last_msl === latest)) return null;
    // "the coronavirus family", "the flavivirus family", "the Flavivirus genus": a rank word after the group word
    // says which of its senses is meant, the family Coronaviridae (its taxon), the family Flaviviridae (its wider
    // sense), the genus Orthoflavivirus (formerly Flavivirus); a rank it has no sense at is left to the names
    // ("coronavirus species", "flavivirus species": the group's species, the word in its own sense)
    const after = i + n < tokens.length ? rankOf(lowers[i + n]!) : null;
    if (after && after !== 'species') {
      const sense = entry.taxon.rank === after ? entry.taxon : entry.wider?.rank === after ? entry.wider : null;
      if (!sense) return null;
      const found = lex.taxa(normaliseName(sense.name)).find((e) => e.rank === sense.rank);
      if (!found) return null;
      return { n, match: { text, taxon: { text, rank: found.rank, name: found.name, entry: found, common: true, ...(sense === entry.taxon ? { group: entry } : {}) } } };
    }
    if (spelt.length > 0 && /^[A-Z]/.test(text)) return null;
    const found = lex.taxa(normaliseName(entry.taxon.name)).find((e) => e.rank === entry.taxon!.rank);
    if (!found) return null;
    return { n, match: { text, taxon: { text, rank: found.rank, name: found.name, entry: found, common: true, group: entry } } };
  }
  return null;
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
  // a possessive inside a run of words is part of the name ("Theiler's murine encephalomyelitis virus"); at its
  // end, the question's ("Zika virus's genus")
  const rawNorms = tokens.map((t, k) => (t.raw === t.text ? norms[k]! : normaliseName(t.raw)));
  const textOf = (from: number, to: number) => tokens.slice(from, to).map((t, k) => (from + k < to - 1 ? t.raw : t.text)).join(' ');
  const normOf = (from: number, to: number) => rawNorms.slice(from, to - 1).join('') + norms[to - 1]!;
  const take = (from: number, to: number, match: Omit<NameMatch, 'start' | 'end'>) => {
    for (let k = from; k < to; k++) tokens[k]!.used = true;
    out.push({ start: tokens[from]!.start, end: tokens[to - 1]!.end, ...match });
  };
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i]!.used) continue;
    // a group word starting a virus's short name is the name's ("parvovirus B19" is no parvovirus asked of B19)
    const group = startsGroup(lowers[i]!) && !aliasStarts(tokens, i, lex, normOf) ? groupAt(tokens, lowers, i, lex) : null;
    if (group) {
      take(i, i + group.n, group.match);
      i += group.n - 1;
      continue;
    }
    const qualified = i + 1 < tokens.length && !tokens[i + 1]!.used && QUALIFIERS.has(lowers[i]!) ? qualifiedAbbreviation(tokens[i]!.text, tokens[i + 1]!.text, lex) : null;
    if (qualified) {
      take(i, i + 2, { text: qualified.text, species: qualified });
      i += 1;
      continue;
    }
    // no name starts with a question word, but for a short name beginning with "phage" ("phage T4")
    if (QUESTION_WORDS.has(lowers[i]!) && lowers[i] !== 'phage') continue;
    // the longest run from here that takes in no word already read (a release, or a name found before)
    let longest = 1;
    while (longest < MAX_NAME_WORDS && i + longest < tokens.length && !tokens[i + longest]!.used) longest++;
    for (let n = longest; n >= 1; n--) {
      const end = i + n;
      const first = lowers[i]!, last = lowers[end - 1]!;
      // a name never starts or ends with a question word ("is TMV" is not the abbreviation ISTMV), except a
      // capital letter ending one ("Rotavirus A", "Influenza B virus" is caught whole anyway)
      const endsWithLetter = n > 1 && /^[A-Z]$/.test(tokens[end - 1]!.text);
      const questionWords = QUESTION_WORDS.has(first) || (n > 1 && QUESTION_WORDS.has(last) && last !== 'virus' && last !== 'phage' && !endsWithLetter);
      // (a longer run is no short name either: most runs tried end on a question word, and are not spelt out)
      if (questionWords && n > 3) continue;
      const norm = normOf(i, end);
      // "phage T4": a short name may start with the word phage, which no other name does
      // ("lambda phage a bacteriophage": "phage a" is no name, its "a" is the question's)
      const wordAfterPhage = first === 'phage' && n > 1 && QUESTION_WORDS.has(tokens[i + 1]!.text);
      // (the common words may be longer: "hand foot and mouth disease virus")
      const aliasHere = (n <= 3 || lex.aliases?.get(norm)?.lineage_id === 0) && (first === 'phage' || !QUESTION_WORDS.has(first)) && !wordAfterPhage && lex.aliases?.has(norm);
      const listedAsWritten = aliasHere && listedOtherwise(textOf(i, end), norm, lex);
      const alias = aliasHere && !listedAsWritten ? aliasRef(textOf(i, end), norm, lex) : null;
      if (alias) {
        take(i, end, { text: alias.text, species: alias });
        i += n - 1;
        break;
      }
      // ("Phage T7", a species of its own, is read as the list's name it is, although it starts with a question word)
      if (questionWords && !listedAsWritten) continue;
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
      // (a run's normal form is the normal form of its text: normaliseName works letter by letter)
      let match = lookupSpan(text, norm, lex, previous ?? next, norm);
      // "haemorrhagic fever virus": the lists spell their names the American way
      const american = match ? null : americanSpelling(norm);
      if (american) match = lookupSpan(text, american, lex, previous ?? next, norm);
      // "family of zika", "measles genome": the virus name without its last word "virus"
      // (not when the next word is name-shaped itself: "Zika viruss" is a misspelt name, not "Zika")
      const following = tokens[end]?.text ?? '';
      // (a group word or taxon next to it is no part of it: "Zika - flavivirus?")
      // (read only when a run matched nothing: most match, or end before a word that is neither)
      const apart = () => startsGroup(following.toLowerCase()) || (following !== '' && lex.taxa(norms[end]!).length > 0);
      if (!match && last !== 'virus' && !/\d$/.test(norm) && norm.length >= 4 && (apart() || (!NAME_SHAPED.test(following) && !/vir/i.test(following)))
        && lowers.slice(i, end).every((w) => !QUESTION_WORDS.has(w))) {
        const hits = lex.names(`${norm}virus`);
        if (hits.length > 0) match = { species: speciesRef(text, hits) };
      }
      // "T4", "MS2": a phage's code; "HHV-6", "VSV": the initials of a name a species had, where no list holds them
      if (!match && n === 1 && lex.aliases) {
        const code = PHAGE_CODE.test(text) ? aliasRef(text, SHORT_KEY(norm), lex) : null;
        const initials = code ?? (ABBREVIATION_SHAPE.test(text) ? aliasRef(text, INITIALS_KEY(norm), lex) : null);
        if (initials) match = { species: initials };
      }
      if (!match) continue;
      take(i, end, { text, ...match });
      i += n - 1;
      break;
    }
  }
  return out;
}

/** Whether a short name of a virus of two or three words starts at token i. */
function aliasStarts(tokens: Token[], i: number, lex: Lexicon, normOf: (from: number, to: number) => string): boolean {
  for (let n = 2; n <= 3 && i + n <= tokens.length; n++) {
    if (tokens[i + n - 1]!.used) return false;
    if (lex.aliases?.has(normOf(i, i + n))) return true;
  }
  return false;
}

// "T4", "MS2", "P22": a phage's code as written; "HHV-6", "HTLV-1", "VSV": an abbreviation as written
const PHAGE_CODE = /^[A-Z][A-Za-z]{0,2}\d{1,3}[A-Za-z]?$/;
const ABBREVIATION_SHAPE = /^[A-Z][A-Za-z]*[A-Z](?:-?\d{1,2}[A-Za-z]?)?$/;

/**
 * "human RSV", "bovine RSV": an abbreviation qualified by its host, as the abbreviation with the host's letter
 * ("HRSV") where a list holds that, else as those of the abbreviation's species whose names hold the host
 * ("human CMV": of HCMV's two species, Cytomegalovirus humanbeta5). Null when neither settles one species.
 */
function qualifiedAbbreviation(qualifier: string, abbreviation: string, lex: Lexicon): SpeciesRef | null {
  const q = QUALIFIERS.get(qualifier.toLowerCase());
  if (!q || !ABBREVIATION_SHAPE.test(abbreviation)) return null;
  const text = `${qualifier} ${abbreviation}`;
  const one = (hits: NameHit[]) => new Set(hits.map((h) => h.lineage_id)).size === 1;
  const prefixed = abbreviation.startsWith(q.letter) ? [] : lex.names(normaliseName(`${q.letter}${abbreviation}`));
  const all = prefixed.length > 0 ? prefixed : lex.names(normaliseName(abbreviation));
  const hits = one(all) ? all : all.filter((h) => h.current_name !== null && q.stems.test(h.current_name));
  return hits.length > 0 && one(hits) ? { ...speciesRef(text, hits), matched_name: hits[0]!.name } : null;
}

/**
 * "RSV (respiratory syncytial virus)", "respiratory syncytial virus (RSV)": an abbreviation and a name side by
 * side, one in brackets, are one virus, the name's (which says which of an abbreviation's species is meant).
 */
function besideInBrackets(names: NameMatch[], text: string): NameMatch[] {
  if (names.length < 2 || !text.includes('(')) return names;
  const out: NameMatch[] = [];
  for (let k = 0; k < names.length; k++) {
    const a = names[k]!, b = names[k + 1];
    const paired = b?.species && a.species && /^\s*\(\s*$/.test(text.slice(a.end, b.start)) && /^\s*\)/.test(text.slice(b.end));
    const abbreviation = paired ? [a, b].find((m) => m.species!.kind === 'abbreviation') : undefined;
    const name = abbreviation ? [a, b].find((m) => m !== abbreviation && m.species!.kind !== 'abbreviation') : undefined;
    if (abbreviation && name && (abbreviation.species!.lineage_ids.length > 1 || abbreviation.species!.lineage_ids.some((id) => name.species!.lineage_ids.includes(id)))) {
      out.push({ ...name, start: a.start, end: b!.end });
      k++;
    } else out.push(a);
  }
  return out;
}

/**
 * A run that is a list's own name of another virus than its alias's (aliases are for names no list holds), or a
 * word written exactly as the VMR writes one species' abbreviation where the alias of the same letters is a
 * phage's tail in another letter case: "ARV1" is Acidianus rod-shaped virus 1, "ArV1" the Arthrobacter phage (as
 * with HEV and HeV, the VMR's letter case tells them apart). The common words ("HIV", "CaMV") are chosen over the
 * VMR's abbreviations on purpose, so they stay.
 */
function listedOtherwise(text: string, norm: string, lex: Lexicon): boolean {
  const alias = lex.aliases?.get(norm);
  if (!alias || alias.lineage_id === 0) return false;
  const hits = lex.names(norm);
  // "Phage f2" was a species of its own (MSL6-17) before the VMR's Escherichia phage F2, another phage, gave the
  // alias: the list's name is the virus meant, its species going on in Enterobacteria phage MS2. One merged into
  // the alias's own species ("Phage T7") is the same virus, and one abolished ("Phage HK97", MSL12-13) leaves
  // the name to the phage listed now: the alias is read for both.
  if (hits.some((h) => h.kind === 'species' && h.lineage_id !== alias.lineage_id && lex.goesOnApart?.(h.lineage_id, alias.lineage_id))) return true;
  if (/\s/.test(text) || alias.name.endsWith(text)) return false;
  return hits.some((h) => h.kind === 'abbreviation' && h.name === text && h.lineage_id !== alias.lineage_id);
}

/** A short name of a virus ("phage T4", "phiX174", "flu") as the species its list name denotes. */
function aliasRef(text: string, key: string, lex: Lexicon): SpeciesRef | null {
  const alias = lex.aliases?.get(key);
  if (!alias) return null;
  const hits = lex.names(normaliseName(alias.name));
  if (hits.length === 0) return null;
  return { ...speciesRef(text, hits), via: { how: 'alias', name: alias.name } };
}

/** textNorm: the text's own normal form (norm is another spelling of it, or the same). */
function lookupSpan(text: string, norm: string, lex: Lexicon, rankHint: Rank | null, textNorm: string): Pick<NameMatch, 'species' | 'taxon'> | null {
  let entries = lex.taxa(norm);
  let common = false;
  // "coronaviruses", "flaviviruses": the family the word is the common name of
  if (entries.length === 0 && /viruses$/i.test(text) && !/\s/.test(text) && norm.length > 'viruses'.length + 2) {
    entries = lex.taxa(norm.replace(/viruses$/, 'viridae'));
    // "noroviruses", "lentiviruses": else the plural of a genus spelt -virus
    if (entries.length === 0) entries = lex.taxa(norm.replace(/viruses$/, 'virus')).filter((e) => e.rank === 'genus' || e.rank === 'subgenus');
    common = entries.length > 0;
  }
  // an everyday word for a family no genus of that name was ever listed for: "dicistrovirus" is the Dicistroviridae
  if (entries.length === 0 && /^[a-z]+virus$/.test(text)) {
    const latest = latestMsl(lex);
    const family = lex.taxa(norm.replace(/virus$/, 'viridae')).filter((e) => e.rank === 'family' && e.last_msl === latest);
    if (family.length > 0) {
      entries = family;
      common = true;
    }
  }
  const stemmed = lex.stems?.(text, textNorm) ?? null;
  let hits = stemmed ?? lex.names(norm);
  // the VMR spells an abbreviation in its own letter case: "HEV" (hepatitis E virus) is not "HeV" (Hendra virus)
  if (!stemmed && hits.length > 1 && hits.every((h) => h.kind === 'abbreviation')) {
    const exact = hits.filter((h) => h.name === text);
    if (exact.length > 0 && exact.length < hits.length) hits = exact;
  }
  // "polioviruses": the plural of a virus name is that name
  if (hits.length === 0 && entries.length === 0 && /viruses$/i.test(text)) hits = lex.names(norm.replace(/viruses$/, 'virus'));
  // read as a stem, the word itself is the name matched: the resolver reads it so again (answers/species.ts currentName)
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
  // a capital after the end of a sentence is no sign of a name
  const afterSentence = (at: number) => {
    let k = at - 1;
    while (k >= 0 && /\s/.test(text[k]!)) k--;
    return k >= 0 && /[.?!]/.test(text[k]!);
  };
  const flush = () => {
    if (run.length === 0) return;
    // (a word of no known kind before "virus" is a name's: "tobacco necrosis virus" read without its host word)
    const shaped = (run.length > 1 && /^(?:virus|viruses|phage)$/i.test(run[run.length - 1]!.text))
      || run.some((t, k) => NAME_SHAPED.test(t.text) && !QUESTION_WORDS.has(t.text.toLowerCase())
      || (/^[A-Z]/.test(t.text) && (k > 0 || t.start > 0) && !afterSentence(t.start))
      || /^[A-Z0-9-]{2,}$/.test(t.text) && /[A-Z]/.test(t.text));
    if (shaped) out.push(run.map((t) => t.text).join(' '));
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

/** The number of the latest release the lexicon knows (0 with none). */
function latestMsl(lex: Lexicon): number {
  return lex.releases[lex.releases.length - 1]?.msl ?? 0;
}

/** Reads a question. Pure: everything it needs to look up comes from the lexicon. */
export function parseQuestion(query: string, lex: Lexicon): Parsed {
  const text = clean(query);
  const lower = text.toLowerCase();
  const normalised = normalisedOf(text);

  // "how many releases were there between 2000 and 2010": the years bound a span, they name no release
  const yearSpan = yearSpanOf(lower);
  const mentions = yearSpan ? [] : findReleases(lower, lex.releases);
  const tokens = tokenise(text);
  if (mentions.length > 0) for (const t of tokens) if (mentions.some((m) => t.start < m.end && t.end > m.start)) t.used = true;
  const names = besideInBrackets(findNames(tokens, lex), text);

  // what is left once releases and names are taken out is what the intent rules read
  const spans = [...mentions.map((m) => ({ start: m.start, end: m.end, mark: ' §rel ' })),
    ...names.map((n) => ({ start: n.start, end: n.end, mark: n.species ? ' §sp ' : n.taxon ? ' §tx ' : ' §grp ' }))]
    .sort((a, b) => b.start - a.start);
  let residue = lower;
  for (const s of spans) residue = residue.slice(0, s.start) + s.mark + residue.slice(s.end);
  // "the 1999b release", "the 2021 list": the word after a release is part of its name, not a question about releases
  residue = residue.replace(/\s+/g, ' ');
  if (residue.includes('§rel')) residue = residue.replace(/§rel (?:ictv )?(?:release|list|msl|version|edition)\b/g, '§rel');
  residue = residue.trim();

  const { genome, hosts: hostMatches, change } = residueReading(residue);
  const hosts = hostMatches.length === 0 ? [] : [...new Set(hostMatches.flatMap((m) => m.values))];
  const genomeTypes = genome.length === 0 ? [] : [...new Set(genome.flatMap((m) => m.values))];
  // their words are understood: not candidates for unknown names
  if (hostMatches.length > 0 || genome.length > 0) {
    const vocabularyWords = new Set([...hostMatches, ...genome].flatMap((m) => m.text.split(/\s+/)));
    for (const t of tokens) if (vocabularyWords.has(t.text.toLowerCase())) t.used = true;
  }

  // what each name found is, in the order found (a loop: a flatMap per kind made an array per name)
  const species: SpeciesRef[] = [], taxa: TaxonRef[] = [], groupWords: GroupWord[] = [];
  for (const n of names) {
    if (n.species) species.push(n.species);
    if (n.taxon) taxa.push(n.taxon);
    if (n.group) groupWords.push(n.group);
  }

  // the parts few questions need (ranks asked, a limit, a threshold, leftover words) are read on first use
  // (LAZY_PARTS, through the reading's prototype); the rest now
  const parsed = Object.assign(Object.create(READING) as Parsed & ReadingSource, {
    source: { residue, tokens, memo: {} },
    normalised,
    intent: 'unknown',
    releases: mentions.length === 0 ? [] : mentions.flatMap((m) => m.refs),
    species,
    taxa,
    hosts,
    genomeTypes,
    // "when was MSL40 ratified?": a release ratified is a release's date, no change of taxa
    change: change && /§rel (?:was |were |been |got )?(?:ratified|approved|adopted)\b/.test(residue) ? null : change,
    unknownNames: unknownNames(tokens, text),
    badReleases: mentions.flatMap((m) => (m.bad ? [m.bad] : [])),
    residue,
    groupWords,
    // said with the question's own spelling of the two names
    conflicts: mentions.flatMap((m) => (m.conflict ? [m.conflict.replace(`"${lower.slice(m.start, m.end)}"`, `"${text.slice(m.start, m.end)}"`)] : [])),
    yearSpan,
    form: formOf(lower, residue),
    relation: 'unknown',
    relationRank: null,
    nameRelease: null,
  } satisfies Omit<Parsed, LazyPart> & ReadingSource) as Parsed;
  sameStem(parsed);
  formerGroupTaxa(parsed, lex);
  chooseIntent(parsed, latestMsl(lex));
  return parsed;
}

// What the vocabularies read in a residue, by residue: questions of one shape ("which family is §sp in?") share
// it, whatever they name, and these patterns are run over every question. Bounded: emptied when it holds
// RESIDUES_HELD residues.
const RESIDUES_HELD = 2_000;
/**
 * "phage" written next to a virus's name ("Can bacteriophage T4 infect humans?", "T4 phage") is part of how the
 * virus is called, not a host asked about.
 */
const PHAGE_BY_NAME = /\b(?:bacterio|coli)?phages?\s+(?=§sp\b)|(?<=§sp)\s+(?:bacterio|coli)?phages?\b/g;
const residueReadings = new Map<string, { genome: VocabularyMatch[]; hosts: VocabularyMatch[]; change: ChangeKind | null }>();

function residueReading(residue: string): { genome: VocabularyMatch[]; hosts: VocabularyMatch[]; change: ChangeKind | null } {
  let r = residueReadings.get(residue);
  if (!r) {
    if (residueReadings.size >= RESIDUES_HELD) residueReadings.clear();
    r = { genome: findGenomeTypes(residue), hosts: findHosts(residue.replace(PHAGE_BY_NAME, '')), change: changeIn(residue) };
    residueReadings.set(residue, r);
  }
  return r;
}

/** The parts of a reading read on first use. */
type LazyPart = 'targetRank' | 'askedRank' | 'limit' | 'threshold' | 'leftovers' | 'rankWord' | 'countedRank';

/** What they are read from. */
interface ReadingSource { source: { residue: string; tokens: Token[]; memo: Partial<Record<LazyPart, unknown>> } }

const bareOf = (residue: string) => residue.replace(/§\w+/g, ' ');

const LAZY_PARTS: { [K in LazyPart]: (s: ReadingSource['source']) => Parsed[K] } = {
  targetRank: (s) => targetRankOf(s.residue),
  askedRank: (s) => askedRankOf(s.residue),
  limit: (s) => {
    const m = /\btop\s+(\d{1,2})\b|\b(\d{1,2})\s+(?:largest|biggest|fastest|most|smallest)\b|\b(\d{1,2})\s+famil/.exec(s.residue);
    return m ? Number(m[1] ?? m[2] ?? m[3]) : null;
  },
  threshold: (s) => {
    // (a small number only with the rank it counts: "more than 100 families")
    // (or any number after a threshold word with the rank named before it: "the number of families first
    // exceeded 400", "more than 2 families")
    const m = /\b(\d{1,3}(?:,\d{3})+|\d{4,6})\s*(?:species|taxa)?\b|\b(\d{2,3})\s+(?:genera|families|orders|realms|classes|phyla|kingdoms|subfamilies|subgenera|suborders)\b|\b(?:more than|over|above|exceed\w*|pass\w*|surpass\w*|reach\w*|cross\w*|at least|first (?:had|has|have|with|contained|listed))\s+(\d{1,3})\b(?!\s*(?:species|%|percent|years?|releases?|times?)\b)(?=\s+(?:genera|families|orders|realms|classes|phyla|kingdoms|subfamilies|subgenera|suborders)\b|\W*$|\s+(?:in|by|for|during)\b)/.exec(s.residue);
    return m ? Number((m[1] ?? m[2] ?? m[3])!.replaceAll(',', '')) : null;
  },
  leftovers: (s) => leftoverWords(s.tokens),
  rankWord: (s) => firstRank(bareOf(s.residue)),
  countedRank: (s) => countedRank(bareOf(s.residue)),
};

/** The prototype of every reading: its lazy parts, each read once. */
const READING: object = {};
for (const key of Object.keys(LAZY_PARTS) as LazyPart[]) {
  Object.defineProperty(READING, key, {
    get(this: ReadingSource) {
      const m = this.source.memo;
      return key in m ? m[key] : (m[key] = LAZY_PARTS[key](this.source));
    },
  });
}

/** "flavivirus" asked of a release before the genus was renamed Orthoflavivirus is the genus Flavivirus. */
function formerGroupTaxa(p: Parsed, lex: Lexicon): void {
  const asked = p.releases[0]?.msl;
  if (asked === undefined) return;
  p.taxa = p.taxa.map((t) => {
    const former = t.group?.former?.filter((f) => asked < Number(f.renamed_in.slice(3))).sort((a, b) => Number(a.renamed_in.slice(3)) - Number(b.renamed_in.slice(3)))[0];
    const entry = former ? lex.taxa(normaliseName(former.name)).find((e) => e.rank === former.rank) : undefined;
    return entry ? { ...t, rank: entry.rank, name: entry.name, entry } : t;
  });
}

/** "releases between 2000 and 2010", "releases of the 1990s": the years a span of releases runs over. */
function yearSpanOf(lower: string): { from: number; to: number } | null {
  const m = /\b(?:releases?|versions?|msls?|editions?)\b.*\b(?:between|from)\s+((?:19|20)\d\d)\s+(?:and|to|until|till)\s+((?:19|20)\d\d)\b/.exec(lower);
  if (m) {
    const [a, b] = [Number(m[1]), Number(m[2])];
    return { from: Math.min(a, b), to: Math.max(a, b) };
  }
  // a decade is the span of its ten years, when the question counts releases and nothing in them
  const d = /\b(?:releases?|versions?|msls?|editions?)\b(?!.*\b(?:species|genera|genus|famil\w*|orders?|realms?|taxa|virus\w*)\b).*\b(?:in|during|of|from)\s+the\s+((?:19|20)\d)0'?s\b/.exec(lower);
  return d ? { from: Number(`${d[1]}0`), to: Number(`${d[1]}9`) } : null;
}

const YES_NO = /^\s*(?:(?:is|are|was|were|does|do|did|has|have|had|can)(?:n'?t)?|(?:would|could|should|might|may)(?! (?:you|i|we|it be possible)\b))\b/;
// A yes or no asked without opening with its verb: a tag at the end ("..., right?", "..., isn't it?", "yes or
// no?"), a lead-in ("true or false: ..."), or a bare claim with a question mark ("Lassa virus belongs to the
// arenaviruses?", "Dengue virus - a flavivirus?"). The claim is read in the residue, the names taken out.
const TAG = /(?:^|[\s,;:(-])(?:right|correct|true|yes|no|isn'?t (?:it|that|he|she|they|so)|is it not|aren'?t (?:they|these|those)|wasn'?t (?:it|that)|doesn'?t (?:it|that)|don'?t (?:they)|is (?:it|that|this)(?: (?:right|correct|true|so))?|am i right|or not|yes or no|true or false)\s*[?.!)]*\s*$/;
// (a greeting first, "Hi! Is ...", and the ways people open a question: "I was wondering, is ...", "Please tell
// me: is ...", "Just checking, X is a Y?")
const LEAD = /^\s*(?:(?:hi|hello|hey|ok|okay|so|well)\b[\s!,.:-]*)*(?:(?:yes or no|true or false|quick (?:check|question)|check|question)\s*[:,-]+|(?:in|as of|back in) (?:msl\s*-?\d+|(?:19|20)\d\d[ab]?)\s*,|(?:would you (?:say|agree|call|class(?:ify)?|consider|count)|is it (?:true|correct|right)(?: to say)?|(?:can|could) you (?:please )?(?:confirm|tell me)|please (?:confirm|tell me)|do you know|tell me|i (?:think|believe|heard|read|wonder)|i(?:'m| am| was) wondering|i'?d like to know|i want to know|just (?:checking|wondering|curious)|am i right(?: in thinking)?)(?: that| if| whether)?\b[\s,:;-]*)?\s*/;
const CLAIM = /^(?:so |and |but )?(?:§sp|§tx) (?:(?:is|was|are|were|=) (?:it |this |that |they )?(?:still |really |actually |also )?)?(?:(?:in|among|one of|part of|a member of|members of|a kind of|a type of|a sort of|counted as|classed as|classified as|considered|belongs? to|counts? as|within|under)\s+)?(?:the |an? )?(?:§(?:tx|grp)|(?:bacterio)?phages?|(?:plant|animal|insect|fungal|bacterial|archaeal|human|vertebrate|invertebrate) virus(?:es)?)(?: (?:now|today|still|§rel))?$/;
/** The words of a question with a question tag or lead-in taken off, its punctuation as spaces. */
const untagged = (text: string) => text.replace(LEAD, '').replace(TAG, '').replace(/[?.!,;:=()-]+/g, ' ').replace(/\s+/g, ' ').trim();
const AGAINST = /\b(?:differen\w*|change|gap|growth|increase|decrease)\b.*\b(more|bigger|larger|greater|over|above|less|smaller|fewer|under|below)(?: than)?\s+(\d[\d,]*)\b/;
const MORE = /\b(more than|over|at least|fewer than|less than|under)\s+(\d[\d,]*)\s+(species|genera|families|orders)\b/;

/**
 * How each part of a question's form is read. Each is read when an answer first asks for it (most questions ask
 * for a few): the question's form is a view of its words, never a second reading of them.
 */
const FORM_READERS: { [K in keyof Form]: (lower: string, residue: string) => Form[K] } = {
  yesNo: (lower, residue) => YES_NO.test(lower.replace(LEAD, '')) || TAG.test(lower) || CLAIM.test(untagged(residue)),
  typeSpecies: (lower) => /\btype[- ]species\b/.test(lower),
  howMany: (lower) => /\b(?:how many|number of|count)\b/.test(lower),
  which: (lower) => /\b(?:which|what|list|name|names|show)\b/.test(lower),
  aboutReleases: (lower) => /\b(?:re?a?l[ae]{0,2}[sc][ae]?s?|msls?|versions?|lists?|editions?)\b/.test(lower) && /\b(?:which|what|when|how many|list|name|(?:were|was|are) there)\b/.test(lower)
      && !/\b(?:species|genera|famil\w*|orders?|realms?)\b/.test(lower),
  yearTogether: (lower) => /\b(?:both|two|each)\b|\b(?:19|20)\d\d\s+(?:releases|lists|versions|msls|editions)\b|\b(?:releases|lists|versions|editions)\s+(?:of|in|from)\s+(?:19|20)\d\d\b/.test(lower),
  yearCounting: (lower) => /\b(?:how many|number of|numbers|count|differen\w*|differ|compar\w*|vs\.?|versus|both|two)\b/.test(lower),
  span: (_lower, residue) => (() => { const m = /\b(since|after|before|prior to|until|till|up to)\s+(?:the\s+)?§rel/.exec(residue); return m ? m[1]! : null; })(),
  years: (lower) => /\b(?:how many|number of) years\b|\byears? (?:apart|between|passed|elapsed)\b/.test(lower),
  releasedIn: (lower) => /\b(?:released|published|issued|out|from|of)\b/.test(lower) && /\bmsl\s*-?\s*\d/.test(lower),
  sameOrBoth: (lower) => /\b(?:same|both)\b/.test(lower),
  still: (lower) => /\bstill\b/.test(lower),
  stillInUse: (lower) => /\bstill\b.*\b(?:a thing|exist\w*|valid|used|around|in use|an? \w+|recogni[sz]ed|listed|there)\b/.test(lower) || /\b(?:does|do) .* still exist\b/.test(lower),
  more: (lower) => (() => { const m = MORE.exec(lower); return m ? { how: m[1]!, n: Number(m[2]!.replaceAll(',', '')), rank: rankOf(m[3]!)! } : null; })(),
  // (in the words the names leave: "Does Diaporthe RNA virus infect bacteria?" asks no genome)
  nucleicVirus: (_lower, residue) => /\b(?:dna|rna) virus\b/.test(residue),
  nucleic: (_lower, residue) => (/\b(dna|rna)\b/.exec(residue)?.[1] as 'dna' | 'rna' | undefined) ?? null,
  or: (lower) => /\bor\b/.test(lower),
  than: (lower) => /\bthan\b/.test(lower),
  member: (lower) => /\b(?:in|part of|belong\w*|members?|an?|one of|among|classified as|counted as|considered|kind of|type of|sort of|under|classed as|placed in|grouped (?:in|with|under))\b/.test(lower),
  // ("all the names of", "has been called over time": every name it had, the former ones with today's)
  formerName: (lower) => /\b(?:called before|formerly|previous(?:ly)? (?:called|named)|(?:old|older|oldest|former|previous|earlier|earliest|first|original|other) names?|used to be (?:called|named)|(?:was|were) .* (?:called|named)\b.*\bbefore|renamed from|(?:all|every|each) (?:of )?(?:the |its |their )?names?|been (?:called|named|known as)\b.*\b(?:over time|over the years|through time|through the years|in the past|across releases|since \d{4}))\b/.test(lower),
  // ("what did the 1982 list call X", "X was listed in 1991: what is it now?")
  naming: (lower) => /\b(?:names?|call|called|named|known as)\b|\bwhat (?:is|are) (?:it|they) (?:now|today|nowadays|these days|currently)\b|\b(?:became|become) of\b|\b(?:is|are) (?:which|what) species\b|\bwhich species (?:is|are)\b/.test(lower),
  higherRankWord: (lower) => /\b(?:famil\w*|genus|genera|order|realm|class|phylum|kingdom)\b/.test(lower),
  now: (lower) => /\b(?:current(?:ly)?|now|today|nowadays|present|present-day|modern|up-to-date|contemporary|these days|valid|accepted|(?:became|become) of)\b/.test(lower),
  comparing: (lower) => /\b(?:more|fewer|less|bigger|larger|smaller|biggest|largest|greater|which|or|vs\.?|versus|compar\w*|than|differen\w*)\b/.test(lower),
  counting: (lower) => /\b(?:how many|number of|count|more|fewer|less|bigger|larger|smaller|grew|grow|increase\w*|decrease\w*|go up|went up|drop\w*|change|differen\w*|vs\.?|versus|minus|subtract\w*|gap|delta|net|growth|gain\w*|expan\w*|shr[iu]nk\w*)\b/.test(lower),
  gainOrLoss: (lower) => /\b(?:gain\w*|lost|los[et]|add\w*)\b/.test(lower),
  ranking: (lower) => /\b(?:which|what)\b.*\b(?:the most|most|fastest|the least)\b/.test(lower),
  // (a rename in any of the vocabulary's words: "names changed")
  changeAsked: (lower) => /\b(?:renam|merg|split|abolish|reclassif|moved|add|new|creat|introduc|remov|delet|eliminat|dropped|discontinu|retir|disappear|withdrawn|relocat|reassign|transferr|establish|ratified|debut|lumped|promot|demot)\w*|\bgot the chop\b|\bwent extinct\b|\bno longer exist/.test(lower) || changeIn(lower) === 'renamed',
  sum: (lower) => /\b(?:combined|together|in total|altogether|sum|jointly|between them|in all|all told)\b/.test(lower),
  fewer: (lower) => /\b(?:fewer|less|smaller|smallest)\b/.test(lower),
  fell: (lower) => /\b(?:lost|lose|fewer|less|shr[iu]nk\w*|decreas\w*|drop\w*|fell|declin\w*)\b/.test(lower),
  down: (lower) => /\b(?:fewer|less|smaller|drop\w*|fall|fell|decreas\w*|down|shr[iu]nk\w*)\b/.test(lower),
  up: (lower) => /\b(?:more|bigger|larger|greater|increas\w*|grow|grew|go up|went up|rise|rose)\b/.test(lower),
  changed: (lower) => /\b(?:chang\w*|differ\w*)\b/.test(lower),
  against: (lower) => (() => { const a = AGAINST.exec(lower); return a ? { op: /^(?:less|smaller|fewer|under|below)$/.test(a[1]!) ? 'less' as const : 'more' as const, n: Number(a[2]!.replaceAll(',', '')) } : null; })(),
  percent: (lower) => /\b(?:percent\w*|proportion|share|fraction)\b|%/.test(lower),
};

/** A question's form: each part read from its words on first use, then kept. */
class LazyForm {
  readonly read: Partial<Record<keyof Form, unknown>> = {};
  constructor(readonly lower: string, readonly residue: string) {}
}
for (const key of Object.keys(FORM_READERS) as Array<keyof Form>) {
  Object.defineProperty(LazyForm.prototype, key, {
    get(this: LazyForm) {
      return key in this.read ? this.read[key] : (this.read[key] = FORM_READERS[key](this.lower, this.residue));
    },
  });
}

/** The form of a question: the words around what it names, read for the answers. */
function formOf(lower: string, residue: string): Form {
  return new LazyForm(lower, residue) as unknown as Form;
}

/**
 * "coronavirus species (Coronaviridae)": a word in lower case and a taxon name of the same stem next to it are
 * one taxon said twice, the name spelt out winning; and one taxon named twice is one.
 */
function sameStem(p: Parsed): void {
  if (p.taxa.length !== 2) return;
  if (p.taxa[0]!.name === p.taxa[1]!.name && p.taxa[0]!.rank === p.taxa[1]!.rank) {
    p.taxa.splice(1);
    return;
  }
  const stem = (n: string) => n.toLowerCase().replace(/(?:viridae|virinae|virales|viria|viruses|virus)$/, '');
  const [a, b] = p.taxa as [TaxonRef, TaxonRef];
  if (stem(a.text) !== stem(b.text)) return;
  const common = a.text === a.text.toLowerCase() && b.text !== b.text.toLowerCase() ? a : b.text === b.text.toLowerCase() && a.text !== a.text.toLowerCase() ? b : null;
  if (common) p.taxa.splice(p.taxa.indexOf(common), 1);
}

/** The rank counted or ranked: the rank right after the counting words, else the first rank word. */
function targetRankOf(residue: string): Rank | null {
  // "how many (different) genera", "number of families", "largest orders"
  const m = /\b(?:how many|number of|count of|count|total|largest|biggest|smallest|top(?: \d+)?|\d+ largest|\d+ biggest|fastest[- ]growing|most|which|what)\s+(?:(?:different|distinct|virus|viral|recognised|recognized|ictv|official|accepted|new|the|of|are|were)\s+)*([a-z]+)/.exec(residue);
  const r = m ? rankOf(m[1]!) : null;
  if (r) return r;
  return firstRank(residue);
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

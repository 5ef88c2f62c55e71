// One question through the whole language layer: checked for a topic the service does not answer (scope.ts),
// its identifiers and short names looked up, read once (parse.ts; a misspelt name is read as the one name it is
// closest to, and says so), checked for releases that do not exist or are named two ways that disagree (declined)
// and for a year of several releases (asked back), answered by the function of its reading (answers/), and judged
// (understood.ts): an answer only when every part was understood, otherwise a "not understood" answer naming the
// part. The router and the evaluation harness (bench/ai-eval.ts) both call this, so what is measured is what is
// served.
import type { Store } from '../store/store.js';
import { lookupIdentifiers } from '../read/identifiers.js';
import { releases as releaseRows } from '../read/releases.js';
import { abbreviationAside, stemLineages } from '../read/resolve.js';
import { stemGroup, writtenAsStem as groupWritten } from '../read/abbreviation-stems.js';
import { lineageCurrentName } from '../read/species-walks.js';
import { speciesDoc } from '../read/lineages.js';
import { suggest } from '../read/suggest.js';
import { normaliseName } from '../read/names.js';
import { virusAliases } from '../read/virus-aliases.js';
import { answer, type Answer } from './answers/index.js';
import { EXAMPLE_QUESTIONS } from './examples.js';
import { and, or } from './format.js';
import { matches } from './matches.js';
import { identifierWords, isQuestionWord, parseQuestion, storeLexicon, type Intent, type Lexicon, type Parsed, type Reading, type ReleaseRef, type SpeciesRef } from './parse.js';
import { outOfScope, SCOPE_SENTENCE } from './scope.js';
import { chooseIntent } from './intent.js';
import { confidenceOf, everyRelease, negatedClaim, numberOfOtherRank, qualifiedGroup, understoodOf, unreadPart, unreadWords, type Understood } from './understood.js';

export type Status = 'answered' | 'not_understood' | 'declined' | 'clarify';

export type QueryResult = Answer & {
  status: Status;
  intent: string;
  understood: Understood;
  confidence: number;
  entities: Record<string, unknown>;
};

/** A misspelling is read as a name only when one name is clearly closest. */
const TYPO_SCORE = 0.84;
const TYPO_MARGIN = 0.03;

function entitiesOf(p: Parsed): Record<string, unknown> {
  return {
    species: p.species.map((s) => ({ text: s.text, matched_name: s.matched_name, kind: s.kind, current_name: s.current_name, lineage_ids: s.lineage_ids })),
    taxa: p.taxa.map((t) => ({ text: t.text, rank: t.rank, name: t.name, first_version: `MSL${t.entry.first_msl}`, last_version: `MSL${t.entry.last_msl}` })),
    releases: p.releases.map((r) => ({ text: r.text, version: r.version, year: r.year, label: r.label, ...(r.note ? { note: r.note } : {}) })),
    hosts: p.hosts,
    genome_types: p.genomeTypes,
    rank: p.targetRank,
    // the contract's word for an abolition is release_diff's: removed
    change: p.change === 'abolished' ? 'removed' : p.change,
    unknown: [...p.unknownNames, ...p.badReleases],
  };
}

const NO_ENTITIES = { species: [], taxa: [], releases: [], hosts: [], genome_types: [], rank: null, change: null, unknown: [] };

const closest = () => EXAMPLE_QUESTIONS.slice(0, 3).map((e) => e.question);
const offered = () => `I can answer questions such as: ${closest().map((q) => `"${q}"`).join(', ')}.`;

/** The question with each misspelt name replaced by the one name it is clearly closest to. */
async function corrected(store: Store, query: string, p: Parsed, lex: Lexicon): Promise<Parsed | null> {
  // name-shaped words that matched nothing; runs of words ending in "virus" (whose first words a vocabulary may
  // have read: "tomato spoted wilt virus"); else, in a question where nothing was found, the words left over
  const nothingFound = p.species.length === 0 && p.taxa.length === 0;
  const virusRuns = nothingFound && /vir/i.test(query) ? matches(/\b((?:[\p{L}\d-]+\s+){1,4}vir(?:us|sus|su|is))\b/giu, query).flatMap((m) => {
    const w = m[1]!.trim().split(/\s+/);
    // "how many virus" is no name: a run starts after the last question word
    const from = w.slice(0, -1).reduce((at, x, k) => (isQuestionWord(x) ? k + 1 : at), 0);
    return w.slice(from, -1).map((_, k) => w.slice(from + k).join(' '));
  }) : [];
  const words = [...p.unknownNames, ...virusRuns, ...(nothingFound ? p.leftovers.filter((w) => w.length >= 5) : [])];
  if (words.length === 0) return null;
  const found = await suggest(store, words, TYPO_SCORE);
  let text = query;
  const fixes: Array<[string, string]> = [];
  for (const u of words) {
    const s = found.get(normaliseName(u)) ?? [];
    const best = s[0];
    if (!best || best.rank !== 'species' && (best.kind !== 'taxon' || virusRuns.includes(u))) continue;
    // a word in lower case spelt like an everyday group word ("mycovirus") is no misspelt taxon ("Mydovirus"): a
    // group the table does not know is left not understood, never read as a taxon of another name
    if (best.kind === 'taxon' && /^[a-z]+virus(?:es)?$/.test(u)) continue;
    if (s.some((o) => o.lineage_id !== best.lineage_id && o.score > best.score - TYPO_MARGIN)) continue;
    if (!text.includes(u) || fixes.some(([f]) => f.includes(u) || u.includes(f))) continue;
    text = text.replace(u, best.name);
    fixes.push([u, best.name]);
  }
  if (fixes.length === 0) return null;
  const again = parseQuestion(text, lex);
  if (again.unknownNames.length > 0) return null;
  for (const s of again.species) {
    const fix = fixes.find(([, name]) => name.toLowerCase() === s.text.toLowerCase());
    if (fix) {
      s.via = { how: 'typo', name: fix[1] };
      s.text = fix[0];
    }
  }
  for (const t of again.taxa) {
    const fix = fixes.find(([, name]) => name.toLowerCase() === t.text.toLowerCase());
    if (fix) t.text = fix[0];
  }
  return again;
}

// the releases by number, once per store (rows are held for the build's life)
const byNumber = new WeakMap<Store, Map<number, { label: string }>>();

/** A character of \w (a letter, digit or underscore); false past either end of the text (NaN). */
const isWordChar = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

/** Each release an answer names, the first time, with its year or label: "MSL39" -> "MSL39 (2023)". */
function withYears(store: Store, text: string): string {
  let at = text.indexOf('MSL');
  if (at < 0) return text;
  let rows = byNumber.get(store);
  if (!rows) byNumber.set(store, (rows = new Map(releaseRows(store).map((r) => [r.msl, r]))));
  const seen = new Set<number>();
  let out = '';
  let from = 0;
  // "MSL" and one or two digits, as a word: the rest of the text is copied as it is
  for (; at >= 0; at = text.indexOf('MSL', at + 3)) {
    let end = at + 3;
    while (end < text.length && end < at + 5 && text.charCodeAt(end) >= 48 && text.charCodeAt(end) <= 57) end++;
    if (end === at + 3 || isWordChar(text.charCodeAt(end)) || isWordChar(text.charCodeAt(at - 1))) continue;
    const n = Number(text.slice(at + 3, end));
    const r = rows.get(n);
    // already said ("MSL39 (2023)" once), in brackets, written next to its label ("MSL33 = 2018a"), or followed by one
    if (!r || seen.has(n) || text.charCodeAt(at - 1) === 40 || text.slice(Math.max(0, at - 12), at).includes(r.label) || /^\s*(?:=|\()/.test(text.slice(end, end + 3))) continue;
    seen.add(n);
    out += `${text.slice(from, end)} (${r.label})`;
    from = end;
  }
  return from === 0 ? text : out + text.slice(from);
}

/**
 * A name in the question that stands for several species of the latest release ("RSV": rice stripe virus and
 * Rous sarcoma virus by their abbreviations; "PRRSV": PRRSV-1 and PRRSV-2), and those species. An answer about
 * one of them would be an answer to another question, said as if it were this one.
 */
function severalSpecies(store: Store, p: Parsed): { ref: SpeciesRef; now: string[] } | null {
  for (const ref of p.species) {
    if (ref.lineage_ids.length < 2) continue;
    const now = [...new Set(ref.lineage_ids.map((id) => lineageCurrentName(store, id)).filter((n): n is string => n !== null))];
    if (now.length > 1) return { ref, now };
  }
  return null;
}

/** At most this many species are asked one by one for a name that stands for several, and this many named. */
const MAX_EACH = 80;
const SHOWN = 6;

/** The ranks a taxon asked about shares with the one species of an abbreviation the question can mean. */
const NEAR_RANKS = new Set(['subfamily', 'family', 'suborder', 'order']);

/**
 * "Is HCMV an alphaherpesvirus?": an abbreviation of several species (human cytomegalovirus; hydrangea chlorotic
 * mottle virus), asked of a taxon only one of them is near (in it, or in its family or order): that one is meant,
 * and the answer says which it read and what else the abbreviation stands for. Null unless exactly one is near.
 */
async function meantByTaxon(store: Store, p: Parsed, ref: SpeciesRef): Promise<Answer | null> {
  if (ref.kind !== 'abbreviation') return null;
  const t = p.taxa[0]!;
  const near = new Set([t.name, ...(t.group?.wider ? [t.group.wider.name] : []), ...t.entry.parents.filter((x) => NEAR_RANKS.has(x.rank)).map((x) => x.name)]);
  const all = releaseRows(store);
  const latest = all[all.length - 1]!.msl;
  const byName = new Map<string, number>();
  for (const id of ref.lineage_ids) {
    const now = lineageCurrentName(store, id);
    if (now !== null && !byName.has(now)) byName.set(now, id);
  }
  const close = [...byName].filter(([name]) => {
    const c = speciesDoc(store, latest, name)?.classification ?? {};
    return Object.entries(c).some(([rank, v]) => v !== null && near.has(v) && (NEAR_RANKS.has(rank) || rank === t.rank));
  });
  if (close.length !== 1) return null;
  const [name, id] = close[0]!;
  const a = await answer(store, { ...p, species: [{ ...ref, lineage_ids: [id] }] } as Parsed);
  if (a.unanswered) return null;
  const others = [...byName.keys()].filter((n) => n !== name);
  return { ...a, response: `${a.response} (${ref.text} also abbreviates ${and(others)}, far from the ${t.rank} ${t.name}; read here as ${name}.)`, data: { ...(a.data as object), read_as: name, also: others } };
}

/**
 * One membership answer for a name of several species when each species' answer opens with Yes; else null. A few
 * are told one by one; more ("HDV": hepatitis D viruses 1-8, eight species of the genus Deltavirus) in one sentence
 * naming the taxon each is in, when each is plainly in it (not in a wider sense, nor by a former name).
 */
async function eachSpecies(store: Store, p: Parsed, ref: SpeciesRef): Promise<Answer | null> {
  const answers: Answer[] = [];
  // one answer per species of the latest release the name stands for (several lineages may lead to one)
  const seen = new Set<string>();
  for (const id of ref.lineage_ids) {
    const now = lineageCurrentName(store, id);
    if (now === null || seen.has(now)) continue;
    if (seen.size >= MAX_EACH) return null;
    seen.add(now);
    const a = await answer(store, { ...p, species: [{ ...ref, lineage_ids: [id] }] } as Parsed);
    if (a.unanswered) return null;
    answers.push(a);
  }
  if (answers.length === 0) return null;
  // only a Yes for each: a No for each may be about viruses the reader did not mean ("RSV" is also rice stripe virus)
  const word = (a: Answer) => /^(Yes)\b/.exec(a.response)?.[1] ?? null;
  const first = word(answers[0]!);
  if (!first || answers.some((a) => word(a) !== first)) return null;
  const data = { name: ref.text, answers: answers.map((a) => a.data) };
  if (answers.length <= 3) {
    return {
      response: `${first}, for each of the ${answers.length} species ${ref.text} stands for: ${answers.map((a) => a.response.replace(/^(?:Yes|No)[^:]*:\s*(.)/, (_m, c: string) => c.toUpperCase())).join(' ')}`,
      data, sources: answers[0]!.sources,
    };
  }
  // the taxon each plain Yes places its species in: one for all, or no one sentence says it
  const placed = answers.map((a) => {
    const d = a.data as { species?: string; version?: string; rank?: string; actual?: string; taxon?: { rank: string; name: string } };
    const taxon = d.taxon ?? (d.rank && d.actual ? { rank: d.rank, name: d.actual } : null);
    return /^Yes:/.test(a.response) && taxon && d.species && d.version ? { species: d.species, version: d.version, taxon: `the ${taxon.rank} ${taxon.name}` } : null;
  });
  if (placed.some((x) => x === null) || new Set(placed.map((x) => `${x!.taxon}|${x!.version}`)).size !== 1) return null;
  const one = placed[0]!;
  const names = placed.map((x) => x!.species);
  const shown = names.length > SHOWN ? `${names.slice(0, SHOWN).join(', ')} and ${names.length - SHOWN} more` : and(names);
  return {
    response: `Yes, for each of the ${answers.length} species ${ref.text} stands for: in ${one.version}, ${shown} are each in ${one.taxon}.`,
    data, sources: answers[0]!.sources,
  };
}

/**
 * "Is HPV a papillomavirus?": HPV as written is the VMR's abbreviation of Hart Park virus, which is not one, and
 * the beginning of HPV1, HPV16, ..., which are; the membership answer declined to say No for the one reading the
 * reader rarely means. Where every species of the typed abbreviations gives the same Yes, that is the answer,
 * saying the other reading; otherwise the decline stands (the question is asked back).
 */
async function asStem(store: Store, p: Parsed, declined: Answer): Promise<Answer | null> {
  const s = p.species[0];
  if (p.species.length !== 1 || s?.kind !== 'abbreviation' || (declined.data as { missing?: string }).missing !== 'species') return null;
  const stem = stemLineages(store, s.text);
  if (!stem) return null;
  const each = await eachSpecies(store, p, { ...s, lineage_ids: stem.lineage_ids });
  if (!each) return null;
  const own = [...new Set(s.lineage_ids.map((id) => lineageCurrentName(store, id)).filter((n): n is string => n !== null))];
  return {
    ...each,
    response: `${each.response.replace(/^Yes, for each of the (\d+) species \S+ stands for/, `Yes, for each of the $1 species of the VMR's abbreviations ${s.text} begins (${stem.abbreviations})`)} (${s.text} as written is also the VMR's abbreviation of ${and(own)}, which is not: ask about it by name if you mean it${stem.shared.length ? `; ${and(stem.shared)} ${stem.shared.length === 1 ? 'is' : 'are'} also the abbreviation of another virus, and ${stem.shared.length === 1 ? 'was' : 'were'} left aside` : ''}.)`,
    data: { ...each.data, also: own },
  };
}

/**
 * Whether an abbreviation is written as the stem of typed ones is ("HPV" of HPV16), or in no one's letter case:
 * not "ASFV" (African swine fever virus) beside AsFV1, which the VMR, and the reader, tell apart by their case.
 */
function writtenAsStem(store: Store, text: string): boolean {
  const group = stemGroup(store, text);
  return group !== null && (groupWritten(group, text) || text !== text.toUpperCase());
}

/**
 * An abbreviation the question wrote as the VMR does, which also begins typed abbreviations of other taxa ("HPV" is
 * Hart Park virus; HPV1, HPV16, ... are papillomaviruses; "HSV" Hibiscus soymovirus beside HSV1 and HSV2): an
 * answer about the whole abbreviation's own species is likely about another virus than the one meant, so it is
 * asked back, naming both. Null where the answer is given for each of the typed ones too (answers/groups.ts).
 */
function abbreviationDoubt(store: Store, p: Parsed, a: Answer): string | null {
  if ('also' in a.data) return null;
  for (const s of p.species) {
    if (s.kind !== 'abbreviation' || !writtenAsStem(store, s.text)) continue;
    const aside = abbreviationAside(store, s.text);
    if (aside) return `${s.text} is the VMR's abbreviation of ${s.current_name ?? s.text}, but ${aside}: ask again naming the virus you mean.`;
  }
  return null;
}

/** The answer to one question, as POST /ai/query returns it (without the echoed query and cache flag). */
export async function askQuestion(store: Store, query: string): Promise<QueryResult> {
  const refuse = (status: Status, p: Parsed | null, relation: string, response: string, data: Record<string, unknown> = {}): QueryResult => {
    const understood: Understood = p ? understoodOf(p, relation) : { entities: [], relation, releases: [] };
    return { status, response, intent: p?.intent ?? 'unknown', understood, confidence: 0, entities: p ? entitiesOf(p) : NO_ENTITIES, data: { ...data, examples: closest() }, sources: [] };
  };
  // most questions hold no identifier, and the aliases are built once: then nothing is awaited (an await is a
  // turn of the microtask queue, which showed in profiles of every question)
  const idWords = identifierWords(query);
  const ids = idWords.length > 0 ? await lookupIdentifiers(store, idWords) : undefined;
  const held = virusAliases(store);
  const lex = storeLexicon(store, ids, held instanceof Map ? held : await held);
  let parsed = parseQuestion(query, lex);
  const nothingFound = parsed.species.length === 0 && parsed.taxa.length === 0;
  if (parsed.unknownNames.length > 0 || nothingFound) parsed = (await corrected(store, query, parsed, lex)) ?? parsed;
  // a topic's words in the question, not in a name it holds ("Coconut lethal yellowing ..."): read in the words
  // the names leave
  const topic = outOfScope(parsed.residue);
  if (topic) return refuse('declined', parsed, 'out_of_scope', `${SCOPE_SENTENCE} (The question asks about ${topic}.) ${offered()}`, { topic });

  if (parsed.relation === 'releases_in_years') return answered(store, parsed, await answer(store, parsed));
  if (parsed.badReleases.length > 0) {
    const all = releaseRows(store);
    const bad = parsed.badReleases[0]!;
    return refuse('declined', parsed, 'nonexistent_release', `${bad.charAt(0).toUpperCase()}${bad.slice(1)}: there is no such release, and I do not answer with another one. The releases run from ${all[0]!.version} (${all[0]!.label}) to ${all[all.length - 1]!.version} (${all[all.length - 1]!.label}). ${offered()}`);
  }
  // "MSL40 (2019)": two releases named as one, which the answer would have to choose between
  if (parsed.conflicts.length > 0) {
    return refuse('declined', parsed, 'release_conflict', `${parsed.conflicts[0]}. I answer for one release named consistently, never for a guess between two: ask again naming the one you mean. ${offered()}`, { conflict: parsed.conflicts[0] });
  }
  const negation = negatedClaim(parsed);
  if (negation) return refuse('not_understood', parsed, parsed.intent, `I did not understand all of this question: not understood, the negation "${negation}" in a yes or no (my Yes or No would be of the claim without it, which reads as the opposite). Ask it without the negation, as "Is ... a ...?". ${offered()}`);
  const qualified = qualifiedGroup(parsed);
  if (qualified) return refuse('not_understood', parsed, parsed.intent, `I did not understand all of this question: not understood, ${qualified} beside the group asked (I answer whether a virus is in a taxon, not in a kind of it). ${offered()}`);
  const numbered = numberOfOtherRank(parsed);
  if (numbered) return refuse('not_understood', parsed, parsed.intent, `I did not understand all of this question: not understood, ${numbered}. ${offered()}`);
  const always = everyRelease(parsed);
  if (always) return refuse('not_understood', parsed, parsed.intent, `I did not understand all of this question: not understood, "${always}" (I answer whether it is in the taxon in one release, or whether it ever was). ${offered()}`);
  const words = unreadWords(parsed);
  if (words) return refuse('not_understood', parsed, parsed.intent, `I did not understand all of this question: not understood, ${words}. I answer only when I understood every part. ${offered()}`);
  // what a name is called now is answered for all its species at once (answers/species.ts currentName); anything else is asked of one
  const several = parsed.intent === 'current_name' ? null : severalSpecies(store, parsed);
  if (several) {
    const { ref, now } = several;
    // "Is PRRSV an arterivirus?": a membership asked of a name of a few species, answered when it holds for each
    const each = parsed.relation === 'member_of' && parsed.species.length === 1 ? await eachSpecies(store, parsed, ref) : null;
    if (each) return answered(store, parsed, each);
    const meant = parsed.relation === 'member_of' && parsed.species.length === 1 ? await meantByTaxon(store, parsed, ref) : null;
    if (meant) return answered(store, parsed, meant);
    return refuse('not_understood', parsed, parsed.intent, `${ref.text} stands for ${now.length} species in the latest release: ${and(now)}. I answer about one species at a time: ask again naming the one you mean. ${offered()}`, { name: ref.text, species: now });
  }
  // a year of several releases, read as one of them, would answer for a release the question did not name
  // ("Was MSL34 released in 2018?" asks whether it is one of that year's: answered, not asked back)
  const year = parsed.relation === 'year_counts' || parsed.relation === 'releases_of_year' || parsed.relation === 'release_is_year' ? undefined : parsed.releases.find((r) => r.ambiguous);
  if (year) return (await sameForEvery(store, parsed, year)) ?? askBack(store, parsed, year.year);
  let a = await answer(store, parsed);
  if (a.unanswered && parsed.relation === 'member_of') a = (await asStem(store, parsed, a)) ?? a;
  if (parsed.intent === 'unknown' || parsed.intent === 'help' || a.unanswered) {
    return { ...refuse('not_understood', parsed, parsed.relation, a.response, a.data), data: a.data };
  }
  // the intents of one thing asked use only some parts of a question; a relation read whole uses them all
  const unread = ONE_THING.has(parsed.relation) && !parsed.nameRelease ? unreadPart(parsed) : null;
  if (unread) return refuse('not_understood', parsed, parsed.relation, `I did not understand all of this question: not understood, ${unread}. I answer only when I understood every part. ${offered()}`);
  return answered(store, parsed, a);
}

/** The readings that answer one thing asked (the rest are relations read whole, which use every part they read). */
const ONE_THING = new Set<Reading>([
  'classification', 'current_name', 'former_names', 'species_history', 'genome', 'hosts', 'count_release', 'count_taxon',
  'release_changes', 'compare_releases', 'family_evolution', 'family_stability', 'largest_taxa', 'fastest_growing', 'milestones',
  'taxon_history', 'families_by_host', 'families_by_genome', 'release_info',
]);

function answered(store: Store, p: Parsed, a: Answer): QueryResult {
  const understood = understoodOf(p, p.relation);
  const doubt = abbreviationDoubt(store, p, a);
  if (doubt) return { status: 'not_understood', response: `${doubt} ${offered()}`, intent: p.intent, understood, confidence: 0, entities: entitiesOf(p), data: { examples: closest() }, sources: [] };
  return { status: 'answered', response: withYears(store, a.response), intent: p.intent, understood, confidence: confidenceOf(understood), entities: entitiesOf(p), data: a.data, sources: a.sources };
}

/**
 * "What is Bacteriophage T4 from the 1999 list called today?": a year of several releases that only says where a
 * name was used, asking its name today. Read as each of the year's releases in turn, the question gets one current
 * name: then the year's choice changes nothing, and the answer is given for the first release that lists the name.
 * Null where the readings differ or one is not answered (then the question is asked back).
 */
async function sameForEvery(store: Store, p: Parsed, year: ReleaseRef): Promise<QueryResult | null> {
  const all = releaseRows(store);
  const latest = all[all.length - 1]!.msl;
  let first: { parsed: Parsed; a: Answer } | null = null;
  let names: string | null = null;
  const inYear = all.filter((x) => x.year === year.year);
  for (const r of inYear) {
    const one: ReleaseRef = { text: year.text, version: r.version, msl: r.msl, year: r.year, label: r.label };
    const q: Parsed = { ...p, releases: p.releases.map((x) => (x === year ? one : x)), nameRelease: null, relationRank: null };
    chooseIntent(q, latest);
    if (q.relation !== 'current_name' || !q.nameRelease) return null;
    const a = await answer(store, q);
    const now = (a.data as { current_names?: string[] } | undefined)?.current_names;
    if (a.unanswered || !now) continue;
    const key = JSON.stringify([...now].sort());
    if (names !== null && key !== names) return null;
    names = key;
    first ??= { parsed: q, a };
  }
  if (!first) return null;
  const note = ` (${year.year} had ${inYear.length} releases, ${and(inYear.map((r) => `${r.version} (${r.label})`))}; the current name is the same whichever is meant.)`;
  return answered(store, first.parsed, { ...first.a, response: `${first.a.response}${note}` });
}

/** "2018 had two releases, MSL33 (2018a) and MSL34 (2018b): which do you mean?" */
function askBack(store: Store, p: Parsed, year: number): QueryResult {
  const inYear = releaseRows(store).filter((r) => r.year === year);
  // the year was read as no one release: it is not reported as one
  const read = understoodOf(p, p.relation);
  const understood = { ...read, entities: read.entities.filter((e) => e.kind !== 'release' || !p.releases.some((r) => r.ambiguous && r.text === e.text)), releases: [] };
  return {
    status: 'clarify', intent: p.intent as Intent, understood, confidence: 0, entities: entitiesOf(p), sources: [],
    response: `${year} had ${inYear.length} releases: ${and(inYear.map((r) => `${r.version} (${r.label})`))}. Which one do you mean? Ask again naming it (${or(inYear.map((r) => `"${r.version}"`))}, or ${or(inYear.map((r) => `"${r.label}"`))}).`,
    data: { year, releases: inYear.map((r) => ({ version: r.version, label: r.label })) },
  };
}

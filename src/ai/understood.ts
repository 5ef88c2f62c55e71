// What /ai/query understood of a question, as every answer reports it: the entities with how each was resolved
// (exact, former name, virus name, abbreviation, short name, typo, identifier), the relation asked and the
// releases; and the confidence of the reading. Also the checks that turn a reading into "not understood":
// an answer is given only when every part of the question was read and the answer uses every part.
import type { Intent, Parsed, SpeciesRef } from './parse.js';
import { changeIn, findGenomeTypes, findHosts, rankOf } from './vocabulary.js';

export type Resolved = 'exact' | 'former_name' | 'virus_name' | 'abbreviation' | 'short_name' | 'typo' | 'identifier' | 'common_name';

export interface UnderstoodEntity {
  text: string;
  kind: 'species' | 'taxon' | 'release';
  /** The name or release it was read as. */
  as: string;
  /** species: the species' name in the latest release (null: not in it); taxon: its rank. */
  detail: string | null;
  resolved: Resolved;
}

export interface Understood {
  entities: UnderstoodEntity[];
  relation: string;
  releases: string[];
}

/** How much a way of resolving a name leaves in doubt (as MATCH_CONFIDENCE in read/resolve.ts). */
const CONFIDENCE: Record<Resolved, number> = {
  exact: 1, former_name: 1, identifier: 0.99, common_name: 0.95, virus_name: 0.95, short_name: 0.9, abbreviation: 0.85, typo: 0.8,
};

function resolvedOf(s: SpeciesRef): Resolved {
  if (s.via) return s.via.how === 'alias' ? 'short_name' : 'typo';
  if (s.kind === 'virus_name') return 'virus_name';
  if (s.kind === 'abbreviation') return 'abbreviation';
  if (s.kind === 'species') return s.current_name && s.current_name !== s.matched_name ? 'former_name' : 'exact';
  return 'identifier';
}

export function understoodOf(p: Parsed, relation: string): Understood {
  return {
    entities: [
      ...p.species.map((s): UnderstoodEntity => ({ text: s.text, kind: 'species', as: s.via?.name ?? s.matched_name, detail: s.current_name, resolved: resolvedOf(s) })),
      ...p.taxa.map((t): UnderstoodEntity => ({ text: t.text, kind: 'taxon', as: t.name, detail: t.rank, resolved: t.common ? 'common_name' : t.text.toLowerCase() === t.name.toLowerCase() ? 'exact' : 'typo' })),
      ...p.releases.map((r): UnderstoodEntity => ({ text: r.text, kind: 'release', as: r.version, detail: r.label, resolved: 'exact' })),
    ],
    relation,
    releases: [...new Set(p.releases.map((r) => r.version))],
  };
}

/** The confidence of a reading: the product of how sure each entity's resolution is. */
export function confidenceOf(u: Understood): number {
  return Math.round(u.entities.reduce((c, e) => c * CONFIDENCE[e.resolved], 1) * 100) / 100;
}

// intents whose answer reads a species, a taxon or neither: a question naming one the answer ignores is not understood
const SPECIES_INTENTS = new Set<Intent>(['classification', 'current_name', 'former_names', 'species_history', 'genome', 'hosts']);
const TAXON_INTENTS = new Set<Intent>(['classification', 'genome', 'hosts', 'count_taxon', 'family_evolution', 'family_stability', 'taxon_history', 'largest_taxa', 'families_by_host', 'families_by_genome']);

/**
 * Words no answer reads, whatever is asked: a decade ("in the 1990s": not one release or two) and a word with
 * digits that is no release, name or number ("1999c", "v2"). Checked before any answer, so none is given as if
 * they were not there.
 */
export function unreadWords(p: Parsed): string | null {
  const decade = /\b(?:1[89]|20)\d0'?s\b(?!\s*msl\s*-?\s*\d)/.exec(p.normalised);
  if (decade) return `the decade "${decade[0]}" (I answer about one release or two, not the releases of a decade)`;
  // "back in '15": a year in two digits, which names no release
  const short = /(?:^|\s)['’](\d\d)\b/.exec(p.normalised);
  if (short) return `the year "'${short[1]}" (name a release as MSL30, 2015 or 1999a)`;
  const digits = p.leftovers.flatMap((w) => w.split(' ')).find((w) => /\d/.test(w) && !/^\d[\d,.]*$/.test(w));
  if (digits) return `"${digits}"`;
  // "MSL33 vs MSL34 vs MSL35": the answers compare two releases, so a third would be left out
  const ranks = twoRanksChanged(p) ?? twoChanges(p);
  if (ranks) return ranks;
  // "the total number of species abolished across all releases": the sum of every step, which no answer of
  // one release's changes gives (it would be the latest's)
  const all = p.change !== null && p.releases.length === 0 && p.species.length === 0 && p.taxa.length === 0
    ? /\b(?:across|over|in|throughout|through) (?:all|every) (?:of )?(?:the )?(?:releases|msls|lists|years|versions|history|time)\b|\ball[- ]time\b|\bin (?:the )?(?:whole|entire) (?:history|record)\b|\bever\b|\bin total\b|\baltogether\b/.exec(p.residue) : null;
  if (all) return `"${all[0]}" (I count the changes of one release, or between two named: ask for one, or compare the first and the latest)`;
  const third = p.releases[2];
  return third && new Set(p.releases.map((r) => r.msl)).size > 2 ? `the third release named ("${third.text}"): I compare two releases at a time` : null;
}

// A yes or no opening with a negative verb ("Isn't HIV a retrovirus?") or ending with a tag ("..., isn't it?",
// "or not") asks the claim itself, and is answered as such; these are taken off before looking for a negation
const NEGATIVE_OPENING = /^\s*(?:(?:is|are|was|were|does|do|did|has|have|had)n'?t)\b/;
const NEGATIVE_TAG = /(?:,\s*|\s)(?:(?:is|are|was|were|does|do|did|has|have)n'?t (?:it|that|he|she|they|so|there)|is it not|or not|right|correct|true)\s*[?.!)]*\s*$/;

/**
 * The negation inside a yes or no ("Is Zika virus not a flavivirus?", "HIV is not a retrovirus, right?", "Is X no
 * longer a Y?"): every answer's Yes or No is of the claim without it, so it would be said with the wrong polarity.
 */
export function negatedClaim(p: Parsed): string | null {
  if (!/\b(?:not|never|no longer|nowhere)\b|n'?t\b/.test(p.residue) || !p.form.yesNo) return null;
  const claim = p.residue.replace(NEGATIVE_OPENING, ' ').replace(NEGATIVE_TAG, ' ').replace(/\bwhether or not\b/g, ' ');
  const m = /\b(?:not|never|no longer|nowhere)\b|\b(?:is|are|was|were|does|do|did|has|have|had)n'?t\b/.exec(claim);
  return m ? m[0] : null;
}

/**
 * "Has hepatitis C virus always been in Flaviviridae?": a membership asked of every release, which the answers
 * (of one release, or of whether it ever was) do not read.
 */
export function everyRelease(p: Parsed): string | null {
  // (a taxon within a taxon reads it itself: a container first listed after the taxon was not always its container)
  if (p.relation !== 'member_of') return null;
  const m = /\b(?:always|every release|all (?:the )?releases|throughout)\b/.exec(p.residue);
  return m ? m[0] : null;
}

/**
 * "Is Zika virus a tick-borne flavivirus?", "Is HIV a retrovirus of primates?": a membership whose group is
 * qualified, right before it or by what follows it, by a word no answer of membership reads (a host, a genome, any
 * word not understood): its Yes would be said of the group alone.
 */
export function qualifiedGroup(p: Parsed): string | null {
  if (p.relation !== 'member_of' && p.relation !== 'taxon_in_taxon') return null;
  // the group asked is the last taxon named ("Is human rhinovirus an enterovirus?": "human" is the subject's)
  const at = Math.max(p.residue.lastIndexOf('§tx'), p.residue.lastIndexOf('§grp'));
  if (at < 0) return null;
  const before = /([a-z][\w'-]*)\s+$/.exec(p.residue.slice(0, at))?.[1];
  const after = /^§(?:tx|grp)\s+(?:of|that|which|infecting|from|found in|in)\s+(?:(?:the|a|an|infects?|infected|infecting)\s+)?([a-z][\w'-]*)/.exec(p.residue.slice(at))?.[1];
  const qualifies = (w: string | undefined) => w !== undefined && (p.leftovers.includes(w) || findHosts(w).length > 0 || findGenomeTypes(w).length > 0 || /-borne$|^(?:new|emerging|recent|modern|ancient|only|sole|single|other|another|typical|main|first|last|largest|biggest|smallest|oldest|newest)$/.test(w));
  return qualifies(before) ? `"${before}"` : qualifies(after) ? `"${after}"` : null;
}

/**
 * "How many families have more than 50 species?", "Which family had 54 species in 2025?": the taxa of a release
 * counted or named by a number of another rank they hold, which the counts of a release do not read.
 */
export function numberOfOtherRank(p: Parsed): string | null {
  if (p.relation !== 'taxa_of_release' && p.relation !== 'count_release') return null;
  const asked = p.relationRank ?? p.targetRank ?? 'species';
  for (const m of p.residue.matchAll(/\b(\d[\d,]*)\s+(species|genera|genus|famil(?:y|ies)|orders?|realms?|classes|subfamil(?:y|ies))\b/g)) {
    if (rankOf(m[2]!) !== asked) return `"${m[0]}" (I count the ${RANK_WORD[asked] ?? asked} of a release, not those holding a number of ${m[2]})`;
  }
  return null;
}
const RANK_WORD: Partial<Record<string, string>> = { species: 'species', genus: 'genera', family: 'families', order: 'orders', realm: 'realms', class: 'classes', subfamily: 'subfamilies' };

/**
 * "How many new genera and species were added in MSL41?": the changes of two ranks at once, which the answers of
 * one rank's changes would answer for the first only.
 */
function twoRanksChanged(p: Parsed): string | null {
  if (p.change === null || !/\b(?:and|or|&|plus|as well as)\b/.test(p.residue)) return null;
  const m = /\b([a-z]+)\s*,?\s+(?:and|or|&|plus|as well as)\s+(?:(?:new|the|how many|of)\s+)*([a-z]+)\b/g;
  for (const x of p.residue.matchAll(m)) {
    const [a, b] = [rankOf(x[1]!), rankOf(x[2]!)];
    if (a && b && a !== b) return `the changes of two ranks at once ("${x[0]}"): I answer the changes of one rank at a time`;
  }
  return null;
}

/**
 * "How many species were abolished or merged in MSL18?": two kinds of change at once, which an answer of one kind
 * would answer for one only ("new or split", which ICTV counts as one, is read as new).
 */
function twoChanges(p: Parsed): string | null {
  // (a taxon's or a species' history answers every change it had; "lose or gain" asks a change of size)
  if (p.change === null || p.taxa.length > 0 || p.species.length > 0) return null;
  for (const x of p.residue.matchAll(/\b([a-z]+)\s*,?\s+(?:and\/or|or|and|&|plus|as well as)\s+(?:(?:what|which|how|many|were|was|got|have|has|been|the)\s+){0,3}([a-z]+)\b/g)) {
    const [a, b] = [changeIn(x[1]!), changeIn(x[2]!)];
    if (a && b && a !== b && !(a === 'added' && b === 'split') && !SIZE_WORD.test(x[1]!) && !SIZE_WORD.test(x[2]!)) return `two kinds of change at once ("${x[0]}"): I answer one kind of change at a time`;
  }
  return null;
}

const SIZE_WORD = /^(?:gain\w*|los[te]\w*|grew|grow\w*|shr[ai]nk\w*)$/;

// The yes or no questions a virus's classification answers: whether it is a species or a virus the taxonomy lists
const SPECIES_YES_NO = /^(?:is|was|are|were|does|do|did|has|have) (?:the )?(?:virus )?§sp (?:still |really |actually )?(?:(?:an? |the )?(?:(?:valid|recognised|recognized|official|accepted|ictv) )?(?:species|virus|taxon)(?: (?:name|in (?:the )?(?:ictv|taxonomy|ictv taxonomy|msl|list)))?|(?:in|part of|listed in|included in|recognised in|recognized in|recognised by|recognized by|classified (?:in|by)|known to) (?:the )?(?:ictv|taxonomy|ictv taxonomy|msl|list|master species list|virus taxonomy)|(?:be )?(?:listed|classified|recognised|recognized|valid|accepted|official|included)(?: (?:as a )?species)?|exist|have a (?:species|place))?$/;

// The yes or no questions a taxon's classification answers: whether the taxonomy lists it
const TAXON_YES_NO = /^(?:is|was|are|were|does|do|did) (?:the )?(?:[a-z]+ )?§tx (?:still )?(?:(?:an? )?(?:recogni[sz]ed|valid|official|accepted|listed|real|current|existing|ictv)(?: (?:taxon|name|taxa))?|(?:in|part of|listed in|recogni[sz]ed (?:in|by)) (?:the )?(?:ictv|taxonomy|ictv taxonomy|msl|list|virus taxonomy)|exist)?$/;

/** The part of a question the intent's answer would leave out, or null when it reads every part. */
export function unreadPart(p: Parsed): string | null {
  // two names of one species ("the rabies virus species before it became Lyssavirus rabies") are one entity
  if (p.species.length > 1 && p.species.every((s) => s.lineage_ids[0] === p.species[0]!.lineage_ids[0])) p.species.splice(1);
  if (p.unknownNames.length > 0) return `the name "${p.unknownNames[0]}"`;
  const words = unreadWords(p);
  if (words) return words;
  if (p.species.length > 1) return `the second of two viruses named ("${p.species[1]!.text}"): this kind of question is answered for one`;
  if (p.taxa.length > 1 && p.intent !== 'largest_taxa') return `the second of two taxa named ("${p.taxa[1]!.text}"): this kind of question is answered for one`;
  if (p.species.length > 0 && p.taxa.length > 0) return `"${p.taxa[0]!.text}" next to "${p.species[0]!.text}": I read one virus or one taxon per question of this kind`;
  if (p.species.length > 0 && !SPECIES_INTENTS.has(p.intent)) return `what is asked about "${p.species[0]!.text}"`;
  // "Is Ebola virus a haemorrhagic fever virus?": a yes or no of words no table reads is no question about the
  // virus's classification
  if (p.intent === 'classification' && p.leftovers.length > 0 && p.form.yesNo) return `"${p.leftovers.join(' ')}" (neither a taxon nor a group name I know)`;
  // "What does ZIKV stand for?", "What is the exemplar of X?": a record of the virus its classification does not give
  const record = p.intent === 'classification' ? /\b(?:abbreviat\w*|acronyms?|stands? for|exemplars?|isolates?|accessions?|genbank|refseq|taxid)\b/.exec(p.residue) : null;
  if (record) return `the ${record[0]} asked (its classification does not give it)`;
  if (p.taxa.length > 0 && !TAXON_INTENTS.has(p.intent)) return `what is asked about "${p.taxa[0]!.text}"`;
  // "before 2023", "after MSL30": a span of releases, which these answers do not read
  const span = /\b(before|after|prior to|until|till|up to)\s+(?:the\s+)?§rel/.exec(p.residue);
  if (span && !['compare_releases', 'fastest_growing', 'count_taxon', 'family_evolution', 'milestones'].includes(p.intent)) return `"${span[1]}" a release (I answer about a release, not the releases ${span[1]} it)`;
  // "Which is older, MSL30 or MSL31?": the order of two releases, not the changes between them
  if (p.intent === 'compare_releases' && /\b(?:older|oldest|newer|newest|earlier|came first|more recent)\b/.test(p.residue) && !/\b(?:species|genera|famil\w*|orders|taxa|more|fewer)\b/.test(p.residue)) return 'which of the two releases came first (MSL numbers run in order of publication)';
  // "What changed in Coronaviridae in MSL39?": a family's changes in one release, which its history over all releases is not
  if (p.intent === 'family_evolution' && p.releases.length === 1 && !p.form.span) return `the change in ${p.releases[0]!.version} alone (I tell a family's history over all releases)`;
  // "How many releases listed the family Siphoviridae?", "for how many years": a span of releases, not a count in one
  if (p.intent === 'count_taxon' && /\bhow many (?:releases|years|msls|lists|versions|editions)\b|\bhow long\b/.test(p.residue)) return 'the number of releases or years asked (I count the taxa in a release)';
  // "How many segments does influenza A virus have?": the VMR's genome records hold no count of segments
  if (/\bsegments\b|\bhow many (?:genome )?segments?\b/.test(p.residue) && ['genome', 'count_taxon', 'count_release', 'classification'].includes(p.intent)) return 'the number of genome segments (the genome records here hold no count of segments)';
  // "How many variants of SARS-CoV-2 are there?": a count asked of a species, which its classification does not hold
  if (p.intent === 'classification' && p.species.length > 0 && /\bhow many\b/.test(p.residue)) return '"how many" of a virus (I count the taxa of a release or a taxon, not kinds of one virus)';
  // "How many genera did Flaviviridae have when it was created?": a count in a release the words name by an event
  if (/\bwhen\b/.test(p.residue) && p.releases.length === 0 && (p.intent === 'count_taxon' || p.intent === 'count_release')) return '"when" (the release is named by an event; I count in a release named as such)';
  // "How many species did Flaviviridae lose in MSL41?": a change in a taxon, which its count in the release is not
  if (p.intent === 'count_taxon' && p.change !== null && p.releases.length <= 1) return `the ${p.change} taxa asked (a taxon's count in a release is not its change)`;
  // "Has the family of hepatitis C virus changed since 2020?": a place or a count in one release says nothing of
  // the releases since
  if (/\bsince\s+(?:the\s+)?§rel/.test(p.residue) && ['classification', 'genome', 'hosts', 'count_release'].includes(p.intent)) return '"since" a release (I answer about a release, not the releases since it)';
  // "which families did Picornavirales gain in 2019": a change in a release is not answered with a classification
  if (p.intent === 'classification' && p.change && p.releases.length > 0) return `the ${p.change} taxa asked in ${p.releases[0]!.version}`;
  // the comparison of two releases (answers/changes.ts) is of species: other ranks are relations read whole, or not understood
  if (p.intent === 'compare_releases' && p.targetRank && p.targetRank !== 'species') return `the ${p.targetRank} changes asked between two releases`;
  // the change counts of a release are of species; a question about other ranks' changes is not answered with them
  if (p.intent === 'release_changes' && p.targetRank && p.targetRank !== 'species') return `the ${p.targetRank} changes asked (release change counts are of species)`;
  const ambiguous = p.releases.find((r) => r.ambiguous);
  if (ambiguous && p.intent !== 'release_info') return `the release: ${ambiguous.note} (ask about ${ambiguous.ambiguous!.join(' or ')})`;
  if (p.releases.length > 1 && !['compare_releases', 'count_taxon', 'family_evolution', 'fastest_growing', 'release_info'].includes(p.intent)) return 'the second release named';
  // "Is Zika virus recognised by WHO?", "Is Zika virus old?": a yes or no asked of a virus that its classification
  // answers only when it asks whether the virus is a species, listed or classified
  if (p.intent === 'classification' && p.form.yesNo && p.species.length === 1 && p.taxa.length === 0 && !SPECIES_YES_NO.test(p.residue.replace(/[?.!]+$/, '').trim())) return `what is asked of "${p.species[0]!.text}"`;
  // "Is Coronaviridae the largest family?", "Is Coronaviridae big?": likewise of a taxon
  if (p.intent === 'classification' && p.form.yesNo && p.taxa.length === 1 && p.species.length === 0 && !TAXON_YES_NO.test(p.residue.replace(/[?.!]+$/, '').trim())) return `what is asked of "${p.taxa[0]!.text}"`;
  return null;
}

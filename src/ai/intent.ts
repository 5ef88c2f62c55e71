// The ordered rules that choose what a question asks, from what the parser found in it (releases, names, groups,
// hosts, genome types, a change, ranks) and the words left around it (the residue, where every name is a
// placeholder: §sp a species, §tx a taxon, §rel a release, §grp a word that names no taxon) and its form. First the
// relations read whole (a type species, a yes or no, two items compared, a count between two releases, which taxa a
// release changed), then the intents of one thing asked. Each rule sets the intent an answer reports and the
// reading (relation) that answers it; nothing here looks anything up.
import { RANKS, type Rank } from '../read/lineages.js';
import type { Intent, Parsed, Reading } from './parse.js';
import { changeWords, firstRank, NET_CHANGE } from './vocabulary.js';

const has = (re: RegExp, s: string) => re.test(s);

const KW = {
  help: /^(?:help|hi|hello|hey|examples?|what can (?:you|i) (?:do|ask)\b.*|how (?:do|does) (?:this|it) work.*|what (?:questions|kinds? of questions) .*)$/,
  compare: /\b(?:compar\w*|differen\w*|differ|versus|vs\.?|between|against|relative to)\b/,
  changed: /\b(?:chang\w*|happen\w*|new in|what'?s new|news|updates?|differen\w*)\b/,
  count: /\b(?:how many|number of|count(?:s|ed)?|total|how much|tally|how big|size of)\b/,
  largest: /\b(?:(?:what|which) (?:are|were) the (?!(?:[a-z]+ )?(?:changes?|differences?|updates?|news|highlights)\b)[a-z]+|list (?:the |all )?(?!of\b|in\b|from\b|for\b)[a-z]+|name the [a-z]+|largest|biggest|most (?:species|genera|families|orders|diverse|speciose|members|taxa)|(?:highest|greatest|largest) number of (?:species|genera|families|orders)|richest|top(?: \d+)?|leading|the most\b.*\bspecies|more species than any)\b/,
  growth: /\b(?:fastest|grew|grow\w*|growth|gained the most|added the most|increas\w*|expan\w*)\b/,
  stability: /\b(?:stab\w*|churn\w*|volatil\w*|unstable|turbulent|turnover)\b/,
  evolution: /\b(?:evol\w*|over time|through time|over the years|across releases|history|historic\w*|chang\w*|develop\w*|trajectory|timeline|story)\b/,
  milestone: /\b(?:milestones?|major events?|key events?|turning points?|landmarks?|big(?:gest)? changes in the history|timeline of (?:the )?(?:ictv|taxonomy|viral taxonomy))\b/,
  realmIntro: /\bfirst realms?\b(?! ?§)|\brealms?\b.*\b(?:introduc|first|creat|establish|appear|began|start|added)\w*|\b(?:introduc|first|creat|establish|appear|began|start|added)\w*\b.*\brealms?\b/,
  rankIntro: /\b(?:introduc|first|creat|establish|appear|began|start|added)\w*\b/,
  currentName: /\b(?:current(?:ly)?|now|new|latest|today|present|present-day|modern|updated|up-to-date|contemporary|accepted|official|valid|proper|correct|binomial)\b[^?]*\bnames?\b|\bnames? (?:that |which )?replac\w*|\b(?:known as|named|go(?:es)? by) (?:\w+ )?(?:now|today|nowadays|these days|currently|§rel)(?!\w)|\bwhat (?:is|are) (?:it|they) (?:called )?(?:now|today|nowadays|these days|currently)\b|\bcalled (?:now|today|nowadays|currently)\b|\bnames? (?:now|today|nowadays)\b|\b(?:now|currently) (?:called|known|named)\b|\brenamed (?:to|as|into)\b|\bwhat (?:is|was) (?:\S+ )?renamed\b|\bwhat(?: is| are|'s) .*\b(?:called|known as)\b|\b(?:by|under) (?:what|which) (?:species )?name\b|\b(?:what|which) (?:species )?name\b.*(?:\b(?:now|today|nowadays|these days|currently)\b|§rel(?!\w))|\bstill called\b/,
  formerNames: /\bchang\w* (?:its |their |the )?names?\b|\b(?:was|were)\b[^?]*\b(?:called|named|known as)\b[^?]*\b(?:before|previously|formerly|originally|earlier|once|first|in the past)\b|\bcalled before\b|\b(?:former(?:ly)?|previous(?:ly)?|old(?:er)?|earlier|past|prior|original(?:ly)?|other|alternative|historic(?:al)?)\b[^?]*\bnames?\b|\bnames?\b[^?]*\b(?:before|over time|history|used|had|carried|changed)\b|\bsynonyms?\b|\bformerly\b|\bused to be (?:called|named|known)\b|\b(?:was|were) (?:once |previously )?(?:called|named|known as)\b|\brenam\w*|\bhow many names\b|\bnames? (?:did|has|have)\b|\bwhen did .* (?:get|receive) (?:its|a) (?:new |current )?name\b/,
  history: /\b(?:which|what) (?:release|msl|version|year)\b[^?]*\b(?:first|last)\b|\b(?:first|last|earliest|latest|initially)\b[^?]*§rel|\b(?:first|last|earliest|latest|initially)\b[^?]*\b(?:appear\w*|listed|list|recogni[sz]ed|releases?|msl|seen|included|added|introduced|classified|described|ratified)\b|\b(?:appear\w*|introduc\w*|added|ratified)\b|\bhistory\b|\bstill\b|\b(?:abolish\w*|merg\w*|split\w*|remov\w*|exist\w*|delet\w*|when|since|valid|disappear\w*|fate|happened|end(?:ed)?|obsolete|gone|lifespan|span)\b/,
  genome: /\bgenom\w*|\b(?:dna|rna|nucleic|segment\w*|kb|bp|base pairs?|nucleotides?|length|how long|how big|size|strand\w*|sense|baltimore)\b/,
  host: /\bhosts?\b|\b(?:infect\w*|hosted|reservoir|vectors?|attack\w*|affect\w*|pathogens? of|found in|isolated from|liv(?:e|es|ed|ing)|parasit\w*)\b/,
  releaseInfo: /\b(?:releas\w*|versions?|msls?|editions?)\b/,
  when: /\b(?:when|what year|which year|date|dated|published)\b/,
  threshold: /\b(?:more than|over|exceed\w*|pass\w*|surpass\w*|reach\w*|above|cross\w*|hit|top(?:ped)?)\b/,
};


/** A rank asked by a question word ("what family is ... in?", "which genus"). */
const WHICH_RANK = /\b(?:what|which) (?:realm|kingdom|phylum|class|order|family|subfamily|genus|subgenus)\b/;
/** Taxa changed, as a count of changes asks it ("how many species changed", "how many changes"). */
const CHANGES = /\b(?:chang\w*|modif\w*|alter\w*|affected|differences)\b(?! (?:(?:their|its) )?(?:hosts?|genomes?)\b)/;
/** Something asked of two releases beside when they were published: their sizes or changes. */
const ASKED_OF_RELEASES = /\b(?:species|genera|genus|famil\w*|orders?|taxa|number|count|chang\w*|gr[eo]w\w*|differ\w*)\b/;
/** The size of a release, as a count of changes does not ask it. */
const SIZE_WORDS = /\b(?:more|fewer|less|gr[eo]w\w*|increas\w*|decreas\w*|shr[iu]nk\w*|bigger|larger|smaller)\b/;

/** The ranks a comparison of two taxa counts. */
export const COUNTABLE: Rank[] = ['species', 'genus', 'family', 'order'];

/** The intent each reading reports. */
const REPORTED: Partial<Record<Reading, Intent>> = {
  year_counts: 'count_release', releases_of_year: 'release_info', releases_in_years: 'release_info', years_between: 'release_info',
  release_is_year: 'release_info', taxa_of_release: 'release_info', rank_is: 'classification', taxon_threshold: 'count_taxon', member_of: 'same_taxon',
  has_host: 'hosts', taxon_former_names: 'taxon_history', taxon_in_taxon: 'same_taxon', same_rank_taxon: 'same_taxon', changes_summed: 'release_changes', taxon_became: 'taxon_history', species_moved: 'species_history', taxon_genome_type: 'genome_type', name_in_release: 'current_name', still_named: 'current_name', listed_in: 'species_history',
  two_taxa: 'compare_taxa', two_taxa_between: 'compare_taxa', two_taxa_first: 'compare_taxa', between_releases: 'compare_releases',
  taxa_changed_between: 'which_changed', every_rank_changed: 'which_changed', which_changed_within: 'which_changed',
  span_unread: 'which_changed', compare_rank_unread: 'compare_taxa', changes_or_unread: 'compare_releases',
  change_unread: 'which_changed', within_rank_unread: 'which_changed',
};

/** Sets what the question asks: its reading, the intent it reports, and the rank and release a reading needs. */
/** A fall of a taxon's size ("which family lost the most species"), ranked by fastest_growing. */
const LOST = /\b(?:lost|lose|loses|losing|shr[ai]nk\w*|declin\w*|decreas\w*|dropped)\b/;

export function chooseIntent(p: Parsed, latestMsl: number): void {
  const relation = p.groupWords.length > 0 ? 'not_a_taxon' : p.yearSpan ? 'releases_in_years'
    : (p.unknownNames.length === 0 ? relationOf(p, latestMsl) : null) ?? intentOf(p, latestMsl);
  p.relation = relation;
  p.intent = REPORTED[relation] ?? (relation as Intent);
  // a group word asked of a species: its membership, in the group's own terms
  if (relation === 'member_of' && p.taxa[0]?.group) p.intent = 'group_membership';
}

/**
 * The relations read whole, in order; null when the question is none of them. A relation recognised without a
 * part of it gets a reading ending in "_unread", whose answer names the part.
 */
function relationOf(p: Parsed, latestMsl: number): Reading | null {
  const f = p.form;
  const r = p.residue;
  const species = p.species.length, taxa = p.taxa.length, rels = p.releases.length;
  const distinct = rels === 2 && p.releases[0]!.msl !== p.releases[1]!.msl;
  const set = (reading: Reading, rank: Rank | null = null): Reading => {
    p.relationRank = rank;
    return reading;
  };

  // (whether a question asks yes or no is read last in each rule: it takes more reading than the rest, and most
  // questions never need it)
  if (f.typeSpecies) return 'type_species';
  // a year of several releases: its releases, or each one's counts when they are asked together ("both 2018
  // releases"); anything else asked of the year is asked back (query.ts)
  const twoInYear = rels === 1 ? p.releases[0]!.ambiguous : undefined;
  if (twoInYear && species === 0 && taxa <= 1 && f.yearCounting && f.yearTogether && p.change === null) {
    const rank = p.countedRank ?? p.rankWord;
    if (rank && (taxa === 0 || COUNTABLE.includes(rank))) return set('year_counts', rank);
  }
  if (twoInYear && species === 0 && taxa === 0 && f.aboutReleases) return 'releases_of_year';
  // "Was MSL34 released in 2018?": whether the release is one of that year's (answers/releases.ts releaseIsYear)
  if (rels === 2 && species === 0 && taxa === 0 && f.yesNo && f.releasedIn && !has(ASKED_OF_RELEASES, r) && !p.releases[0]!.ambiguous && p.releases[1]!.ambiguous) return 'release_is_year';
  if (p.releases.some((x) => x.ambiguous)) return null;
  // "since 2019", "after MSL30": a span of releases, which none of these relations reads as its one release
  // "Has the order Caudovirales been abolished since 2019?": the taxon's history, yes or no, the span read there
  if (f.span && rels === 1 && species === 0 && taxa === 1 && (p.change === 'abolished' || p.change === 'renamed') && !p.taxa[0]!.group && f.yesNo) return 'taxon_history';
  if (rels === 1 && species === 0 && (p.change !== null || taxa === 2) && f.span) return 'span_unread';
  if (rels === 2 && species === 0 && taxa === 0 && f.years) return 'years_between';
  // (not "did the number of species change between MSL30 and MSL31?": something asked of the two releases)
  if (rels === 2 && species === 0 && taxa === 0 && f.yesNo && f.releasedIn && !has(ASKED_OF_RELEASES, r)) return 'release_is_year';
  // "is MSL40 the latest release?", "was MSL1 the first list?": whether the two names are of one release
  if (rels === 2 && species === 0 && taxa === 0 && f.yesNo && /^(?:is|was) §rel (?:the )?§rel(?: (?:release|list|one|msl|version|edition))?\W*$/.test(r.trim())) return 'release_is_year';
  // "Are there more than 10,000 species in MSL38?": the release's count against the number, yes or no
  if (rels === 1 && species === 0 && taxa === 0 && p.change === null && f.more && f.yesNo) return 'count_release';
  if (species === 2 && f.yesNo && f.sameOrBoth && p.rankWord) return set('same_taxon', p.rankWord);
  // "Are polio and rhinovirus in the same genus?", "Are poxviruses and adenoviruses in the same realm?": a virus or
  // taxon beside a taxon, each placed at the rank asked (not whether one is within the other)
  if (species + taxa === 2 && taxa >= 1 && rels === 0 && f.yesNo && /\bsame\b/.test(r) && p.rankWord) return set('same_rank_taxon', p.rankWord);
  if (taxa === 1 && species === 0 && rels <= 1 && f.yesNo) {
    const isA = new RegExp(`§tx (?:still )?(?:an? |the )?(${RANKS.join('|')})\\b`).exec(r);
    // ("Is Poxviridae a family of RNA viruses?" asks more than the rank: what the family holds)
    const more = isA ? r.slice(isA.index + isA[0].length).replace(/\b(?:or (?:an? )?[a-z]+|now|today|still|§rel|in §rel|right|correct|true)\b/g, '').replace(/[\s?.!,]+/g, '') : '';
    if (isA && !f.still && more === '') return set('rank_is', isA[1] as Rank);
    if (f.more) return 'taxon_threshold';
  }
  if (species === 1 && taxa === 0 && (p.genomeTypes.length > 0 || f.nucleicVirus) && f.yesNo && !f.or) return 'genome_type';
  // "Is a coronavirus a positive-strand RNA virus?": the genomes of the taxon's species
  if (species === 0 && taxa === 1 && p.genomeTypes.length > 0 && f.yesNo && !f.or) return 'taxon_genome_type';
  if (species === 1 && taxa === 1 && rels <= 1 && f.yesNo && (f.member || p.taxa[0]!.group)) return 'member_of';
  // "Is the 1971 species Langat virus a flavivirus today?": the earlier release says where the name was used, the
  // question is asked of today's
  // ("in both 1990 and 2025", "in 1990 and in 2025": asked of each release, which this reading does not do)
  if (species === 1 && taxa === 1 && rels === 2 && f.yesNo && (f.member || p.taxa[0]!.group) && !/\bboth\b|§rel,? (?:and|&|or) (?:in )?§rel/.test(r)) {
    const now = p.releases.findIndex((x, k) => /^(?:right now|now|today|currently|nowadays)$/.test(x.text) || (x.msl === latestMsl && p.releases[1 - k]!.msl !== latestMsl));
    if (now >= 0 && p.releases[1 - now]!.msl !== latestMsl) {
      p.nameRelease = p.releases[1 - now]!;
      p.releases = [p.releases[now]!];
      return 'member_of';
    }
  }
  // "Which genus is West Nile virus in now, still Flavivirus?": the taxon now, and whether it is still the one named
  if (species === 1 && taxa === 1 && rels <= 1 && f.still && (p.askedRank !== null || f.which) && p.askedRank === (p.taxa[0]!.rank as Rank)) return 'member_of';
  if (species === 1 && taxa === 0 && p.hosts.length > 0 && rels <= 1 && f.yesNo) return 'has_host';
  if (taxa === 1 && species === 0 && rels <= 1 && f.stillInUse) return 'still_in_use';
  if (taxa === 1 && species === 0 && f.formerName) return 'taxon_former_names';
  // "was the order Caudovirales abolished?", "has the genus Flavivirus been renamed?": its history, yes or no
  if (taxa === 1 && species === 0 && rels === 0 && (p.change === 'abolished' || p.change === 'renamed') && !p.taxa[0]!.group && f.yesNo) return 'taxon_history';
  // "what was the genus Orthoflavivirus called in 2015?": a taxon asked its name in a release before it was listed by it
  if (taxa === 1 && species === 0 && rels === 1 && f.naming && p.releases[0]!.msl < p.taxa[0]!.entry.first_msl) return 'taxon_former_names';
  // "the species listed in 1995 as X, called today": the release the name was used in, and today's name
  // (or the latest release named as such, "MSL41", "the latest release", beside an earlier one)
  const today = rels === 2 ? p.releases.findIndex((x, k) => /^(?:right now|now|today|currently|nowadays)$/.test(x.text) || (x.msl === latestMsl && p.releases[1 - k]!.msl !== latestMsl)) : -1;
  if (species === 1 && taxa === 0 && today >= 0 && p.releases[1 - today]!.msl !== latestMsl && f.naming && !f.higherRankWord) {
    // "what was the name in 2005 of the species now called X": "now" says who X is; the name asked is 2005's
    if (/\bwhat (?:was|were)\b/.test(p.normalised) && /\b(?:now|currently|today) (?:called|named|known)\b/.test(p.normalised)) {
      p.releases.splice(today, 1);
      return 'name_in_release';
    }
    p.nameRelease = p.releases[1 - today]!;
    return 'current_name';
  }
  if (species === 1 && taxa === 0 && rels === 1 && p.releases[0]!.msl !== latestMsl && f.naming && !f.higherRankWord && f.span !== 'since') {
    // "the current name of the species listed in 1971 as X": today's name, the release saying where the name was used
    if (f.now) {
      p.nameRelease = p.releases[0]!;
      return 'current_name';
    }
    return 'name_in_release';
  }
  if (species === 1 && taxa === 0 && rels === 0 && f.still && /\b(?:names?|called|species|valid|used)\b/.test(r) && f.yesNo) return 'still_named';
  // "Was Zika virus listed in 1990?", "Did the species X exist in MSL10?": whether the name denotes a species in that release
  if (species === 1 && taxa === 0 && rels === 1 && !f.still && /\b(?:exist\w*|listed|includ\w*|contain\w*|present|recogni[sz]ed|in the list)\b|\bin (?:the )?§rel(?!\w)|§rel (?:list|have|has)\b/.test(r) && /^(?:was|were|did|is|does)\b/.test(r)
    && p.hosts.length === 0 && p.genomeTypes.length === 0 && p.change === null && f.yesNo) return 'listed_in';
  // "when was the genus Flavivirus renamed Orthoflavivirus?": the history of the first, what it became
  if (taxa === 2 && species === 0 && /\b(?:bec[oa]me|turn(?:ed|s)? into|renamed (?:to|into|as)|replaced by)\b/.test(r)) return 'taxon_became';
  // "into which family did the genus Pestivirus go when it left Flaviviridae": the lower taxon's fate (the other is
  // the taxon it left or entered)
  if (taxa === 2 && species === 0 && p.change === 'reclassified' && /\b(?:when|which|what|where)\b/.test(r)) {
    p.taxa.sort((a, b) => RANKS.indexOf(b.rank as Rank) - RANKS.indexOf(a.rank as Rank));
    return 'taxon_became';
  }
  // "when was hepatitis C virus moved, and into which family?": the releases that moved it, from its lineage
  // ("in which release did West Nile virus move to Orthoflavivirus?": moves of the rank of the taxon named; "has West
  // Nile virus changed genus?": whether it was moved, yes or no)
  // (not "was Zika virus reclassified?", which says no rank: its genus was renamed, its family never changed)
  const movedRank = p.askedRank ?? p.rankWord ?? (p.taxa[0]?.rank as Rank | undefined) ?? null;
  if (species === 1 && taxa <= 1 && rels === 0 && p.change === 'reclassified' && (/\b(?:when|which|what|where)\b/.test(r) || (f.yesNo && movedRank))) {
    return set('species_moved', movedRank ?? 'family');
  }
  // "Is rotavirus a reovirus?", "Is Norovirus in the family Caliciviridae?": one taxon within the other
  if (taxa === 2 && species === 0 && rels <= 1 && f.yesNo && (p.taxa[1]!.group || (f.member && !f.comparing && !f.howMany))) return 'taxon_in_taxon';
  if (taxa === 2 && species === 0 && distinct && (f.comparing || f.counting || f.gainOrLoss)) {
    const rank = p.countedRank ?? 'species';
    return set(COUNTABLE.includes(rank) ? 'two_taxa_between' : 'compare_rank_unread', rank);
  }
  // "which came first, Flaviviridae or Togaviridae?": the release each was first listed in, not their sizes
  if (taxa === 2 && species === 0 && rels === 0 && !f.howMany && /\b(?:came first|first|earlier|earliest|older|oldest|newer|newest|younger|youngest|more recent|later)\b/.test(r)
    && !/\b(?:species|genera|families|members|more|fewer|bigger|larger|smaller)\b/.test(r)) return 'two_taxa_first';
  if (taxa === 2 && species === 0 && rels <= 1 && (f.comparing || f.howMany)) {
    const rank = p.countedRank ?? 'species';
    return set(COUNTABLE.includes(rank) ? 'two_taxa' : 'compare_rank_unread', rank);
  }
  // "were more species added in 2020 or 2021": each release's own change, not the step between them
  // ("how many species were added in MSL40 and MSL41": each release's change too, not the step between them)
  // "how many species in total were new in 2024 and 2025?": each release's own change, summed
  // ("how many species were added in MSL40 and MSL41?": each and the sum, which answers either reading)
  if (distinct && species === 0 && taxa === 0 && f.changeAsked && p.change !== null && !f.or && !f.than && (p.rankWord ?? 'species') === 'species'
    && (f.sum || (f.howMany && /\bin (?:both )?§rel,? (?:and|&) (?:in )?§rel\b/.test(r)))) return 'changes_summed';
  // ("how many more new species were in MSL39 than in MSL40": each release's own change too)
  if (distinct && species === 0 && taxa === 0 && f.changeAsked && (f.or || /\bin (?:both )?§rel,? (?:and|&) (?:in )?§rel\b/.test(r) || (f.than && /\b(?:more|fewer|less)\b/.test(r)))) return 'changes_or_unread';
  // "which family grew the most between ...": a ranking of taxa (fastest_growing), not two totals
  if (distinct && species === 0 && taxa <= 1 && (f.counting || f.changeAsked) && !(f.ranking && taxa === 0)) {
    const rank = p.countedRank ?? p.rankWord ?? 'species';
    // "how many species changed between MSL40 and MSL41?", "what are the differences between ...": the changes
    // from one to the other (compare_releases, which gives the two totals too), not only the totals
    const changes = taxa === 0 && has(CHANGES, r) && !has(SIZE_WORDS, r);
    if (!f.changeAsked && !changes && (taxa === 0 || COUNTABLE.includes(rank))) return set('between_releases', rank);
    // ("how many families changed": which change is not said; "the net change in genera", "genera in 1999b against
    // 2002a, and the change" are their totals)
    if (changes && rank !== 'species' && /\b(?:changed|modified|altered|affected)\b/.test(r) && !/\b(?:net|number|counts?|totals?|size|were there|are there|there (?:were|are))\b/.test(r)) return set('change_unread', rank);
    if (!f.changeAsked && (taxa === 0 || COUNTABLE.includes(rank)) && rank !== 'species') return set('between_releases', rank);
    // "orders added between two releases": the taxa of that rank, never the species changes
    if (f.changeAsked && taxa === 0 && rank !== 'species' && p.change) return set('taxa_changed_between', rank);
    if (f.changeAsked && rank !== 'species') return set('change_unread', rank);
  }
  const change = p.change;
  // "which species were merged in MSL41", "how many species were split in 2025": a merge or split is told by its species
  // ("how many taxa were renamed in MSL39": the taxa of every rank, counted by rank)
  const listing = () => f.which || /\b(?:genera|families|orders|realms|subfamilies|classes|phyla|kingdoms|suborders|subgenera|taxa)\b/.test(r)
    || change === 'merged' || change === 'split';
  // ("which family gained the most species in MSL39", "lost the most" ranks the families by growth or by loss:
  // no list of new or abolished ones)
  if (rels === 1 && species === 0 && taxa === 0 && change && listing() && !(f.ranking && /\b(?:gain\w*|gr[eo]w\w*|lost|los[ei]\w*)\b/.test(r))
    && (!f.howMany || change === 'merged' || change === 'split' || (p.rankWord !== null && p.rankWord !== 'species') || (p.rankWord === null && /\btaxa\b/.test(r)))) {
    if (!p.rankWord) return change === 'added' || change === 'abolished' || change === 'renamed' ? 'every_rank_changed' : set('which_changed', 'species');
    return set('which_changed', p.rankWord);
  }
  // "which families existed in 1971", "what genera did the 1971 list have": the taxa of a rank in a release, named
  if (rels === 1 && species === 0 && taxa === 0 && !change && f.which && !f.howMany && !f.ranking && p.rankWord && p.rankWord !== 'species'
    && /\b(?:in|exist\w*|did|have|had|has|were there|listed|recogni[sz]ed)\b/.test(r) && !/\b(?:largest|biggest|smallest|most|top|fastest)\b/.test(r)
    && !NET_CHANGE.test(r)) return set('taxa_of_release', p.rankWord);
  // "which genera were added to Flaviviridae in 2022": one release's changes under one taxon
  // (not "what did 2022 rename the genus Ebolavirus to": the taxon is what changed, its history)
  if (rels === 1 && species === 0 && taxa === 1 && change && f.which && !/\b(?:renam|abolish|mov|merg|split|promot|demot)\w*\s+(?:the\s+)?(?:[a-z]+\s+)?§tx\b|§tx\s+(?:was\s+|get\s+|got\s+)?(?:renam|abolish|mov|merg|split|promot|demot)/.test(r)) {
    // the rank asked, not the one naming the taxon ("in the family Coronaviridae")
    const rank = firstRank(r.replace(/\b[a-z]+\s+§tx/g, ' ').replace(/§\w+/g, ' '));
    return rank && RANKS.indexOf(rank) > RANKS.indexOf(p.taxa[0]!.rank as Rank) ? set('which_changed_within', rank) : 'within_rank_unread';
  }
  // ("did MSL41 add more species than MSL40": each release's additions, not the two totals)
  if (rels === 2 && f.than && f.yesNo) return f.changeAsked ? 'changes_or_unread' : set('between_releases', p.rankWord ?? 'species');
  return null;
}

/** The intent of a question asking one thing, by the ordered rules. */
function intentOf(p: Parsed, latestMsl: number): Intent {
  const r = p.residue;
  const species = p.species.length > 0;
  const taxon = p.taxa.length > 0;
  if (has(KW.help, r.replace(/[\s?.!]+$/, '')) && !species && !taxon) return 'help';

  if (!species && !taxon) {
    // "how many species changed family in MSL41?": moves are counted out of a genus (ICTV's tallies and the
    // lineages alike), never by the higher rank a species left, so such a count is not answered with another
    // (nor a change of host or genome, which no release records)
    // ("how many species had no family", "how many families had only one species": no read model counts these)
    if (/\b(?:no|without(?: an?)?|unassigned to(?: an?)?|not assigned to(?: an?)?)\s+(?:realm|kingdom|phylum|class|order|family|genus)\b|\bunassigned\b|\bonly (?:one|a single|1) species\b|\bsingle species\b|\bmonotypic\b/.test(r)) return 'unknown';
    if ((p.form.howMany || p.form.which) && /\b(?:chang|switch)\w* (?:their |its |the )?(?:famil\w*|orders?|class\w*|realms?|phyl\w*|kingdoms?|hosts?|genomes?)\b/.test(r)) return 'unknown';
    if (p.releases.length >= 2 && (has(KW.compare, r) || has(KW.changed, r) || /\bfrom §rel to §rel\b/.test(r))) {
      return (has(KW.growth, r) || (LOST.test(r) && /\bmost\b/.test(r))) && (p.targetRank ?? 'species') !== 'species' ? 'fastest_growing' : 'compare_releases';
    }
    if (has(KW.milestone, r) || (has(KW.realmIntro, r) && !has(KW.count, r))) return 'milestones';
    // "when did the number of species pass 10,000?": a threshold crossed, not a count
    // (a rank's smaller totals too: "when did the number of families pass 100?")
    const rankThreshold = p.targetRank !== null && p.targetRank !== 'species' && p.releases.length === 0 ? 10 : 1000;
    // ("top 10 genera": a ranking of ten, not a total that topped 10)
    const topN = /\btop \d+ (?:[a-z]+ )?(?:species|genera|famil(?:y|ies)|orders?|realms?|class(?:es)?|subfamil(?:y|ies))\b/.test(r);
    if (p.threshold !== null && p.threshold >= rankThreshold && has(KW.threshold, r) && !topN && (!has(KW.count, r) || /\b(?:when|which|what|first)\b/.test(r))) return 'milestones';
    // "when was the rank class first used": a rank word with an introduction verb and no release
    const whichRelease = /\b(?:which|what) (?:release|version|msl|year)\b/.test(r);
    if (p.targetRank && p.targetRank !== 'species' && has(KW.rankIntro, r) && (has(KW.when, r) || whichRelease) && p.releases.length === 0) return 'milestones';
    // "how many orders did the first release with orders have": the release that introduced the rank, not the latest
    if (p.targetRank && p.targetRank !== 'species' && p.releases.length === 0 && /\b(?:first|earliest|oldest)\s+(?:release|version|msl|list)\s+(?:to|that|which|with|where)\b/.test(r)) return 'milestones';
    // "which was the first order recognised": the first taxa of a rank, named
    if (p.targetRank && p.targetRank !== 'species' && /\b(?:first|earliest|oldest)\b/.test(r) && /\b(?:which|what|name)\b/.test(r) && p.releases.length === 0 && !has(KW.count, r)) return 'milestones';
    // "which release had 1906 species?"
    if (whichRelease && p.threshold !== null && p.threshold >= 1000) return 'milestones';
    // (the release that abolished, merged, split or moved the most is no milestone these answers hold)
    if (/\b(?:which|what) (?:release|version|msl|year)\b.*\b(?:most|largest|biggest|fewest)\b/.test(r) && (p.change === null || p.change === 'added' || p.change === 'renamed')) return 'milestones';
    // ("when were the most species abolished?": the release of most of a change, which no milestone holds, not the
    // largest taxa)
    if (/^(?:when|in which|which|what)\b.*\bmost\b/.test(r) && p.change !== null && p.change !== 'added' && p.change !== 'renamed' && p.releases.length === 0
      && !/\b(?:famil\w*|genus|genera|orders?|class\w*|realms?|phyl\w*|kingdoms?)\b/.test(r)) return 'unknown';
    // "how many species were in the smallest release?": the release is picked by its size, not the latest
    if (p.releases.length === 0 && /\b(?:smallest|largest|biggest|fewest)\s+(?:release|version|msl|list|edition)\b/.test(r)) return 'milestones';
  }
  if (species) {
    // "What family is TMV in, and what genome does it have?", "HBV family and genome": two things asked, of which
    // any one reading answers one: not understood, rather than half answered
    if (/\b(?:famil\w*|genus|genera|order|realm|classif\w*)\b.*\band\b.*\b(?:genom\w*|renam\w*|called|named|hosts?|infect\w*)\b|\b(?:genom\w*|hosts?)\b.*\band\b.*\b(?:what|which) (?:famil\w*|genus|order|realm)\b/.test(r)) return 'unknown';
    // ("how long has Zika virus been a species?" asks for how many releases, not its genome's length)
    const howLongSince = /\bhow long (?:has|have|had|did|was|were)\b/.test(r) && !/\bgenom/.test(r);
    // "how long was Hepatitis C virus called Hepacivirus C?": the names with the releases of each
    if (howLongSince && /\b(?:called|named|known as)\b/.test(r)) return 'former_names';
    if ((has(KW.genome, r) || p.genomeTypes.length > 0) && !has(/\b(?:families|genera)\b/, r) && !howLongSince) return 'genome';
    if (has(KW.host, r)) return 'hosts';
    const pastRelease = p.releases.some((x) => x.msl !== latestMsl);
    // "when did X get its new name" asks when it was renamed, not what it is called
    // ("what year did Measles virus become Measles morbillivirus?", "since when has it been called X?": the same)
    if (/\b(?:when|what year|which year|(?:what|which) (?:release|msl|version))\b/.test(r) && (has(KW.formerNames, r) || /\bbec[oa]me\b|\b(?:called|named|known as)\b/.test(r))) return 'former_names';
    // "what was the first name of the species now called X": its names before, the first of them
    if (p.form.formerName && !pastRelease) return 'former_names';
    if (!pastRelease && has(KW.currentName, r) && !/\b(?:former|previous|old|earlier|other|before|originally|first)\b/.test(r)) return 'current_name';
    if (has(KW.formerNames, r) && !(pastRelease && /\bcalled\b/.test(r) && !/\b(?:former|previous|old|other)\b/.test(r))) return 'former_names';
    if (has(KW.history, r) && !(pastRelease && has(/\b(?:famil\w*|genus|genera|order|realm|classif\w*|belong\w*)\b/, r))) return 'species_history';
    // "how long has Zika virus been a species?": its history
    if (howLongSince) return 'species_history';
    return 'classification';
  }
  // "which families are retroviruses (ssRNA-RT)?": the common name describes the genomes asked about
  // (not "what family is human adenovirus in?", where the host word qualifies the group word: its classification)
  const qualified = /\b(?:human|bat|bovine|porcine|swine|avian|bird|murine|mouse|feline|cat|canine|dog|simian|monkey|equine|horse|ovine|sheep|caprine|goat|fish|insect|mosquito|tick|plant|bacterial|fungal|archaeal) §tx\b/.test(r) && WHICH_RANK.test(r);
  if (taxon && p.taxa[0]!.common && p.targetRank === 'family' && !species && !qualified) {
    if (p.genomeTypes.length > 0) return 'families_by_genome';
    if (p.hosts.length > 0) return 'families_by_host';
  }
  if (taxon) {
    const t = p.taxa[0]!;
    if (has(KW.stability, r)) return 'family_stability';
    // ("What family is human adenovirus in?": a host word qualifying the group word, where a rank is asked)
    // ("What species is human norovirus?", "How long is the genome of human norovirus?": the host word qualifies
    // the group, and the question asks something else of it)
    if (has(KW.host, r) || (p.hosts.length > 0 && !has(KW.count, r) && !WHICH_RANK.test(r) && !has(KW.genome, r) && !/\bwhat (?:species|kind of virus|type of virus)\b/.test(r))) return 'hosts';
    if (has(KW.genome, r) && !has(KW.count, r)) return 'genome';
    // "which genera are in Coronaviridae?", "what species does Betacoronavirus contain?": the taxa under it, listed
    // (not a change: "which genera left Flaviviridae in MSL41")
    if (p.targetRank && RANKS.indexOf(p.targetRank) > RANKS.indexOf(t.rank as Rank) && !has(KW.count, r) && p.form.which && !p.form.yesNo && p.change === null
      && !/\b(?:left|leave|leaving|join\w*|enter\w*|exit\w*|went|gone)\b/.test(r)
      && /\b(?:in|under|within|of|contain\w*|includ\w*|compris\w*|make up|members?)\b/.test(r)) return 'largest_taxa';
    if (has(KW.largest, r) && p.targetRank && p.targetRank !== t.rank) return 'largest_taxa';
    if (has(KW.growth, r) && !has(KW.count, r)) return t.rank === 'family' ? 'family_evolution' : 'taxon_history';
    if (has(KW.count, r)) return 'count_taxon';
    // "how did Flaviviridae change between 2010 and 2020": its size in each
    if (p.releases.length >= 2 && (has(KW.evolution, r) || has(KW.growth, r) || has(KW.compare, r))) return 'count_taxon';
    if (has(changeWords('abolished'), r) || has(changeWords('merged'), r) || has(changeWords('split'), r) || has(KW.rankIntro, r)
      || /\b(?:when|what year|which year|(?:what|which) (?:release|msl|version)|renam\w*|happened|fate|end(?:ed)?|gone|where did (?:the )?(?:[a-z]+ )?§tx go|what became of|dissol\w*|still|exist\w*|abolition|demise|bec[oa]me|turned into|replaced|successor)\b|\bcalled (?:§rel|now|today|nowadays)|\b(?:current|new|present|latest) name\b|\bname (?:§rel|now|today)/.test(r)) {
      return t.rank === 'family' && has(/\b(?:evol\w*|over time|history|histor\w*)\b/, r) ? 'family_evolution' : 'taxon_history';
    }
    if (has(KW.evolution, r)) return t.rank === 'family' ? 'family_evolution' : 'taxon_history';
    return 'classification';
  }
  // "which family gained the most species": growth, not size
  if (has(KW.growth, r) && /\b(?:gain\w*|gr[eo]w\w*|increas\w*)\b/.test(r) && /\b(?:most|fastest)\b/.test(r)) return 'fastest_growing';
  // "which family lost the most species": the largest falls, by the same counts
  if (LOST.test(r) && /\bmost\b/.test(r) && p.targetRank !== 'species') return 'fastest_growing';
  // "which virus has the largest genome?": a size of genomes or particles, which no ranking of taxa by their
  // members answers
  if (/\b(?:largest|biggest|longest|smallest|shortest)\s+(?:\w+\s+)?(?:genomes?|particles?|virions?|capsids?)\b/.test(r)) return 'unknown';
  // "which is the largest family of dsDNA viruses?": the families of those genomes (or hosts), largest first; a
  // ranking of all families would drop what the question narrows them to
  if (has(KW.largest, r) && (p.targetRank === null || p.targetRank === 'family')) {
    if (p.genomeTypes.length > 0) return 'families_by_genome';
    if (p.hosts.length > 0) return 'families_by_host';
  }
  // ("which virus has the largest genome": the size of genomes, which no ranking here reads)
  if (has(KW.largest, r) && !has(/\b(?:releases?|versions?|msls?|years?|editions?)\b/, r) && !has(KW.genome, r)) return 'largest_taxa';
  if (has(KW.growth, r) && (p.targetRank !== null && p.targetRank !== 'species' || has(/\b(?:fastest|most)\b/, r))) return 'fastest_growing';
  if (has(KW.stability, r)) return 'family_stability';
  // host and genome questions without a name are about the families of the latest release
  const aboutFamilies = p.targetRank === null || p.targetRank === 'family' || p.targetRank === 'species';
  // ("Do phages infect humans?", "Can plant viruses infect humans?": a yes or no of two hosts, which a list of the
  // families of either does not answer)
  if (p.hosts.length > 1 && p.form.yesNo) return 'unknown';
  if (p.hosts.length > 0 && aboutFamilies) return 'families_by_host';
  if (p.genomeTypes.length > 0 && aboutFamilies) return 'families_by_genome';
  if (p.unknownNames.length > 0) return 'unknown';
  if (p.badReleases.length > 0) return 'unknown';
  if (p.releases.length >= 2 && /\b(?:more|fewer|less|than|differ\w*|grew|increase\w*)\b/.test(r) && (p.targetRank ?? 'species') === 'species') return 'compare_releases';
  if (has(KW.count, r) && p.change && p.releases.length <= 1 && (p.targetRank ?? 'species') === 'species') return 'release_changes';
  // "by how much did the number of species grow in MSL41": the release's change, not its total ("the net change
  // in genera": the genera of the release before and of this one, count_release)
  if (p.releases.length === 1 && /\b(?:grow|grew|growth|increas\w*|rise|rose|net change|go up|went up|by how much)\b/.test(r)) return (p.targetRank ?? 'species') === 'species' ? 'release_changes' : 'count_release';
  // "how many species did MSL37 add over MSL36": the changes between the two
  if (p.releases.length === 2 && p.change && (p.targetRank ?? 'species') === 'species') return 'compare_releases';
  if (has(KW.count, r) && /\b(?:releases|versions|msls|editions)\b/.test(r)) return 'release_info';
  // "how many taxa changed in MSL41?": the release's changes, not its size
  // ("how many genera changed": release_changes counts species, and says so)
  if (has(KW.count, r) && p.releases.length === 1 && has(CHANGES, r) && !has(SIZE_WORDS, r)) return 'release_changes';
  if (has(KW.count, r) && (p.targetRank !== null || p.releases.length > 0)) return 'count_release';
  if (p.releases.length === 1 && (has(KW.changed, r) || p.change !== null)) return 'release_changes';
  if (p.releases.length >= 2) return 'compare_releases';
  if (has(KW.releaseInfo, r) || (p.releases.length === 1 && has(KW.when, r))) return 'release_info';
  // a release named and nothing else asked of it: "What is the latest release?", "Tell me about MSL36"
  if (p.releases.length === 1 && p.unknownNames.length === 0) return 'release_info';
  return 'unknown';
}

// The controlled vocabularies a user's words are mapped onto: ICTV genome compositions (the MSL column), VMR host
// sources and genome lengths, the changes a release makes and the ranks. Shared by the question parser
// (parse.ts: "which families infect archaea?", "how many species were abolished") and the classifier's metadata
// (classify.ts: {genome_type: "positive-sense RNA", host: "mosquito", genome_size: "11 kb"}). Each table maps
// phrasings to the values the data uses; nothing here is a fact about a taxon.
import type { Rank } from '../read/lineages.js';
import { anyOf, matches } from './matches.js';

/** The genome compositions of the MSL's "Genome Composition" column (src.vocab_molecule abbreviations). */
export const COMPOSITIONS = [
  'dsDNA', 'ssDNA', 'ssDNA(+)', 'ssDNA(-)', 'ssDNA(+/-)', 'dsDNA; ssDNA', 'dsRNA', 'ssRNA', 'ssRNA(+)', 'ssRNA(-)',
  'ssRNA(+/-)', 'ssRNA-RT', 'dsDNA-RT',
] as const;

/** What each composition means, as src.vocab_molecule names it (used in answers). */
export const COMPOSITION_NAMES: Record<string, string> = {
  dsDNA: 'double-stranded DNA', ssDNA: 'single-stranded DNA', 'ssDNA(+)': 'positive-sense single-stranded DNA',
  'ssDNA(-)': 'negative-sense single-stranded DNA', 'ssDNA(+/-)': 'ambisense single-stranded DNA',
  'dsDNA; ssDNA': 'DNA, double-stranded in some taxa and single-stranded in others', dsRNA: 'double-stranded RNA',
  ssRNA: 'single-stranded RNA', 'ssRNA(+)': 'positive-sense single-stranded RNA',
  'ssRNA(-)': 'negative-sense single-stranded RNA', 'ssRNA(+/-)': 'ambisense single-stranded RNA',
  'ssRNA-RT': 'single-stranded RNA replicating through a DNA intermediate',
  'dsDNA-RT': 'double-stranded DNA replicating through an RNA intermediate',
};

// Phrasings, most specific first: the first pattern that matches a stretch of text claims it, so "ssRNA(+)" is
// never read as "ssRNA" too. Input is lower-case with runs of spaces collapsed.
// (the bare signs are matched only next to "ss": "single-stranded" must not read as "-stranded", i.e. negative)
const SENSE_POS = String.raw`(?:positive|plus)[\s-]*(?:sense|strand(?:ed)?|polarity)?`;
const SENSE_NEG = String.raw`(?:negative|minus)[\s-]*(?:sense|strand(?:ed)?|polarity)?`;
const SS = String.raw`(?:ss|single[\s-]*strand(?:ed)?)`;
const DS = String.raw`(?:ds|double[\s-]*strand(?:ed)?)`;
const GENOME_PATTERNS: Array<[RegExp, string[]]> = [
  [new RegExp(String.raw`\bds\s*dna\s*[-\s]?\s*rt\b|\bpararetro\w*|\b${DS}\s*dna\b[^.?!]*\breverse[\s-]*transcri\w*`, 'g'), ['dsDNA-RT']],
  [new RegExp(String.raw`\bss\s*rna\s*[-\s]?\s*rt\b|\bretrovir\w*|\b${SS}\s*rna\b[^.?!]*\breverse[\s-]*transcri\w*|\breverse[\s-]*transcrib\w*\s+rna`, 'g'), ['ssRNA-RT']],
  [/\bdsdna\s*;\s*ssdna\b/g, ['dsDNA; ssDNA']],
  [new RegExp(String.raw`\bss\s*dna\s*\(\s*\+\s*/\s*-\s*\)|\bambi[\s-]*sense\s+(?:${SS}\s*)?dna\b`, 'g'), ['ssDNA(+/-)']],
  [new RegExp(String.raw`\bss\s*rna\s*\(\s*\+\s*/\s*-\s*\)|\bambi[\s-]*sense\s+(?:${SS}\s*)?rna\b`, 'g'), ['ssRNA(+/-)']],
  [new RegExp(String.raw`\bss\s*dna\s*\(\s*\+\s*\)|\(\s*\+\s*\)\s*ss\s*dna\b|\+\s*ss\s*dna\b|\b${SENSE_POS}\s+(?:${SS}\s*)?dna\b`, 'g'), ['ssDNA(+)']],
  [new RegExp(String.raw`\bss\s*dna\s*\(\s*[-−]\s*\)|\(\s*[-−]\s*\)\s*ss\s*dna\b|\b${SENSE_NEG}\s+(?:${SS}\s*)?dna\b`, 'g'), ['ssDNA(-)']],
  [new RegExp(String.raw`\bss\s*rna\s*\(\s*\+\s*\)|\(\s*\+\s*\)\s*ss\s*rna\b|\+\s*ss\s*rna\b|\bss\s*\+\s*rna\b|\b${SENSE_POS}\s+(?:${SS}\s*)?rna\b|\b(?:${SS}\s*)?rna\s*\+`, 'g'), ['ssRNA(+)']],
  [new RegExp(String.raw`\bss\s*rna\s*\(\s*[-−]\s*\)|\(\s*[-−]\s*\)\s*ss\s*rna\b|(?:^|\s)[-−]\s*ss\s*rna\b|\b${SENSE_NEG}\s+(?:${SS}\s*)?rna\b`, 'g'), ['ssRNA(-)']],
  [new RegExp(String.raw`\b${DS}[\s-]*dna\b`, 'g'), ['dsDNA']],
  [new RegExp(String.raw`\b${DS}[\s-]*rna\b`, 'g'), ['dsRNA']],
  // an unspecified single strand means any of its senses
  [new RegExp(String.raw`\b${SS}[\s-]*dna\b`, 'g'), ['ssDNA', 'ssDNA(+)', 'ssDNA(-)', 'ssDNA(+/-)']],
  [new RegExp(String.raw`\b${SS}[\s-]*rna\b`, 'g'), ['ssRNA', 'ssRNA(+)', 'ssRNA(-)', 'ssRNA(+/-)']],
  [/\bviroids?\b/g, ['ssRNA']],
  // "DNA virus", "RNA genome": any composition of that nucleic acid
  [/\bdna\b/g, ['dsDNA', 'ssDNA', 'ssDNA(+)', 'ssDNA(-)', 'ssDNA(+/-)', 'dsDNA; ssDNA', 'dsDNA-RT']],
  [/\brna\b/g, ['dsRNA', 'ssRNA', 'ssRNA(+)', 'ssRNA(-)', 'ssRNA(+/-)', 'ssRNA-RT']],
];
const ANY_GENOME = anyOf(GENOME_PATTERNS.map(([re]) => re));

export interface VocabularyMatch {
  values: string[];
  /** The text matched, for entities and for masking it from later parsing. */
  text: string;
  index: number;
}

// all of a list's patterns tested at once first (anyOf): most questions name no host or genome type, and then
// the patterns are not run one by one
function findAll(text: string, patterns: Array<[RegExp, string[]]>, any: RegExp): VocabularyMatch[] {
  if (!any.test(text)) return [];
  const taken: Array<[number, number]> = [];
  const out: VocabularyMatch[] = [];
  for (const [re, values] of patterns) {
    for (const m of matches(re, text)) {
      const start = m.index, end = m.index + m[0].length;
      if (taken.some(([a, b]) => start < b && end > a)) continue;
      taken.push([start, end]);
      out.push({ values, text: m[0].trim(), index: start });
    }
  }
  return out.sort((a, b) => a.index - b.index);
}

/** Genome compositions named in a lower-case text ("positive-sense RNA", "ssRNA(+)", "dsDNA"). */
export function findGenomeTypes(text: string): VocabularyMatch[] {
  return findAll(text, GENOME_PATTERNS, ANY_GENOME);
}

/** A genome_type value given on its own (classifier metadata): the compositions it means, or [] if none. */
export function parseGenomeType(raw: string): string[] {
  const exact = COMPOSITIONS.find((c) => c.toLowerCase() === raw.trim().toLowerCase());
  if (exact) return [exact];
  return [...new Set(findGenomeTypes(raw.toLowerCase().replace(/\s+/g, ' ')).flatMap((m) => m.values))];
}

/**
 * The VMR's host source categories (src.vocab_host_source without the "(S)" marker, split at commas), with the
 * words people use for them. Environmental sources (soil, marine, ...) are where a sequence was found.
 */
export const HOST_CATEGORIES = [
  'archaea', 'bacteria', 'algae', 'fungi', 'oomycetes', 'plants', 'protists', 'invertebrates', 'vertebrates',
  'soil', 'marine', 'freshwater', 'sewage', 'air', 'phytobiome',
] as const;

const HOST_PATTERNS: Array<[RegExp, string[]]> = [
  [/\bprokaryot\w*/g, ['bacteria', 'archaea']],
  [/\barchae\w*/g, ['archaea']],
  [/\b(?:bacteri\w*|(?:bacterio)?phages?|prophages?|escherichia|e\.\s*coli|salmonella|streptococc\w*|staphylococc\w*|mycobacteri\w*|pseudomonas|bacillus|cyanobacteri\w*|vibrio|klebsiella|enterobacter\w*)\b/g, ['bacteria']],
  [/\b(?:oomycetes?|water moulds?|water molds?|phytophthora)\b/g, ['oomycetes']],
  [/\b(?:fung(?:i|us|al)|yeasts?|mushrooms?|moulds?|molds?|mycovirus(?:es)?)\b/g, ['fungi']],
  [/\b(?:alga[el]?|seaweeds?|diatoms?)\b/g, ['algae']],
  [/\b(?:protists?|protozoa\w*|amoeba\w*|acanthamoeba|ciliates?|flagellates?|trypanosom\w*|plasmodium)\b/g, ['protists']],
  [/\b(?:plants?|crops?|trees?|vegetables?|fruits?|cereals?|grass(?:es)?|flowers?|angiosperms?|rice|wheat|maize|corn|tomato(?:es)?|potato(?:es)?|tobacco|cassava|citrus|grapevines?|beans?)\b/g, ['plants']],
  [/\b(?:invertebrates?|insects?|arthropods?|mosquito(?:e?s)?|ticks?|mites?|flies|fly|bees?|moths?|butterfl\w*|lepidoptera\w*|beetles?|aphids?|crustaceans?|shrimps?|crabs?|molluscs?|mollusks?|oysters?|snails?|nematodes?|worms?|spiders?)\b/g, ['invertebrates']],
  [/\b(?:vertebrates?|mammals?|mammalian|humans?|people|man|primates?|monkeys?|apes?|bats?|rodents?|mice|mouse|rats?|pigs?|swine|cattle|cows?|sheep|goats?|horses?|dogs?|cats?|birds?|avian|poultry|chickens?|ducks?|fish(?:es)?|reptiles?|snakes?|amphibians?|frogs?)\b/g, ['vertebrates']],
  [/\banimals?\b/g, ['vertebrates', 'invertebrates']],
  [/\bsoil\b/g, ['soil']],
  [/\b(?:marine|seawater|sea|ocean\w*)\b/g, ['marine']],
  [/\b(?:freshwater|lakes?|rivers?|ponds?)\b/g, ['freshwater']],
  [/\b(?:sewage|wastewater)\b/g, ['sewage']],
  [/\bphytobiome\b/g, ['phytobiome']],
];
const ANY_HOST = anyOf(HOST_PATTERNS.map(([re]) => re));

/** Host categories named in a lower-case text. */
export function findHosts(text: string): VocabularyMatch[] {
  return findAll(text, HOST_PATTERNS, ANY_HOST);
}

/** A host value given on its own (classifier metadata): its categories, or [] if none is recognised. */
export function parseHost(raw: string): string[] {
  return [...new Set(findHosts(raw.toLowerCase()).flatMap((m) => m.values))];
}

/**
 * The hosts a virus's abbreviation is qualified by ("human RSV", "bovine RSV"): the letter virologists put before
 * the abbreviation for it (HRSV, BRSV) and the stems of the species names that hold it (Orthopneumovirus hominis,
 * Cytomegalovirus humanbeta5).
 */
export const QUALIFIERS = new Map<string, { letter: string; stems: RegExp }>([
  ['human', { letter: 'H', stems: /hum|homin/i }], ['bovine', { letter: 'B', stems: /bov/i }],
  ['porcine', { letter: 'P', stems: /porc|sui/i }], ['avian', { letter: 'A', stems: /avi|gall/i }],
  ['murine', { letter: 'M', stems: /mur|mus\b/i }], ['feline', { letter: 'F', stems: /feli/i }],
  ['canine', { letter: 'C', stems: /can/i }], ['simian', { letter: 'S', stems: /simi/i }],
  ['equine', { letter: 'E', stems: /equ/i }], ['ovine', { letter: 'O', stems: /ovi/i }],
]);

const UNIT: Record<string, number> = { bp: 1, b: 1, nt: 1, kb: 1e3, kbp: 1e3, k: 1e3, mb: 1e6, mbp: 1e6, m: 1e6 };

/** A genome length as text ("48.5 kb", "48500", "48,500 bp", "1.2 Mb") in base pairs, or null if unreadable. */
export function parseGenomeSize(raw: string): number | null {
  const m = /^\s*(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*(bp|b|nt|kbp|kb|k|mbp|mb|m)?\s*$/i.exec(raw);
  if (!m) return null;
  const value = Number(m[1]!.replaceAll(',', '')) * UNIT[(m[2] ?? 'bp').toLowerCase()]!;
  // a genome is longer than the smallest viroid (~250 nt) and shorter than any giant virus' 10 Mb
  return value >= 100 && value <= 1e7 ? Math.round(value) : null;
}

/** 48500 -> "48.5 kb", as species_genome writes lengths. */
export function formatGenomeSize(bp: number): string {
  if (bp >= 1e6) return `${(bp / 1e6).toFixed(2).replace(/\.?0+$/, '')} Mb`;
  if (bp >= 1e3) return `${(bp / 1e3).toFixed(1).replace(/\.0$/, '')} kb`;
  return `${bp} bp`;
}

/** The changes a release makes to a taxon, as questions ask for them. */
export type ChangeKind = 'added' | 'abolished' | 'renamed' | 'reclassified' | 'merged' | 'split' | 'promoted' | 'demoted';

/** The change of a total between a release and the one before: "the net change in genera", "how much did it grow". */
export const NET_CHANGE = /\b(?:net|grow|grew|growth|increas\w*|decreas\w*|rise|rose|go up|went up|by how much)\b/;

/**
 * The words of each change, in the order they are tried: the first that matches names the change asked
 * ("new names" is a rename, not an addition; "moved ... merged" a merge).
 */
export const CHANGE_WORDS: ReadonlyArray<[ChangeKind, RegExp]> = [
  ['promoted', /\b(?:promot\w*|elevat\w*|rais\w* to)\b/],
  ['demoted', /\bdemot\w*/],
  // ("changed name", "names changed", "got new names")
  ['renamed', /\b(?:renam\w*|name changes?|new (?:binomial |official |scientific |latin |two-part |formal |current )?names?|chang\w* (?:their |its |the )?names?|names? (?:were |was |have |has |had )?chang\w*)\b/],
  ['merged', /\b(?:merg\w*|lumped)/],
  ['split', /\bsplit\w*/],
  // ("changed genus", "switched genus": a change of the taxon above, not of the name; a species' move is a move
  // out of its genus)
  ['reclassified', /\b(?:reclassif\w*|mov(?:e|ed|es)|relocat\w*|reassign\w*|transferr\w*|(?:chang\w*|switch\w*) (?:their |its |the )?(?:genus|genera))\b/],
  ['abolished', /\b(?:abolish\w*|remov\w*|delet\w*|dropp\w*|discontinu\w*|eliminat\w*|retir\w*|disappear\w*|lost|lose|withdrawn|got the chop|went extinct|no longer exist\w*)\b/],
  // ("recognised" alone is not new: "how many species were recognised in MSL35" counts them all; "newly
  // recognised" is new by its first word)
  // ("first listed in 1971": new there, as a taxon first listed in a release is)
  ['added', /\b(?:add\w*|new(?:ly)?|creat\w*|introduc\w*|establish\w*|describ\w*|ratified|appear\w*|gain\w*|debut\w*|for the first time|first (?:listed|recogni[sz]ed|included|named|classified|accepted))\b/],
];
const ANY_CHANGE = anyOf(CHANGE_WORDS.map(([, re]) => re));
const NEW_WITH_SPLITS = /\b(?:new(?:ly)?|add\w*|creat\w*)\b[^?]*\b(?:including|incl\.?|with|and|or|plus|counting)\s+(?:the\s+|those\s+(?:from|by)\s+|new\s+)?splits?\b|\bsplits? included\b/;

/** The change a lower-case text asks about, or null. */
export function changeIn(text: string): ChangeKind | null {
  if (!ANY_CHANGE.test(text)) return null;
  // "new species, including splits", "new or split": the new ones, which ICTV counts with its new splits beside
  if (NEW_WITH_SPLITS.test(text)) return 'added';
  for (const [kind, re] of CHANGE_WORDS) if (re.test(text)) return kind;
  return null;
}

/** The pattern of one change's words. */
export const changeWords = (kind: ChangeKind): RegExp => CHANGE_WORDS.find(([k]) => k === kind)![1];

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

/** The first rank word of a lower-case text. */
export function firstRank(text: string): Rank | null {
  for (const word of text.split(/[^a-z]+/)) {
    const rank = RANK_WORDS.get(word);
    if (rank) return rank;
  }
  return null;
}

/** The words of the ranks counted in comparisons, plural. */
const COUNTED = /\b(?:more|fewer|less|many|number of|most|by|count of)\s+(?:\w+\s+)?(species|genera|families|orders)\b/;

/** The rank a comparison counts: "more species", "number of genera", "by species", a plural rank word; null else. */
export function countedRank(text: string): Rank | null {
  const m = COUNTED.exec(text) ?? /\b(species|genera|families|orders)\b/.exec(text);
  return m ? rankOf(m[1]!) : null;
}

/** "ssRNA(+)", "dsDNA or ssDNA", "ssRNA (any sense)", "RNA (any kind)": the genome types asked, as an answer names them. */
export function genomeLabel(types: readonly string[]): string {
  if (types.length <= 3) return types.join(' or ');
  // ("single-stranded RNA" is ssRNA of every sense, not RNA of any kind)
  const stems = new Set(types.map((t) => t.replace(/\(.*$/, '')));
  if (stems.size === 1) return `${[...stems][0]} (any sense)`;
  return `${types.every((t) => t.includes('RNA')) ? 'RNA' : types.every((t) => t.includes('DNA')) ? 'DNA' : types[0]!.replace(/\(.*$/, '')} (any kind)`;
}

/**
 * British spellings of the words of virus names, and the American ones ICTV's lists use ("Crimean-Congo
 * haemorrhagic fever virus" is listed as "... hemorrhagic ..."), on the normal form of a name (lower case, letters
 * and digits only). Tried only for a run of words that matched no name as written.
 */
const BRITISH: ReadonlyArray<[RegExp, string]> = [
  [/haem/g, 'hem'], [/tumour/g, 'tumor'], [/leukaem/g, 'leukem'], [/anaem/g, 'anem'], [/diarrhoe/g, 'diarrhe'],
  [/oedem/g, 'edem'], [/oesophag/g, 'esophag'], [/faec/g, 'fec'], [/colour/g, 'color'],
];
const BRITISH_ANY = /haem|tumour|leukaem|anaem|diarrhoe|oedem|oesophag|faec|colour/;

/** The American spelling of a name's normal form, or null when it has no British spelling. */
export function americanSpelling(norm: string): string | null {
  if (!BRITISH_ANY.test(norm)) return null;
  let out = norm;
  for (const [re, to] of BRITISH) out = out.replace(re, to);
  return out;
}

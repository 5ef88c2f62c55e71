// What /ai/query does not answer, said before anything is looked up: questions outside taxonomy and its history
// (virulence, vaccines, epidemiology, treatment, sequences and structures, origins, the future). Such a
// question is declined with a sentence saying what the service answers, never answered with a taxonomy fact
// about the virus it names. Each topic is a pattern over the question's words.
import { anyOf } from './matches.js';
export const SCOPE_SENTENCE = 'This service answers questions about the ICTV virus taxonomy and its history (names, classification, '
  + 'type species, genome composition and hosts as the VMR records them, counts and changes between releases); it cannot answer that.';

const TOPICS: Array<[string, RegExp]> = [
  ['virulence or disease severity', /\b(?:virulen\w*|deadl(?:y|ier|iest)|lethal\w*|fatal\w*|mortality|death\w*|died|dies|die|kill\w*|dangerous|severity|severe (?:is|are)|pathogenicity|symptoms?|clinical|pulmonary|signs? (?:of|and)|long (?:covid|§sp)|post-covid|incubation|sick|illness|disease course|survival rate|is it safe|safe to (?:eat|drink|touch|travel)|organs?|liver|lungs?|damag\w*|how long (?:does|do|will) .* last|(?:side|long[\s-]term|health|adverse|lasting) effects?|effects? (?:of|on) (?:the |a )?(?:§sp|§grp|covid\S*|infection|people|humans|health|body)|linked to|threats?|risks?|harm\w*|go(?:es)? away|worr(?:y|ied)|afraid|scared|costs?|price|most common (?:\w+ )?(?:viruse?s?|cause|infections?|diseases?) (?:in|of|among)|children|kids|bab(?:y|ies)|infants?|elderly|pregnan\w*|who (?:gets|can get|is at risk)|viral loads?|progress\w* to|cirrhosis|cancers?|tumou?rs?|warts?)\b/],
  ['agriculture and the economy', /\b(?:yields?|(?:crop|yield|economic|production) loss\w*|farm(?:s|ers|ing)?|beekeep\w*|apiar\w*|aquacultur\w*|economic\w*|insecticid\w*|pesticid\w*|problems? for)\b/],
  ['epidemiology', /\b(?:seroprevalence|prevalence|incidence|r0|eliminat\w*(?! (?:in|from|by) (?:the )?(?:§rel|list|taxonomy|msl|ictv))|monitor\w*|surveillance|r naught|reproduction number|transmissib\w*|transmit\w*|transmission|contagious|spreads?|spreading|outbreaks?|epidemics?|pandemics?|cases|incidence|prevalence|infected (?:people|patients|persons)|people (?:infected|have)|endemic|eradicat\w*|countr(?:y|ies)|continents?|worldwide|globally|europe|africa|asia|(?:increasing|decreasing|rising|declining) in|pass(?:es|ed|ing)? (?:it |them |\S+ )?on|where (?:is|are|was|were|do|does|did) .*\b(?:found|occur\w*|circulat\w*|common|present)|seasonal\w*|in (?:the )?(?:winter|summer)|coming back|comeback|resurg\w*|re-?emerg\w*|circulat\w*|this (?:year|season|winter))\b|§sp (?:still )?(?:around|present|a (?:problem|threat))(?: (?:today|now|anymore|§rel))?\W*$/],
  ['vaccines and treatment', /\b(?:vaccines?|vaccinat\w*|shots?|jabs?|immuni[sz]\w*|antibod\w*|antibiotics?|protect\w*|treat\w*|cure[sd]?|curabl\w*|drugs?|antivirals?|therap\w*|medicin\w*|remd\w*|paxlovid|prevent\w*|disinfect\w*|saniti[sz]\w*|bleach|hygiene|hand ?wash\w*|(?:face )?masks?|food safety|biocontrol|biotechnolog\w*|quarantin\w*|control(?:led|ling|s)?|avoid\w*|how (?:can|do|should) (?:i|you|we) (?:stop|avoid|keep)|works? against|mechanism of action|[a-z]+vir)\b/],
  ['sequences and structures', /\b(?:sequenced|crispr|haemagglutinins?|hemagglutinins?|neuraminidases?|polymerases?|proteases?|enzymes?|sequences?|sequencing|fasta|gc content|gc-content|primers?|blast|proteins?|structures?|pdb|crystal|codons?|mutations?|mutat\w*|variants? of concern|orfs?|open reading frames?|genes?)\b/],
  ['origins and evolution of a virus in nature', /\b(?:lab leak|come from|came from|jump(?:s|ed|ing)? (?:from|to|into|between)|cross(?:es|ed|ing)? (?:over|into|from) (?:to |into )?(?:humans|people|animals)|species barriers?|host (?:switch|jump)\w*|originat\w*|where did .* (?:come|start)|spill ?over|zoono\w*|origins?|how old|ancient|million years|diverg\w*|ancestors?|ancestral|phylogen\w*|closest relatives?)\b/],
  ['the future', /\b(?:will (?:there|the|ictv|it|they|be)|next (?:release|year|msl|version)|in the future|future|predict\w*|forecast\w*|upcoming|going to (?:be|change|rename)|next (?:winter|summer|season|flu season)|dominat\w*)\b/],
  ['infection in people and animals', /\b(?:(?:genus|genera|species|family|families|strains?|kinds?|types?) of (?:(?:bacteri(?:a|um)|insects?|plants?|animals?)(?! (?:viruses|virus|phages?)\b)|mosquito\w*|ticks?|bats?|birds?|fish|cells?)|reservoirs?|natural hosts?|caught|catch(?:es|ing)? (?:it |them )?from|from (?:rodents|mice|rats|bats|ticks|mosquitoe?s|animals|birds|pigs|dogs|cats)|immune|immunity|evade\w*|people|worldwide|patients?|can (?:humans|people|you|i|we|dogs|cats|pets) (?:get|catch)|(?<!§rel |list |release )carr(?:y|ies|ied)|can (?:\S+ ){1,4}(?:infect|spread to|jump to) (?:a |the )?(?:deer|dogs?|cats?|pets?|pigs?|swine|mice|rats?|horses?|cows?|cattle|sheep|goats?|birds?|chickens?|poultry|mink|ferrets?|monkeys?|apes?|bats?|camels?)\b|carriers?|airborne|aerosols?|at the same time|co-?infect\w*|how (?:do|does|did) (?:you|people|humans) (?:get|catch))\b/],
  ['the biology of the virus', /\b(?:alive|living (?:organisms?|things?|beings?)|life ?forms?|non-?living|pathogenesis|life ?cycles?|lys(?:e|es|ed|is)|cell[- ]to[- ]cell|natural history|host range|caus(?:e|es|ed|ing)|diseases?|virions?|capsids?|envelope[sd]?|receptors?|replicat\w*|bind\w*|(?:get|gets|getting|got|enter\w*|invad\w*|penetrat\w*|travel\w*|reach\w*|spread\w*) (?:in ?to |to )?(?:the |a |an |its |their )?(?:\w+ ){0,2}(?:cells?|brain|nucleus|body|bloodstream|tissues?)|particles?|morpholog\w*|look like|shape|survive|temperature|mutation rate|evolv\w* from|inject\w*|integrat\w*|placenta|latent|latency|dormant|mechanism\w*|hijack\w*|reverse transcription works?|spike protein|immune system|toleran\w*|tolerat\w*|error[\s-]*prone|error rates?|fidelity|(?:which|what) (?:kinds? of |types? of )?(?:\w+ )?cells?|(?:human|host|t|b|immune|nerve|red blood) cells?|cell types?|cells|tissues?|target(?:s|ed|ing)? (?:the )?(?:\w+ )?(?:cells?|tissues?|organs?)|cytopath\w*|live (?:on|outside)|surfaces?|reassort\w*|recombin\w*|(?:still|rapidly|quickly|fast) evolving|evolving (?:quickly|fast|rapidly)|half[\s-]?li(?:fe|ves)|copies of|in (?:the |their )?blood(?!-)|barriers?|alive|living things?|life ?forms?|colou?rs?|how (?:small|tiny)|(?:stable|last\w*|persist\w*) (?:in|on) (?:the )?(?:air|water|environment|surfaces?)|in (?:the )?air\b|do(?:es)? to (?:the |your |our |a )?(?:[a-z]+ )?(?:body|cells?|hosts?|people|humans|plants?|brain|nerves|nervous system|liver|lungs?|heart)|lysis|lysogen\w*|defen[dcs]\w*|resistan\w*|burst size|plaques?|latent period|how (?:does|do) (?!(?:this|it|that|the service|you|i)\b)\S+(?: \S+){0,4} work\b|attach\w* to|find (?:their|its|a) (?:\w+ )?hosts?|lytic (?:cycle|phase|growth|or)|how (?:fast|quickly|rapidly) (?:does|do|did|can|is|are) .*\b(?:evolv\w*|chang\w*|mutat\w*|adapt\w*)|difference between (?:a |an )?(?:virus(?:es)?|bacteri(?:um|a)|prions?|viroids?) and|(?:smallest|largest|biggest) (?:known )?virus(?:es)?(?! (?:famil\w*|genus|genera|orders?|species|taxon|taxa|realms?|classes|class|phyl\w*|genomes?)))\b/],
  // (the size of a virus, not of its genome, which the VMR records)
  ['the size of a virus particle', /\bhow (?:big|large|small) is (?:the |a |an )?(?:§sp|§grp)(?: (?:virus|particle|virion)s?)?\W*$|\b(?:bigger|larger|smaller|heavier|lighter) than (?:a |an |the )?(?:bacteri(?:um|a)|cells?|proteins?|atoms?|molecules?|ribosomes?)\b/],
  ['people and discovery', /\b(?:first (?:detected|identified|described|discovered|reported|found|seen|recorded|cases?)|(?:get|got|gets) (?:its|their) names?|names? (?:come|came|comes) from|emerg(?:e|ed|es|ence)|who (?:discovered|found|named|first)|discover\w*|nobel|scientists?|named after|first isolated|isolated first|where was .* (?:first )?(?:found|isolated|identified)|pronounc\w*|etymolog\w*|why (?:is|was|did|does|do|are|were|can|can't|cannot|don't|doesn't))\b/],
  // below the species: the taxonomy's lowest rank is the species, and the VMR lists one exemplar isolate of each
  ['strains, serotypes and genotypes', /\b(?:strains?|serotypes?|genotypes?|subtypes?|serogroups?|quasispecies|variants?)\b/],
  ['diagnosis and testing', /\b(?:diagnos\w*|pcr test|test(?:ing)? for|detect(?:ed|ion)? in (?:patients|blood)|(?:know|tell) if i (?:have|had|am)|do i have|am i infected|(?:blood )?tests?|detects?)\b/],
];

// every topic's pattern in one: nearly every question matches none, and one pass over it then says so
const ANY_TOPIC = anyOf(TOPICS.map(([, re]) => re));

// The topic of a question's residue, by residue: questions of one shape ("what is §sp called now?") share it,
// and the patterns are the longest the parser runs. Bounded: emptied when it holds TOPICS_HELD questions.
const TOPICS_HELD = 2_000;
const topics = new Map<string, string | null>();

/** The topic outside taxonomy a question asks about, or null when it asks nothing the patterns know. */
export function outOfScope(question: string): string | null {
  let topic = topics.get(question);
  if (topic === undefined) {
    if (topics.size >= TOPICS_HELD) topics.clear();
    topic = topicOf(question.toLowerCase());
    topics.set(question, topic);
  }
  return topic;
}

function topicOf(q: string): string | null {
  if (!ANY_TOPIC.test(q)) return null;
  for (const [topic, re] of TOPICS) if (re.test(q)) return topic;
  return null;
}

// Example questions of POST /ai/query, each with a snippet its answer must contain (GET /ai/examples; the test
// asks every one). The snippets are facts of past releases, which never change, or of names that are stable.
import type { Intent } from './parse.js';

export interface Example {
  question: string;
  intent: Intent;
  expect: string;
}

export const EXAMPLE_QUESTIONS: Example[] = [
  { question: 'What family does Zika virus belong to?', intent: 'classification', expect: 'Flaviviridae' },
  { question: 'How many species were in MSL23?', intent: 'count_release', expect: '1,906' },
  { question: 'When was Caudovirales abolished?', intent: 'taxon_history', expect: 'MSL37' },
  { question: 'What is the current name of Tobacco mosaic virus?', intent: 'current_name', expect: 'Tobamovirus tabaci' },
  { question: 'What kind of genome does SARS-CoV-2 have?', intent: 'genome', expect: 'ssRNA(+)' },
  { question: 'What were the former names of Orthoflavivirus denguei?', intent: 'former_names', expect: 'Dengue virus' },
  { question: 'How many families were there in 2018b?', intent: 'count_release', expect: 'MSL34' },
  { question: 'Compare MSL35 and MSL36', intent: 'compare_releases', expect: '9,110' },
  { question: 'How many species were added in MSL36?', intent: 'release_changes', expect: '2,562' },
  { question: 'When was the first realm introduced?', intent: 'milestones', expect: 'Riboviria' },
  { question: 'Which families infect archaea?', intent: 'families_by_host', expect: 'archaea' },
  { question: 'How stable is the family Coronaviridae?', intent: 'family_stability', expect: 'stability score' },
  { question: 'How has Myoviridae changed over time?', intent: 'family_evolution', expect: 'MSL37' },
  { question: 'What was the largest family in MSL23?', intent: 'largest_taxa', expect: 'Geminiviridae' },
  { question: 'Which realm does TMV belong to?', intent: 'classification', expect: 'Riboviria' },
  { question: 'When was MSL36 released?', intent: 'release_info', expect: '2020' },
];

/** What each intent answers, with phrasings it understands (GET /ai/features). */
export const INTENT_GUIDE: Record<Exclude<Intent, 'unknown'>, { answers: string; phrasings: string[] }> = {
  classification: { answers: 'the full classification of a species (by any name) or a higher taxon, in the latest or a named release', phrasings: ['What family does Zika virus belong to?', 'Classify SARS-CoV-2', 'Which order is Coronaviridae in?', 'What genus was Dengue virus in in MSL30?'] },
  current_name: { answers: "a species' name in the latest release, and when it got it", phrasings: ['What is the current name of Tobacco mosaic virus?', 'What is HIV-1 called now?'] },
  former_names: { answers: 'every name a species had, with the releases it carried each, and when it was renamed', phrasings: ['What were the former names of Tobamovirus tabaci?', 'When was Dengue virus renamed?'] },
  species_history: { answers: 'first and last release of a species, and whether it is current, abolished, merged or split', phrasings: ['When did Zika virus first appear?', 'Is Hepatitis B virus still a species?'] },
  genome: { answers: 'genome composition and exemplar genome length of a species, or the genomes of a family', phrasings: ['What kind of genome does Zika virus have?', 'How long is the genome of TMV?', 'What genome type do Geminiviridae have?'] },
  hosts: { answers: 'host source of a species (VMR exemplar) or the host sources of a family', phrasings: ['What does Zika virus infect?', 'What are the hosts of Coronaviridae?'] },
  count_release: { answers: 'species, genera, families, orders, realms (any rank) in a release', phrasings: ['How many species were in MSL39?', 'Number of families in 2019', 'how many realms are there now'] },
  count_taxon: { answers: 'species, genera, families or orders within a taxon in one or more releases', phrasings: ['How many species does Coronaviridae have?', 'How many genera were in Flaviviridae in 2015?'] },
  release_changes: { answers: 'species added, abolished, renamed, reclassified, merged or split in a release (against the one before)', phrasings: ['How many species were added in MSL39?', 'How many species were renamed in 2021?', "What's new in MSL40?"] },
  compare_releases: { answers: 'what changed between any two releases', phrasings: ['Compare MSL35 and MSL40', 'What changed between 2019 and 2020?'] },
  family_evolution: { answers: "a family's size over time and its major events", phrasings: ['How has Coronaviridae changed over time?', 'Evolution of Siphoviridae'] },
  family_stability: { answers: "a family's stability score against the median family, or the most and least stable families", phrasings: ['How stable is Geminiviridae?', 'Which families are the most stable?'] },
  largest_taxa: { answers: 'the largest families (or genera, orders, ...) of a release, optionally within a taxon', phrasings: ['What is the largest family?', 'Top 10 genera in MSL35', 'Largest genus of Flaviviridae'] },
  fastest_growing: { answers: 'the families (or other ranks) that gained the most species between two releases', phrasings: ['Which families grew fastest?', 'Fastest-growing genera since 2019'] },
  milestones: { answers: 'milestones: first release, first realm, ranks introduced, big abolitions, growth records, species thresholds', phrasings: ['What are the major milestones?', 'When was the first realm introduced?', 'When did the number of species pass 10,000?'] },
  taxon_history: { answers: 'when a higher taxon was used, abolished or renamed', phrasings: ['When was Caudovirales abolished?', 'What happened to Myoviridae?'] },
  families_by_host: { answers: 'families of the latest release with species of a host source', phrasings: ['Which families infect archaea?', 'How many families have plant hosts?'] },
  families_by_genome: { answers: 'families of the latest release with species of a genome composition', phrasings: ['Which families have dsRNA genomes?', 'Which families are negative-sense RNA viruses?'] },
  release_info: { answers: 'a release: its year and size; how many releases there are', phrasings: ['When was MSL36 released?', 'What is the latest release?', 'How many releases are there?'] },
  type_species: { answers: 'the type species of a genus, as the lists that mark type species mark it (MSL23-35)', phrasings: ['What is the type species of the genus Potexvirus?', 'Was Potato virus X the type species of Potexvirus in MSL30?'] },
  same_taxon: { answers: 'yes or no: two species in the same genus, family ...; a species in a taxon', phrasings: ['Are Tobamovirus tabaci and Tobamovirus tomatotessellati in the same genus?', 'Is Zika virus in the family Flaviviridae?'] },
  genome_type: { answers: 'yes or no: a species of a genome type', phrasings: ['Is Zika virus an RNA virus?', 'Is TMV ssRNA(+)?'] },
  still_in_use: { answers: 'yes or no: a taxon still in the latest release, and what became of it if not', phrasings: ['Does Caudovirales still exist?', 'Is Bunyaviridae still a family?'] },
  compare_taxa: { answers: 'two taxa compared in a release, or their changes between two releases, with the arithmetic', phrasings: ['Which has more species, Potyviridae or Geminiviridae?', 'Did Picornaviridae or Caliciviridae gain more species from 2013 to 2022?'] },
  which_changed: { answers: 'which taxa of a rank a release (or a span of two) added, abolished, renamed, merged or split, named', phrasings: ['Which families were abolished in MSL40?', 'List the new realms of MSL36'] },
  group_membership: { answers: 'yes or no: a virus in a group people name in everyday words (coronavirus, flavivirus, herpesvirus ...), read as the taxon the word names (src/ai/group-names.yaml)', phrasings: ['Is SARS-CoV-2 a coronavirus?', 'Is West Nile virus a flavivirus?'] },
  not_a_taxon: { answers: 'a word that names no taxon (arbovirus, oncovirus ...) said to be none, with the classification of the virus asked about', phrasings: ['Is Zika virus an arbovirus?'] },
  help: { answers: 'these example questions', phrasings: ['help', 'What can you do?'] },
};

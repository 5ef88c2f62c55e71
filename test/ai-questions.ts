// The question set of POST /ai/query: questions in varied wording, letter case and punctuation, each with the
// facts its answer must state. Every expectation is a SQL query over the raw source tables (src.species,
// src.taxa, src.isolates, src.releases), never over the main.* read models the endpoint reads, so a mistake in
// a projection or in the answer code shows as a failed question. Every value of every row the SQL returns must
// appear in the response (numbers with or without thousands separators, names in any letter case); literal
// expectations (`text`) are for the honest "I do not know" answers.

export interface QuestionCase {
  question: string;
  /** What kind of question it is (for the report); not checked against the endpoint's intent. */
  kind: string;
  sql?: string;
  text?: string[];
}

const lit = (s: string) => `'${s.replaceAll("'", "''")}'`;

/** The latest release, for the questions that ask about today ("now", "currently", "the latest release"). */
const LATEST = '(SELECT max(msl) FROM src.releases)';
/** The first release, for questions that name no release and span the record ("which families grew fastest"). */
const FIRST = '(SELECT min(msl) FROM src.releases)';
/** A release in an expectation: a number, or LATEST or FIRST. */
type Msl = number | typeof LATEST | typeof FIRST;

/** The latest release's species a VMR virus name or abbreviation belongs to (exemplar or additional isolate). */
const VIRUS_ROW = (name: string) => `
  FROM src.isolates i JOIN src.species s ON s.msl = i.msl AND s.species = i.species
  WHERE i.msl = ${LATEST} AND (list_contains(list_transform(string_split(i.virus_names, ';'), x -> lower(trim(x))), lower(${lit(name)}))
     OR list_contains(list_transform(string_split_regex(coalesce(i.abbreviations, ''), '[;,]'), x -> lower(trim(x))), lower(${lit(name)})))`;

const SQL = {
  species: (msl: Msl) => `SELECT count(*) AS n FROM src.species WHERE msl = ${msl}`,
  rank: (msl: Msl, rank: string) => `SELECT count(DISTINCT name) AS n FROM src.taxa WHERE msl = ${msl} AND rank = '${rank}'`,
  inTaxon: (msl: Msl, rank: string, name: string) => `SELECT count(*) AS n FROM src.species WHERE msl = ${msl} AND "${rank}" = ${lit(name)}`,
  generaIn: (msl: Msl, rank: string, name: string) =>
    `SELECT count(DISTINCT name) AS n FROM src.taxa WHERE msl = ${msl} AND rank = 'genus' AND "${rank}" = ${lit(name)}`,
  // the exemplar's row first: an abbreviation such as SARS-CoV-2 may be on an additional isolate's row only
  virus: (name: string, column: string) => `SELECT s."${column}" AS v ${VIRUS_ROW(name)} ORDER BY i.exemplar = 'E' DESC NULLS LAST LIMIT 1`,
  // the host source is on the exemplar row of the species the name belongs to
  virusHosts: (name: string) => `SELECT DISTINCT trim(replace(h, '(S)', '')) AS host FROM (
    SELECT unnest(string_split(e.host_source, ',')) AS h FROM src.isolates e
    WHERE e.msl = ${LATEST} AND e.exemplar = 'E' AND e.species = (SELECT s.species ${VIRUS_ROW(name)} LIMIT 1))`,
  // an old species name's species in the latest release, by ICTV's stable id (MSL39's file carries no ids, so it is skipped)
  currentName: (old: string) => `SELECT n.species FROM src.species o JOIN src.species n ON n.ictv_id = o.ictv_id AND n.msl = ${LATEST}
    WHERE o.species = ${lit(old)} AND o.ictv_id IS NOT NULL ORDER BY o.msl DESC LIMIT 1`,
  renamedIn: (old: string) => `SELECT 'MSL' || (max(msl) + 1) AS v FROM src.species WHERE species = ${lit(old)}`,
  formerNames: (current: string) => `SELECT DISTINCT o.species FROM src.species n JOIN src.species o ON o.ictv_id = n.ictv_id AND o.species <> n.species
    WHERE n.msl = ${LATEST} AND n.species = ${lit(current)}`,
  nameSpan: (name: string) => `SELECT 'MSL' || min(msl) AS first, 'MSL' || max(msl) AS last FROM src.species WHERE species = ${lit(name)}`,
  // ICTV's own change log: species flagged New in the release they are listed in
  added: (msl: Msl) => `SELECT count(*) AS n FROM src.species WHERE msl = ${msl} AND msl_of_last_change = msl
    AND regexp_matches(last_change, '(^|,)\\s*New\\s*(,|$)')`,
  totals: (a: Msl, b: Msl) => `SELECT (SELECT count(*) FROM src.species WHERE msl = ${a}) AS a, (SELECT count(*) FROM src.species WHERE msl = ${b}) AS b`,
  largest: (msl: Msl, rank: string) => `SELECT "${rank}" AS name, count(*) AS n FROM src.species WHERE msl = ${msl} AND "${rank}" IS NOT NULL
    GROUP BY ALL ORDER BY n DESC, name LIMIT 1`,
  largestIn: (msl: Msl, rank: string, parentRank: string, parent: string) => `SELECT "${rank}" AS name, count(*) AS n FROM src.species
    WHERE msl = ${msl} AND "${parentRank}" = ${lit(parent)} AND "${rank}" IS NOT NULL GROUP BY ALL ORDER BY n DESC, name LIMIT 1`,
  fastest: (a: Msl, b: Msl, rank: string) => `SELECT name FROM (
      SELECT "${rank}" AS name, count(*) FILTER (msl = ${b}) - count(*) FILTER (msl = ${a}) AS gain
      FROM src.species WHERE msl IN (${a}, ${b}) AND "${rank}" IS NOT NULL GROUP BY ALL)
    ORDER BY gain DESC, name LIMIT 1`,
  endedIn: (name: string) => `SELECT 'MSL' || min(msl) AS v FROM src.releases WHERE msl > (SELECT max(msl) FROM src.taxa WHERE name = ${lit(name)})`,
  span: (name: string) => `SELECT 'MSL' || min(msl) AS first, 'MSL' || max(msl) AS last FROM src.taxa WHERE name = ${lit(name)} AND rank <> 'species'`,
  firstRealm: () => `SELECT 'MSL' || msl AS v, name FROM src.taxa WHERE rank = 'realm' AND msl = (SELECT min(msl) FROM src.taxa WHERE rank = 'realm')`,
  rankFirstUsed: (rank: string) => `SELECT 'MSL' || min(msl) AS v FROM src.taxa WHERE rank = '${rank}'`,
  passed: (threshold: number) => `SELECT 'MSL' || min(msl) AS v FROM (SELECT msl, count(*) AS n FROM src.species GROUP BY msl) WHERE n > ${threshold}`,
  largestGrowth: () => `SELECT 'MSL' || msl AS v FROM (SELECT msl, count(*) - lag(count(*)) OVER (ORDER BY msl) AS d FROM src.species GROUP BY msl)
    ORDER BY d DESC NULLS LAST LIMIT 1`,
  familyFirstLast: (name: string) => `WITH f AS (SELECT min(msl) AS a, max(msl) AS b FROM src.taxa WHERE rank = 'family' AND name = ${lit(name)})
    SELECT 'MSL' || f.a AS first, 'MSL' || f.b AS last,
           (SELECT count(*) FROM src.species s WHERE s.msl = f.a AND s.family = ${lit(name)}) AS first_species,
           (SELECT count(*) FROM src.species s WHERE s.msl = f.b AND s.family = ${lit(name)}) AS last_species
    FROM f`,
  hostFamilies: (host: string) => `SELECT count(DISTINCT s.family) AS n FROM src.isolates i JOIN src.species s ON s.msl = i.msl AND s.species = i.species
    WHERE i.msl = ${LATEST} AND i.exemplar = 'E' AND s.family IS NOT NULL
      AND list_contains(list_transform(string_split(i.host_source, ','), h -> trim(replace(h, '(S)', ''))), ${lit(host)})`,
  genomeFamilies: (types: string[]) => `SELECT count(DISTINCT family) AS n FROM src.species
    WHERE msl = ${LATEST} AND family IS NOT NULL AND genome_composition IN (${types.map(lit).join(', ')})`,
  year: (msl: Msl) => `SELECT year FROM src.releases WHERE msl = ${msl}`,
  parent: (name: string, rank: string) => `SELECT "${rank}" AS v FROM src.taxa WHERE msl = ${LATEST} AND name = ${lit(name)} AND rank <> 'species'`,
};

const EXAMPLES_OFFERED = ['I can answer questions such as'];

export const QUESTIONS: QuestionCase[] = [
  // --- species counts of a release, every way a release can be written -------------------------------------
  { kind: 'count_release', question: 'How many species were in MSL23?', sql: SQL.species(23) },
  { kind: 'count_release', question: 'how many species are in msl24', sql: SQL.species(24) },
  { kind: 'count_release', question: 'Number of species in MSL25.', sql: SQL.species(25) },
  { kind: 'count_release', question: 'How many species did release 26 list?', sql: SQL.species(26) },
  { kind: 'count_release', question: 'HOW MANY SPECIES WERE IN MSL27?', sql: SQL.species(27) },
  { kind: 'count_release', question: 'How many species were recognised in 2013?', sql: SQL.species(28) },
  { kind: 'count_release', question: 'Total number of virus species in MSL 29', sql: SQL.species(29) },
  { kind: 'count_release', question: 'species count of msl30?', sql: SQL.species(30) },
  { kind: 'count_release', question: 'How many species in 2016?', sql: SQL.species(31) },
  { kind: 'count_release', question: 'How many species did ICTV recognise in 2017?', sql: SQL.species(32) },
  { kind: 'count_release', question: 'How many species were there in 2018a?', sql: SQL.species(33) },
  { kind: 'count_release', question: 'How many species were there in 2018b', sql: SQL.species(34) },
  { kind: 'count_release', question: 'how many species in 35', sql: SQL.species(35) },
  { kind: 'count_release', question: 'How many virus species were listed in the 2020 release?', sql: SQL.species(36) },
  { kind: 'count_release', question: 'Count the species in MSL-37', sql: SQL.species(37) },
  { kind: 'count_release', question: 'How many species does MSL38 have?', sql: SQL.species(38) },
  { kind: 'count_release', question: 'How many species were in MSL39?', sql: SQL.species(39) },
  { kind: 'count_release', question: 'How many species are there in the latest release?', sql: SQL.species(LATEST) },
  { kind: 'count_release', question: 'How many species exist currently?', sql: SQL.species(LATEST) },
  { kind: 'count_release', question: 'how many species are recognized today??', sql: SQL.species(LATEST) },

  // --- other ranks of a release -----------------------------------------------------------------------------
  { kind: 'count_release', question: 'How many families were there in 2019?', sql: SQL.rank(35, 'family') },
  { kind: 'count_release', question: 'How many genera are in MSL40?', sql: SQL.rank(40, 'genus') },
  { kind: 'count_release', question: 'Number of genera in MSL23', sql: SQL.rank(23, 'genus') },
  { kind: 'count_release', question: 'how many families in msl 30', sql: SQL.rank(30, 'family') },
  { kind: 'count_release', question: 'How many orders did MSL36 have?', sql: SQL.rank(36, 'order') },
  { kind: 'count_release', question: 'How many realms are there now?', sql: SQL.rank(LATEST, 'realm') },
  { kind: 'count_release', question: 'How many realms were in MSL35?', sql: SQL.rank(35, 'realm') },
  { kind: 'count_release', question: 'How many classes are in MSL40?', sql: SQL.rank(40, 'class') },
  { kind: 'count_release', question: 'How many phyla exist in the current taxonomy?', sql: SQL.rank(LATEST, 'phylum') },
  { kind: 'count_release', question: 'How many kingdoms were there in 2020?', sql: SQL.rank(36, 'kingdom') },
  { kind: 'count_release', question: 'How many subfamilies does MSL38 have?', sql: SQL.rank(38, 'subfamily') },
  { kind: 'count_release', question: 'Number of orders in 2005', sql: SQL.rank(23, 'order') },
  { kind: 'count_release', question: 'HOW MANY FAMILIES ARE IN MSL39', sql: SQL.rank(39, 'family') },
  { kind: 'count_release', question: 'how many genera were there in 2021', sql: SQL.rank(37, 'genus') },

  // --- classification of a virus by species name, virus name or abbreviation --------------------------------
  { kind: 'classification', question: 'What family does Zika virus belong to?', sql: SQL.virus('Zika virus', 'family') },
  { kind: 'classification', question: 'what family is SARS-CoV-2 in', sql: SQL.virus('SARS-CoV-2', 'family') },
  { kind: 'classification', question: 'Which genus is TMV in?', sql: SQL.virus('TMV', 'genus') },
  { kind: 'classification', question: 'Classify Ebola virus', sql: SQL.virus('Ebola virus', 'family') },
  { kind: 'classification', question: 'What is the taxonomy of HIV-1?', sql: SQL.virus('HIV-1', 'genus') },
  { kind: 'classification', question: 'Which order does measles virus belong to?', sql: SQL.virus('measles virus', 'order') },
  { kind: 'classification', question: 'what genus is rabies virus', sql: SQL.virus('rabies virus', 'genus') },
  { kind: 'classification', question: 'What is the family of Influenza A virus?', sql: SQL.virus('Influenza A virus', 'family') },
  { kind: 'classification', question: 'Where is West Nile virus classified?', sql: SQL.virus('West Nile virus', 'genus') },
  { kind: 'classification', question: 'What family is yellow fever virus?', sql: SQL.virus('yellow fever virus', 'family') },
  { kind: 'classification', question: 'Which family does variola virus belong to?', sql: SQL.virus('variola virus', 'family') },
  { kind: 'classification', question: 'chikungunya virus classification', sql: SQL.virus('chikungunya virus', 'family') },
  { kind: 'classification', question: 'What genus does MERS-CoV belong to?', sql: SQL.virus('MERS-CoV', 'genus') },
  { kind: 'classification', question: 'What realm is tomato spotted wilt virus in?', sql: SQL.virus('tomato spotted wilt virus', 'realm') },
  { kind: 'classification', question: 'Which family includes cauliflower mosaic virus?', sql: SQL.virus('cauliflower mosaic virus', 'family') },
  { kind: 'classification', question: 'What family is Marburg virus?', sql: SQL.virus('Marburg virus', 'family') },
  { kind: 'classification', question: 'Lassa virus: which genus?', sql: SQL.virus('Lassa virus', 'genus') },
  { kind: 'classification', question: 'What species is ZIKV?', sql: SQL.virus('ZIKV', 'species') },
  { kind: 'classification', question: 'Which species does EBOV belong to?', sql: SQL.virus('EBOV', 'species') },
  { kind: 'classification', question: 'what is the species name of WNV', sql: SQL.virus('WNV', 'species') },
  { kind: 'classification', question: 'What family is Nipah virus in?', sql: SQL.virus('Nipah virus', 'family') },
  { kind: 'classification', question: 'What order is African swine fever virus in?', sql: SQL.virus('African swine fever virus', 'order') },
  { kind: 'classification', question: 'What is the genus of Rift Valley fever virus?', sql: SQL.virus('Rift Valley fever virus', 'genus') },
  { kind: 'classification', question: 'Which family does Escherichia phage T4 belong to?', sql: SQL.virus('Escherichia phage T4', 'family') },
  { kind: 'classification', question: 'What family is PVY in?', sql: SQL.virus('PVY', 'family') },
  { kind: 'classification', question: 'Which family is bluetongue virus in?', sql: SQL.virus('bluetongue virus', 'family') },
  { kind: 'classification', question: 'What family does Epstein-Barr virus belong to?', sql: SQL.virus('Epstein-Barr virus', 'family') },
  { kind: 'classification', question: 'what realm does sars-cov-2 belong to', sql: SQL.virus('SARS-CoV-2', 'realm') },
  { kind: 'classification', question: 'What kingdom is Zika virus in?', sql: SQL.virus('Zika virus', 'kingdom') },
  { kind: 'classification', question: 'What class is rubella virus in?', sql: SQL.virus('rubella virus', 'class') },
  { kind: 'classification', question: 'What order does Coronaviridae belong to?', sql: SQL.parent('Coronaviridae', 'order') },
  { kind: 'classification', question: 'Which realm is Flaviviridae in?', sql: SQL.parent('Flaviviridae', 'realm') },
  { kind: 'classification', question: 'what family is the genus Orthoflavivirus in?', sql: SQL.parent('Orthoflavivirus', 'family') },

  // --- current names of old species names ---------------------------------------------------------------------
  { kind: 'current_name', question: 'What is the current name of Tobacco mosaic virus?', sql: SQL.currentName('Tobacco mosaic virus') },
  { kind: 'current_name', question: 'What is Dengue virus called now?', sql: SQL.currentName('Dengue virus') },
  { kind: 'current_name', question: "What's the new name for Hepatitis B virus?", sql: SQL.currentName('Hepatitis B virus') },
  { kind: 'current_name', question: 'current name of Zika virus', sql: SQL.currentName('Zika virus') },
  { kind: 'current_name', question: 'What is Measles virus called today?', sql: SQL.currentName('Measles virus') },
  { kind: 'current_name', question: 'What is the present name of Rabies virus?', sql: SQL.currentName('Rabies virus') },
  { kind: 'current_name', question: 'Influenza A virus is now known as what?', sql: SQL.currentName('Influenza A virus') },
  { kind: 'current_name', question: 'What is the current species name of Human immunodeficiency virus 1?', sql: SQL.currentName('Human immunodeficiency virus 1') },
  { kind: 'current_name', question: 'what is hepatitis c virus called now', sql: SQL.currentName('Hepatitis C virus') },
  { kind: 'current_name', question: 'What is the accepted name of Yellow fever virus today?', sql: SQL.currentName('Yellow fever virus') },
  { kind: 'current_name', question: 'What is the official name of Potato virus Y now?', sql: SQL.currentName('Potato virus Y') },
  { kind: 'current_name', question: 'What is Enterobacteria phage T4 called now?', sql: SQL.currentName('Enterobacteria phage T4') },
  { kind: 'current_name', question: 'Zaire ebolavirus: current name?', sql: SQL.currentName('Zaire ebolavirus') },
  { kind: 'current_name', question: 'What is the current name of Severe acute respiratory syndrome-related coronavirus?', sql: SQL.currentName('Severe acute respiratory syndrome-related coronavirus') },

  // --- former names and renames -----------------------------------------------------------------------------
  { kind: 'former_names', question: 'When was Tobacco mosaic virus renamed?', sql: SQL.renamedIn('Tobacco mosaic virus') },
  { kind: 'former_names', question: 'When was Dengue virus renamed?', sql: SQL.renamedIn('Dengue virus') },
  { kind: 'former_names', question: 'In which release was Zika virus renamed?', sql: SQL.renamedIn('Zika virus') },
  { kind: 'former_names', question: 'when did measles virus get its new name', sql: SQL.renamedIn('Measles virus') },
  { kind: 'former_names', question: 'What were the former names of Orthoflavivirus denguei?', sql: SQL.formerNames('Orthoflavivirus denguei') },
  { kind: 'former_names', question: 'What was Tobamovirus tabaci called before?', sql: SQL.formerNames('Tobamovirus tabaci') },
  { kind: 'former_names', question: 'previous names of Lyssavirus rabies', sql: SQL.formerNames('Lyssavirus rabies') },
  { kind: 'former_names', question: 'What other names has Morbillivirus hominis had?', sql: SQL.formerNames('Morbillivirus hominis') },
  { kind: 'former_names', question: 'What was Orthohepadnavirus hominoidei formerly called?', sql: SQL.formerNames('Orthohepadnavirus hominoidei') },
  { kind: 'former_names', question: 'Old names of Betacoronavirus pandemicum?', sql: SQL.formerNames('Betacoronavirus pandemicum') },
  { kind: 'former_names', question: 'Which names did Tequatrovirus T4 have in the past?', sql: SQL.formerNames('Tequatrovirus T4') },

  // --- species histories ------------------------------------------------------------------------------------
  { kind: 'species_history', question: 'When did Zika virus first appear?', sql: SQL.nameSpan('Zika virus') },
  { kind: 'species_history', question: 'History of Dengue virus', sql: SQL.nameSpan('Dengue virus') },
  { kind: 'species_history', question: 'Is Hepatitis B virus still a species?', sql: SQL.nameSpan('Hepatitis B virus') },
  { kind: 'species_history', question: 'When was Tobacco mosaic virus first listed?', sql: SQL.nameSpan('Tobacco mosaic virus') },
  { kind: 'species_history', question: 'Since when has Orthoflavivirus zikaense existed?', sql: `SELECT 'MSL' || min(o.msl) AS first FROM src.species n
      JOIN src.species o ON o.ictv_id = n.ictv_id WHERE n.msl = ${LATEST} AND n.species = 'Orthoflavivirus zikaense'` },
  { kind: 'species_history', question: 'When did Enterobacteria phage T4 appear and disappear?', sql: SQL.nameSpan('Enterobacteria phage T4') },
  { kind: 'species_history', question: 'first and last release of Measles virus', sql: SQL.nameSpan('Measles virus') },
  { kind: 'species_history', question: 'When was Escherichia virus T4 in the list?', sql: SQL.nameSpan('Escherichia virus T4') },

  // --- genomes and hosts of a virus -------------------------------------------------------------------------
  { kind: 'genome', question: 'What kind of genome does Zika virus have?', sql: SQL.virus('Zika virus', 'genome_composition') },
  { kind: 'genome', question: 'What type of genome does SARS-CoV-2 have?', sql: SQL.virus('SARS-CoV-2', 'genome_composition') },
  { kind: 'genome', question: 'Is TMV a DNA or RNA virus?', sql: SQL.virus('TMV', 'genome_composition') },
  { kind: 'genome', question: 'genome of Ebola virus', sql: SQL.virus('Ebola virus', 'genome_composition') },
  { kind: 'genome', question: 'What genome type does HIV-1 have?', sql: SQL.virus('HIV-1', 'genome_composition') },
  { kind: 'genome', question: 'What is the genome composition of variola virus?', sql: SQL.virus('variola virus', 'genome_composition') },
  { kind: 'genome', question: 'What nucleic acid does cauliflower mosaic virus have?', sql: SQL.virus('cauliflower mosaic virus', 'genome_composition') },
  { kind: 'genome', question: 'What kind of genome has bluetongue virus?', sql: SQL.virus('bluetongue virus', 'genome_composition') },
  { kind: 'genome', question: 'what genome does rabies virus have', sql: SQL.virus('rabies virus', 'genome_composition') },
  { kind: 'genome', question: 'Genome type of Escherichia phage T4?', sql: SQL.virus('Escherichia phage T4', 'genome_composition') },
  { kind: 'hosts', question: 'What does Zika virus infect?', sql: SQL.virusHosts('Zika virus') },
  { kind: 'hosts', question: 'What is the host of TMV?', sql: SQL.virusHosts('TMV') },
  { kind: 'hosts', question: 'Which hosts does Escherichia phage T4 infect?', sql: SQL.virusHosts('Escherichia phage T4') },
  { kind: 'hosts', question: 'host of Sulfolobus spindle-shaped virus 1', sql: SQL.virusHosts('Sulfolobus spindle-shaped virus 1') },
  { kind: 'hosts', question: 'What does PVY infect?', sql: SQL.virusHosts('PVY') },
  { kind: 'hosts', question: 'What organisms does rabies virus infect?', sql: SQL.virusHosts('rabies virus') },

  // --- counts within a taxon ----------------------------------------------------------------------------------
  { kind: 'count_taxon', question: 'How many species does Coronaviridae have?', sql: SQL.inTaxon(LATEST, 'family', 'Coronaviridae') },
  { kind: 'count_taxon', question: 'How many species were in Coronaviridae in MSL30?', sql: SQL.inTaxon(30, 'family', 'Coronaviridae') },
  { kind: 'count_taxon', question: 'how many species in flaviviridae', sql: SQL.inTaxon(LATEST, 'family', 'Flaviviridae') },
  { kind: 'count_taxon', question: 'Number of species in the family Geminiviridae in 2019', sql: SQL.inTaxon(35, 'family', 'Geminiviridae') },
  { kind: 'count_taxon', question: 'How many species are in the realm Riboviria?', sql: SQL.inTaxon(LATEST, 'realm', 'Riboviria') },
  { kind: 'count_taxon', question: 'How many species did Riboviria have in MSL34?', sql: SQL.inTaxon(34, 'realm', 'Riboviria') },
  { kind: 'count_taxon', question: 'How many species are in Duplodnaviria?', sql: SQL.inTaxon(LATEST, 'realm', 'Duplodnaviria') },
  { kind: 'count_taxon', question: 'How many species are in the genus Begomovirus?', sql: SQL.inTaxon(LATEST, 'genus', 'Begomovirus') },
  { kind: 'count_taxon', question: 'how many species does the order Mononegavirales have in msl 38', sql: SQL.inTaxon(38, 'order', 'Mononegavirales') },
  { kind: 'count_taxon', question: 'How many species were in Siphoviridae in MSL36?', sql: SQL.inTaxon(36, 'family', 'Siphoviridae') },
  { kind: 'count_taxon', question: 'How many species did Caudovirales have in 2020?', sql: SQL.inTaxon(36, 'order', 'Caudovirales') },
  { kind: 'count_taxon', question: 'How many species are in Potyviridae?', sql: SQL.inTaxon(LATEST, 'family', 'Potyviridae') },
  { kind: 'count_taxon', question: 'Species count of Picornaviridae in MSL25', sql: SQL.inTaxon(25, 'family', 'Picornaviridae') },
  { kind: 'count_taxon', question: 'How many species are in the genus Orthoflavivirus?', sql: SQL.inTaxon(LATEST, 'genus', 'Orthoflavivirus') },
  { kind: 'count_taxon', question: 'How many genera does Coronaviridae have?', sql: SQL.generaIn(LATEST, 'family', 'Coronaviridae') },
  { kind: 'count_taxon', question: 'How many genera were in Flaviviridae in 2015?', sql: SQL.generaIn(30, 'family', 'Flaviviridae') },
  { kind: 'count_taxon', question: 'how many genera are in geminiviridae', sql: SQL.generaIn(LATEST, 'family', 'Geminiviridae') },
  { kind: 'count_taxon', question: 'How many genera are in the order Picornavirales?', sql: SQL.generaIn(LATEST, 'order', 'Picornavirales') },
  { kind: 'count_taxon', question: 'How many genera does Riboviria have in MSL40?', sql: SQL.generaIn(40, 'realm', 'Riboviria') },
  { kind: 'count_taxon', question: 'How many species do coronaviruses have?', sql: SQL.inTaxon(LATEST, 'family', 'Coronaviridae') },

  // --- what a release changed ---------------------------------------------------------------------------------
  { kind: 'release_changes', question: 'How many species were added in MSL36?', sql: SQL.added(36) },
  { kind: 'release_changes', question: 'How many new species were in MSL39?', sql: SQL.added(39) },
  { kind: 'release_changes', question: 'how many species were added in 2021', sql: SQL.added(37) },
  { kind: 'release_changes', question: 'Number of species added in MSL40', sql: SQL.added(40) },
  { kind: 'release_changes', question: 'How many new species did MSL35 introduce?', sql: SQL.added(35) },
  { kind: 'release_changes', question: 'How many species were created in MSL34?', sql: SQL.added(34) },
  { kind: 'release_changes', question: 'What was added in MSL31?', sql: SQL.added(31) },
  { kind: 'release_changes', question: 'How many species were added in 2022?', sql: SQL.added(38) },
  { kind: 'release_changes', question: "What's new in MSL33?", sql: SQL.added(33) },
  { kind: 'release_changes', question: 'How many new species in msl30?', sql: SQL.added(30) },
  { kind: 'release_changes', question: 'What changed in MSL40?', sql: SQL.totals(39, 40) },
  { kind: 'release_changes', question: 'How many species were abolished in MSL38?', sql: SQL.totals(37, 38) },

  // --- comparisons of two releases --------------------------------------------------------------------------
  { kind: 'compare_releases', question: 'Compare MSL35 and MSL36', sql: SQL.totals(35, 36) },
  { kind: 'compare_releases', question: 'What changed between 2019 and 2020?', sql: SQL.totals(35, 36) },
  { kind: 'compare_releases', question: 'compare msl23 with msl40', sql: SQL.totals(23, 40) },
  { kind: 'compare_releases', question: 'Difference between MSL38 and MSL39?', sql: SQL.totals(38, 39) },
  { kind: 'compare_releases', question: 'How did the taxonomy change from 2005 to 2024?', sql: SQL.totals(23, 40) },
  { kind: 'compare_releases', question: 'MSL30 vs MSL35', sql: SQL.totals(30, 35) },
  { kind: 'compare_releases', question: 'What are the differences between release 37 and release 38?', sql: SQL.totals(37, 38) },
  { kind: 'compare_releases', question: 'Compare 2018a and 2018b.', sql: SQL.totals(33, 34) },
  { kind: 'compare_releases', question: 'what changed from msl36 to the latest release', sql: SQL.totals(36, LATEST) },
  { kind: 'compare_releases', question: 'COMPARE MSL24 AND MSL28', sql: SQL.totals(24, 28) },

  // --- largest and fastest-growing ---------------------------------------------------------------------------
  { kind: 'largest_taxa', question: 'What is the largest family?', sql: SQL.largest(LATEST, 'family') },
  { kind: 'largest_taxa', question: 'What was the largest family in MSL23?', sql: SQL.largest(23, 'family') },
  { kind: 'largest_taxa', question: 'Which family had the most species in 2019?', sql: SQL.largest(35, 'family') },
  { kind: 'largest_taxa', question: 'biggest genus in msl40', sql: SQL.largest(40, 'genus') },
  { kind: 'largest_taxa', question: 'Which genus has the most species?', sql: SQL.largest(LATEST, 'genus') },
  { kind: 'largest_taxa', question: 'Top 5 families in MSL36', sql: SQL.largest(36, 'family') },
  { kind: 'largest_taxa', question: 'What is the largest order in MSL38?', sql: SQL.largest(38, 'order') },
  { kind: 'largest_taxa', question: 'Which realm has the most species?', sql: SQL.largest(LATEST, 'realm') },
  { kind: 'largest_taxa', question: 'Largest genus of Flaviviridae', sql: SQL.largestIn(LATEST, 'genus', 'family', 'Flaviviridae') },
  { kind: 'largest_taxa', question: 'What is the biggest family in the order Picornavirales?', sql: SQL.largestIn(LATEST, 'family', 'order', 'Picornavirales') },
  { kind: 'fastest_growing', question: 'Which families grew fastest?', sql: SQL.fastest(FIRST, LATEST, 'family') },
  { kind: 'fastest_growing', question: 'Which family grew the most between MSL35 and MSL40?', sql: SQL.fastest(35, 40, 'family') },
  { kind: 'fastest_growing', question: 'fastest-growing genera since 2019', sql: SQL.fastest(35, LATEST, 'genus') },
  { kind: 'fastest_growing', question: 'Which family gained the most species in MSL39?', sql: SQL.fastest(38, 39, 'family') },
  { kind: 'fastest_growing', question: 'What are the fastest growing families from 2015 to 2020?', sql: SQL.fastest(30, 36, 'family') },

  // --- milestones and the history of higher taxa ------------------------------------------------------------
  { kind: 'milestones', question: 'When was Caudovirales abolished?', sql: SQL.endedIn('Caudovirales') },
  { kind: 'milestones', question: 'What happened to the order Caudovirales?', sql: SQL.endedIn('Caudovirales') },
  { kind: 'milestones', question: 'when was caudovirales dissolved', sql: SQL.endedIn('Caudovirales') },
  { kind: 'milestones', question: 'When was the first realm introduced?', sql: SQL.firstRealm() },
  { kind: 'milestones', question: 'When were realms introduced?', sql: SQL.firstRealm() },
  { kind: 'milestones', question: 'What was the first realm?', sql: SQL.firstRealm() },
  { kind: 'milestones', question: 'When was the rank class first used?', sql: SQL.rankFirstUsed('class') },
  { kind: 'milestones', question: 'When were kingdoms introduced?', sql: SQL.rankFirstUsed('kingdom') },
  { kind: 'milestones', question: 'When did the number of species pass 10,000?', sql: SQL.passed(10000) },
  { kind: 'milestones', question: 'Which release first had more than 5000 species?', sql: SQL.passed(5000) },
  { kind: 'milestones', question: 'Which release added the most species?', sql: SQL.largestGrowth() },
  { kind: 'milestones', question: 'What are the major milestones?', sql: `${SQL.firstRealm()}` },
  { kind: 'taxon_history', question: 'When was Myoviridae abolished?', sql: SQL.endedIn('Myoviridae') },
  { kind: 'taxon_history', question: 'What happened to Siphoviridae?', sql: SQL.endedIn('Siphoviridae') },
  { kind: 'taxon_history', question: 'When did Podoviridae disappear?', sql: SQL.endedIn('Podoviridae') },
  { kind: 'taxon_history', question: 'when was flexiviridae abolished', sql: SQL.endedIn('Flexiviridae') },
  { kind: 'taxon_history', question: 'Does the family Bunyaviridae still exist?', sql: SQL.span('Bunyaviridae') },
  { kind: 'taxon_history', question: 'When was Riboviria created?', sql: `SELECT 'MSL' || min(msl) AS v FROM src.taxa WHERE name = 'Riboviria'` },
  { kind: 'taxon_history', question: 'Is Coronaviridae still current?', sql: `${SQL.span('Coronaviridae')}` },

  // --- family evolution and stability -----------------------------------------------------------------------
  { kind: 'family_evolution', question: 'How has Coronaviridae changed over time?', sql: SQL.familyFirstLast('Coronaviridae') },
  { kind: 'family_evolution', question: 'Evolution of Siphoviridae', sql: SQL.familyFirstLast('Siphoviridae') },
  { kind: 'family_evolution', question: 'How did Myoviridae evolve?', sql: SQL.familyFirstLast('Myoviridae') },
  { kind: 'family_evolution', question: 'history of the family Geminiviridae', sql: SQL.familyFirstLast('Geminiviridae') },
  { kind: 'family_evolution', question: 'How has Flaviviridae grown over the years?', sql: SQL.familyFirstLast('Flaviviridae') },
  { kind: 'family_stability', question: 'How stable is the family Coronaviridae?', sql: SQL.span('Coronaviridae') },
  { kind: 'family_stability', question: 'stability of Geminiviridae', sql: SQL.span('Geminiviridae') },
  { kind: 'family_stability', question: 'Is Myoviridae a stable family?', sql: SQL.span('Myoviridae') },
  { kind: 'family_stability', question: 'How volatile has Picornaviridae been?', sql: SQL.span('Picornaviridae') },

  // --- families by host and genome --------------------------------------------------------------------------
  { kind: 'families_by_host', question: 'Which families infect archaea?', sql: SQL.hostFamilies('archaea') },
  { kind: 'families_by_host', question: 'How many families have plant hosts?', sql: SQL.hostFamilies('plants') },
  { kind: 'families_by_host', question: 'which families infect fungi', sql: SQL.hostFamilies('fungi') },
  { kind: 'families_by_host', question: 'What families of viruses infect bacteria?', sql: SQL.hostFamilies('bacteria') },
  { kind: 'families_by_host', question: 'Which virus families have vertebrate hosts?', sql: SQL.hostFamilies('vertebrates') },
  { kind: 'families_by_host', question: 'Which families infect insects?', sql: SQL.hostFamilies('invertebrates') },
  { kind: 'families_by_host', question: 'Which families infect protists?', sql: SQL.hostFamilies('protists') },
  { kind: 'families_by_genome', question: 'Which families have dsRNA genomes?', sql: SQL.genomeFamilies(['dsRNA']) },
  { kind: 'families_by_genome', question: 'Which families are negative-sense RNA viruses?', sql: SQL.genomeFamilies(['ssRNA(-)']) },
  { kind: 'families_by_genome', question: 'How many families have double-stranded DNA genomes?', sql: SQL.genomeFamilies(['dsDNA']) },
  { kind: 'families_by_genome', question: 'which families have a positive-sense single-stranded RNA genome', sql: SQL.genomeFamilies(['ssRNA(+)']) },
  { kind: 'families_by_genome', question: 'Which families are retroviruses (ssRNA-RT)?', sql: SQL.genomeFamilies(['ssRNA-RT']) },

  // --- releases -------------------------------------------------------------------------------------------------
  { kind: 'release_info', question: 'When was MSL36 released?', sql: SQL.year(36) },
  { kind: 'release_info', question: 'What year is MSL30 from?', sql: SQL.year(30) },
  { kind: 'release_info', question: 'What is the latest release?', sql: `SELECT 'MSL' || max(msl) AS v, max(year) AS y FROM src.releases` },
  { kind: 'release_info', question: 'How many releases are there?', sql: `SELECT count(*) AS n FROM src.releases` },
  { kind: 'release_info', question: 'Tell me about MSL23', sql: `${SQL.species(23)}` },

  // --- written after the parser was tuned on the questions above, and added unchanged: 29 of 30 were answered
  // right at the first try (the genus Rotavirus was taken for "rotavirus A") ------------------------------------
  { kind: 'classification', question: 'Which family does Hantaan virus belong to?', sql: SQL.virus('Hantaan virus', 'family') },
  { kind: 'classification', question: 'what genus is monkeypox virus in?', sql: SQL.virus('monkeypox virus', 'genus') },
  { kind: 'classification', question: 'Name the order of Nipah virus', sql: SQL.virus('Nipah virus', 'order') },
  { kind: 'classification', question: 'What phylum is Variola virus in?', sql: SQL.virus('variola virus', 'phylum') },
  { kind: 'current_name', question: "What's the current name of Vaccinia virus?", sql: SQL.currentName('Vaccinia virus') },
  { kind: 'current_name', question: 'What is Rift Valley fever virus called now?', sql: SQL.currentName('Rift Valley fever virus') },
  { kind: 'former_names', question: 'When was Rabies virus renamed?', sql: SQL.renamedIn('Rabies virus') },
  { kind: 'former_names', question: 'Under what names was Lyssavirus rabies listed before?', sql: SQL.formerNames('Lyssavirus rabies') },
  { kind: 'species_history', question: 'When did Potato virus Y first appear in the list?', sql: SQL.nameSpan('Potato virus Y') },
  { kind: 'genome', question: 'What kind of genome does mumps virus have?', sql: SQL.virus('mumps virus', 'genome_composition') },
  { kind: 'genome', question: 'Is rotavirus A a dsRNA virus?', sql: SQL.virus('rotavirus A', 'genome_composition') },
  { kind: 'hosts', question: 'What host does bluetongue virus infect?', sql: SQL.virusHosts('bluetongue virus') },
  { kind: 'count_taxon', question: 'How many species are in the family Rhabdoviridae in MSL37?', sql: SQL.inTaxon(37, 'family', 'Rhabdoviridae') },
  { kind: 'count_taxon', question: 'How many genera does Paramyxoviridae contain?', sql: SQL.generaIn(LATEST, 'family', 'Paramyxoviridae') },
  { kind: 'count_taxon', question: 'How many species did the genus Potyvirus have in 2011?', sql: SQL.inTaxon(26, 'genus', 'Potyvirus') },
  // a realm of the latest release (Monodnaviria, asked here before, is none since MSL41: the answer says when it was last used)
  { kind: 'count_taxon', question: 'Number of species in Varidnaviria', sql: SQL.inTaxon(LATEST, 'realm', 'Varidnaviria') },
  { kind: 'release_changes', question: 'How many species were added in MSL37?', sql: SQL.added(37) },
  { kind: 'release_changes', question: 'how many species were new in msl 38', sql: SQL.added(38) },
  { kind: 'compare_releases', question: 'Compare releases 2016 and 2017', sql: SQL.totals(31, 32) },
  { kind: 'compare_releases', question: 'what is different between MSL31 and MSL32', sql: SQL.totals(31, 32) },
  { kind: 'largest_taxa', question: 'What was the largest family in 2014?', sql: SQL.largest(29, 'family') },
  { kind: 'largest_taxa', question: 'Which genus had the most species in MSL30?', sql: SQL.largest(30, 'genus') },
  { kind: 'fastest_growing', question: 'Which family grew the most between 2020 and 2023?', sql: SQL.fastest(36, 39, 'family') },
  { kind: 'taxon_history', question: 'When was Podoviridae abolished?', sql: SQL.endedIn('Podoviridae') },
  { kind: 'taxon_history', question: 'When was the order Tymovirales created?', sql: `SELECT 'MSL' || min(msl) AS v FROM src.taxa WHERE name = 'Tymovirales'` },
  { kind: 'families_by_host', question: 'How many families infect oomycetes?', text: ['No family', 'oomycetes'] },
  { kind: 'families_by_genome', question: 'Which families have dsDNA-RT genomes?', sql: SQL.genomeFamilies(['dsDNA-RT']) },
  { kind: 'count_release', question: 'How many species did MSL33 have?', sql: SQL.species(33) },
  { kind: 'count_release', question: 'How many families were in the 2012 release?', sql: SQL.rank(27, 'family') },
  { kind: 'count_release', question: 'How many orders are there today?', sql: SQL.rank(LATEST, 'order') },

  // --- honest answers ---------------------------------------------------------------------------------------------
  { kind: 'unknown', question: 'What family does Foobar virus belong to?', text: ['Foobar virus', 'do not know', ...EXAMPLES_OFFERED] },
  { kind: 'unknown', question: 'How many species are in Foobaviridae?', text: ['Foobaviridae', 'do not know', ...EXAMPLES_OFFERED] },
  { kind: 'unknown', question: 'How many species were in MSL99?', text: ['MSL99', 'not a release', ...EXAMPLES_OFFERED] },
  { kind: 'unknown', question: 'How many species were there in 2030?', text: ['2030', ...EXAMPLES_OFFERED] },
  { kind: 'unknown', question: 'What is the meaning of life?', text: ['could not work out', ...EXAMPLES_OFFERED] },
  { kind: 'unknown', question: 'asdf qwerty', text: [...EXAMPLES_OFFERED] },
  // who discovered a virus is outside taxonomy: declined whatever the name
  { kind: 'unknown', question: 'Who discovered Zorblax virus?', text: ['cannot answer that', ...EXAMPLES_OFFERED] },
  { kind: 'unknown', question: 'help', text: [...EXAMPLES_OFFERED] },
];

// One answer function per reading of a question (parse.ts, intent.ts): a parsed question in, {response, data,
// sources} out. Every number and name in a response is read from a read model (named in sources) at answer time;
// a question whose subject is missing from the data gets a sentence saying so, never a made-up value.
import type { Store } from '../../store/store.js';
import { suggestNames } from '../../read/suggest.js';
import { and, or, release } from '../format.js';
import type { Parsed, Reading, SpeciesRef } from '../parse.js';
import { betweenReleases, countRelease, milestones, releaseInfo, releaseIsYear, releasesInYears, releasesOfYear, taxaOfRelease, yearCounts, yearsBetween } from './releases.js';
import { changeUnread, changesOrUnread, changesSummed, compareReleases, everyRankChanged, releaseChanges, spanUnread, taxaChangedBetween, whichChanged, whichChangedWithin, withinRankUnread } from './changes.js';
import { contextOf, fallback, profileEntries, targetRelease, type Answer, type Ctx, type Handler } from './common.js';
import { groupNamed } from '../groups.js';
import { familiesBy } from './families.js';
import { groupMembership, notATaxon } from './groups.js';
import { currentName, formerNames, hasHost, isGenomeType, listedIn, memberOf, nameIn, sameTaxon, speciesClassification, speciesGenome, speciesHistory, speciesHosts, speciesMoves, stillNamed } from './species.js';
import {
  compareRankUnread, countTaxon, taxonIn, sameRankTaxon, taxonGenomeType, familyEvolution, familyStability, fastestGrowing, largestTaxa, rankIs, stillInUse, taxonClassification,
  taxonFormerNames, taxonGenome, taxonHistory, taxonHosts, taxonThreshold, twoTaxa, twoTaxaBetween, twoTaxaFirst, typeSpeciesOf,
} from './taxa.js';

export type { Answer, Source } from './common.js';

function withSpecies(fn: (ctx: Ctx, p: Parsed, s: SpeciesRef) => Answer): Handler {
  return (ctx, p) => fn(ctx, p, p.species[0]!);
}

const HANDLERS: Record<Exclude<Reading, 'help' | 'unknown'>, Handler> = {
  classification: (ctx, p) => (p.species[0] ? speciesClassification(ctx, p, p.species[0]) : taxonClassification(ctx, p, p.taxa[0]!)),
  current_name: withSpecies(currentName),
  former_names: withSpecies(formerNames),
  species_history: withSpecies(speciesHistory),
  genome: (ctx, p) => (p.species[0] ? speciesGenome(ctx, p, p.species[0]) : taxonGenome(ctx, p, p.taxa[0]!)),
  hosts: (ctx, p) => (p.species[0] ? speciesHosts(ctx, p, p.species[0]) : taxonHosts(ctx, p, p.taxa[0]!)),
  count_release: countRelease,
  count_taxon: (ctx, p) => countTaxon(ctx, p, p.taxa[0]!),
  release_changes: releaseChanges,
  compare_releases: compareReleases,
  family_evolution: (ctx, p) => familyEvolution(ctx, p, p.taxa[0]!),
  family_stability: familyStability,
  largest_taxa: largestTaxa,
  fastest_growing: fastestGrowing,
  milestones,
  taxon_history: (ctx, p) => taxonHistory(ctx, p, p.taxa[0]!),
  families_by_host: (ctx, p) => familiesBy(ctx, p, 'host'),
  families_by_genome: (ctx, p) => familiesBy(ctx, p, 'genome'),
  release_info: releaseInfo,
  type_species: typeSpeciesOf,
  same_taxon: sameTaxon,
  genome_type: isGenomeType,
  still_in_use: stillInUse,
  compare_taxa: twoTaxa,
  which_changed: whichChanged,
  group_membership: groupMembership,
  not_a_taxon: notATaxon,
  year_counts: yearCounts,
  releases_of_year: releasesOfYear,
  releases_in_years: releasesInYears,
  years_between: yearsBetween,
  release_is_year: releaseIsYear,
  rank_is: rankIs,
  taxa_of_release: taxaOfRelease,
  taxon_threshold: taxonThreshold,
  member_of: (ctx, p) => (p.taxa[0]?.group ? groupMembership(ctx, p) : capitalisedGroup(ctx, p) ?? memberOf(ctx, p)),
  taxon_in_taxon: taxonIn,
  same_rank_taxon: sameRankTaxon,
  changes_summed: changesSummed,
  taxon_became: (ctx, p) => taxonHistory(ctx, p, p.taxa[0]!),
  species_moved: withSpecies(speciesMoves),
  taxon_genome_type: taxonGenomeType,
  has_host: hasHost,
  taxon_former_names: taxonFormerNames,
  name_in_release: nameIn,
  still_named: stillNamed,
  listed_in: listedIn,
  two_taxa: twoTaxa,
  two_taxa_between: twoTaxaBetween,
  two_taxa_first: twoTaxaFirst,
  between_releases: betweenReleases,
  taxa_changed_between: taxaChangedBetween,
  every_rank_changed: everyRankChanged,
  which_changed_within: whichChangedWithin,
  span_unread: spanUnread,
  compare_rank_unread: compareRankUnread,
  changes_or_unread: changesOrUnread,
  change_unread: changeUnread,
  within_rank_unread: withinRankUnread,
};

/**
 * "Is SARS-CoV-2 a Coronavirus?", "Is West Nile virus a Flavivirus?": an everyday group word written with a capital,
 * which also spells a taxon no longer listed (the genus Coronavirus of MSL1-24, Flavivirus of MSL2-37). Asked as a
 * yes or no without a rank word ("in the genus Flavivirus" is that genus), it means the group, as people write it:
 * answered as the group word. Null otherwise.
 */
function capitalisedGroup(ctx: Ctx, p: Parsed): Promise<Answer> | Answer | null {
  const t = p.taxa[0];
  if (!t || p.rankWord !== null || t.text === t.text.toLowerCase() || t.entry.last_msl >= targetRelease(ctx, p).msl) return null;
  const g = groupNamed(t.text.toLowerCase());
  if (!g?.taxon) return null;
  const entry = profileEntries(ctx, g.taxon.name).find((e) => e.rank === g.taxon!.rank);
  if (!entry) return null;
  const text = t.text.toLowerCase();
  return groupMembership(ctx, { ...p, taxa: [{ text, rank: entry.rank, name: entry.name, entry, common: true, group: g }] });
}

/** The answer to a parsed question. */
export async function answer(store: Store, p: Parsed): Promise<Answer> {
  const ctx = contextOf(store);
  if (p.relation === 'help') return fallback(`Ask me about the ICTV virus taxonomy from ${release(ctx.all[0]!)} to ${release(ctx.latest)}.`);
  if (p.relation === 'unknown') {
    if (p.unknownNames.length > 0) {
      const name = p.unknownNames[0]!;
      const suggestions = await suggestNames(store, name);
      const a = fallback(`I do not know a virus, species or taxon named "${name}" in any release from ${ctx.all[0]!.version} to ${ctx.latest.version}${suggestions.length ? `; did you mean ${or(suggestions.map((x) => `"${x}"`))}?` : '.'}`);
      return { ...a, data: { ...a.data, unknown_names: p.unknownNames, suggestions } };
    }
    if (p.badReleases.length > 0) return fallback(`${p.badReleases[0]!.charAt(0).toUpperCase()}${p.badReleases[0]!.slice(1)}.`);
    // a question about a virus whose name is not one I know: say which words were not understood
    if (p.leftovers.length > 0 && /\b(?:belong\w*|classif\w*|famil\w*|genus|order|realm|genome|hosts?|infect\w*|renam\w*|names?|called|species)\b/.test(p.residue)) {
      const suggestions = (await Promise.all(p.leftovers.map((w) => suggestNames(store, w)))).flat().slice(0, 3);
      const a = fallback(`I found no virus, species or taxon name I know in this question (not understood: ${and(p.leftovers.map((w) => `"${w}"`))})${suggestions.length ? `; did you mean ${or(suggestions.map((x) => `"${x}"`))}?` : '.'}`);
      return { ...a, data: { ...a.data, unknown_names: p.leftovers, suggestions } };
    }
    return fallback('I could not work out what this question asks.');
  }
  if (p.badReleases.length > 0 && p.releases.length === 0 && p.intent !== 'classification') {
    return fallback(`${p.badReleases[0]!.charAt(0).toUpperCase()}${p.badReleases[0]!.slice(1)}.`);
  }
  return HANDLERS[p.relation](ctx, p);
}

// Answers about what changed: a release's changes against the one before (with ICTV's own tallies where its
// spreadsheet counts them), two releases compared, and which taxa a release (or a span of two) added, abolished,
// renamed, promoted, demoted, merged, split or moved, named.
import { diffSummary, type CompareCounts } from '../../read/compare.js';
import { releaseTotal } from '../../read/diversity.js';
import { RANKS, type Rank } from '../../read/lineages.js';
import { officialTally, type OfficialTally } from '../../read/official-tallies.js';
import { asResolved, type ReleaseRow } from '../../read/releases.js';
import { endingsIn, officialRankChanges, renamesIn, speciesChanges, speciesMarked, speciesNames, taxaNames, type RenameRow, type SpeciesChange } from '../../read/taxonomy-facts.js';
import { and, num, RANK_PLURAL, release, signed } from '../format.js';
import type { ChangeKind, Parsed, TaxonRef } from '../parse.js';
import { fallback, notUnderstood, previousOf, rowOf, sources, targetRelease, withNote, type Answer, type Ctx } from './common.js';

/** The changes the species counts of a comparison hold (species are not promoted or demoted). */
type SpeciesChangeKind = Exclude<ChangeKind, 'promoted' | 'demoted'>;
const speciesChange = (c: ChangeKind | null): SpeciesChangeKind | null => (c === 'promoted' || c === 'demoted' ? null : c);

const plural = (rank: Rank, n: number) => (n === 1 ? rank : RANK_PLURAL[rank] ?? `${rank}s`);

const MAX_NAMED = 120;
/** A question asking how many gets the count and a few names; one asking which gets up to MAX_NAMED. */
const shownOf = (p: Parsed) => (p.form.howMany ? 10 : MAX_NAMED);

type Named = { name: string; above: string[] };

/**
 * The taxa of a rank above species that changed between two lists of names, by the change lists' records in
 * between: a name that is gone but was renamed, promoted or demoted (rank "family>order") was not abolished,
 * and one that appears under a new name was not new. Only those under `within` when it is given. Null for a
 * change the lists do not record for higher taxa (merges, splits, moves).
 */
function higherTaxaChanged(now: Named[], before: Named[], records: RenameRow[], rank: Rank, change: ChangeKind, within?: TaxonRef): { names: string[]; renamed: string[] } | null {
  const ends = (x: RenameRow) => { const [a, b] = x.rank.split('>'); return { from: a, to: b ?? a }; };
  const under = (n: Named) => !within || n.above.includes(within.name);
  const moved = records.filter((x) => x.new_name && x.new_name !== x.old_name);
  if (change === 'renamed' || change === 'promoted' || change === 'demoted') {
    const re = { renamed: /renam/i, promoted: /promot/i, demoted: /demot/i }[change];
    const inside = new Set([...now, ...before].filter(under).map((n) => n.name));
    // a rank's taxa promoted or demoted are those that were of the rank (ICTV's "Promoted"), not the taxa that came
    // into it so ("Newly Promoted"), which its sheet counts beside them
    const ofRank = (x: RenameRow) => ends(x).from === rank || (change === 'renamed' && ends(x).to === rank);
    return { names: records.filter((x) => x.new_name && re.test(x.change) && ofRank(x) && (!within || inside.has(x.old_name) || inside.has(x.new_name)))
      .map((x) => `${x.old_name} -> ${x.new_name}${ends(x).from === ends(x).to ? '' : ` (${ends(x).from} to ${ends(x).to})`}`), renamed: [] };
  }
  // the names left out as renames are said too: "no genus new (Flavivirus was renamed Orthoflavivirus)"
  const said = (x: RenameRow) => `${x.old_name} -> ${x.new_name}${x.change === 'Respelled' ? ' (respelled)' : ''}`;
  const had = new Set(before.map((n) => n.name)), has = new Set(now.map((n) => n.name));
  if (change === 'added') {
    const renamedTo = new Map(moved.filter((x) => ends(x).to === rank).map((x) => [x.new_name!, x]));
    const fresh = now.filter((n) => under(n) && !had.has(n.name));
    return { names: fresh.filter((n) => !renamedTo.has(n.name)).map((n) => n.name), renamed: fresh.flatMap((n) => (renamedTo.has(n.name) ? [said(renamedTo.get(n.name)!)] : [])) };
  }
  if (change === 'abolished') {
    const renamedFrom = new Map(moved.filter((x) => ends(x).from === rank).map((x) => [x.old_name, x]));
    const gone = before.filter((n) => under(n) && !has.has(n.name));
    return { names: gone.filter((n) => !renamedFrom.has(n.name)).map((n) => n.name), renamed: gone.flatMap((n) => (renamedFrom.has(n.name) ? [said(renamedFrom.get(n.name)!)] : [])) };
  }
  return null;
}

/** How a taxon gone by its name went on, in the words shown beside it. */
const ENDED_AS = { merged: 'merged into', split: 'split into', renamed: 'its species went on in' } as const;

/** "; besides, renamed: Flavivirus -> Orthoflavivirus": the names a new/abolished list left out as renames. */
const ASIDE = 10;
const renamedAside = (renamed: string[], shown = ASIDE) => (renamed.length === 0 ? '' : ` (besides, renamed: ${renamed.slice(0, shown).join(', ')}${renamed.length > shown ? ` and ${num(renamed.length - shown)} more` : ''})`);

const VERB: Record<ChangeKind, string> = {
  added: 'new', abolished: 'abolished', renamed: 'renamed', merged: 'formed by a merge', split: 'formed by a split',
  reclassified: 'moved to another taxon', promoted: 'promoted', demoted: 'demoted',
};

/** "orders added between two releases": the taxa of a rank above species new and gone between two releases. */
export async function taxaChangedBetween(ctx: Ctx, p: Parsed): Promise<Answer> {
  const rank = p.relationRank!;
  const change = p.change!;
  const [x, y] = p.releases.map((r) => rowOf(ctx, r.msl)!) as [ReleaseRow, ReleaseRow];
  const [from, to] = x.msl <= y.msl ? [x, y] : [y, x];
  const steps = ctx.all.filter((r) => r.msl > from.msl && r.msl <= to.msl);
  // "in MSL41 compared with MSL40": one release's step, answered as that release's changes (with ICTV's sheet
  // figure where it counts the step)
  if (steps.length === 1) return changedIn(ctx, { ...p, releases: p.releases.filter((r) => r.msl === to.msl) }, rank, change);
  const [now, before, ...lists] = await Promise.all([taxaNames(ctx.store, to.msl, rank), taxaNames(ctx.store, from.msl, rank), ...steps.map((r) => renamesIn(ctx.store, r.msl))]);
  const found = higherTaxaChanged(now, before, lists.flat(), rank, change);
  if (!found) return notUnderstood('change', `The change lists record merges, splits and moves of species only; ask which ${RANK_PLURAL[rank]} were added, abolished, renamed, promoted or demoted between ${from.version} and ${to.version}.`);
  const named = found.names;
  const verb = VERB[change];
  const shown = named.slice(0, shownOf(p));
  const list = `${named.length === 0 ? `no ${RANK_PLURAL[rank]} were ${verb}` : `${num(named.length)} ${plural(rank, named.length)} ${named.length === 1 ? 'was' : 'were'} ${verb}: ${shown.join(', ')}${named.length > shown.length ? ` and ${num(named.length - shown.length)} more` : ''}`}${renamedAside(found.renamed)}`;
  return {
    response: `From ${release(from)} to ${release(to)} the number of ${RANK_PLURAL[rank]} went from ${num(before.length)} to ${num(now.length)} (${signed(now.length - before.length)}); ${list}${change === 'added' || change === 'abolished' ? ', by their names (renames aside)' : ''}.`,
    data: { from: from.version, to: to.version, rank, change, totals: { from: before.length, to: now.length }, count: named.length, names: named },
    sources: sources(ctx, 'taxon_counts', `${from.version}-${to.version}`),
  };
}


const placeOf = (lineage: string | null) => (lineage ?? '').split(';').slice(0, -1);

async function changedIn(ctx: Ctx, p: Parsed, rank: Rank, change: ChangeKind, within?: TaxonRef): Promise<Answer> {
  const r = rowOf(ctx, p.releases[0]!.msl)!;
  const prev = ctx.all.filter((x) => x.msl < r.msl).pop();
  if (!prev && change === 'added' && !within) return firstListed(ctx, p, r, rank);
  if (!prev) return notUnderstood('release', `${release(r)} is the first release; nothing changed in it relative to an earlier one.`);
  let named: string[];
  let note = '', aside = '', officialRank = '';
  // a taxon gone by its name may have gone on in others ("Cystovirus (split into Gammacystovirus and Orthocystovirus)")
  let shownAs = (name: string) => name;
  if (rank === 'species') {
    if (change === 'promoted' || change === 'demoted') return notUnderstood('change', `Species are not promoted or demoted; ask which species were added, abolished, renamed, moved, merged or split in ${r.version}.`);
    const all = await speciesChanges(ctx.store, prev.msl, r.msl, change === 'abolished' ? 'removed' : change);
    // within a taxon: the species under it on the side of the change that is in this release (the earlier side when abolished)
    const rows = within ? all.filter((x) => (change === 'abolished' ? placeOf(x.old_lineage) : placeOf(x.new_lineage)).includes(within.name)) : all;
    const moved = (x: SpeciesChange) => {
      const [a, b] = [placeOf(x.old_lineage), placeOf(x.new_lineage)];
      const out = a.filter((n) => !b.includes(n)), into = b.filter((n) => !a.includes(n));
      return `${x.new_name} (${[out.length ? `out of ${out.join(', ')}` : '', into.length ? `into ${into.join(', ')}` : ''].filter(Boolean).join(', ')})`;
    };
    const show = { added: (x: SpeciesChange) => x.new_name!, abolished: (x: SpeciesChange) => x.old_name!, renamed: (x: SpeciesChange) => `${x.old_name} -> ${x.new_name}`,
      merged: (x: SpeciesChange) => `${x.old_name} into ${x.new_name}`, split: (x: SpeciesChange) => `${x.new_name} from ${x.old_name}`, reclassified: moved }[change];
    named = rows.map(show);
    // the species of the release a merge or split made: those its own list marks so, and those the lineages
    // (release_diff) trace to one, each with the species it came from where they trace it
    if ((change === 'merged' || change === 'split') && !within) {
      const from = new Map<string, string[]>();
      for (const x of rows) if (x.new_name && x.old_name) from.set(x.new_name, [...from.get(x.new_name) ?? [], x.old_name]);
      const marked = await speciesMarked(ctx.store, r.msl, change === 'merged' ? 'Merged' : 'Split');
      named = [...new Set([...marked, ...from.keys()])].sort().map((n) => (from.has(n) ? `${n} (from ${and(from.get(n)!)})` : n));
      const mark = change === 'merged' ? 'Merged' : 'Split';
      if (marked.length === 0 && named.length > 0) note = ` (traced by their lineages; the list of ${r.version} marks none ${mark})`;
      else if (marked.length !== named.length) note = ` (${num(marked.length)} of them marked ${mark} in the list of ${r.version}, the others traced to a ${change === 'merged' ? 'merge' : 'split'} by their lineages)`;
    }
  } else {
    const [now, before, renames] = await Promise.all([taxaNames(ctx.store, r.msl, rank), taxaNames(ctx.store, prev.msl, rank), renamesIn(ctx.store, r.msl)]);
    const found = higherTaxaChanged(now, before, renames, rank, change, within);
    if (!found) {
      // "How many genera were moved in MSL40?": not named by the lists here, but counted by ICTV's sheet
      const counted = !within && p.form.howMany ? await officialOnly(ctx, r, rank, change) : null;
      return counted ?? notUnderstood('change', `The change lists record merges, splits and moves of species only; ask which ${RANK_PLURAL[rank]} were added, abolished, renamed, promoted or demoted in ${r.version}.`);
    }
    named = found.names;
    aside = renamedAside(found.renamed);
    if (change === 'abolished' && named.length > 0) {
      const endings = await endingsIn(ctx.store, r.msl);
      shownAs = (name) => {
        const e = endings.get(name);
        return e ? `${name} (${ENDED_AS[e.kind]} ${and(e.into)})` : name;
      };
    }
    // ICTV's own figure for the rank, where its sheet counts the release and the question asks how many (or the
    // names differ from it): "380 genera new (and 2 new by splits)"
    const words = RANK_OFFICIAL[change];
    const sheet = !within && words ? await sheetCounts(ctx, r, rank, words) : null;
    if (sheet && (p.form.howMany || sheet.counts.reduce((a, b) => a + b, 0) !== named.length)) {
      officialRank = `ICTV's Taxon Counts sheet counts ${sheet.text} in ${release(r)}. By their names, in`;
      // asked how many, the count is the answer: the renames beside it are counted, not each named
      if (p.form.howMany && found.renamed.length > 0) {
        const respelt = found.renamed.filter((x) => x.endsWith(' (respelled)')).length;
        const counts = [...(found.renamed.length > respelt ? [`${num(found.renamed.length - respelt)} renamed`] : []), ...(respelt > 0 ? [`${num(respelt)} respelled`] : [])];
        aside = ` (besides, ${counts.join(' and ')})`;
      }
    }
  }
  const verb = VERB[change];
  const where = within ? ` in the ${within.rank} ${within.name}` : '';
  // "what percentage of species were new in MSL36": the count against the release's total, not the list
  if (p.form.percent && !within) {
    const total = releaseTotal(ctx.store, change === 'abolished' ? prev : r, rank) ?? 0;
    const pct = total > 0 ? (named.length * 100 / total).toFixed(1) : null;
    return {
        response: `In ${release(r)}, compared with ${release(prev)}, ${num(named.length)} ${plural(rank, named.length)} ${named.length === 1 ? 'was' : 'were'} ${verb}${pct === null ? '' : `: ${pct}% of the ${num(total)} ${plural(rank, total)} of ${change === 'abolished' ? prev.version : r.version}`}.`,
      data: { version: r.version, previous: prev.version, rank, change, count: named.length, total, percent: pct === null ? null : Number(pct) },
      sources: sources(ctx, rank === 'species' ? 'release_diff_detail' : 'taxon_counts', r.version),
    };
  }
  const shown = named.slice(0, shownOf(p)).map(shownAs);
  const list = `${named.length === 0 ? `no ${RANK_PLURAL[rank] ?? rank}${where} were ${verb}` : `${num(named.length)} ${plural(rank, named.length)}${where} ${named.length === 1 ? 'was' : 'were'} ${verb}${note}: ${shown.join(', ')}${named.length > shown.length ? ` and ${num(named.length - shown.length)} more (GET the release diff for all)` : ''}`}${aside}`;
  // "were any families abolished in 2022?": a yes or a no, then the names
  const lead = p.form.yesNo ? `${named.length > 0 ? 'Yes' : 'No'}: ` : '';
  // "how many species were merged in MSL41": ICTV's own figure first, where its sheet counts the step
  // (and beside any list of species a release changed, where ICTV's figure for that change is not the list's length)
  const word = OFFICIAL_WORD[change];
  const tally = rank === 'species' && !within && word ? officialTally(ctx.store, prev.msl, r.msl, word) : null;
  const counted = tally && ((p.form.howMany && (change === 'merged' || change === 'split')) || tally.ictv !== named.length) ? tally : null;
  const official = counted ? `ICTV's Taxon Counts sheet counts ${num(counted.ictv)} species ${ICTV_SAYS[counted.change]} in ${release(r)}. Traced along their lineages, in` : officialRank || 'In';
  return {
    response: `${lead}${official} ${release(r)}, compared with ${release(prev)}, ${list}.`,
    data: { version: r.version, previous: prev.version, rank, change, ...(within ? { within: within.name } : {}), count: named.length, names: named },
    sources: sources(ctx, rank === 'species' ? 'release_diff_detail' : 'taxon_counts', r.version),
  };
}

/**
 * "Which genera were first listed in 1971?": the first release has no release before it, so every taxon of the rank
 * it holds was first listed there; they are named, with their count.
 */
async function firstListed(ctx: Ctx, p: Parsed, r: ReleaseRow, rank: Rank): Promise<Answer> {
  const names = rank === 'species' ? await speciesNames(ctx.store, r.msl) : (await taxaNames(ctx.store, r.msl, rank)).map((x) => x.name);
  const shown = names.slice(0, shownOf(p));
  return {
    response: `${release(r)} is the first release in the data set, so each of its ${num(names.length)} ${plural(rank, names.length)} was first listed there${names.length ? `: ${shown.join(', ')}${names.length > shown.length ? ` and ${num(names.length - shown.length)} more` : ''}` : ''}.`,
    data: { version: r.version, rank, change: 'added', count: names.length, names },
    sources: sources(ctx, 'taxon_counts', r.version),
  };
}

/** "what taxa were abolished in 2021": the change at every rank of the release, higher taxa named, species counted. */
export async function everyRankChanged(ctx: Ctx, p: Parsed): Promise<Answer> {
  const change = p.change!;
  const r = rowOf(ctx, p.releases[0]!.msl)!;
  const prev = ctx.all.filter((x) => x.msl < r.msl).pop();
  if (!prev) return notUnderstood('release', `${release(r)} is the first release; nothing changed in it relative to an earlier one.`);
  const renames = await renamesIn(ctx.store, r.msl);
  const parts: string[] = [];
  const byRank: Record<string, string[]> = {};
  // the names gone or come as renames are said apart ("Polydnaviridae -> Polydnaviriformidae"): the question may
  // count them as abolished or new, and the record says they were renamed
  const renamed: string[] = [];
  for (const rank of RANKS.filter((x) => x !== 'species')) {
    const [now, before] = await Promise.all([taxaNames(ctx.store, r.msl, rank), taxaNames(ctx.store, prev.msl, rank)]);
    const found = higherTaxaChanged(now, before, renames, rank, change);
    const names = found?.names ?? [];
    for (const x of found?.renamed ?? []) if (!renamed.includes(x)) renamed.push(x);
    if (names.length === 0) continue;
    byRank[rank] = names;
  }
  // ("how many taxa": counted by rank, named only when few; "which taxa": named, ten a rank)
  const higher = Object.values(byRank).reduce((n, xs) => n + xs.length, 0);
  const shown = p.form.howMany ? (higher <= 10 ? 10 : 0) : ASIDE;
  for (const [rank, names] of Object.entries(byRank)) {
    const named = shown === 0 ? '' : ` (${names.slice(0, shown).join(', ')}${names.length > shown ? ` and ${num(names.length - shown)} more` : ''})`;
    parts.push(`${num(names.length)} ${plural(rank as Rank, names.length)}${named}`);
  }
  const species = await speciesChanges(ctx.store, prev.msl, r.msl, change === 'abolished' ? 'removed' : change);
  byRank.species = species.map((x) => (change === 'abolished' ? x.old_name! : change === 'added' ? x.new_name! : `${x.old_name} -> ${x.new_name}`));
  parts.push(`${num(species.length)} species`);
  const total = Object.values(byRank).reduce((n, xs) => n + xs.length, 0);
  // ICTV's figure for every rank together, where its sheet counts the release ("how many taxa were renamed in
  // MSL41": 162 by the sheet, the ranks' names beside it)
  const words = RANK_OFFICIAL[change];
  const tallies = words ? await officialRankChanges(ctx.store) : null;
  const sheet = words && tallies ? RANKS.map((k) => tallies.get(`${r.msl}|${k}|${words[0]}`)).filter((n): n is number => n !== undefined) : [];
  // (the species from their own tally: officialRankChanges holds the higher ranks)
  const ofSpecies = words && sheet.length > 0 ? officialTally(ctx.store, prev.msl, r.msl, words[0]!)?.ictv : undefined;
  const official = sheet.length > 0 && ofSpecies !== undefined ? sheet.reduce((a, n) => a + Math.abs(n), 0) + ofSpecies : null;
  const lead = official !== null ? `ICTV's Taxon Counts sheet counts ${num(official)} taxa ${ICTV_SAYS[words![0]!]} in ${release(r)}, all ranks together; by their names against ${release(prev)}, ${num(total)} were ${VERB[change]}` : `In ${release(r)}, compared with ${release(prev)}, these taxa were ${VERB[change]} (${num(total)} in all)`;
  return {
    response: `${lead}: ${parts.join('; ')}${renamedAside(renamed, shown === 0 ? 3 : shown)}.`,
    data: { version: r.version, previous: prev.version, change, names: byRank, total, ...(official !== null ? { official } : {}) },
    sources: sources(ctx, 'taxon_counts', r.version),
  };
}


const CHANGE_FIELD: Record<Exclude<ChangeKind, 'promoted' | 'demoted'>, keyof CompareCounts> = {
  added: 'species_added', abolished: 'species_removed', renamed: 'species_renamed', reclassified: 'species_reclassified',
  merged: 'species_merged', split: 'species_split',
};
const CHANGE_WORD: Record<Exclude<ChangeKind, 'promoted' | 'demoted'>, string> = {
  added: 'added', abolished: 'abolished (removed)', renamed: 'renamed', reclassified: 'reclassified (moved to another genus or higher taxon)',
  merged: 'merged into other species', split: 'split off existing species',
};

/** "2,562 added, 30 abolished (removed) and 211 renamed": the non-zero changes (added and removed always), the
 *  lead first, `skip` left out (it was said already). */
export function diffSentence(s: CompareCounts, lead: SpeciesChangeKind | null, skip?: SpeciesChangeKind): string {
  const n = (k: keyof CompareCounts) => Number(s[k]);
  const parts: Array<[SpeciesChangeKind, string]> = (['added', 'abolished', 'renamed', 'reclassified', 'merged', 'split'] as SpeciesChangeKind[])
    .filter((k) => k !== skip)
    .map((k) => [k, `${num(n(CHANGE_FIELD[k]))} ${CHANGE_WORD[k]}`]);
  const ordered = lead ? [...parts.filter(([k]) => k === lead), ...parts.filter(([k]) => k !== lead)] : parts;
  return and(ordered.filter(([k]) => k === lead || n(CHANGE_FIELD[k]) > 0 || k === 'added' || k === 'abolished').map(([, t]) => t));
}

/** "How many species were added in MSL36?": the changes of a release against the one before, ICTV's own figure first. */
export function releaseChanges(ctx: Ctx, p: Parsed): Answer {
  const target = targetRelease(ctx, p);
  const prev = previousOf(ctx, target);
  if (!prev) {
    return fallback(`${release(target)} is the first release in the data set, so there is no earlier release to compare it with.`);
  }
  // ("how many species were promoted in MSL41": as changedIn says of "taxa", not the release's summary)
  if (p.change === 'promoted' || p.change === 'demoted') return notUnderstood('change', `Species are not promoted or demoted; ask which species were added, abolished, renamed, moved, merged or split in ${target.version}.`);
  return stepChanges(ctx, p, prev, target);
}

/** The changes of one step (a release and the next), the change asked first, in ICTV's figure where it counted it. */
function stepChanges(ctx: Ctx, p: Parsed, prev: ReleaseRow, target: ReleaseRow): Answer {
  const s = diffSummary(ctx.store, asResolved(prev), asResolved(target));
  const lead = speciesChange(p.change);
  const official = lead ? officialSentence(ctx, prev, target, lead) : null;
  // ICTV's figure and the data set's are the answer; the other changes would only lengthen it
  const first = official
    ? official.text
    : lead
      ? `In ${release(target)}, ${num(s[CHANGE_FIELD[lead]] as number)} species were ${CHANGE_WORD[lead]} compared with ${release(prev)}; besides, ${diffSentence(s, null, lead)}`
      : `Compared with ${release(prev)}, ${release(target)} has ${diffSentence(s, null)}`;
  return {
    response: withNote(`${first}, taking the total from ${num(s.from_total as number)} to ${num(s.to_total as number)} species (${signed((s.to_total as number) - (s.from_total as number))}).`, p),
    data: { ...s, change: lead, ...(official ? { official: official.tallies } : {}) },
    sources: [{ model: 'release_diff', version: `${prev.version}-${target.version}` }, ...(official ? [{ model: 'official_tally', version: target.version }] : [])],
  };
}

/** ICTV's words for each change the lineages count ("New" and, where its sheet has them, "New Splits"). */
const ICTV_WORDS: Record<SpeciesChangeKind, string[]> = {
  added: ['New', 'New Splits'], abolished: ['Abolished'], renamed: ['Renamed'], reclassified: ['Moved'], merged: ['Merged'], split: ['New Splits'],
};
/**
 * The row of ICTV's Taxon Counts sheet that counts each change of species as the lists here do (its "Moved" counts
 * moves to another genus under the same name only, not every species moved to another taxon: not set beside them).
 */
const OFFICIAL_WORD: Partial<Record<ChangeKind, string>> = {
  added: 'New', abolished: 'Abolished', renamed: 'Renamed', merged: 'Merged', split: 'New Splits',
};

/** ICTV's words for the changes of higher taxa its sheets count and the lists here do not name. */
const RANK_OFFICIAL_ONLY: Partial<Record<ChangeKind, string[]>> = {
  reclassified: ['Moved'], merged: ['Merged'], split: ['New Splits'], promoted: ['Promoted', 'Newly Promoted'], demoted: ['Demoted', 'Newly Demoted'],
};

/** "ICTV's Taxon Counts sheet counts 101 genera moved in MSL40 (2024)": its figure alone, where it has one. */
async function officialOnly(ctx: Ctx, r: ReleaseRow, rank: Rank, change: ChangeKind): Promise<Answer | null> {
  const words = RANK_OFFICIAL_ONLY[change];
  const sheet = words ? await sheetCounts(ctx, r, rank, words) : null;
  if (!words || !sheet) return null;
  return {
    response: `ICTV's Taxon Counts sheet counts ${sheet.text} in ${release(r)}; the change lists here do not name them one by one.`,
    data: { version: r.version, rank, change, official: Object.fromEntries(words.map((w, k) => [w, sheet.counts[k]!])) },
    sources: [{ model: 'official_tally', version: r.version }],
  };
}

/**
 * ICTV's Taxon Counts sheet on one change of a rank in a release, its words in order, the main one first: each
 * figure, and "380 genera new (and 2 new by splits)". Null where the sheet has no main figure.
 */
async function sheetCounts(ctx: Ctx, r: ReleaseRow, rank: Rank, words: string[]): Promise<{ counts: number[]; text: string } | null> {
  const tallies = await officialRankChanges(ctx.store);
  const [main, ...more] = words.map((w) => tallies.get(`${r.msl}|${rank}|${w}`));
  if (main === undefined) return null;
  const said = (w: string) => ICTV_SAYS[w] ?? w.toLowerCase();
  // (new splits are new taxa too: said with the sum, which "including splits" asks; a promotion is no sum)
  const sum = (n: number, w: string) => (w === 'New Splits' ? `: ${num(Math.abs(main) + Math.abs(n))} in all` : '');
  const extra = more.map((n, k) => (n ? ` (and ${num(Math.abs(n))} ${said(words[k + 1]!)}${sum(n, words[k + 1]!)})` : '')).join('');
  return { counts: [main, ...more].map((n) => Math.abs(n ?? 0)), text: `${num(Math.abs(main))} ${plural(rank, Math.abs(main))} ${said(words[0]!)}${extra}` };
}

/** ICTV's words for the changes of higher taxa its sheets count, the main one first. */
const RANK_OFFICIAL: Partial<Record<ChangeKind, string[]>> = {
  added: ['New', 'New Splits'], abolished: ['Abolished'], renamed: ['Renamed'], promoted: ['Promoted', 'Newly Promoted'], demoted: ['Demoted', 'Newly Demoted'],
};

const ICTV_SAYS: Record<string, string> = {
  New: 'new', 'New Splits': 'new by splits', Abolished: 'abolished', Renamed: 'renamed', Moved: 'moved', Merged: 'merged',
  Promoted: 'promoted', 'Newly Promoted': 'new by promotion', Demoted: 'demoted', 'Newly Demoted': 'new by demotion',
};

/**
 * "In MSL41, ICTV's Taxon Counts sheet counts 1,352 new species (and 2 new by splits) against MSL40; followed along
 * their lineages, the data set counts 1,351 ...": where ICTV counted the step, its figure first, then the data
 * set's by the same definition and the species that differ (all of them in the compare summary's official block).
 */
function officialSentence(ctx: Ctx, prev: ReleaseRow, target: ReleaseRow, lead: SpeciesChangeKind): { text: string; tallies: OfficialTally[] } | null {
  const tallies = ICTV_WORDS[lead].map((w) => officialTally(ctx.store, prev.msl, target.msl, w)).filter((t): t is OfficialTally => t !== null);
  const main = tallies[0];
  if (!main) return null;
  // (new splits beside new, the one figure beside a main one: said with the sum, as in sheetCounts)
  const more = tallies.slice(1).filter((t) => t.ictv > 0).map((t) => ` (and ${num(t.ictv)} ${ICTV_SAYS[t.change]}: ${num(main.ictv + t.ictv)} in all)`).join('');
  const theirs = `In ${release(target)}, ICTV's Taxon Counts sheet counts ${num(main.ictv)} species ${ICTV_SAYS[main.change]}${more} against ${release(prev)}`;
  if (main.ictv === main.ours) return { text: `${theirs}, as the data set does`, tallies };
  const n = main.differences.length;
  const notes = [...new Set(main.differences.map((d) => d.note))];
  const common = notes.map((x) => ({ note: x, k: main.differences.filter((d) => d.note === x).length })).sort((a, b) => b.k - a.k)[0];
  const which = n === 0 ? (main.note ? ` (${main.note})` : '')
    : n <= 3 ? `; ${n === 1 ? 'the one that differs' : `the ${n} that differ`}: ${and(main.differences.map((d) => (notes.length === 1 ? d.species : `${d.species} (${d.note})`)))}${notes.length === 1 ? ` (${notes[0]})` : ''}`
      : `; ${num(n)} species differ, each named with its reason in the official block of the compare summary (${common!.k === n ? 'all' : `${num(common!.k)} of them`}: ${common!.note})`;
  const counts = /\s/.test(main.ours_counts) ? ` (${main.ours_counts})` : '';
  return { text: `${theirs}; followed along their lineages, the data set counts ${num(main.ours)}${counts}${which}`, tallies };
}

/**
 * "How many species in total were new in 2024 and 2025?": each release's own change against the one before it (ICTV's
 * figure where its sheet counts the release, else the data set's), and their sum.
 */
export function changesSummed(ctx: Ctx, p: Parsed): Answer {
  const lead = speciesChange(p.change);
  if (!lead) return notUnderstood('change', 'Species are not promoted or demoted; ask which species were added, abolished, renamed, moved, merged or split.');
  const steps: Array<{ r: ReleaseRow; n: number; by: string }> = [];
  for (const r of [...new Set(p.releases.map((x) => x.msl))].sort((a, b) => a - b).map((m) => rowOf(ctx, m)!)) {
    const prev = previousOf(ctx, r);
    if (!prev) return notUnderstood('release', `${release(r)} is the first release: nothing changed in it relative to an earlier one.`);
    const word = OFFICIAL_WORD[lead];
    const tally = word ? officialTally(ctx.store, prev.msl, r.msl, word) : null;
    steps.push(tally ? { r, n: tally.ictv, by: "ICTV's Taxon Counts sheet" } : { r, n: diffSummary(ctx.store, asResolved(prev), asResolved(r))[CHANGE_FIELD[lead]] as number, by: 'the data set' });
  }
  const total = steps.reduce((a, x) => a + x.n, 0);
  const each = steps.map((x) => `${num(x.n)} in ${release(x.r)} (${x.by})`);
  return {
    response: `${num(total)} species were ${CHANGE_WORD[lead]} in all: ${and(each)}, each against the release before it.`,
    data: { change: lead, total, releases: steps.map((x) => ({ version: x.r.version, count: x.n, by: x.by })) },
    sources: steps.map((x) => ({ model: x.by === 'the data set' ? 'release_diff' : 'official_tally', version: x.r.version })),
  };
}

export function compareReleases(ctx: Ctx, p: Parsed): Answer {
  // told oldest first whatever the order of the words: "MSL40 has more species than MSL30" is growth from MSL30
  const [a, b] = [rowOf(ctx, p.releases[0]!.msl)!, rowOf(ctx, (p.releases[1] ?? { msl: ctx.latest.msl }).msl)!].sort((x, y) => x.msl - y.msl) as [ReleaseRow, ReleaseRow];
  if (a.msl === b.msl) return fallback(`Both releases named are ${a.version}; name two different releases to compare.`);
  // "how many new species in MSL41 compared with MSL40": one step and a change, said as ICTV counts it
  if (p.change && previousOf(ctx, b)?.msl === a.msl && officialTally(ctx.store, a.msl, b.msl, 'New')) return stepChanges(ctx, p, a, b);
  const s = diffSummary(ctx.store, asResolved(a), asResolved(b));
  return {
    response: withNote(`From ${release(a)} to ${release(b)} the species count went from ${num(s.from_total as number)} to ${num(s.to_total as number)} (${signed((s.to_total as number) - (s.from_total as number))}): ${diffSentence(s, speciesChange(p.change))}.`, p),
    data: s,
    sources: [{ model: 'release_diff', version: `${a.version}-${b.version}` }],
  };
}


/** "Which genera were added in MSL36?", "which species were merged in 2020": named. */
export function whichChanged(ctx: Ctx, p: Parsed): Promise<Answer> {
  return changedIn(ctx, p, p.relationRank ?? 'species', p.change!);
}

/** "Which genera were added to Flaviviridae in 2022?": the changes under one taxon. */
export function whichChangedWithin(ctx: Ctx, p: Parsed): Promise<Answer> {
  return changedIn(ctx, p, p.relationRank!, p.change!, p.taxa[0]!);
}

/** "Since 2019", "after MSL30" with a change: a span the answers do not read as one release. */
export function spanUnread(_ctx: Ctx, p: Parsed): Answer {
  return notUnderstood('span', `"${p.form.span} ${p.releases[0]!.text}": I answer for one release (against the one before it) or between two releases named, not for the releases ${p.form.span} one.`);
}

/** "Were more species added in 2020 or 2021?": each release's own change, which is asked one release at a time. */
export function changesOrUnread(_ctx: Ctx, p: Parsed): Answer {
  return notUnderstood('comparison', `I understood two releases and a change, but I compare the changes of two releases only as the step from one to the other (ask what changed between ${p.releases[0]!.version} and ${p.releases[1]!.version}, or what changed in each).`);
}

/** Taxa of a rank between two releases, without which change of them. */
export function changeUnread(_ctx: Ctx, p: Parsed): Answer {
  return notUnderstood('change', `I understood ${RANK_PLURAL[p.relationRank!]} between ${p.releases[0]!.version} and ${p.releases[1]!.version} but not which change of them is asked (added, abolished or renamed).`);
}

/** A change in a release under a taxon, without the rank of the taxa asked about. */
export function withinRankUnread(_ctx: Ctx, p: Parsed): Answer {
  const within = p.taxa[0]!;
  return notUnderstood('rank', `I understood a change in ${p.releases[0]!.version} and the ${within.rank} ${within.name}, but not which taxa under it are asked about (its species, genera, ...).`);
}

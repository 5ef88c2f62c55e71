// Answers about higher taxa: a taxon's classification, size, history, evolution and stability, the genomes and
// hosts of its family, its earlier names; the yes-or-no questions about one (still in use, of a rank, larger than a
// number); two taxa compared (in one release, or their changes between two); the type species of a genus; and the
// largest and fastest-growing taxa of a rank.
import { releaseTotal } from '../../read/diversity.js';
import { familyProfiles, type FamilyProfile } from '../../read/family-profiles.js';
import { CLASSIFICATION_RANKS, mslOf, RANKS, taxonDoc, type Rank } from '../../read/lineages.js';
import { lookupName } from '../../read/names.js';
import type { ReleaseRow } from '../../read/releases.js';
import { endingsIn, fateOf, renamesTo, timeline, typeSpecies, typeSpeciesReleases } from '../../read/taxonomy-facts.js';
import { and, count, dec, num, RANK_PLURAL, release, signed } from '../format.js';
import type { Parsed, TaxonEntry, TaxonRef } from '../parse.js';
import { stabilityExtremes, stabilityRow, stabilitySentence, STABILITY_FORMULA, statusOf } from '../stability.js';
import { formatGenomeSize, genomeLabel, rankOf } from '../vocabulary.js';
import { fallback, inSpan, notUnderstood, PAST, profileEntries, renamedAs, renameWalk, rowOf, sources, span, targetRelease, taxonFate, withNote, type Answer, type Ctx, type Source } from './common.js';
import { speciesIn, who } from './species.js';

export function countsIn(e: TaxonEntry, msl: number) {
  return e.counts.find((c) => c.msl === msl) ?? null;
}

function taxonSources(ctx: Ctx, extra: Source[] = []): Source[] {
  return [{ model: 'taxon_profile', version: span(ctx) }, ...extra];
}

/** "what was Orthoherpesviridae called before": the names the rename history records it was renamed from. */
export async function taxonFormerNames(ctx: Ctx, p: Parsed): Promise<Answer> {
  const t = p.taxa[0]!;
  const all = ctx.all;
  const from = await renamesTo(ctx.store, t.name);
  if (from.length === 0) return notUnderstood('former name', `The rename history (the change lists, and ICTV's stable ids of taxa before them) records no earlier name of the ${t.rank} ${t.name}, and I do not guess one.`);
  const steps = from.map((f) => `${f.old_name} (renamed ${t.name} in ${release(all.find((r) => r.msl === f.msl)!)})`);
  // asked in a release before the rename: the name it had there, the one the first rename after that release replaced
  const asked = p.releases.length === 1 ? p.releases[0]! : null;
  const then = asked ? from.filter((f) => f.msl > asked.msl).sort((a, b) => a.msl - b.msl)[0] : undefined;
  const lead = asked && then ? `In ${release(all.find((r) => r.msl === asked.msl)!)}, the ${t.rank} ${t.name} was the ${t.rank} ${then.old_name}. ` : '';
  return {
    response: `${lead}The ${t.rank} ${t.name} was formerly called ${and(steps)}.`,
    data: { taxon: t.name, rank: t.rank, former_names: from.map((f) => ({ name: f.old_name, renamed_in: `MSL${f.msl}` })) },
    sources: [{ model: 'taxon_rename', version: `MSL${from[0]!.msl}` }],
  };
}

export function taxonClassification(ctx: Ctx, p: Parsed, t: TaxonRef): Answer {
  const e = t.entry;
  const target = p.releases.length ? targetRelease(ctx, p) : rowOf(ctx, e.last_msl)!;
  const lastRow = rowOf(ctx, e.last_msl)!;
  const c = countsIn(e, target.msl) ?? countsIn(e, e.last_msl)!;
  const at = countsIn(e, target.msl) ? target : lastRow;
  const parents = e.parents.map((x) => `${x.rank} ${x.name}`).join(' > ');
  // "Which family was the genus Flavivirus in in 1979?": the record holds its place in its last release (Flaviviridae),
  // not in the release asked (Togaviridae then)
  // "Which genera left Flaviviridae in MSL41?", "Which species were in the genus Flavivirus in 2015?": a rank below
  // the taxon asked is no place of it
  const speciesAsked = /\b(?:which|what|list|name)\b(?: the)? species\b/.test(p.residue);
  if (p.unknownNames.length === 0 && (speciesAsked || (p.askedRank && RANKS.indexOf(p.askedRank) > RANKS.indexOf(t.rank as Rank)))) {
    return notUnderstood('rank', `I understood the ${t.rank} ${e.name}, but the ${speciesAsked ? 'species' : RANK_PLURAL[p.askedRank!]} below it asked of are not what its classification holds.`);
  }
  if (p.askedRank && p.askedRank !== t.rank && p.releases.length > 0 && target.msl !== e.last_msl) {
    return notUnderstood('release', `I place the ${t.rank} ${e.name} within other taxa by its last release, ${release(lastRow)}, not by ${release(target)}, the release asked.`);
  }
  const asked = p.askedRank && p.askedRank !== t.rank ? e.parents.find((x) => x.rank === p.askedRank) : undefined;
  const life = e.last_msl === ctx.latest.msl ? `listed since ${e.first_msl === ctx.all[0]!.msl ? `${ctx.all[0]!.version}, the first release in the data set` : `MSL${e.first_msl}`}` : `listed MSL${e.first_msl}-MSL${e.last_msl}, no longer used`;
  const size = `${count(c.species, 'species', 'species')}${t.rank !== 'genus' && t.rank !== 'subgenus' ? ` in ${count(c.genera, 'genus', 'genera')}` : ''}`;
  const lead = asked ? `${e.name} belongs to the ${asked.rank} ${asked.name}. ` : p.askedRank && p.askedRank !== t.rank && !asked ? `${e.name} has no ${p.askedRank} above it in MSL${e.last_msl}. ` : '';
  const placed = parents ? `in MSL${e.last_msl} it sits in ${parents}` : `it has no higher rank above it in MSL${e.last_msl}`;
  return {
    response: `${lead}${e.name} is ${/^[aeiou]/.test(t.rank) ? 'an' : 'a'} ${t.rank} (${life}); ${placed}, and holds ${size} in ${release(at)}.`,
    data: { taxon: e.name, rank: t.rank, first_version: `MSL${e.first_msl}`, last_version: `MSL${e.last_msl}`, parents: e.parents, counts: { version: at.version, ...c } },
    sources: taxonSources(ctx),
  };
}

export function countTaxon(ctx: Ctx, p: Parsed, t: TaxonRef): Answer {
  const e = t.entry;
  const asked: Rank = p.targetRank && p.targetRank !== t.rank ? p.targetRank : 'species';
  const field = ({ species: 'species', genus: 'genera', family: 'families', order: 'orders' } as Record<string, 'species' | 'genera' | 'families' | 'orders'>)[asked];
  const targets = p.releases.length ? p.releases.map((r) => rowOf(ctx, r.msl)!) : [ctx.latest];
  // "since 2015": from that release to the latest
  if (targets.length === 1 && targets[0]!.msl !== ctx.latest.msl && /\b(?:since|from|after)\s+§rel\b/.test(p.residue)) targets.push(ctx.latest);
  targets.sort((a, b) => a.msl - b.msl);
  if (!field) {
    return fallback(`I can count species, genera, families and orders within a taxon, not ${RANK_PLURAL[asked]}.`);
  }
  const parts: string[] = [];
  const data: Array<Record<string, unknown>> = [];
  for (const target of targets) {
    const c = countsIn(e, target.msl);
    if (!c) {
      const lastRow = rowOf(ctx, e.last_msl)!;
      const lc = countsIn(e, e.last_msl)!;
      const why = target.msl < e.first_msl ? `it was first used in MSL${e.first_msl}` : `it was last used in ${release(lastRow)}, with ${count(lc[field], RANK_ONE[field]!, field)}`;
      parts.push(`the ${t.rank} ${e.name} is not in ${release(target)} (${why})`);
      data.push({ version: target.version, present: false });
      continue;
    }
    data.push({ version: target.version, present: true, ...c });
    const extra = field === 'species' && (t.rank !== 'genus' && t.rank !== 'subgenus') ? ` in ${count(c.genera, 'genus', 'genera')}` : field !== 'species' ? ` (${count(c.species, 'species', 'species')})` : '';
    parts.push(`in ${release(target)} the ${t.rank} ${e.name} has ${count(c[field], RANK_ONE[field]!, field)}${extra}`);
  }
  const text = parts.join('; ');
  const [a, b] = [data[0], data[data.length - 1]];
  const delta = data.length >= 2 && a!.present && b!.present
    ? ` That is a change of ${signed((b![field] as number) - (a![field] as number))} ${field} from ${a!.version} to ${b!.version}.` : '';
  return { response: withNote(`${text.charAt(0).toUpperCase()}${text.slice(1)}.${delta}`, p), data: { taxon: e.name, rank: t.rank, counted: field, counts: data }, sources: taxonSources(ctx) };
}

const RANK_ONE: Record<string, string> = { species: 'species', genera: 'genus', families: 'family', orders: 'order' };

export async function taxonHistory(ctx: Ctx, p: Parsed, t: TaxonRef): Promise<Answer> {
  const passed = thresholdAsked(p);
  if (passed) return taxonThresholdCrossed(ctx, t, passed);
  const a = await taxonLife(ctx, t);
  // "Was the order Caudovirales abolished?", "Has the genus Flavivirus been renamed?": a yes or a no first, where the
  // record says which (a taxon no longer listed, with no abolition or rename recorded, gets none)
  const status = (a.data as { status: string }).status;
  const asked = p.form.yesNo && p.releases.length <= 1 ? p.change : null;
  let yes = asked === 'abolished' ? (status === 'abolished' ? true : status === 'current' || status === 'renamed' ? false : null)
    : asked === 'renamed' ? (status === 'renamed' ? true : status === 'current' ? (await renamesTo(ctx.store, t.name)).length > 0 ? null : false : null) : null;
  // "Was Caudovirales abolished in 2019?", "... since 2019?": the change, and whether the release it came in is the
  // one asked (or after it, before it, as the question spans)
  const one = p.releases.length === 1 ? p.releases[0]! : null;
  if (one && yes === true) yes = inSpan(p.form.span, t.entry.last_msl + 1, one.msl);
  // "Was Coronaviridae created in 1976?", "Did Caudovirales exist in 2021?": its first release, or its releases,
  // against the one asked (a taxon may be missing from releases within its span: only its first and last are told)
  if (yes === null && one && p.form.yesNo && !p.form.span) {
    const e = t.entry;
    if (p.change === 'added' || /\b(?:creat\w*|introduc\w*|establish\w*|first (?:listed|appear\w*|used|recogni[sz]ed))\b/.test(p.residue)) yes = e.first_msl === one.msl;
    else if (p.change === null && /\b(?:exist\w*|listed|in (?:the )?§rel|recogni[sz]ed)\b/.test(p.residue)) {
      yes = one.msl < e.first_msl || one.msl > e.last_msl ? false : e.counts.some((c) => c.msl === one.msl) ? true : null;
    }
  }
  return yes === null ? a : { ...a, response: `${yes ? 'Yes' : 'No'}: ${a.response.replace(/^The /, 'the ')}` };
}

/**
 * "When did Coronaviridae first have more than 40 species?", "In which release did it first ...": a taxon's counts
 * against a number, release by release; the words of the bound, its number and what it counts, else null.
 */
function thresholdAsked(p: Parsed): RegExpExecArray | null {
  if (!/\b(?:when|first|which (?:release|version|msl|year)|what (?:release|version|msl|year))\b/.test(p.residue)) return null;
  return /\b(?:more than|over|above|exceed\w*|pass\w*|surpass\w*|reach\w*|at least|cross\w*|top(?:ped)?)\s+([\d,]+)\s+(species|genera|families|orders)\b/.exec(p.residue);
}

/** The first release in which a taxon's count of species (or genera, families, orders) passed a number. */
function taxonThresholdCrossed(ctx: Ctx, t: TaxonRef, m: RegExpExecArray): Answer {
  const n = Number(m[1]!.replace(/,/g, ''));
  const column = m[2] as 'species' | 'genera' | 'families' | 'orders';
  const atLeast = /\b(?:reach\w*|at least)\b/.test(m[0]);
  const first = t.entry.counts.find((c) => (atLeast ? c[column] >= n : c[column] > n));
  const than = atLeast ? `${num(n)} ${column} or more` : `more than ${num(n)} ${column}`;
  const now = t.entry.counts[t.entry.counts.length - 1]!;
  return {
    response: first
      ? `The ${t.rank} ${t.entry.name} first had ${than} in ${release(rowOf(ctx, first.msl)!)} (${num(first[column])}).`
      : `The ${t.rank} ${t.entry.name} never had ${than}; ${release(rowOf(ctx, now.msl)!)}, its last release, lists ${num(now[column])}.`,
    data: { taxon: t.entry.name, rank: t.rank, counted: column, threshold: n, version: first ? rowOf(ctx, first.msl)!.version : null },
    sources: taxonSources(ctx),
  };
}

async function taxonLife(ctx: Ctx, t: TaxonRef): Promise<Answer> {
  const e = t.entry;
  const first = rowOf(ctx, e.first_msl)!, last = rowOf(ctx, e.last_msl)!;
  const lc = countsIn(e, e.last_msl)!;
  const sources = taxonSources(ctx);
  if (e.last_msl === ctx.latest.msl) {
    const since = e.first_msl === ctx.all[0]!.msl ? `since ${release(first)}, the first release in the data set` : `since ${release(first)}`;
    const present = e.counts.length;
    const gaps = present < ctx.latest.msl - e.first_msl + 1 ? ` (in ${present} of those releases)` : '';
    return {
      response: `The ${t.rank} ${e.name} has been listed ${since}${gaps}, and is current in ${release(ctx.latest)} with ${count(lc.species, 'species', 'species')}.`,
      data: { taxon: e.name, rank: t.rank, status: 'current', first_version: first.version, last_version: last.version, releases: present },
      sources,
    };
  }
  const next = ctx.all.find((r) => r.msl > e.last_msl)!;
  // what ended it: the timeline tells the big abolitions, family_stability the renames and ends of families
  const event = (await timeline(ctx.store)).find((x) => x.subject === e.name && x.kind === 'taxon_abolished');
  sources.push({ model: 'timeline', version: span(ctx) });
  let status = event ? 'abolished' : 'ended';
  let fate = event?.description ?? `no release from ${release(next)} on lists it`;
  // the rename history names what a taxon became when it was renamed, and where it was moved
  const changed = await taxonFate(ctx, t);
  const renamed = changed?.new_name && /renam/i.test(changed.change) ? changed : null;
  if (renamed && !event) {
    fate = `in ${release(next)} it was ${renamed.text}${await laterNames(ctx, renamed.new_name!, next)}`;
    status = 'renamed';
  }
  // no record of the change lists: how its lineage went on ("Rhinovirus": merged into Enterovirus in MSL24)
  const ending = !renamed && !event ? (await endingsIn(ctx.store, next.msl)).get(e.name) : undefined;
  if (ending) {
    fate = ending.kind === 'renamed' ? `in ${release(next)} its species went on in the new ${t.rank} ${ending.into[0]}` : `in ${release(next)} it was ${ending.kind} into ${and(ending.into)}`;
    status = ending.kind;
  }
  if (t.rank === 'family' && !renamed) {
    const s = await stabilityRow(ctx.store, e.name);
    sources.push({ model: 'family_stability', version: span(ctx) });
    if (s) {
      status = statusOf(s);
      const end = s.events.filter((x) => x.kind === 'abolished' || x.kind === 'split').pop();
      if (s.renamed_to) fate = `it was renamed ${s.renamed_to} in ${release(next)}`;
      else if (!event) fate = end?.description ?? `it was abolished in ${release(next)}`;
    }
  }
  return {
    response: `The ${t.rank} ${e.name} was listed from ${release(first)} to ${release(last)} (${count(lc.species, 'species', 'species')} in its last release); ${fate}.`,
    data: { taxon: e.name, rank: t.rank, status, first_version: first.version, last_version: last.version, ended_in: next.version, event: event?.description ?? null },
    sources,
  };
}

/**
 * What a renamed taxon was called after its rename, to the latest release: "; it was renamed again,
 * Orthoherpesviridae in MSL38 (2022), its name in MSL41 (2025)" (Herpetoviridae became Herpesviridae in MSL5,
 * which is not its name now), or how the last of its names ended. Empty when the name it got is current.
 */
async function laterNames(ctx: Ctx, name: string, at: ReleaseRow): Promise<string> {
  const entry = profileEntries(ctx, name).find((x) => x.first_msl <= at.msl && x.last_msl >= at.msl);
  if (!entry) return '';
  const w = await renameWalk(ctx, name, entry.last_msl, ctx.latest.msl);
  const again = w.steps.length ? `; it was renamed again, ${and(w.steps.map((x) => `${x.to} in ${release(x.at)}`))}` : '';
  if (w.stop === 'reached') return again && `${again}, its name in ${release(ctx.latest)}`;
  if (w.stop === 'unlisted') return again;
  const after = ctx.all.find((r) => r.msl > w.last)!;
  const ending = (await endingsIn(ctx.store, after.msl)).get(w.name);
  const end = ending && ending.kind !== 'renamed' ? `was ${ending.kind} into ${and(ending.into)} in ${release(after)}` : `was listed to ${release(rowOf(ctx, w.last)!)}`;
  return `${again}; ${w.name} ${end}`;
}

interface EvolutionRow { version: string; species: number; genera: number; species_delta: number | null; events: string }

export async function familyEvolution(ctx: Ctx, p: Parsed, t: TaxonRef): Promise<Answer> {
  if (t.rank !== 'family') return taxonHistory(ctx, p, t);
  const rows = await ctx.store.query<EvolutionRow>(`
    SELECT version, species::INTEGER AS species, genera::INTEGER AS genera, species_delta::INTEGER AS species_delta,
           to_json(events)::VARCHAR AS events
    FROM main.family_evolution WHERE family = $1 ORDER BY msl`, [t.entry.name]);
  if (rows.length === 0) return taxonHistory(ctx, p, t);
  const first = rows[0]!, last = rows[rows.length - 1]!;
  const events = rows.flatMap((r) => JSON.parse(r.events) as Array<{ msl_version: string; kind: string; description: string }>);
  const peak = rows.reduce((a, b) => (b.species > a.species ? b : a));
  const ended = mslOf(last.version) < ctx.latest.msl;
  const growth = `The family ${t.entry.name} went from ${count(first.species, 'species', 'species')} in ${release(rowOf(ctx, mslOf(first.version))!)} to ${num(last.species)} in ${release(rowOf(ctx, mslOf(last.version))!)}${ended ? ', its last release' : ''}${peak.species > last.species ? ` (peak ${num(peak.species)} in ${peak.version})` : ''}.`;
  const told = events.length === 0
    ? ` No major event (creation, rename, split, merge, abolition or large move) is recorded for it${first.version === ctx.all[0]!.version ? ` since ${ctx.all[0]!.version}` : ''}.`
    : ` ${count(events.length, 'major event is', 'major events are')} recorded; the latest: ${events[events.length - 1]!.description}.`;
  return {
    response: `${growth}${told}`,
    data: { family: t.entry.name, evolution: rows.map((r) => ({ version: r.version, species: r.species, genera: r.genera, species_delta: r.species_delta })), major_events: events },
    sources: [{ model: 'family_evolution', version: `${first.version}-${last.version}` }],
  };
}

export async function familyStability(ctx: Ctx, p: Parsed): Promise<Answer> {
  const t = p.taxa[0];
  if (!t) {
    const { most, least } = await stabilityExtremes(ctx.store, 5);
    const fmt = (r: typeof most[number]) => `${r.family} (${dec(r.stability!)})`;
    return {
      response: `The most stable families are ${and(most.map(fmt))}; the least stable are ${and(least.map(fmt))} (median ${dec(most[0]?.median_stability ?? 0)}).`,
      data: { most_stable: most.map(brief), least_stable: least.map(brief), formula: STABILITY_FORMULA },
      sources: [{ model: 'family_stability', version: span(ctx) }],
    };
  }
  if (t.rank !== 'family') {
    return fallback(`Stability scores are computed for families, and ${t.entry.name} is a ${t.rank}.`);
  }
  const r = await stabilityRow(ctx.store, t.entry.name);
  if (!r) return fallback(`I have no stability analysis for ${t.entry.name}.`);
  return {
    response: stabilitySentence(r),
    data: { ...brief(r), formula: STABILITY_FORMULA, churn: r.churn, events: r.events },
    sources: [{ model: 'family_stability', version: span(ctx) }],
  };
}

const brief = (r: NonNullable<Awaited<ReturnType<typeof stabilityRow>>>) => ({
  family: r.family, status: statusOf(r), stability: r.stability, stability_rank: r.stability_rank, ranked_families: r.ranked_families,
  median_stability: r.median_stability, species_steps: r.species_steps,
  changes: { renamed: r.renamed, moved: r.moved, merged: r.merged, split: r.split, abolished: r.abolished },
});

// --- genomes and hosts of a taxon: its family's profile (family_profile) --------------------------------------

function profileOf(list: FamilyProfile[], name: string): FamilyProfile | undefined {
  return list.find((f) => f.family === name);
}

/**
 * The family profile a genome or host question about a taxon is answered from (the taxon's own family), with
 * the clause that says so when the taxon is below family; or the answer saying why there is none.
 */
async function familyOfTaxon(ctx: Ctx, t: TaxonRef, what: 'Genome' | 'Host'): Promise<{ f: FamilyProfile; of: string } | { missing: Answer }> {
  const list = await familyProfiles(ctx.store);
  const family = t.rank === 'family' ? t.entry.name : t.entry.parents.find((x) => x.rank === 'family')?.name;
  const f = family ? profileOf(list, family) : undefined;
  if (!f) return { missing: fallback(`${what} summaries are per family of ${ctx.latest.version}, and ${t.entry.name} is not ${t.rank === 'family' ? `a family of ${ctx.latest.version}` : `in a family of ${ctx.latest.version}`}.`) };
  const of = t.rank === 'family' ? '' : ` (${t.entry.name} is a ${t.rank} of the family ${f.family}; figures are the family's)`;
  return { f, of };
}

/**
 * "Is a coronavirus a positive-strand RNA virus?": the genome compositions of the species of the taxon (its
 * families', for a taxon above family; its family's, said so, for one below), against those asked.
 */
export async function taxonGenomeType(ctx: Ctx, p: Parsed): Promise<Answer> {
  const t = p.taxa[0]!;
  const list = await familyProfiles(ctx.store);
  const above = t.rank === 'order' || t.rank === 'realm';
  const families = above ? list.filter((f) => (t.rank === 'order' ? f.order : f.realm) === t.entry.name) : [];
  const found = above ? null : await familyOfTaxon(ctx, t, 'Genome');
  if (found && 'missing' in found) return found.missing;
  const profiles = found ? [found.f] : families;
  if (profiles.length === 0) return notUnderstood('genome', `Genome compositions are summed per family of ${ctx.latest.version}, and I cannot place the ${t.rank} ${t.entry.name}'s families.`);
  const comps = new Map<string, number>();
  for (const f of profiles) for (const c of f.compositions) comps.set(c.composition, (comps.get(c.composition) ?? 0) + c.species);
  const typed = [...comps.values()].reduce((a, b) => a + b, 0);
  // (reverse-transcribing genomes are of the kind asked, as for one species: ssRNA-RT is single-stranded RNA)
  const match = [...comps].filter(([c]) => p.genomeTypes.includes(c) || p.genomeTypes.includes(c.replace(/-RT$/, ''))).reduce((a, [, n]) => a + n, 0);
  const lead = match === typed ? 'Yes' : match === 0 ? 'No' : 'Partly';
  const all = [...comps].sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c} (${num(n)})`);
  const of = found?.of ?? '';
  // the figures are a family's: said of the family, a genus's own count being another number
  const whose = found && found.f.family !== t.entry.name ? `the family ${found.f.family}` : `the ${t.rank} ${t.entry.name}`;
  return {
    response: `${lead}: in ${release(ctx.latest)}, ${match === typed ? `all ${num(typed)}` : `${num(match)} of ${num(typed)}`} species of ${whose} with a recorded genome composition have ${genomeLabel(p.genomeTypes)} genomes; their compositions: ${and(all)}${of}.`,
    data: { taxon: t.entry.name, rank: t.rank, version: ctx.latest.version, asked: p.genomeTypes, compositions: Object.fromEntries(comps), matching: match, typed, answer: lead.toLowerCase() },
    sources: [{ model: 'family_profile', version: ctx.latest.version }],
  };
}

export async function taxonGenome(ctx: Ctx, _p: Parsed, t: TaxonRef): Promise<Answer> {
  const found = await familyOfTaxon(ctx, t, 'Genome');
  if ('missing' in found) return found.missing;
  const { f, of } = found;
  const comps = f.compositions.map((c) => `${c.composition} (${num(c.species)})`);
  const sizes = f.size_n > 0 ? `; its exemplar genomes are ${formatGenomeSize(f.size_min_bp!)}-${formatGenomeSize(f.size_max_bp!)} long (median ${formatGenomeSize(f.size_median_bp!)}, ${count(f.size_n, 'genome', 'genomes')})` : '; no exemplar genome length is known for it';
  return {
    response: `In ${release(ctx.latest)} the ${count(f.species, 'species', 'species')} of ${f.family} have ${and(comps)} genomes${sizes}${of}.`,
    data: { family: f.family, version: ctx.latest.version, compositions: f.compositions, size: sizeStats(f) },
    sources: [{ model: 'family_profile', version: ctx.latest.version }],
  };
}

const sizeStats = (f: FamilyProfile) => ({ n: f.size_n, min_bp: f.size_min_bp, p25_bp: f.size_p25_bp, median_bp: f.size_median_bp, p75_bp: f.size_p75_bp, max_bp: f.size_max_bp });

export async function taxonHosts(ctx: Ctx, _p: Parsed, t: TaxonRef): Promise<Answer> {
  const found = await familyOfTaxon(ctx, t, 'Host');
  if ('missing' in found) return found.missing;
  const { f, of } = found;
  const hosted = f.members.filter((m) => m.hosts.length > 0).length;
  const hosts = f.hosts.map((h) => `${h.host} (${num(h.species)})`);
  return {
    response: hosts.length
      ? `In ${release(ctx.latest)} the host sources of ${f.family}'s species are ${and(hosts)}, over ${count(hosted, 'species', 'species')} with a recorded host source (VMR exemplars)${of}.`
      : `No host source is recorded for any species of ${f.family}${of}.`,
    data: { family: f.family, version: ctx.latest.version, hosts: f.hosts, species_with_host: hosted },
    sources: [{ model: 'family_profile', version: ctx.latest.version }],
  };
}

// --- yes or no about a taxon ---------------------------------------------------------------------------------

/** "Does Caudovirales still exist?": whether the latest release lists it, and what became of it if not. */
export async function stillInUse(ctx: Ctx, p: Parsed): Promise<Answer> {
  const t = p.taxa[0]!;
  const yes = t.entry.last_msl === ctx.latest.msl;
  const last = rowOf(ctx, t.entry.last_msl)!;
  const fate = (await fateOf(ctx.store, t.name)).filter((f) => f.msl > t.entry.last_msl);
  const became = fate[0];
  const then = became
    ? became.new_name && /renam/i.test(became.change) ? `; in ${release(rowOf(ctx, became.msl)!)} it was renamed ${became.new_name}` : `; it was ${became.change.toLowerCase()} in ${release(rowOf(ctx, became.msl)!)}`
    : '';
  return {
    response: yes
      ? `Yes: the ${t.rank} ${t.name} is in the latest release, ${release(ctx.latest)} (listed since MSL${t.entry.first_msl}).`
      : `No: the ${t.rank} ${t.name} was listed from MSL${t.entry.first_msl} to ${release(last)} and is not in the latest release, ${release(ctx.latest)}${then}.`,
    data: { taxon: t.name, rank: t.rank, first_version: `MSL${t.entry.first_msl}`, last_version: `MSL${t.entry.last_msl}`, answer: yes ? 'yes' : 'no', ...(became ? { fate: became } : {}) },
    sources: sources(ctx, 'taxon_profile'),
  };
}

/** "Is Coronaviridae a family?". */
export function rankIs(ctx: Ctx, p: Parsed): Answer {
  const t = p.taxa[0]!;
  const rank = p.relationRank!;
  const yes = t.rank === rank;
  // "Is Coronaviridae an order or a family?" is no yes or no: the rank alone answers it
  const lead = /§tx (?:still )?(?:an? |the )?[a-z]+ or (?:an? )?[a-z]+\b/.test(p.residue) ? '' : `${yes ? 'Yes' : 'No'}: `;
  return {
    response: `${lead}${t.name} is ${/^[aeiou]/.test(t.rank) ? 'an' : 'a'} ${t.rank} (listed MSL${t.entry.first_msl}-MSL${t.entry.last_msl}).`,
    data: { taxon: t.name, rank: t.rank, asked: rank, answer: yes ? 'yes' : 'no' }, sources: sources(ctx, 'taxon_profile'),
  };
}

/**
 * "Is rotavirus a reovirus?", "Is Norovirus in the family Caliciviridae?": whether the first taxon sits within the
 * second, by the first one's place in its last release.
 */
export async function taxonIn(ctx: Ctx, p: Parsed): Promise<Answer> {
  const [a, b] = p.taxa as [TaxonRef, TaxonRef];
  // "Are coronaviruses and arteriviruses related?" asks what they share, not whether one holds the other
  if (/\brelated\b/.test(p.residue)) return related(ctx, a, b);
  // "Was Coronaviridae in Nidovirales in 1990?": its place in that release, when the second taxon is of a rank above
  // the first's and the question asks nothing else of them ("Were A and B both created in 1975?")
  if (p.releases.length > 0) {
    const r = targetRelease(ctx, p);
    if (RANKS.indexOf(b.rank as Rank) < RANKS.indexOf(a.rank as Rank) && p.change === null && !/\b(?:both|each|creat\w*|introduc\w*|exist\w*|listed|abolish\w*)\b/.test(p.residue)) return taxonInRelease(ctx, a, b, r);
    return notUnderstood('release', `I place the ${a.rank} ${a.name} within a taxon of a higher rank in one release at a time, and did not read this question as that.`);
  }
  // a taxon no longer listed, asked of today ("Is human rhinovirus an enterovirus?"): where its species went; asked
  // in the past ("Was Siphoviridae in Caudovirales?"), its place in its last release (below)
  if (a.entry.last_msl < ctx.latest.msl && !PAST.test(p.normalised)) {
    const went = endedInto(ctx, a, b);
    if (went) return went;
    // renamed since ("Is the genus Pestivirus still in Flaviviridae?", Orthopestivirus in Pestiviridae since MSL41):
    // where its later name sits today, not where the name sat in its last release
    const later = await renamedAs(ctx, a, ctx.latest.msl);
    const now = later ? profileEntries(ctx, later.name).find((e) => e.rank === a.rank && e.last_msl === ctx.latest.msl) : undefined;
    if (later && now) {
      const yes = now.parents.some((x) => x.rank === b.rank && x.name === b.name);
      const fate = await taxonFate(ctx, a);
      const steps = fate ? `was ${fate.text} in ${release(fate.at)}` : and(later.steps.map((x) => `was renamed ${x.to} in ${release(x.at)}`));
      const word = b.group ? `, which "${b.text.toLowerCase()}" names` : '';
      return {
        response: `${yes ? 'Yes, by its later name' : 'No'}: the ${a.rank} ${a.name} ${steps}; in ${release(ctx.latest)} the ${a.rank} ${now.name} ${yes ? 'is in' : 'is not in'} the ${b.rank} ${b.name}${word}; it sits in ${now.parents.map((x) => `${x.rank} ${x.name}`).join(' > ') || 'no higher taxon'}.`,
        data: { taxon: a.name, rank: a.rank, now: now.name, asked: { rank: b.rank, name: b.name }, parents: now.parents, version: ctx.latest.version, answer: yes ? 'yes' : 'no' },
        sources: sources(ctx, 'taxon_profile', ctx.latest.version),
      };
    }
  }
  // "Has Coronaviridae always been in Nidovirales?": across every release that lists it, not only its last; the
  // places of earlier releases are not held here, so only a container listed later than the taxon answers it
  if (/\b(?:always|ever since|throughout|every release)\b/.test(p.normalised)) {
    if (b.entry.first_msl > a.entry.first_msl) {
      return {
        response: `No: the ${a.rank} ${a.name} is listed from ${release(rowOf(ctx, a.entry.first_msl)!)}, and the ${b.rank} ${b.name} only from ${release(rowOf(ctx, b.entry.first_msl)!)}.`,
        data: { taxon: a.name, rank: a.rank, asked: { rank: b.rank, name: b.name }, first_listed: { [a.name]: `MSL${a.entry.first_msl}`, [b.name]: `MSL${b.entry.first_msl}` }, answer: 'no' },
        sources: sources(ctx, 'taxon_profile', ctx.latest.version),
      };
    }
    return notUnderstood('taxon', `I can say where the ${a.rank} ${a.name} sits in its last release, not in every release since it was first listed.`);
  }
  const at = rowOf(ctx, a.entry.last_msl)!;
  const yes = a.entry.parents.some((x) => x.rank === b.rank && x.name === b.name);
  // "Was Flavivirus ever in Togaviridae?": its place in its last release holds a Yes, never a No of every release
  // ("always" is read above)
  if (!yes && p.releases.length === 0 && (PAST.test(p.normalised) || /\b(?:ever|once|originally|formerly)\b/.test(p.residue))) {
    return notUnderstood('release', `I place the ${a.rank} ${a.name} within other taxa by its last release, ${release(at)}, where it is not in the ${b.rank} ${b.name}; whether it was in an earlier release is not in that record.`);
  }
  const path = a.entry.parents.map((x) => `${x.rank} ${x.name}`).join(' > ');
  const word = b.group ? `, which "${b.text.toLowerCase()}" names` : '';
  return {
    response: `${yes ? 'Yes' : 'No'}: in ${release(at)}, the ${a.rank} ${a.name} ${yes ? 'is in' : 'is not in'} the ${b.rank} ${b.name}${word}; it sits in ${path || 'no higher taxon'}.`,
    data: { taxon: a.name, rank: a.rank, asked: { rank: b.rank, name: b.name }, parents: a.entry.parents, version: at.version, answer: yes ? 'yes' : 'no' },
    sources: sources(ctx, 'taxon_profile', at.version),
  };
}

/**
 * "Are polio and rhinovirus in the same genus?", "Are poxviruses and adenoviruses in the same realm?": each one's
 * taxon of the rank asked in the latest release, a virus by its species, a taxon by itself or the taxon above it.
 * A taxon no longer listed, or above the rank asked, has no one taxon of that rank: not answered.
 */
export function sameRankTaxon(ctx: Ctx, p: Parsed): Answer {
  const rank = p.relationRank!;
  const r = ctx.latest;
  const items: Array<{ said: string; at: string | null; self?: boolean }> = [];
  for (const s of p.species) {
    const doc = speciesIn(ctx, s, r).species;
    if (!doc) return notUnderstood('species', `${s.text} is not a species in ${release(r)}.`);
    items.push({ said: who(s, doc.scientific_name), at: doc.classification[rank] ?? null });
  }
  for (const t of p.taxa) {
    const word = t.group ? ` ("${t.text.toLowerCase()}")` : '';
    if (t.entry.last_msl < r.msl) return notUnderstood('taxon', `the ${t.rank} ${t.name}${word} is not listed in ${release(r)}, so it has no ${rank} there: ask about one of its species.`);
    if (RANKS.indexOf(t.rank as Rank) < RANKS.indexOf(rank)) return notUnderstood('rank', `the ${t.rank} ${t.name}${word} is above the rank ${rank}: its species are in several ${RANK_PLURAL[rank]} or one, which this question does not ask.`);
    items.push({ said: `the ${t.rank} ${t.name}${word}`, at: t.rank === rank ? t.name : t.entry.parents.find((x) => x.rank === rank)?.name ?? null, self: t.rank === rank });
  }
  const [a, b] = items as [typeof items[0], typeof items[0]];
  const yes = a.at !== null && a.at === b.at;
  const place = (x: typeof a) => (x.self ? `${x.said} is that ${rank} itself` : x.at === null ? `${x.said} is in no ${rank}` : `${x.said} is in the ${rank} ${x.at}`);
  return {
    response: `${yes ? 'Yes' : 'No'}: in ${release(r)}, ${place(a)} and ${place(b)}.`,
    data: { rank, version: r.version, items: items.map((x) => ({ name: x.said, [rank]: x.at })), answer: yes ? 'yes' : 'no' },
    sources: sources(ctx, 'taxon_profile', r.version),
  };
}

/** Whether taxon a sits within taxon b in release r, by a's row of that release (src.taxa). */
async function taxonInRelease(ctx: Ctx, a: TaxonRef, b: TaxonRef, r: ReleaseRow): Promise<Answer> {
  const listed = (t: TaxonRef) => `listed ${t.entry.first_msl === t.entry.last_msl ? `in MSL${t.entry.first_msl}` : `MSL${t.entry.first_msl}-MSL${t.entry.last_msl}`}`;
  if (a.entry.first_msl > r.msl || a.entry.last_msl < r.msl) return notUnderstood('taxon', `The ${a.rank} ${a.name} is not in ${release(r)} (${listed(a)}).`);
  const [row] = await ctx.store.query<Record<string, string | null>>(
    `SELECT * FROM src.taxa WHERE msl = $1 AND rank = $2 AND lower(name) = lower($3) LIMIT 1`, [r.msl, a.rank, a.name]);
  if (!row) return notUnderstood('taxon', `The ${a.rank} ${a.name} is not in ${release(r)}.`);
  const yes = row[b.rank]?.toLowerCase() === b.name.toLowerCase();
  const path = CLASSIFICATION_RANKS.filter((k) => k !== a.rank && row[k]).map((k) => `${k} ${row[k]}`).join(' > ');
  const absent = !yes && (b.entry.first_msl > r.msl || b.entry.last_msl < r.msl);
  // ("Was rotavirus a reovirus in 2015?": the order Reovirales, which the everyday word names today, came later;
  // the reoviruses of that release were another taxon (the family Reoviridae): that release cannot say No. Named
  // by its own name, "Was Coronaviridae in Nidovirales in 1990?", the taxon not yet listed is a No)
  if (absent && b.group) {
    return notUnderstood('taxon', `The ${b.rank} ${b.name}, which "${b.text.toLowerCase()}" names, is not a taxon of ${release(r)} (${listed(b)}), so that release cannot say whether the ${a.rank} ${a.name} was one; there the ${a.rank} ${a.name} sits in ${path || 'no higher taxon'}.`);
  }
  const gone = absent ? ` (the ${b.rank} ${b.name} is not a taxon of that release: ${listed(b)})` : '';
  return {
    response: `${yes ? 'Yes' : 'No'}: in ${release(r)}, the ${a.rank} ${a.name} ${yes ? 'is in' : 'is not in'} the ${b.rank} ${b.name}${gone}; it sits in ${path || 'no higher taxon'}.`,
    data: { taxon: a.name, rank: a.rank, asked: { rank: b.rank, name: b.name }, version: r.version, answer: yes ? 'yes' : 'no' },
    sources: [{ model: 'taxa', version: r.version }],
  };
}

/** The lowest taxon two taxa share in the last release that lists both, by their places there. */
function related(ctx: Ctx, a: TaxonRef, b: TaxonRef): Answer {
  const at = rowOf(ctx, Math.min(a.entry.last_msl, b.entry.last_msl))!;
  const chain = (t: TaxonRef) => [...(profileEntries(ctx, t.name).find((e) => e.rank === t.rank && e.first_msl <= at.msl && e.last_msl >= at.msl)?.parents ?? t.entry.parents), { rank: t.rank, name: t.name }];
  const [ca, cb] = [chain(a), chain(b)];
  const shared = ca.filter((x) => cb.some((y) => y.rank === x.rank && y.name === x.name)).pop();
  const place = (t: TaxonRef, c: Array<{ rank: string; name: string }>) => `the ${t.rank} ${t.name} (${c.slice(0, -1).map((x) => `${x.rank} ${x.name}`).join(' > ') || 'no higher taxon'})`;
  return {
    response: shared
      ? `Yes: in ${release(at)}, the ${a.rank} ${a.name} and the ${b.rank} ${b.name} are both in the ${shared.rank} ${shared.name}, the lowest taxon they share.`
      : `No taxon holds both in ${release(at)}: ${place(a, ca)} and ${place(b, cb)}.`,
    data: { taxa: [a.name, b.name], version: at.version, shared: shared ?? null },
    sources: sources(ctx, 'taxon_profile', at.version),
  };
}

/**
 * The record of a taxon that ended (merged, split, abolished, renamed) against a taxon of the latest release: Yes
 * when every taxon its species went to is in that taxon now (the genus Rhinovirus, merged into Enterovirus in
 * MSL24, is within the genus Enterovirus), No when none is; null when some are and some are not, or the record
 * names none, which no one word answers.
 */
function endedInto(ctx: Ctx, a: TaxonRef, b: TaxonRef): Answer | null {
  const hit = lookupName(ctx.store, a.name).find((h) => h.kind === 'taxon' && h.last_msl === a.entry.last_msl);
  const doc = hit ? taxonDoc(ctx.store, hit.lineage_id) : null;
  if (!doc || doc.rank !== a.rank || doc.destinations.length === 0) return null;
  const within = (d: { rank: string; name: string }) => profileEntries(ctx, d.name).some((e) => e.rank === d.rank && e.last_msl === ctx.latest.msl
    && ((e.rank === b.rank && e.name === b.name) || e.parents.some((x) => x.rank === b.rank && x.name === b.name)));
  const inB = doc.destinations.filter(within);
  if (inB.length !== 0 && inB.length !== doc.destinations.length) return null;
  const yes = inB.length > 0;
  const end = rowOf(ctx, mslOf(doc.ended_in ?? `MSL${a.entry.last_msl + 1}`))!;
  const shown = doc.destinations.slice(0, 3).map((d) => `the ${d.rank} ${d.name} (${num(d.species)} species)`);
  const into = doc.destinations.length > shown.length ? `${shown.join(', ')} and ${num(doc.destinations.length - shown.length)} more taxa` : and(shown);
  const word = b.group ? ` ("${b.text.toLowerCase()}")` : '';
  const itself = doc.destinations.every((d) => d.rank === b.rank && d.name === b.name);
  const where = itself ? '' : `, ${doc.destinations.length === 1 ? 'which is' : yes ? 'each of them' : 'none of them'} in the ${b.rank} ${b.name}${word} in ${release(ctx.latest)}`;
  return {
    response: `${yes ? 'Yes' : 'No'}, by where its species went: the ${a.rank} ${a.name} was listed ${doc.first_appearance}-${doc.last_appearance} and ${doc.ended} in ${release(end)}, its species going to ${into}${where}.`,
    data: { taxon: a.name, rank: a.rank, ended: doc.ended, ended_in: doc.ended_in, destinations: doc.destinations, asked: { rank: b.rank, name: b.name }, version: ctx.latest.version, answer: yes ? 'yes' : 'no' },
    sources: [...sources(ctx, 'taxon_history_doc'), ...sources(ctx, 'taxon_profile', ctx.latest.version)],
  };
}

/**
 * "Which came first, Flaviviridae or Togaviridae?", "Is Nidovirales older than Mononegavirales?": the release each
 * was first listed in (by the names asked: a taxon renamed was listed before under its former name).
 */
export function twoTaxaFirst(ctx: Ctx, p: Parsed): Answer {
  const [x, y] = p.taxa as [TaxonRef, TaxonRef];
  const [a, b] = [x, y].sort((m, n) => m.entry.first_msl - n.entry.first_msl) as [TaxonRef, TaxonRef];
  const first = (t: TaxonRef) => `the ${t.rank} ${t.name} was first listed in ${release(rowOf(ctx, t.entry.first_msl)!)}`;
  const same = a.entry.first_msl === b.entry.first_msl;
  // "Is A newer than B?" asks of the later one; anything else ("older", "earlier", "came first") of the earlier
  const newer = /\b(?:newer|newest|younger|youngest|later|more recent)\b/.test(p.residue);
  const which = same ? 'both were first listed in the same release' : newer ? `${b.name} is the newer` : `${a.name} came first`;
  // a yes or no is of the first taxon named: "Is Nidovirales older than Mononegavirales?"
  const lead = p.form.yesNo ? `${!same && (newer ? x === b : x === a) ? 'Yes' : 'No'}: ` : '';
  return {
    response: `${lead}${lead ? first(a) : `${first(a).charAt(0).toUpperCase()}${first(a).slice(1)}`} and ${first(b)}: ${which}.`,
    data: { taxa: [a, b].map((t) => ({ rank: t.rank, name: t.name, first_version: `MSL${t.entry.first_msl}` })), ...(lead ? { answer: lead.startsWith('Yes') ? 'yes' : 'no' } : {}) },
    sources: sources(ctx, 'taxon_profile'),
  };
}

/** "Does Coronaviridae have more than 50 species?". */
export function taxonThreshold(ctx: Ctx, p: Parsed): Answer {
  const t = p.taxa[0]!;
  const { how, n, rank } = p.form.more!;
  const r = targetRelease(ctx, p);
  const has = countOf(t, r.msl, rank);
  const yes = /more|over/.test(how) ? has > n : /at least/.test(how) ? has >= n : has < n;
  return {
    response: `${yes ? 'Yes' : 'No'}: in ${release(r)}, the ${t.rank} ${t.name} has ${num(has)} ${plural(rank, has)} (${how} ${num(n)} asked).`,
    data: { taxon: t.name, version: r.version, rank, count: has, asked: `${how} ${n}`, answer: yes ? 'yes' : 'no' }, sources: sources(ctx, 'taxon_profile', r.version),
  };
}

// --- two taxa ------------------------------------------------------------------------------------------------

const plural = (rank: Rank, n: number) => (n === 1 ? rank : RANK_PLURAL[rank] ?? `${rank}s`);

/** A taxon's number of species, genera, families or orders in a release (0 when it is not in it). */
export const countOf = (t: TaxonRef, msl: number, rank: Rank): number => {
  const c = t.entry.counts.find((x) => x.msl === msl);
  if (!c) return 0;
  return rank === 'species' ? c.species : rank === 'genus' ? c.genera : rank === 'family' ? c.families : c.orders;
};

/** "Which has more species, A or B?": both counts and the difference, or their sum. */
export function twoTaxa(ctx: Ctx, p: Parsed): Answer {
  const rank = p.relationRank ?? 'species';
  const r = targetRelease(ctx, p);
  const [a, b] = p.taxa as [TaxonRef, TaxonRef];
  const na = countOf(a, r.msl, rank), nb = countOf(b, r.msl, rank);
  // a taxon not in the release is not one with none: say where it is listed instead of comparing a zero
  const absent = [a, b].filter((t) => t.entry.first_msl > r.msl || t.entry.last_msl < r.msl);
  const src = sources(ctx, 'taxon_profile', r.version);
  if (absent.length > 0) {
    const where = (t: TaxonRef) => `the ${t.rank} ${t.name} is not in ${r.version} (it is listed in MSL${t.entry.first_msl}-MSL${t.entry.last_msl})`;
    const present = [a, b].filter((t) => !absent.includes(t));
    return {
      response: `In ${release(r)}, ${and(absent.map(where))}${present.map((t) => `; the ${t.rank} ${t.name} has ${num(countOf(t, r.msl, rank))} ${plural(rank, countOf(t, r.msl, rank))}`).join('')}.`,
      data: { version: r.version, rank, counts: Object.fromEntries(present.map((t) => [t.name, countOf(t, r.msl, rank)])), not_in_release: absent.map((t) => t.name) },
      sources: src,
    };
  }
  if (p.form.sum) {
    return {
      response: `In ${release(r)}, the ${a.rank} ${a.name} has ${num(na)} ${plural(rank, na)} and the ${b.rank} ${b.name} ${num(nb)}: ${num(na + nb)} together.`,
      data: { version: r.version, rank, counts: { [a.name]: na, [b.name]: nb }, total: na + nb }, sources: src,
    };
  }
  const more = na === nb ? null : na > nb ? a : b;
  const asked = p.form.fewer ? 'fewer' : 'more';
  const lead = p.form.yesNo ? `${(asked === 'more' ? na > nb : na < nb) ? 'Yes' : 'No'}: ` : '';
  const verdict = more === null ? `both have ${num(na)}` : `${more.name} has ${num(Math.abs(na - nb))} more than ${more === a ? b.name : a.name}`;
  return {
    response: `${lead}In ${release(r)}, the ${a.rank} ${a.name} has ${num(na)} ${plural(rank, na)} and the ${b.rank} ${b.name} ${num(nb)}: ${verdict}.`,
    data: { version: r.version, rank, counts: { [a.name]: na, [b.name]: nb }, difference: na - nb }, sources: src,
  };
}

/** "Did A or B gain more species between two releases?": both changes and their difference. */
export function twoTaxaBetween(ctx: Ctx, p: Parsed): Answer {
  const rank = p.relationRank ?? 'species';
  const [x, y] = p.releases.map((r) => rowOf(ctx, r.msl)!) as [ReleaseRow, ReleaseRow];
  const [from, to] = x.msl <= y.msl ? [x, y] : [y, x];
  const [a, b] = p.taxa as [TaxonRef, TaxonRef];
  const change = (t: TaxonRef) => ({ t, before: countOf(t, from.msl, rank), after: countOf(t, to.msl, rank), d: countOf(t, to.msl, rank) - countOf(t, from.msl, rank) });
  const ca = change(a), cb = change(b);
  // "lost more", "shrank more" ask which fell further; anything else which rose further
  const fell = p.form.fell;
  const [hi, lo] = (fell ? ca.d < cb.d : ca.d > cb.d) ? [ca, cb] : [cb, ca];
  const absent = (c: typeof ca) => [c.t.entry.first_msl > from.msl || c.t.entry.last_msl < from.msl ? `not in ${from.version}` : '', c.t.entry.first_msl > to.msl || c.t.entry.last_msl < to.msl ? `not in ${to.version}` : ''].filter(Boolean);
  const one = (c: typeof ca) => `the ${c.t.rank} ${c.t.name} went from ${num(c.before)} to ${num(c.after)} ${plural(rank, 2)} (${signed(c.d)}${absent(c).length ? `; ${absent(c).join(', ')}` : ''})`;
  const how = fell ? (hi.d <= 0 ? 'lost more' : 'gained less') : (hi.d >= 0 ? 'gained more' : 'lost less');
  const verdict = ca.d === cb.d ? `both changed by ${signed(ca.d)}` : `${hi.t.name} ${how}: ${signed(hi.d)} against ${signed(lo.d)}, a difference of ${num(Math.abs(ca.d - cb.d))}`;
  // "did A gain more than B": A is the subject; "did A or B" asks which, so no yes or no
  const lead = p.form.yesNo && !p.form.or && ca.d !== cb.d ? `${hi === ca ? 'Yes' : 'No'}: ` : '';
  return {
    response: `${lead}From ${release(from)} to ${release(to)}, ${one(ca)} and ${one(cb)}: ${verdict}.`,
    data: { from: from.version, to: to.version, rank, changes: { [a.name]: { from: ca.before, to: ca.after, difference: ca.d }, [b.name]: { from: cb.before, to: cb.after, difference: cb.d } }, difference: ca.d - cb.d },
    sources: sources(ctx, 'taxon_profile', `${from.version}-${to.version}`),
  };
}

/** Two taxa compared by a rank they are not counted in. */
export function compareRankUnread(_ctx: Ctx, p: Parsed): Answer {
  return notUnderstood('rank', `I can compare two taxa by their species, genera, families or orders, not by ${p.relationRank}.`);
}

// --- type species --------------------------------------------------------------------------------------------

/** "What is the type species of the genus Potexvirus?": as the releases that mark type species mark it. */
export async function typeSpeciesOf(ctx: Ctx, p: Parsed): Promise<Answer> {
  const genus = p.taxa.find((t) => t.rank === 'genus');
  const marked = await typeSpeciesReleases(ctx.store);
  const firstMarked = rowOf(ctx, marked[0]!)!, lastMarked = rowOf(ctx, marked[marked.length - 1]!)!;
  const between = `${release(firstMarked)} to ${release(lastMarked)}`;
  if (!genus) return notUnderstood('genus', `I understood a question about a type species but found no genus named in it (type species are marked per genus, in the releases ${between}).`);
  const asked = p.releases[0] ? rowOf(ctx, p.releases[0].msl)! : null;
  if (asked && !marked.includes(asked.msl)) {
    return notUnderstood('release', `${release(asked)} does not mark type species: the Master Species Lists mark them only in the releases ${between}.`);
  }
  const table = await typeSpecies(ctx.store);
  // a genus renamed since the last release that marks type species ("Orthoflavivirus", Flavivirus until MSL37): its
  // type species under the name it had then
  const marks = (n: string) => marked.some((m) => table.has(`${m}|${n.toLowerCase()}`));
  const former = asked || marks(genus.name) ? null : await markedFormerName(ctx, genus.name, marks);
  const name = former?.name ?? genus.name;
  const formerly = former ? ` (the genus ${and(former.renames)})` : '';
  // no release named: the last release that marks them, said so
  const at = asked ?? rowOf(ctx, [...marked].reverse().find((m) => table.has(`${m}|${name.toLowerCase()}`)) ?? lastMarked.msl)!;
  const found = table.get(`${at.msl}|${name.toLowerCase()}`) ?? [];
  const where = asked ? `In ${release(at)}` : `In ${release(at)}, the last release that marks type species (they are marked ${between})${formerly}`;
  const src = sources(ctx, 'species_marks', at.version);
  if (found.length === 0) {
    return { response: `${where}, no type species is marked for the genus ${genus.name}${genus.entry.first_msl > at.msl || genus.entry.last_msl < at.msl ? ` (the genus is not in ${at.version}; it is listed MSL${genus.entry.first_msl}-MSL${genus.entry.last_msl})` : ''}.`, data: { genus: genus.name, version: at.version, type_species: [] }, sources: src };
  }
  const names = found.map((f) => f.species);
  const s = p.species[0];
  if (s && p.form.yesNo) {
    const here = speciesIn(ctx, s, at);
    const speciesName = here.species?.scientific_name ?? s.matched_name;
    const yes = names.some((n) => n.toLowerCase() === speciesName.toLowerCase());
    return {
      response: `${yes ? 'Yes' : 'No'}: ${where.charAt(0).toLowerCase()}${where.slice(1)}, the type species of the genus ${name} is ${and(names)}${yes ? '' : `, not ${who(s, speciesName)}`}.`,
      data: { genus: genus.name, version: at.version, type_species: names, asked: speciesName, answer: yes ? 'yes' : 'no' }, sources: src,
    };
  }
  return { response: `${where}, the type species of the genus ${name} is ${and(names)}.`, data: { genus: genus.name, version: at.version, type_species: names }, sources: src };
}

/** The name a genus had under which a release marks type species, back along its renames, and the renames. */
async function markedFormerName(ctx: Ctx, genus: string, marks: (name: string) => boolean): Promise<{ name: string; renames: string[] } | null> {
  const renames: string[] = [];
  for (let name = genus, k = 0; k < 5; k++) {
    const back = (await renamesTo(ctx.store, name)).filter((x) => x.rank === 'genus').pop();
    const old = back?.old_name?.split(';').pop();
    if (!back || !old) return null;
    renames.unshift(`${old} was renamed ${name} in ${release(rowOf(ctx, back.msl)!)}`);
    if (marks(old)) return { name: old, renames };
    name = old;
  }
  return null;
}

// --- largest and fastest-growing taxa ------------------------------------------------------------------------

interface TaxonCountRow { name: string; species: number; genera: number; families: number; orders: number }

/** The taxa a ranking counts instead of species, asked in so many words ("the most genera", "by number of families"). */
const RANKED_BY = /\b(?:most|more|largest|biggest|greatest|highest|by|number of|count of)\s+(?:number of\s+)?(genera|families|orders)\b/;

/** What a ranking of `rank`'s taxa counts when the question names a lower rank to count ("the most genera"), else null. */
function countedBy(p: Parsed, rank: Rank): { column: 'genera' | 'families' | 'orders'; rank: Rank } | null {
  const word = RANKED_BY.exec(p.residue)?.[1] as 'genera' | 'families' | 'orders' | undefined;
  const counted = word ? rankOf(word) : null;
  return word && counted && RANKS.indexOf(counted) > RANKS.indexOf(rank) ? { column: word, rank: counted } : null;
}

export async function largestTaxa(ctx: Ctx, p: Parsed): Promise<Answer> {
  const passed = p.taxa.length === 1 ? thresholdAsked(p) : null;
  if (passed) return taxonThresholdCrossed(ctx, p.taxa[0]!, passed);
  const target = targetRelease(ctx, p);
  // ("which genus has the fewest species in Coronaviridae": the ranking here is largest first, and the smallest
  // are many ties of one species: not answered with the largest)
  if (/\b(?:fewest|smallest|least)\b/.test(p.residue)) return notUnderstood('ranking', 'I rank taxa by size largest first; ask for the largest, or how many species a taxon named has.');
  if (p.targetRank === 'species' && p.taxa[0] && p.taxa[0].rank !== 'species') return speciesOf(ctx, p.taxa[0], target);
  const rank: Rank = p.targetRank && p.targetRank !== 'species' ? p.targetRank : 'family';
  const within = p.taxa[0] && p.taxa[0].rank !== rank ? p.taxa[0] : null;
  // "what are the genera of Coronaviridae", "which genera are in it", "list the realms": up to 20; "largest families": the top 5
  const listing = /\b(?:(?:what|which) (?:are|were) the|list|name the|(?:what|which) [a-z]+ (?:are|were|does|do|did)|contain\w*|includ\w*)\b/.test(p.residue);
  const limit = Math.min(p.limit ?? (listing ? 20 : 5), 20);
  // "which family has the most genera": ranked by the taxa of a lower rank it holds, not by its species
  const by = countedBy(p, rank);
  const rows = await ctx.store.query<TaxonCountRow>(`
    SELECT name, species, genera, families, orders FROM main.taxon_counts
    WHERE msl = $1 AND rank = $2 AND ($3::VARCHAR IS NULL OR list_contains(list_transform(parents, p -> p.name), $3))
    ORDER BY ${by ? `${by.column} DESC, ` : ''}species DESC, name LIMIT $4`, [target.msl, rank, within?.entry.name ?? null, limit]);
  const where = within ? ` of the ${within.rank} ${within.entry.name}` : '';
  const sources = [{ model: 'taxon_counts', version: target.version }];
  if (rows.length === 0) {
    return { response: withNote(`${release(target)} has no ${RANK_PLURAL[rank]}${where}.`, p), data: { rank, version: target.version, taxa: [] }, sources };
  }
  const [top, ...rest] = rows;
  if (by) {
    const plural = RANK_PLURAL[by.rank]!;
    const total = within ? null : releaseTotal(ctx.store, target, rank);
    const holder = within ? `In ${release(target)}, of the ${RANK_PLURAL[rank]} of the ${within.rank} ${within.entry.name}` : `${release(target)} has ${count(total ?? rows.length, rank, RANK_PLURAL[rank]!)}; of them`;
    const others = rest.map((r) => `${r.name} (${num(r[by.column])})`);
    return {
      response: withNote(`${holder}, the one with the most ${plural} is ${top!.name} with ${count(top![by.column], by.rank, plural)}${others.length ? `, followed by ${and(others)}` : ''}.`, p),
      data: { rank, version: target.version, within: within?.entry.name ?? null, ranked_by: by.column, taxa: rows },
      sources,
    };
  }
  const others = rest.map((r) => `${r.name} (${num(r.species)})`);
  const field = ({ genus: 'genera', family: 'families', order: 'orders' } as Record<string, 'genera' | 'families' | 'orders'>)[rank];
  const inside = within && field ? countsIn(within.entry, target.msl)?.[field] ?? null : null;
  const total = within ? inside : releaseTotal(ctx.store, target, rank);
  const holder = within ? `In ${release(target)} the ${within.rank} ${within.entry.name}` : release(target);
  const head = total === null ? `The largest ${rank}${where} in ${release(target)}` : `${holder} has ${count(total, rank, RANK_PLURAL[rank]!)}; the largest`;
  return {
    response: withNote(`${head} is ${top!.name} with ${count(top!.species, 'species', 'species')}${others.length ? `, followed by ${and(others)}` : ''}.`, p),
    data: { rank, version: target.version, within: within?.entry.name ?? null, taxa: rows },
    sources,
  };
}

/** Species named when a taxon holds up to this many; a taxon of more is counted, and its list left to the API. */
const SPECIES_NAMED = 60;

/** "Which species are in Betacoronavirus?": the species of a taxon in a release, by name. */
async function speciesOf(ctx: Ctx, t: TaxonRef, r: ReleaseRow): Promise<Answer> {
  if (t.entry.first_msl > r.msl || t.entry.last_msl < r.msl) {
    return notUnderstood('taxon', `The ${t.rank} ${t.name} is not in ${release(r)} (listed MSL${t.entry.first_msl}-MSL${t.entry.last_msl}).`);
  }
  const rows = await ctx.store.query<{ species: string; total: number }>(
    `SELECT species, (count(*) OVER ())::INTEGER AS total FROM src.species WHERE msl = $1 AND lower("${t.rank}") = lower($2) ORDER BY species LIMIT $3`,
    [r.msl, t.name, SPECIES_NAMED + 1]);
  const total = rows[0]?.total ?? 0;
  // a part of the list would read as all of it: a longer one is counted and left to the API
  if (total > SPECIES_NAMED) {
    return notUnderstood('list', `In ${release(r)} the ${t.rank} ${t.name} has ${count(total, 'species', 'species')}, more than I list here: GET /api/v1/taxonomy/${r.version}/${t.rank}/${encodeURIComponent(t.name)} pages through them.`);
  }
  const names = rows.map((x) => x.species);
  return {
    response: total === 0 ? `In ${release(r)} the ${t.rank} ${t.name} holds no species.`
      : `In ${release(r)} the ${t.rank} ${t.name} has ${count(total, 'species', 'species')}: ${and(names)}.`,
    data: { rank: t.rank, name: t.name, version: r.version, total, species: names },
    sources: [{ model: 'species', version: r.version }],
  };
}

interface GrowthRow { name: string; before: number; after: number; gain: number }

export async function fastestGrowing(ctx: Ctx, p: Parsed): Promise<Answer> {
  const rank: Rank = p.targetRank && p.targetRank !== 'species' ? p.targetRank : 'family';
  let from: ReleaseRow, to: ReleaseRow;
  if (p.releases.length >= 2) [from, to] = [rowOf(ctx, p.releases[0]!.msl)!, rowOf(ctx, p.releases[1]!.msl)!];
  else if (p.releases.length === 1) {
    to = rowOf(ctx, p.releases[0]!.msl)!;
    // "since 2019" reads from that release to the latest; "in MSL39" the step into that release
    const since = /\b(?:since|from|after)\s+§rel\b/.test(p.residue);
    from = since ? to : ctx.all.filter((r) => r.msl < to.msl).pop() ?? to;
    if (since) to = ctx.latest;
  } else [from, to] = [ctx.all[0]!, ctx.latest];
  if (from.msl > to.msl) [from, to] = [to, from];
  if (from.msl === to.msl) return fallback(`Growth needs two different releases, and ${from.version} is the first one in the data set.`);
  const limit = Math.min(p.limit ?? 5, 20);
  // "which family gained the most genera", "which family lost the most species": counted by another rank, or
  // the largest falls (a taxon gone counts all it had as lost)
  const by = countedBy(p, rank);
  const fell = /\b(?:lost|lose|loses|losing|shr[ai]nk\w*|declin\w*|decreas\w*|fell|drop\w*|shed)\b/.test(p.residue);
  if (by || fell) return growthBy(ctx, rank, from, to, by?.column ?? 'species', fell, limit, p);
  const rows = await ctx.store.query<GrowthRow>(`
    SELECT b.name, coalesce(a.species, 0) AS before, b.species AS after, b.species - coalesce(a.species, 0) AS gain
    FROM main.taxon_counts b
    LEFT JOIN main.taxon_counts a ON a.msl = $1 AND a.rank = b.rank AND a.name = b.name
    WHERE b.msl = $2 AND b.rank = $3
    ORDER BY gain DESC, b.name LIMIT $4`, [from.msl, to.msl, rank, limit]);
  const sources = [{ model: 'taxon_counts', version: `${from.version}-${to.version}` }];
  const fmt = (r: GrowthRow) => `${r.name} (${signed(r.gain)}, ${r.before === 0 ? `new, now ${num(r.after)}` : `${num(r.before)} to ${num(r.after)}, ${signed(Math.round((100 * r.gain) / r.before))}%`})`;
  if (rows.length === 0 || rows[0]!.gain <= 0) {
    return { response: `No ${rank} gained species between ${release(from)} and ${release(to)}.`, data: { rank, from_version: from.version, to_version: to.version, taxa: rows }, sources };
  }
  const [top, ...rest] = rows.filter((r) => r.gain > 0);
  return {
    response: withNote(`Between ${release(from)} and ${release(to)} the ${rank} that gained the most species is ${fmt(top!)}${rest.length ? `, followed by ${and(rest.map(fmt))}` : ''}.`, p),
    data: { rank, from_version: from.version, to_version: to.version, taxa: rows },
    sources,
  };
}

/** The taxa of a rank whose count of `column` rose (or, `fell`, dropped) most between two releases. */
async function growthBy(ctx: Ctx, rank: Rank, from: ReleaseRow, to: ReleaseRow, column: 'species' | 'genera' | 'families' | 'orders', fell: boolean, limit: number, p: Parsed): Promise<Answer> {
  const rows = await ctx.store.query<GrowthRow>(`
    SELECT coalesce(b.name, a.name) AS name, coalesce(a.${column}, 0) AS before, coalesce(b.${column}, 0) AS after,
           coalesce(b.${column}, 0) - coalesce(a.${column}, 0) AS gain
    FROM (SELECT name, ${column} FROM main.taxon_counts WHERE msl = $1 AND rank = $3) a
    FULL JOIN (SELECT name, ${column} FROM main.taxon_counts WHERE msl = $2 AND rank = $3) b ON a.name = b.name
    ORDER BY gain ${fell ? 'ASC' : 'DESC'}, name LIMIT $4`, [from.msl, to.msl, rank, limit]);
  const sources = [{ model: 'taxon_counts', version: `${from.version}-${to.version}` }];
  const moved = rows.filter((r) => (fell ? r.gain < 0 : r.gain > 0));
  const data = { rank, counted: column, direction: fell ? 'lost' : 'gained', from_version: from.version, to_version: to.version, taxa: rows };
  if (moved.length === 0) return { response: `No ${rank} ${fell ? 'lost' : 'gained'} ${column} between ${release(from)} and ${release(to)}.`, data, sources };
  const fmt = (r: GrowthRow) => `${r.name} (${signed(r.gain)}, ${r.before === 0 ? `new, now ${num(r.after)}` : r.after === 0 ? `${num(r.before)} to none: no longer listed` : `${num(r.before)} to ${num(r.after)}`})`;
  const [top, ...rest] = moved;
  return {
    response: withNote(`Between ${release(from)} and ${release(to)} the ${rank} that ${fell ? 'lost' : 'gained'} the most ${column} is ${fmt(top!)}${rest.length ? `, followed by ${and(rest.map(fmt))}` : ''}.`, p),
    data, sources,
  };
}


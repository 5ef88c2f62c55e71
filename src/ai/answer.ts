// One function per intent of POST /ai/query: a parsed question in, {response, data, sources} out. Every number
// and name in a response is read from a read model (named in sources) at answer time; a question whose subject
// is missing from the data gets a sentence saying so, never a made-up value.
import type { Store } from '../store/store.js';
import { diffSummary, type CompareCounts } from '../read/compare.js';
import { IDENTIFIER_KINDS, type IdentifierKind } from '../read/identifiers.js';
import { endingText, lineageDoc, lineageText, mslOf, speciesDoc, type LineageDoc, type Rank, type SpeciesDoc } from '../read/lineages.js';
import { normaliseName } from '../read/names.js';
import { asResolved, releases as releaseRows, type ReleaseRow } from '../read/releases.js';
import { placeIn, resolveOne } from '../read/resolve.js';
import { lineageRenames, renamesIn } from '../read/species-walks.js';
import { suggestNames } from '../read/suggest.js';
import { fateOf, renamesTo, timeline, type TimelineEvent } from '../read/taxonomy-facts.js';
import { modelOf, type FamilyProfile, type Model } from './classify.js';
import { and, count, dec, num, or, RANK_PLURAL, release, signed } from './format.js';
import type { ChangeKind, Intent, Parsed, SpeciesRef, TaxonEntry, TaxonRef } from './parse.js';
import { stabilityExtremes, stabilityRow, stabilitySentence, STABILITY_FORMULA, statusOf } from './stability.js';
import { COMPOSITION_NAMES, formatGenomeSize } from './vocabulary.js';
import { EXAMPLE_QUESTIONS } from './examples.js';

export interface Source {
  model: string;
  version: string;
}

export interface Answer {
  response: string;
  /** Set when the answer says what was not understood instead of answering (the caller reports not_understood). */
  unanswered?: true;
  data: Record<string, unknown>;
  sources: Source[];
}

interface Ctx {
  store: Store;
  all: ReleaseRow[];
  latest: ReleaseRow;
}

type Handler = (ctx: Ctx, p: Parsed) => Answer | Promise<Answer>;

const span = (ctx: Ctx) => `${ctx.all[0]!.version}-${ctx.latest.version}`;
const rowOf = (ctx: Ctx, msl: number) => ctx.all.find((r) => r.msl === msl);
/** "MSL39" -> "MSL39 (2023)": a release named in an answer says when it was. */
const labelled = (ctx: Ctx, version: string) => {
  const r = ctx.all.find((x) => x.version === version);
  return r ? release(r) : version;
};

/** The release a question is about: the first it names, else the latest. */
function targetRelease(ctx: Ctx, p: Parsed): ReleaseRow {
  const ref = p.releases[0];
  return (ref && rowOf(ctx, ref.msl)) ?? ctx.latest;
}

const withNote = (text: string, p: Parsed): string => {
  const notes = p.releases.flatMap((r) => (r.note ? [r.note] : []));
  return notes.length ? `${text} (Note: ${notes.join('; ')}.)` : text;
};

export function fallback(reason: string): Answer {
  const examples = EXAMPLE_QUESTIONS.slice(0, 5).map((e) => e.question);
  return {
    response: `${reason} I can answer questions such as: ${examples.slice(0, 3).map((q) => `"${q}"`).join(', ')}.`,
    data: { examples },
    sources: [],
    unanswered: true,
  };
}

// --- species -------------------------------------------------------------------------------------------------

function placement(ctx: Ctx, s: SpeciesRef, target: ReleaseRow) {
  return placeIn(ctx.store, s.lineage_ids[0]!, s.matched_name, asResolved(target));
}

const same = (a: string, b: string) => normaliseName(a) === normaliseName(b);

/** "Zika virus (species Orthoflavivirus zikaense)" or just the species name when that is what was asked. */
function called(s: SpeciesRef, name: string): string {
  return same(s.matched_name, name) ? name : `${s.matched_name} (species ${name})`;
}

function lineageSources(ctx: Ctx): Source[] {
  return [{ model: 'name_lookup', version: span(ctx) }, { model: 'history_doc', version: span(ctx) }];
}

function speciesSources(ctx: Ctx, version: string): Source[] {
  return [...lineageSources(ctx), { model: 'species_doc', version }];
}

function notInRelease(ctx: Ctx, s: SpeciesRef, l: LineageDoc, target: ReleaseRow, status: string): Answer {
  const when = status === 'not_yet' ? `it was first listed in ${l.first_appearance}` : `it is listed ${l.first_appearance}-${l.last_appearance} but not in that release`;
  return {
    response: `${s.text} is not in ${release(target)}: ${when}.`,
    data: { species: s.matched_name, lineage: summaryOf(l), version: target.version },
    sources: speciesSources(ctx, target.version),
  };
}

function summaryOf(l: LineageDoc) {
  return {
    lineage_id: l.lineage_id, first_appearance: l.first_appearance, last_appearance: l.last_appearance,
    current_name: l.current_name, names: l.names, ended: l.ended, abolished_in: l.abolished_in,
    merged_into: l.merged_into, split_into: l.split_into,
  };
}

function speciesClassification(ctx: Ctx, p: Parsed, s: SpeciesRef): Answer {
  const target = targetRelease(ctx, p);
  const pl = placement(ctx, s, target);
  if (pl.status === 'not_yet' || pl.status === 'gap') return notInRelease(ctx, s, pl.lineage, target, pl.status);
  const doc = pl.species;
  if (!doc) {
    return {
      response: `${s.text} is no longer a species in ${release(target)}: its lineage was ${endingText(pl.lineage)}, and nothing of it is listed in ${target.version}.`,
      data: { species: s.matched_name, lineage: summaryOf(pl.lineage), version: target.version, status: pl.resolution?.status ?? pl.lineage.ended },
      sources: speciesSources(ctx, target.version),
    };
  }
  const c = doc.classification;
  const asked = p.askedRank && p.askedRank !== 'species' ? p.askedRank : null;
  const full = lineageText(c) || 'without any rank above species';
  // a lineage that ended in a merge is answered with the species it went into, and says so
  const is = `${pl.status === 'ended' ? 'it is part of' : 'it is'} the species ${doc.scientific_name}${pl.status === 'ended' ? ` (its own species was ${endingText(pl.lineage)})` : ''}`;
  let response: string;
  if (asked) {
    response = c[asked]
      ? `${s.matched_name} belongs to the ${asked} ${c[asked]}: in ${release(target)} ${is}, classified ${full}.`
      : `${s.matched_name} has no ${asked} in ${release(target)}: ${is} there, classified ${full}.`;
  } else if (same(s.matched_name, doc.scientific_name)) {
    response = `In ${release(target)}, ${doc.scientific_name} is classified ${full}.`;
  } else {
    response = `In ${release(target)}, ${s.matched_name} ${is.replace(/^it /, '')}, classified ${full}.`;
  }
  return {
    response,
    data: { query_name: s.text, matched_name: s.matched_name, matched_kind: s.kind, species: doc.scientific_name, version: target.version, classification: c, placement: pl.status },
    sources: speciesSources(ctx, target.version),
  };
}

function currentName(ctx: Ctx, _p: Parsed, s: SpeciesRef): Answer {
  const res = resolveOne(ctx.store, s.matched_name, null, asResolved(ctx.latest));
  const id = s.lineage_ids[0]!;
  const renames = lineageRenames(ctx.store, id);
  const data = { query_name: s.text, matched_name: s.matched_name, matched_kind: s.kind, status: res.status, current_names: res.results, renames, version: ctx.latest.version };
  const sources = speciesSources(ctx, ctx.latest.version);
  if (res.results.length === 1) {
    const now = res.results[0]!;
    const idKind = IDENTIFIER_KINDS[s.kind as IdentifierKind];
    if (idKind) return { response: `${s.text} is ${idKind} of the species named ${now} in the latest release, ${release(ctx.latest)}.`, data, sources };
    if (same(now, s.text)) {
      return { response: `${now} is still the species' name in the latest release, ${release(ctx.latest)}.`, data, sources };
    }
    const steps = renames.map((r) => `${r.to} in ${labelled(ctx, r.version)}`);
    const merge = res.chain.find((c) => c.change === 'merged');
    const how = merge ? `; its species was merged into ${merge.to_name} in ${merge.version}${merge.to_name === now ? '' : `, now ${now}`}`
      : steps.length ? `; the species was renamed ${and(steps)}` : '';
    return { response: `The current (${ctx.latest.version}) name of ${s.matched_name} is ${now}${how}.`, data, sources };
  }
  if (res.results.length > 1) {
    return { response: `${s.text} now corresponds to ${res.results.length} species in ${ctx.latest.version}: ${and(res.results)} (status: ${res.status}).`, data, sources };
  }
  const l = lineageDoc(ctx.store, id);
  return { response: `${s.text} has no current name: its species was ${endingText(l)} and nothing of it is listed in ${ctx.latest.version}.`, data, sources };
}

/** Each name of a lineage with the releases it was used in. */
function nameSpans(l: LineageDoc): Array<{ name: string; first: string; last: string }> {
  const spans: Array<{ name: string; first: string; last: string }> = [];
  for (const t of l.timeline) {
    const open = spans[spans.length - 1];
    if (open && open.name === t.name) open.last = t.version;
    else spans.push({ name: t.name, first: t.version, last: t.version });
  }
  return spans;
}

function formerNames(ctx: Ctx, _p: Parsed, s: SpeciesRef): Answer {
  const l = lineageDoc(ctx.store, s.lineage_ids[0]!);
  const spans = nameSpans(l);
  const renames = renamesIn(l.timeline);
  const data = { query_name: s.text, matched_name: s.matched_name, names: spans, renames, lineage: summaryOf(l) };
  const sources = lineageSources(ctx);
  const last = spans[spans.length - 1]!;
  if (spans.length === 1) {
    return { response: `${called(s, last.name)} has had one name, ${last.name}, in every release it is listed in (${last.first}-${last.last}); it was never renamed.`, data, sources };
  }
  const former = spans.slice(0, -1).map((x) => `${x.name} (${x.first === x.last ? x.first : `${x.first}-${x.last}`})`);
  const when = renames.map((r) => labelled(ctx, r.version));
  return {
    response: `${last.name} was formerly called ${and(former)}; it was renamed in ${and(when)}${l.ended === 'current' ? `, and ${last.name} is its name in ${l.last_appearance}` : `, and carried the name ${last.name} until ${last.last}`}.`,
    data, sources,
  };
}

function speciesHistory(ctx: Ctx, _p: Parsed, s: SpeciesRef): Answer {
  const l = lineageDoc(ctx.store, s.lineage_ids[0]!);
  const first = rowOf(ctx, mslOf(l.first_appearance))!, last = rowOf(ctx, mslOf(l.last_appearance))!;
  const own = l.timeline.filter((t) => same(t.name, s.text));
  const began = l.began === 'split' ? ` (split off ${and(l.split_from)})` : l.began === 'merged' ? ` (formed by merging ${and(l.merged_from)})` : '';
  const now = l.current_name && !same(l.current_name, s.text) ? ` as ${l.current_name}` : '';
  // a VMR virus name or abbreviation is not the species: say whose it is, and since when the VMR uses it
  const who = s.kind === 'species' ? s.matched_name
    : `${s.matched_name} (a ${s.kind === 'virus_name' ? 'virus name' : 'virus abbreviation'} of the VMR, used MSL${s.first_msl}-MSL${s.last_msl}) belongs to a species that`;
  const life = l.ended === 'current'
    ? `${who} has been listed since ${release(first)}${began} and is still listed in ${release(last)}${now}`
    : `${who} was listed from ${release(first)}${began} to ${release(last)} and was then ${endingText(l)}`;
  const nameUse = own.length > 0 && (own[0]!.version !== l.first_appearance || own[own.length - 1]!.version !== l.last_appearance)
    ? `; the name ${own[0]!.name} itself was used from ${own[0]!.version} to ${own[own.length - 1]!.version}` : '';
  return {
    response: `${life}${nameUse}.`,
    data: { query_name: s.text, matched_name: s.matched_name, lineage: summaryOf(l), name_used: own.length ? { first: own[0]!.version, last: own[own.length - 1]!.version } : null },
    sources: lineageSources(ctx),
  };
}

/** The species' record in the release asked, or the latest (or last) release that has it. */
function recordFor(ctx: Ctx, p: Parsed, s: SpeciesRef): { doc: SpeciesDoc | null; version: ReleaseRow } {
  const target = targetRelease(ctx, p);
  const pl = placement(ctx, s, target);
  if (pl.species) return { doc: pl.species, version: target };
  const lastRow = rowOf(ctx, mslOf(pl.lineage.last_appearance))!;
  const lastName = pl.lineage.timeline[pl.lineage.timeline.length - 1]!.name;
  return { doc: speciesDoc(ctx.store, lastRow.msl, lastName), version: lastRow };
}

function speciesGenome(ctx: Ctx, p: Parsed, s: SpeciesRef): Answer {
  const { doc, version } = recordFor(ctx, p, s);
  if (!doc) return fallback(`I found ${s.text} but no species record for it.`);
  const g = doc.genome;
  const type = g.type ? `a ${g.type} genome (${COMPOSITION_NAMES[g.type] ?? g.type})` : null;
  const size = g.size ? `its exemplar genome${g.size_coverage ? ` (${g.size_coverage.toLowerCase()})` : ''} is ${g.size} long${g.size_from_version && g.size_from_version !== version.version ? ` (VMR of ${g.size_from_version})` : ''}` : null;
  const who = called(s, doc.scientific_name);
  const response = type
    ? `${who} has ${type}${g.type_from_version && g.type_from_version !== version.version ? `, as recorded in ${g.type_from_version}` : ''}${size ? `; ${size}` : '; no exemplar genome length is known for it'}.`
    : `The MSL records no genome composition for ${who} (the column starts in MSL29)${size ? `; ${size}` : ''}.`;
  return {
    response,
    data: { query_name: s.text, species: doc.scientific_name, version: version.version, genome: g },
    sources: speciesSources(ctx, version.version),
  };
}

function speciesHosts(ctx: Ctx, p: Parsed, s: SpeciesRef): Answer {
  const { doc, version } = recordFor(ctx, p, s);
  if (!doc) return fallback(`I found ${s.text} but no species record for it.`);
  const who = called(s, doc.scientific_name);
  const response = doc.hosts.length > 0
    ? `${who} has host source ${doc.hosts.join(', ')} (the VMR exemplar's host source${doc.hosts_from_version ? `, ${doc.hosts_from_version}` : ''}).`
    : `No host source is recorded for ${who}: host sources come from the VMR, which ICTV publishes from MSL37 on.`;
  return { response, data: { query_name: s.text, species: doc.scientific_name, version: version.version, hosts: doc.hosts, hosts_from_version: doc.hosts_from_version }, sources: speciesSources(ctx, version.version) };
}

// --- taxa ----------------------------------------------------------------------------------------------------

function countsIn(e: TaxonEntry, msl: number) {
  return e.counts.find((c) => c.msl === msl) ?? null;
}

function taxonSources(ctx: Ctx, extra: Source[] = []): Source[] {
  return [{ model: 'taxon_profile', version: span(ctx) }, ...extra];
}

/** "what was Orthoherpesviridae called before": the names the change lists record it was renamed from. */
export async function taxonFormerNames(store: Store, t: TaxonRef): Promise<Answer | null> {
  const all = releaseRows(store);
  const from = await renamesTo(store, t.name);
  if (from.length === 0) return null;
  const steps = from.map((f) => `${f.old_name} (renamed ${t.name} in ${release(all.find((r) => r.msl === f.msl)!)})`);
  return {
    response: `The ${t.rank} ${t.name} was formerly called ${and(steps)}.`,
    data: { taxon: t.name, rank: t.rank, former_names: from.map((f) => ({ name: f.old_name, renamed_in: `MSL${f.msl}` })) },
    sources: [{ model: 'src.renames', version: `MSL${from[0]!.msl}` }],
  };
}

function taxonClassification(ctx: Ctx, p: Parsed, t: TaxonRef): Answer {
  const e = t.entry;
  const target = p.releases.length ? targetRelease(ctx, p) : rowOf(ctx, e.last_msl)!;
  const lastRow = rowOf(ctx, e.last_msl)!;
  const c = countsIn(e, target.msl) ?? countsIn(e, e.last_msl)!;
  const at = countsIn(e, target.msl) ? target : lastRow;
  const parents = e.parents.map((x) => `${x.rank} ${x.name}`).join(' > ');
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

function countTaxon(ctx: Ctx, p: Parsed, t: TaxonRef): Answer {
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

async function taxonHistory(ctx: Ctx, _p: Parsed, t: TaxonRef): Promise<Answer> {
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
  // the change lists (MSL38 on) name what a taxon became when it was renamed
  const renamed = (await fateOf(ctx.store, e.name)).find((f) => f.msl === next.msl && f.new_name && /renam/i.test(f.change));
  if (renamed && !event) {
    fate = `in ${release(next)} it was renamed ${renamed.new_name}`;
    status = 'renamed';
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

interface EvolutionRow { version: string; species: number; genera: number; species_delta: number | null; events: string }

async function familyEvolution(ctx: Ctx, p: Parsed, t: TaxonRef): Promise<Answer> {
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

async function familyStability(ctx: Ctx, p: Parsed): Promise<Answer> {
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

// --- families of the latest release by host or genome (family_profile) -----------------------------------------

async function profiles(ctx: Ctx): Promise<FamilyProfile[]> {
  return (await modelOf(ctx.store)).families.map((f) => f.profile);
}

function profileOf(list: FamilyProfile[], name: string): FamilyProfile | undefined {
  return list.find((f) => f.family === name);
}

/**
 * The family profile a genome or host question about a taxon is answered from (the taxon's own family), with
 * the clause that says so when the taxon is below family; or the answer saying why there is none.
 */
async function familyOfTaxon(ctx: Ctx, t: TaxonRef, what: 'Genome' | 'Host'): Promise<{ f: FamilyProfile; of: string } | { missing: Answer }> {
  const list = await profiles(ctx);
  const family = t.rank === 'family' ? t.entry.name : t.entry.parents.find((x) => x.rank === 'family')?.name;
  const f = family ? profileOf(list, family) : undefined;
  if (!f) return { missing: fallback(`${what} summaries are per family of ${ctx.latest.version}, and ${t.entry.name} is not ${t.rank === 'family' ? `a family of ${ctx.latest.version}` : `in a family of ${ctx.latest.version}`}.`) };
  const of = t.rank === 'family' ? '' : ` (${t.entry.name} is a ${t.rank} of the family ${f.family}; figures are the family's)`;
  return { f, of };
}

async function taxonGenome(ctx: Ctx, _p: Parsed, t: TaxonRef): Promise<Answer> {
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

async function taxonHosts(ctx: Ctx, _p: Parsed, t: TaxonRef): Promise<Answer> {
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

interface DiversityDoc {
  species_per_host_source: Array<{ host_source: string | null; species: number }> | null;
  species_per_genome_composition: Array<{ genome_composition: string | null; species: number }> | null;
}

/** diversity_stats' species per host source and per genome composition, each host source read into its hosts. */
interface Diversity {
  hosts: Array<{ hosts: string[]; species: number }> | null;
  genomes: Array<{ composition: string; species: number }> | null;
}

// read once per store: a families-by-host or -genome question reads it whole
const diversities = new WeakMap<Store, Diversity | null>();

function diversity(ctx: Ctx): Diversity | null {
  let d = diversities.get(ctx.store);
  if (d === undefined) {
    const doc = ctx.store.docJson<DiversityDoc>('diversity_stats', ctx.latest.msl);
    // "archaea, bacteria(S)": each host named, the (S) of a source that is not the exemplar's own dropped
    d = doc ? {
      hosts: doc.species_per_host_source?.flatMap((x) => (x.host_source ? [{ hosts: x.host_source.split(',').map((h) => h.replace('(S)', '').trim()), species: x.species }] : [])) ?? null,
      genomes: doc.species_per_genome_composition?.flatMap((x) => (x.genome_composition ? [{ composition: x.genome_composition, species: x.species }] : [])) ?? null,
    } : null;
    diversities.set(ctx.store, d);
  }
  return d;
}

/**
 * Members of a family alike in what familiesBy tests (composition and hosts), and how many species each, their
 * hosts and composition as numbers (the values' places in the model's lists; -1: no composition).
 */
interface Kind { hosts: number[]; composition: number; species: number }

/**
 * A family of the latest release with its members as kinds (a few per family where members are thousands),
 * and its place among the families by name.
 */
interface FamilyKinds { family: string; species: number; kinds: Kind[]; order: number }

/** The families as kinds, and the number of each host and composition value. */
interface Kinds { families: FamilyKinds[]; hostIds: Map<string, number>; compositionIds: Map<string, number> }

const familyKinds = new WeakMap<Model, Kinds>();

/** The number of a value, given in the order values are first seen. */
function idOf(ids: Map<string, number>, value: string): number {
  let id = ids.get(value);
  if (id === undefined) ids.set(value, (id = ids.size));
  return id;
}

/**
 * The families of the model as kinds, made once per model: a question tests every kind of every family, each
 * then by numbers instead of strings.
 */
async function kindsOfFamilies(ctx: Ctx): Promise<Kinds> {
  const model = await modelOf(ctx.store);
  let held = familyKinds.get(model);
  if (!held) {
    const hostIds = new Map<string, number>();
    const compositionIds = new Map<string, number>();
    const families = model.families.map(({ profile: f }) => {
      const byKey = new Map<string, Kind>();
      for (const m of f.members) {
        const key = `${m.composition}\u0000${m.hosts.join('\u0000')}`;
        const k = byKey.get(key);
        if (k) k.species++;
        else byKey.set(key, { hosts: m.hosts.map((h) => idOf(hostIds, h)), composition: m.composition === null ? -1 : idOf(compositionIds, m.composition), species: 1 });
      }
      return { family: f.family, species: f.species, kinds: [...byKey.values()], order: 0 };
    });
    // sorted by name once (as localeCompare orders them), so that a question's ties are ordered by a number
    [...families].sort((a, b) => a.family.localeCompare(b.family)).forEach((f, i) => { f.order = i; });
    familyKinds.set(model, (held = { families, hostIds, compositionIds }));
  }
  return held;
}

/** Which of the numbered values a question asks for (a value the model does not have is asked of no kind). */
function asked(ids: Map<string, number>, values: string[]): Uint8Array {
  const wanted = new Uint8Array(ids.size);
  for (const v of values) {
    const id = ids.get(v);
    if (id !== undefined) wanted[id] = 1;
  }
  return wanted;
}

async function familiesBy(ctx: Ctx, p: Parsed, what: 'host' | 'genome'): Promise<Answer> {
  const wanted = what === 'host' ? p.hosts : p.genomeTypes;
  const { families, hostIds, compositionIds } = await kindsOfFamilies(ctx);
  // "dsDNA viruses that infect archaea": both filters, the species counted must pass each
  const hosts = asked(hostIds, p.hosts);
  const compositions = asked(compositionIds, p.genomeTypes);
  const hostOk = (k: Kind) => {
    if (p.hosts.length === 0) return true;
    for (const h of k.hosts) if (hosts[h] === 1) return true;
    return false;
  };
  const genomeOk = (k: Kind) => p.genomeTypes.length === 0 || (k.composition >= 0 && compositions[k.composition] === 1);
  const both = p.hosts.length > 0 && p.genomeTypes.length > 0;
  const found: Array<{ f: FamilyKinds; species: number }> = [];
  for (const f of families) {
    let species = 0;
    for (const k of f.kinds) if (hostOk(k) && genomeOk(k)) species += k.species;
    if (species > 0) found.push({ f, species });
  }
  const hits = found.sort((a, b) => b.species - a.species || a.f.order - b.f.order).map(({ f, species }) => ({ family: f.family, species, of: f.species }));
  const limit = Math.min(p.limit ?? 5, 20);
  const d = diversity(ctx);
  // the species total, families or not (diversity_stats counts one attribute at a time, so not for both filters)
  const total = both ? null : what === 'host'
    ? d?.hosts?.reduce((a, x) => (x.hosts.some((h) => wanted.includes(h)) ? a + x.species : a), 0)
    : d?.genomes?.reduce((a, x) => (wanted.includes(x.composition) ? a + x.species : a), 0);
  const genomeLabel = `${p.genomeTypes.length > 3 ? `${p.genomeTypes[0]!.replace(/\(.*$/, '')} (any kind)` : p.genomeTypes.join(' or ')} genomes`;
  const hostLabel = `${p.hosts.join(' or ')} as host source`;
  const label = both ? `${genomeLabel} and ${hostLabel}` : what === 'host' ? hostLabel : genomeLabel;
  const data = { version: ctx.latest.version, [what === 'host' ? 'hosts' : 'genome_types']: wanted, families: hits, total_families: hits.length, total_species: total ?? null };
  const sources = [{ model: 'family_profile', version: ctx.latest.version }, { model: 'diversity_stats', version: ctx.latest.version }];
  if (hits.length === 0) {
    return { response: `No family of ${release(ctx.latest)} has species with ${label}.`, data, sources };
  }
  const top = hits.slice(0, limit).map((x) => `${x.family} (${num(x.species)})`);
  return {
    response: `In ${release(ctx.latest)}, ${count(hits.length, 'family has', 'families have')} species with ${label}${total ? ` (${count(total, 'species', 'species')} in all, counting those without a family)` : ''}; ${hits.length > limit ? `the ${limit} largest are` : hits.length === 1 ? 'it is' : 'they are'} ${and(top)}.`,
    data, sources,
  };
}

// --- releases ----------------------------------------------------------------------------------------------

interface TaxaCounts { taxa: Record<string, number> }

function rankTotal(ctx: Ctx, r: ReleaseRow, rank: Rank): number | null {
  return releaseTotal(ctx.store, r, rank);
}

/** How many taxa of a rank a release holds (its own totals, else the diversity statistics). */
export function releaseTotal(store: Store, r: ReleaseRow, rank: Rank): number | null {
  switch (rank) {
    case 'species': return r.total_species;
    case 'genus': return r.total_genera;
    case 'family': return r.total_families;
    case 'order': return r.total_orders;
    case 'realm': return r.total_realms;
    default: {
      return store.docJson<TaxaCounts>('diversity_stats', r.msl)?.taxa[rank] ?? null;
    }
  }
}

/**
 * " (238 named in its list)" when the taxa a release's list names differ in number from its official total
 * (releaseTotal takes ICTV's own count first): both are facts people quote, so an answer gives both.
 */
export function listedAside(store: Store, r: ReleaseRow, rank: Rank, official: number | null): string {
  const listed = store.docJson<TaxaCounts>('diversity_stats', r.msl)?.taxa[rank] ?? null;
  return listed !== null && official !== null && listed !== official ? ` (${num(listed)} named in its list)` : '';
}

function countRelease(ctx: Ctx, p: Parsed): Answer {
  const rank = p.targetRank ?? 'species';
  const targets = p.releases.length ? p.releases.map((r) => rowOf(ctx, r.msl)!) : [ctx.latest];
  // "how many realms were introduced in MSL35": the count there against the release before
  const before = ctx.all.filter((r) => r.msl < targets[0]!.msl).pop();
  if (p.change === 'added' && rank !== 'species' && targets.length === 1 && before) targets.unshift(before);
  const parts = targets.map((r) => {
    const n = rankTotal(ctx, r, rank) ?? 0;
    const more = rank === 'species' ? ` in ${count(r.total_genera, 'genus', 'genera')} and ${count(r.total_families, 'family', 'families')}` : '';
    return `${release(r)} has ${count(n, rank, RANK_PLURAL[rank]!)}${listedAside(ctx.store, r, rank, n)}${more}`;
  });
  return {
    response: withNote(`${parts.join('; ')}.`, p),
    data: { rank, counts: targets.map((r) => ({ version: r.version, year: r.year, count: rankTotal(ctx, r, rank) })) },
    sources: targets.map((r) => ({ model: rank === 'species' || rank === 'genus' || rank === 'family' || rank === 'order' || rank === 'realm' ? 'releases' : 'diversity_stats', version: r.version })),
  };
}

const CHANGE_FIELD: Record<ChangeKind, keyof CompareCounts> = {
  added: 'species_added', removed: 'species_removed', renamed: 'species_renamed', reclassified: 'species_reclassified',
  merged: 'species_merged', split: 'species_split',
};
const CHANGE_WORD: Record<ChangeKind, string> = {
  added: 'added', removed: 'abolished (removed)', renamed: 'renamed', reclassified: 'reclassified (moved to another genus or higher taxon)',
  merged: 'merged into other species', split: 'split off existing species',
};

/** "2,562 added, 30 abolished (removed) and 211 renamed": the non-zero changes (added and removed always), the
 *  lead first, `skip` left out (it was said already). */
function diffSentence(s: CompareCounts, lead: ChangeKind | null, skip?: ChangeKind): string {
  const n = (k: keyof CompareCounts) => Number(s[k]);
  const parts: Array<[ChangeKind, string]> = (['added', 'removed', 'renamed', 'reclassified', 'merged', 'split'] as ChangeKind[])
    .filter((k) => k !== skip)
    .map((k) => [k, `${num(n(CHANGE_FIELD[k]))} ${CHANGE_WORD[k]}`]);
  const ordered = lead ? [...parts.filter(([k]) => k === lead), ...parts.filter(([k]) => k !== lead)] : parts;
  return and(ordered.filter(([k]) => k === lead || n(CHANGE_FIELD[k]) > 0 || k === 'added' || k === 'removed').map(([, t]) => t));
}

function releaseChanges(ctx: Ctx, p: Parsed): Answer {
  const target = targetRelease(ctx, p);
  const prev = ctx.all.filter((r) => r.msl < target.msl).pop();
  if (!prev) {
    return fallback(`${release(target)} is the first release in the data set, so there is no earlier release to compare it with.`);
  }
  const s = diffSummary(ctx.store, asResolved(prev), asResolved(target));
  const lead = p.change;
  const first = lead
    ? `In ${release(target)}, ${num(s[CHANGE_FIELD[lead]] as number)} species were ${CHANGE_WORD[lead]} compared with ${release(prev)}; besides, ${diffSentence(s, null, lead)}`
    : `Compared with ${release(prev)}, ${release(target)} has ${diffSentence(s, null)}`;
  return {
    response: withNote(`${first}, taking the total from ${num(s.from_total as number)} to ${num(s.to_total as number)} species (${signed((s.to_total as number) - (s.from_total as number))}).`, p),
    data: { ...s, change: lead },
    sources: [{ model: 'release_diff', version: `${prev.version}-${target.version}` }],
  };
}

function compareReleases(ctx: Ctx, p: Parsed): Answer {
  // told oldest first whatever the order of the words: "MSL40 has more species than MSL30" is growth from MSL30
  const [a, b] = [rowOf(ctx, p.releases[0]!.msl)!, rowOf(ctx, (p.releases[1] ?? { msl: ctx.latest.msl }).msl)!].sort((x, y) => x.msl - y.msl) as [ReleaseRow, ReleaseRow];
  if (a.msl === b.msl) return fallback(`Both releases named are ${a.version}; name two different releases to compare.`);
  const s = diffSummary(ctx.store, asResolved(a), asResolved(b));
  return {
    response: withNote(`From ${release(a)} to ${release(b)} the species count went from ${num(s.from_total as number)} to ${num(s.to_total as number)} (${signed((s.to_total as number) - (s.from_total as number))}): ${diffSentence(s, p.change)}.`, p),
    data: s,
    sources: [{ model: 'release_diff', version: `${a.version}-${b.version}` }],
  };
}

function releaseInfo(ctx: Ctx, p: Parsed): Answer {
  const sources = [{ model: 'releases', version: span(ctx) }];
  if (p.releases.length === 0) {
    if (/\b(?:how many|number of|count)\b/.test(p.residue) || /\ball\b/.test(p.residue) || /\b(?:which|what|list)\b.*\b(?:releases|versions)\b/.test(p.residue)) {
      return {
        response: `The data set holds ${ctx.all.length} releases of the ICTV Master Species List, from ${release(ctx.all[0]!)} to ${release(ctx.latest)}${/\b(?:list|which|what)\b/.test(p.residue) ? `: ${ctx.all.map((r) => `${r.version} (${r.label})`).join(', ')}` : ''}.`,
        data: { releases: ctx.all.map((r) => ({ version: r.version, year: r.year, label: r.label })) }, sources,
      };
    }
    // never the latest release in place of one the question did not name
    return fallback('I understood a question about a release but not which release: name it as MSL39, a year (2019, 1999a) or "the latest".');
  }
  const r = rowOf(ctx, p.releases[0]!.msl)!;
  const latest = r.msl === ctx.latest.msl ? ', the latest release in the data set' : r.msl === ctx.all[0]!.msl ? ', the first release in the data set' : '';
  return {
    response: withNote(`${r.version} is the ${r.label} release${latest}: ${count(r.total_species, 'species', 'species')}, ${count(r.total_genera, 'genus', 'genera')}, ${count(r.total_families, 'family', 'families')}, ${count(r.total_orders, 'order', 'orders')} and ${count(r.total_realms, 'realm', 'realms')}.`, p),
    data: { ...r },
    sources,
  };
}

interface TaxonCountRow { name: string; species: number; genera: number }

async function largestTaxa(ctx: Ctx, p: Parsed): Promise<Answer> {
  const rank: Rank = p.targetRank && p.targetRank !== 'species' ? p.targetRank : 'family';
  const target = targetRelease(ctx, p);
  const within = p.taxa[0] && p.taxa[0].rank !== rank ? p.taxa[0] : null;
  // "what are the genera of Coronaviridae", "list the realms": up to 20; "largest families": the top 5
  const listing = /\b(?:(?:what|which) (?:are|were) the|list|name the)\b/.test(p.residue);
  const limit = Math.min(p.limit ?? (listing ? 20 : 5), 20);
  const rows = await ctx.store.query<TaxonCountRow>(`
    SELECT name, species, genera FROM main.taxon_counts
    WHERE msl = $1 AND rank = $2 AND ($3::VARCHAR IS NULL OR list_contains(list_transform(parents, p -> p.name), $3))
    ORDER BY species DESC, name LIMIT $4`, [target.msl, rank, within?.entry.name ?? null, limit]);
  const where = within ? ` of the ${within.rank} ${within.entry.name}` : '';
  const sources = [{ model: 'taxon_counts', version: target.version }];
  if (rows.length === 0) {
    return { response: withNote(`${release(target)} has no ${RANK_PLURAL[rank]}${where}.`, p), data: { rank, version: target.version, taxa: [] }, sources };
  }
  const [top, ...rest] = rows;
  const others = rest.map((r) => `${r.name} (${num(r.species)})`);
  const field = ({ genus: 'genera', family: 'families', order: 'orders' } as Record<string, 'genera' | 'families' | 'orders'>)[rank];
  const inside = within && field ? countsIn(within.entry, target.msl)?.[field] ?? null : null;
  const total = within ? inside : rankTotal(ctx, target, rank);
  const holder = within ? `In ${release(target)} the ${within.rank} ${within.entry.name}` : release(target);
  const head = total === null ? `The largest ${rank}${where} in ${release(target)}` : `${holder} has ${count(total, rank, RANK_PLURAL[rank]!)}; the largest`;
  return {
    response: withNote(`${head} is ${top!.name} with ${count(top!.species, 'species', 'species')}${others.length ? `, followed by ${and(others)}` : ''}.`, p),
    data: { rank, version: target.version, within: within?.entry.name ?? null, taxa: rows },
    sources,
  };
}

interface GrowthRow { name: string; before: number; after: number; gain: number }

async function fastestGrowing(ctx: Ctx, p: Parsed): Promise<Answer> {
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

async function milestones(ctx: Ctx, p: Parsed): Promise<Answer> {
  const rows = await timeline(ctx.store);
  const sources = [{ model: 'timeline', version: span(ctx) }];
  const r = p.residue;
  const pick = (rowsOf: TimelineEvent[]): Answer => ({
    response: `${rowsOf.map((x) => x.description).join('. ')}.`,
    data: { milestones: rowsOf.map((x) => ({ ...x, figures: JSON.parse(x.figures) as unknown })) },
    sources,
  });
  if (/\brealms?\b/.test(r) && !/\bhow many\b/.test(r)) {
    const row = rows.find((x) => x.kind === 'first_realm');
    if (row) return pick([row]);
  }
  if (p.threshold !== null && p.threshold >= 1000) {
    const exact = ctx.all.filter((x) => x.total_species === p.threshold);
    if (exact.length > 0 && !/\b(?:more than|over|exceed\w*|pass\w*|surpass\w*|reach\w*|above|cross\w*)\b/.test(r)) {
      return { response: `${and(exact.map(release))} had exactly ${num(p.threshold)} species.`, data: { species: p.threshold, versions: exact.map((x) => x.version) }, sources: [{ model: 'releases', version: span(ctx) }] };
    }
    const first = ctx.all.find((x) => x.total_species > p.threshold!);
    const sourcesR = [{ model: 'releases', version: span(ctx) }];
    return first
      ? { response: `${release(first)} is the first release with more than ${num(p.threshold)} species (${num(first.total_species)}).`, data: { threshold: p.threshold, version: first.version, species: first.total_species }, sources: sourcesR }
      : { response: `No release has more than ${num(p.threshold)} species; the latest, ${release(ctx.latest)}, has ${num(ctx.latest.total_species)}.`, data: { threshold: p.threshold, version: null }, sources: sourcesR };
  }
  if (p.targetRank && p.targetRank !== 'species' && /\b(?:introduc|first|creat|establish|appear|began|start|added)\w*/.test(r)) {
    const row = rows.find((x) => x.kind === 'rank_introduced' && x.subject === p.targetRank);
    if (row) return pick([row]);
    const firstRelease = ctx.all[0]!;
    const used = rankTotal(ctx, firstRelease, p.targetRank);
    if (used) return { response: `The rank ${p.targetRank} is already used in ${release(firstRelease)}, the first release in the data set (${count(used, p.targetRank, RANK_PLURAL[p.targetRank]!)}).`, data: { rank: p.targetRank }, sources };
  }
  if (/\brenam\w*/.test(r)) return pick(rows.filter((x) => x.kind === 'renaming_wave').sort((a, b) => a.description.localeCompare(b.description)).slice(0, 1));
  if (/\b(?:most|largest|biggest)\b/.test(r) && /\b(?:added|growth|grew|new|species)\b/.test(r)) {
    const row = /\b(?:relative|percent|%|proportion)\w*/.test(r) ? rows.find((x) => x.kind === 'largest_growth_pct') : rows.find((x) => x.kind === 'largest_growth');
    if (row) return pick([row]);
  }
  // the overview: the first release, the first realm, abolitions above family rank, the growth record and the
  // species thresholds, each told in a few words (the full descriptions are in data)
  const at = (x: TimelineEvent) => release(rowOf(ctx, mslOf(x.version))!);
  const parts: string[] = [];
  for (const x of rows) {
    const f = JSON.parse(x.figures) as Record<string, unknown>;
    if (x.kind === 'first_release') parts.push(`${at(x)} is the first release in the data set (${num(f.species as number)} species)`);
    else if (x.kind === 'first_realm') parts.push(`${at(x)} introduced the first realm, ${(f.largest as string[]).join(', ')}`);
    else if (x.kind === 'taxon_abolished' && f.rank !== 'family') parts.push(`${at(x)} abolished the ${f.rank as string} ${x.subject}`);
    else if (x.kind === 'largest_growth') parts.push(`${at(x)} added the most species (${signed(f.species_delta as number)})`);
  }
  const thresholds = rows.filter((x) => x.kind === 'species_milestone')
    .map((x) => `${num((JSON.parse(x.figures) as { threshold: number }).threshold)} in ${x.version}`);
  const lead = `Milestones from ${ctx.all[0]!.version} to ${ctx.latest.version}: ${parts.join('; ')}${thresholds.length ? `; the species count first passed ${and(thresholds)}` : ''}.`;
  return { response: lead, data: { milestones: rows.map((x) => ({ ...x, figures: JSON.parse(x.figures) as unknown })) }, sources };
}

// --- dispatch ------------------------------------------------------------------------------------------------

function withSpecies(fn: (ctx: Ctx, p: Parsed, s: SpeciesRef) => Answer): Handler {
  return (ctx, p) => fn(ctx, p, p.species[0]!);
}

const HANDLERS: Record<Exclude<Intent, 'help' | 'unknown'>, Handler> = {
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
};

/** The answer to a parsed question. */
export async function answer(store: Store, p: Parsed): Promise<Answer> {
  const all = releaseRows(store);
  const ctx: Ctx = { store, all, latest: all[all.length - 1]! };
  if (p.intent === 'help') return fallback(`Ask me about the ICTV virus taxonomy from ${release(ctx.all[0]!)} to ${release(ctx.latest)}.`);
  if (p.intent === 'unknown') {
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
  return HANDLERS[p.intent](ctx, p);
}


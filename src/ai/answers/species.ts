// Answers about one species (or two), by any name it was ever listed under, a VMR virus name or abbreviation, or an
// identifier: its classification in a release, its name now and the names it had, its history, its genome and
// hosts, and the yes-or-no questions about it (same taxon as another, member of a taxon, a genome type, a host).
// Every name is followed along its lineage (the identity chains of history_doc) to the release asked.
import type { LineageDoc, SpeciesDoc } from '../../read/lineages.js';
import { endingText, hostGroup, lineageText, mslOf, speciesDoc } from '../../read/lineages.js';
import { IDENTIFIER_KINDS, type IdentifierKind } from '../../read/identifiers.js';
import { lookupName, normaliseName } from '../../read/names.js';
import { asResolved, type ReleaseRow } from '../../read/releases.js';
import { ownIsolate, type OwnIsolate } from '../../read/isolates.js';
import { abbreviationAside, placeIn, resolveOne } from '../../read/resolve.js';
import { lineageCurrentName, lineageOutline, lineagePlace, lineageRenames, renamesIn, type LineageOutline } from '../../read/species-walks.js';
import { and, RANK_PLURAL, release } from '../format.js';
import type { Parsed, SpeciesRef } from '../parse.js';
import { COMPOSITION_NAMES, findHosts, formatGenomeSize } from '../vocabulary.js';
import { askedNow, fallback, inSpan, labelled, notUnderstood, PAST, profileEntries, renamedAs, rowOf, sources, span, targetRelease, taxonFate, type Answer, type Ctx, type Source } from './common.js';

/**
 * The lineage a name means in a release: of the lineages it was used for, the one listed there under it (a name
 * used for two species in turn: "Anopheles B virus" of MSL11 is not the one of MSL18), else the first.
 */
function lineageIn(ctx: Ctx, s: SpeciesRef, target: ReleaseRow): number {
  if (s.lineage_ids.length === 1) return s.lineage_ids[0]!;
  const name = normaliseName(s.matched_name);
  return s.lineage_ids.find((id) => {
    const here = lineagePlace(ctx.store, id, target.msl).name;
    return here !== null && normaliseName(here) === name;
  }) ?? s.lineage_ids[0]!;
}

function placement(ctx: Ctx, s: SpeciesRef, target: ReleaseRow) {
  return placeIn(ctx.store, lineageIn(ctx, s, target), s.matched_name, asResolved(target));
}

const same = (a: string, b: string) => normaliseName(a) === normaliseName(b);

/** The releases of several lineages in one timeline, oldest first: a name's species one after another. */
export function timelineOf(ctx: Ctx, ids: number[]): LineageOutline['timeline'] {
  return ids.flatMap((id) => lineageOutline(ctx.store, id).timeline).sort((a, b) => mslOf(a.version) - mslOf(b.version));
}

/**
 * The species a lineage formed by a merge or a split came from, as an earlier release lists them: "dengue virus"
 * in 1984, before MSL18 merged them, is Dengue type 1 virus ... Dengue type 4 virus. Empty when it began otherwise.
 */
function predecessorsIn(ctx: Ctx, l: LineageDoc, r: ReleaseRow): SpeciesDoc[] {
  const out = new Map<string, SpeciesDoc>();
  for (const name of [...l.merged_from, ...l.split_from]) {
    for (const h of lookupName(ctx.store, name)) {
      if (h.kind !== 'species') continue;
      const here = lineagePlace(ctx.store, h.lineage_id, r.msl).name;
      const doc = here ? speciesDoc(ctx.store, r.msl, here) : null;
      if (doc) out.set(doc.scientific_name, doc);
    }
  }
  return [...out.values()];
}

/** "dengue virus was not yet one species: MSL18 (1999a) formed it by merging ...; in MSL9 (1984) those were ...". */
function beforeItsSpecies(ctx: Ctx, s: SpeciesRef, l: LineageDoc, r: ReleaseRow, before: SpeciesDoc[]): string {
  const how = l.merged_from.length > 0 ? `merging ${and(l.merged_from)}` : `splitting ${and(l.split_from)}`;
  return `${s.text} was not yet one species in ${release(r)}: ${labelled(ctx, l.first_appearance)} formed its species by ${how}; in ${release(r)} ${before.length === 1 ? 'it was the species' : 'they were the species'} ${and(before.map((d) => d.scientific_name))}`;
}

/** The taxon of a rank the species share, or undefined when they differ (null: none of them has one). */
function sharedTaxon(docs: SpeciesDoc[], rank: string): string | null | undefined {
  const at = [...new Set(docs.map((d) => d.classification[rank] ?? null))];
  return at.length === 1 ? at[0]! : undefined;
}

/** "Zika virus (species Orthoflavivirus zikaense)" or just the species name when that is what was asked. */
export function called(s: SpeciesRef, name: string): string {
  return same(s.matched_name, name) ? name : `${s.matched_name} (species ${name})`;
}

function lineageSources(ctx: Ctx): Source[] {
  return [{ model: 'name_lookup', version: span(ctx) }, { model: 'history_doc', version: span(ctx) }];
}

export function speciesSources(ctx: Ctx, version: string): Source[] {
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

export function summaryOf(l: LineageOutline) {
  return {
    lineage_id: l.lineage_id, first_appearance: l.first_appearance, last_appearance: l.last_appearance,
    current_name: l.current_name, names: l.names, ended: l.ended, abolished_in: l.abolished_in,
    merged_into: l.merged_into, split_into: l.split_into,
  };
}

export function speciesClassification(ctx: Ctx, p: Parsed, s: SpeciesRef): Answer {
  const first = p.releases.length === 0 ? firstOfRank(ctx, p, s) : null;
  if (first) return first;
  const target = targetRelease(ctx, p);
  const pl = placement(ctx, s, target);
  if (pl.status === 'not_yet') {
    // formed later by a merge or split of species this release lists: their place, where they share it
    const before = predecessorsIn(ctx, pl.lineage, target);
    const rank = p.askedRank && p.askedRank !== 'species' ? p.askedRank : 'family';
    const at = before.length > 0 ? sharedTaxon(before, rank) : undefined;
    if (at !== undefined) {
      const place = at === null ? `, in no ${rank}` : `, in the ${rank} ${at}`;
      return {
        response: `${beforeItsSpecies(ctx, s, pl.lineage, target, before).replace(/^./, (c) => c.toUpperCase())}${place}${at !== null && before.every((d) => lineageText(d.classification) === lineageText(before[0]!.classification)) ? ` (classified ${lineageText(before[0]!.classification)})` : ''}.`,
        data: { query_name: s.text, version: target.version, predecessors: before.map((d) => ({ species: d.scientific_name, classification: d.classification })), [rank]: at },
        sources: speciesSources(ctx, target.version),
      };
    }
  }
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
  // a species split into several ("Human papillomavirus", into HPV1, HPV10, ...): one of them is no answer, unless
  // they all share the taxon asked
  const parts = pl.status === 'ended' ? pl.resolution?.results ?? [] : [];
  if (parts.length > 1) {
    const placed = parts.map((n) => speciesDoc(ctx.store, target.msl, n)?.classification[asked ?? 'genus'] ?? null);
    const kinds = [...new Set(placed.map((x) => x ?? `no ${asked ?? 'genus'}`))];
    if (!asked || kinds.length > 1) {
      const shown = kinds.slice(0, 6);
      const l = pl.lineage;
      const cut = (xs: string[]) => (xs.length > 6 ? [...xs.slice(0, 5), `${xs.length - 5} more`] : xs);
      return notUnderstood('species', `${s.matched_name} is no species in ${release(target)}: its species was ${endingText({ ...l, split_into: cut(l.split_into), merged_into: cut(l.merged_into) })}, and those ${parts.length} species are in ${kinds.length === 1 ? `the ${asked ?? 'genus'} ${kinds[0]}` : `${kinds.length} ${RANK_PLURAL[asked ?? 'genus']} (${and(shown)}${kinds.length > shown.length ? ', ...' : ''})`}: ask about one of them.`);
    }
  }
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

/**
 * "What was the first family of measles virus?", "original genus of RSV": the family or genus of the species in the
 * first release that gave it one, by its lineage (and the name it had there), beside today's. Null unless asked so.
 */
function firstOfRank(ctx: Ctx, p: Parsed, s: SpeciesRef): Answer | null {
  const m = /\b(?:first|original|earliest|initial|oldest)(?: ever)? (family|genus)\b/.exec(p.residue);
  if (!m) return null;
  const rank = m[1] as 'family' | 'genus';
  const l = lineageOutline(ctx.store, lineageIn(ctx, s, ctx.latest));
  // each release's record of the species, oldest first, until one gives it the rank
  const taxonAt = (e: { version: string; name: string }) => speciesDoc(ctx.store, mslOf(e.version), e.name)?.classification[rank] ?? null;
  const first = l.timeline.find((e) => taxonAt(e) !== null);
  if (!first) return null;
  const was = taxonAt(first)!;
  const last = l.timeline[l.timeline.length - 1]!;
  const now = taxonAt(last);
  const row = rowOf(ctx, mslOf(first.version))!;
  const later = now && now !== was ? `; in ${release(rowOf(ctx, mslOf(last.version))!)} it is in the ${rank} ${now}` : now ? `, the ${rank} it is still in (${last.version})` : '';
  return {
    response: `The first ${rank} of ${s.text} was ${was}: in ${release(row)}, the first release that gives its species a ${rank}, as the species ${first.name}${later}.`,
    data: { query_name: s.text, rank, first: { version: first.version, [rank]: was, species: first.name }, last: { version: last.version, [rank]: now, species: last.name } },
    sources: speciesSources(ctx, first.version),
  };
}

export function currentName(ctx: Ctx, p: Parsed, s: SpeciesRef): Answer {
  // "the species listed in 1971 as X": the name as that release used it, followed to today
  const used = p.nameRelease ? rowOf(ctx, p.nameRelease.msl) ?? null : null;
  if (used) {
    const there = placement(ctx, s, used);
    if (!there.species || there.status === 'not_yet' || there.status === 'gap') {
      return notUnderstood('release', `${s.text} is not a species listed in ${release(used)}: its species is listed ${there.lineage.first_appearance}-${there.lineage.last_appearance}, so I cannot say which species the question means.`);
    }
    // today's name, set against a release that called the species otherwise ("what did the 1984 list call the
    // species now named Simplexvirus humanalpha1?"): the name asked is that release's, not today's
    const here = lineagePlace(ctx.store, lineageIn(ctx, s, used), used.msl).name;
    if (here !== null && !same(here, s.matched_name) && s.current_name !== null && same(s.current_name, s.matched_name)) {
      return nameIn(ctx, { ...p, releases: [{ ...p.nameRelease! }] });
    }
  }
  // the lineage the name meant in the release it was used in (a name may have served two species in turn)
  const id = used ? lineageIn(ctx, s, used) : s.lineage_ids[0]!;
  // (a name of several lineages is the resolver's to weigh: by spelling, by release)
  const res = (used || s.lineage_ids.length === 1 ? nowOf(ctx, s, [id]) : null) ?? resolveOne(ctx.store, s.matched_name, used ? asResolved(used) : null, asResolved(ctx.latest));
  const renames = lineageRenames(ctx.store, id);
  const data = { query_name: s.text, matched_name: s.matched_name, matched_kind: s.kind, status: res.status, current_names: res.results, renames, version: ctx.latest.version, ...(used ? { listed_in: used.version } : {}) };
  const sources = speciesSources(ctx, ctx.latest.version);
  const as = used ? `${s.matched_name}, as ${release(used)} listed it,` : s.matched_name;
  if (res.results.length === 1) {
    const now = res.results[0]!;
    const idKind = IDENTIFIER_KINDS[s.kind as IdentifierKind];
    if (idKind) return { response: `${s.text} is ${idKind} of the species named ${now} in the latest release, ${release(ctx.latest)}.`, data, sources };
    if (same(now, s.text)) {
      return { response: `${now} is still the species' name in the latest release, ${release(ctx.latest)}${used ? `, as it was in ${release(used)}` : ''}.`, data, sources };
    }
    // the renames after the name asked was given up ("Hog cholera virus" is no rename of itself to tell)
    const given = renames.map((r) => same(r.to, s.matched_name)).lastIndexOf(true);
    const steps = renames.filter((r, k) => k > given && (!used || mslOf(r.version) > used.msl)).map((r) => `${r.to} in ${labelled(ctx, r.version)}`);
    const merge = res.chain.find((c) => c.change === 'merged');
    const how = merge ? `; its species was merged into ${merge.to_name} in ${merge.version}${merge.to_name === now ? '' : `, now ${now}`}`
      : steps.length ? `; the species was renamed ${and(steps)}` : '';
    const again = merge ? relisted(ctx, s, id) : null;
    const also = again && again.now !== now ? `; the name ${s.matched_name} was listed again from ${labelled(ctx, again.first)} as a species of its own, which is ${again.now} in ${ctx.latest.version}` : '';
    return { response: `The current (${ctx.latest.version}) name of ${as} is ${now}${how}${also}.`, data: { ...data, ...(also ? { relisted: again } : {}) }, sources };
  }
  if (res.results.length > 1) {
    return { response: `${s.text} now corresponds to ${res.results.length} species in ${ctx.latest.version}: ${and(res.results)} (status: ${res.status}).`, data, sources };
  }
  const l = lineageOutline(ctx.store, id);
  // "the species listed in 1971 as Zika virus": abolished in MSL14, but the name was listed again from MSL18 as a
  // species of its own, the one people mean (Orthoflavivirus zikaense)
  const again = relisted(ctx, s, id);
  if (again) {
    return {
      response: `The current (${ctx.latest.version}) name of ${s.matched_name} is ${again.now}: the species ${used ? `${release(used)} listed` : 'first listed'} as ${s.matched_name} was ${endingText(l)}, and the name was listed again from ${labelled(ctx, again.first)} as a species of its own, ${again.now} in ${release(ctx.latest)}.`,
      data: { ...data, current_names: [again.now], relisted: again }, sources,
    };
  }
  return { response: `${s.text} has no current name: its species was ${endingText(l)} and nothing of it is listed in ${ctx.latest.version}.`, data, sources };
}

/** A later species listed under the same name as a lineage that ended, still listed today: its first release and name now. */
function relisted(ctx: Ctx, s: SpeciesRef, id: number): { first: string; now: string } | null {
  const last = mslOf(lineageOutline(ctx.store, id).last_appearance);
  for (const h of lookupName(ctx.store, s.matched_name)) {
    if (h.kind !== 'species' || h.lineage_id === id) continue;
    const o = lineageOutline(ctx.store, h.lineage_id);
    if (mslOf(o.first_appearance) <= last) continue;
    if (o.ended === 'current' && o.current_name) return { first: o.first_appearance, now: o.current_name };
    // (listed again, then merged on: "Coliphage T4", again from MSL14, merged into Tequatrovirus T4's species)
    const later = resolveOne(ctx.store, s.matched_name, asResolved(rowOf(ctx, mslOf(o.first_appearance))!), asResolved(ctx.latest)).results;
    if (later.length === 1) return { first: o.first_appearance, now: later[0]! };
  }
  return null;
}

/**
 * What the resolver says of lineages that all go on to the latest release (the commonest case): their names
 * there, from their walks, without looking the name up again; null when one of them ended (merged, split,
 * abolished), which the resolver follows.
 */
function nowOf(ctx: Ctx, s: SpeciesRef, ids: number[]): Pick<ReturnType<typeof resolveOne>, 'status' | 'results' | 'chain'> | null {
  const now: string[] = [];
  for (const id of ids) {
    const name = lineageCurrentName(ctx.store, id);
    if (name === null) return null;
    if (!now.includes(name)) now.push(name);
  }
  return { status: same(now[0]!, s.matched_name) ? 'unchanged' : 'renamed', results: now, chain: [] };
}

/** Each name of a lineage with the releases it was used in. */
function nameSpans(l: LineageOutline): Array<{ name: string; first: string; last: string }> {
  const spans: Array<{ name: string; first: string; last: string }> = [];
  for (const t of l.timeline) {
    const open = spans[spans.length - 1];
    if (open && open.name === t.name) open.last = t.version;
    else spans.push({ name: t.name, first: t.version, last: t.version });
  }
  return spans;
}

export function formerNames(ctx: Ctx, p: Parsed, s: SpeciesRef): Answer {
  const l = lineageOutline(ctx.store, s.lineage_ids[0]!);
  const spans = nameSpans(l);
  const renames = renamesIn(l.timeline);
  const data = { query_name: s.text, matched_name: s.matched_name, names: spans, renames, lineage: summaryOf(l) };
  const sources = lineageSources(ctx);
  const last = spans[spans.length - 1]!;
  // "Was X ever renamed?", "Did ICTV rename X in MSL38?": a yes or a no first, by its renames (in the release named)
  const asked = p.form.yesNo && p.change === 'renamed' && p.releases.length <= 1 ? p.releases[0] : undefined;
  // "since 2015", "after MSL30": any rename after it; "before 2015": any before it; else one in that release
  const yes = renames.some((r) => !asked || inSpan(p.form.span, mslOf(r.version), asked.msl));
  const lead = p.form.yesNo && p.change === 'renamed' && p.releases.length <= 1 ? `${yes ? 'Yes' : 'No'}: ` : '';
  // a species that ended in a split or merge ("Ebola virus", split in MSL14) lives on in others, whose renames are
  // not its own: its No would be said of the virus the name is still used for
  if (lead && (l.ended === 'split' || l.ended === 'merged')) {
    return notUnderstood('species', `${called(s, last.name)} is the name of a species listed ${l.first_appearance}-${l.last_appearance}, ${endingText(l)}; its own record says nothing of the names of the species it went to: ask about one of them.`);
  }
  if (spans.length === 1 && l.ended !== 'current') {
    return { response: `${lead}${called(s, last.name)} had one name, ${last.name}, in every release it is listed in (${last.first}-${last.last}), and was ${endingText(l)}.`, data, sources };
  }
  if (spans.length === 1) {
    return { response: `${lead}${called(s, last.name)} has had one name, ${last.name}, in every release it is listed in (${last.first}-${last.last}); it was never renamed.`, data, sources };
  }
  const former = spans.slice(0, -1).map((x) => `${x.name} (${x.first === x.last ? x.first : `${x.first}-${x.last}`})`);
  const when = renames.map((r) => labelled(ctx, r.version));
  return {
    response: `${lead}${last.name} was formerly called ${and(former)}; it was renamed in ${and(when)}${l.ended === 'current' ? `, and ${last.name} is its name in ${l.last_appearance}` : `, and carried the name ${last.name} until ${last.last}`}.`,
    data, sources,
  };
}

export function speciesHistory(ctx: Ctx, _p: Parsed, s: SpeciesRef): Answer {
  const l = lineageOutline(ctx.store, s.lineage_ids[0]!);
  const first = rowOf(ctx, mslOf(l.first_appearance))!, last = rowOf(ctx, mslOf(l.last_appearance))!;
  // a timeline repeats one name release after release: each run of it is normalised once
  const asked = normaliseName(s.text);
  let run: string | undefined;
  let isAsked = false;
  const own = l.timeline.filter((t) => {
    if (t.name !== run) {
      run = t.name;
      isAsked = normaliseName(t.name) === asked;
    }
    return isAsked;
  });
  const began = l.began === 'split' ? ` (split off ${and(l.split_from)})` : l.began === 'merged' ? ` (formed by merging ${and(l.merged_from)})` : '';
  const now = l.current_name && normaliseName(l.current_name) !== asked ? ` as ${l.current_name}` : '';
  // a VMR virus name or abbreviation is not the species: say whose it is, and since when the VMR uses it
  const who = s.kind === 'species' ? s.matched_name
    : `${s.matched_name} (a ${s.kind === 'virus_name' ? 'virus name' : 'virus abbreviation'} of the VMR, used MSL${s.first_msl}-MSL${s.last_msl}) belongs to a species that`;
  const life = l.ended === 'current'
    ? `${who} has been listed since ${release(first)}${began} and is still listed in ${release(last)}${now}`
    : `${who} was listed from ${release(first)}${began} to ${release(last)} and was then ${endingText(l)}`;
  const nameUse = own.length > 0 && (own[0]!.version !== l.first_appearance || own[own.length - 1]!.version !== l.last_appearance)
    ? `; the name ${own[0]!.name} itself was used from ${own[0]!.version} to ${own[own.length - 1]!.version}` : '';
  // the same name listed earlier for a species of another lineage ("Zika virus", MSL1-13, abolished, listed again
  // from MSL18 under a new ICTV id): "first listed" is then the earlier, said beside the lineage's own
  const earlier = s.kind === 'species' ? s.lineage_ids.slice(1).map((id) => lineageOutline(ctx.store, id))
    .map((o) => ({ o, used: o.timeline.filter((t) => same(t.name, s.text)) }))
    .filter(({ used }) => used.length > 0 && mslOf(used[0]!.version) < mslOf(l.first_appearance))
    .sort((a, b) => mslOf(a.used[0]!.version) - mslOf(b.used[0]!.version))[0] : undefined;
  const before = earlier
    ? `; the name ${earlier.used[0]!.name} was listed earlier, from ${release(rowOf(ctx, mslOf(earlier.used[0]!.version))!)} to ${release(rowOf(ctx, mslOf(earlier.used[earlier.used.length - 1]!.version))!)}, for a species of another ICTV id that was then ${endingText(earlier.o)}`
    : '';
  const merged = l.began === 'merged' && s.via?.how === 'alias' ? mergedEarlier(ctx, l, s.via.name) : null;
  const alsoBefore = merged
    ? `; ${merged.tail} itself was listed earlier, as the species ${merged.name} from ${release(rowOf(ctx, mslOf(merged.version))!)}, one of those merged`
    : '';
  return {
    response: `${life}${nameUse}${before}${alsoBefore}.`,
    data: { query_name: s.text, matched_name: s.matched_name, lineage: summaryOf(l), name_used: own.length ? { first: own[0]!.version, last: own[own.length - 1]!.version } : null },
    sources: lineageSources(ctx),
  };
}

/**
 * "Which release first listed phage T7?": the short name, read through the VMR's name (Escherichia phage T7), was
 * a species of its own ("Phage T7", MSL4) before the merge that formed the species it belongs to now. The earliest
 * entry, under a name ending in the same code, of the species merged into `l`; null if none.
 */
function mergedEarlier(ctx: Ctx, l: LineageOutline, aliasOf: string): { tail: string; name: string; version: string } | null {
  const tail = aliasOf.split(' ').pop()!;
  if (!/\d/.test(tail)) return null;
  const ends = (name: string) => name.toLowerCase().endsWith(` ${tail.toLowerCase()}`);
  const begin = mslOf(l.first_appearance);
  let found: { tail: string; name: string; version: string } | null = null;
  for (const from of l.merged_from) {
    for (const h of lookupName(ctx.store, normaliseName(from))) {
      if (h.kind !== 'species' || h.last_msl >= begin) continue;
      const entry = lineageOutline(ctx.store, h.lineage_id).timeline.find((t) => ends(t.name));
      if (entry && (!found || mslOf(entry.version) < mslOf(found.version))) found = { tail, name: entry.name, version: entry.version };
    }
  }
  return found;
}

/**
 * "When was hepatitis C virus moved, and into which family?": each release in which its lineage's taxon of the
 * rank asked (its family, unless another is named) was another than in the release before, from its timeline.
 */
export function speciesMoves(ctx: Ctx, p: Parsed, s: SpeciesRef): Answer {
  const rank = p.relationRank ?? 'family';
  const l = lineageOutline(ctx.store, s.lineage_ids[0]!);
  // the name's earlier species that ended in the release before this one began ("West Nile virus", MSL1-MSL17,
  // merged into the species of that name from MSL18): its moves are the name's too
  const earlier = s.lineage_ids.slice(1).filter((id) => mslOf(lineageOutline(ctx.store, id).last_appearance) + 1 === mslOf(l.first_appearance));
  const timeline = timelineOf(ctx, [...earlier, l.lineage_id]);
  const moves: Array<{ version: string; from: string | null; to: string | null }> = [];
  const at = (e: { version: string; name: string }) => speciesDoc(ctx.store, mslOf(e.version), e.name)?.classification[rank] ?? null;
  for (let k = 1; k < timeline.length; k++) {
    const a = timeline[k - 1]!, b = timeline[k]!;
    // only where the taxa above it changed (most releases leave them), each side read from its release's record
    if (a.lineage.slice(0, a.lineage.lastIndexOf(';')) === b.lineage.slice(0, b.lineage.lastIndexOf(';'))) continue;
    const [from, to] = [at(a), at(b)];
    if (from !== to) moves.push({ version: b.version, from, to });
  }
  const last = l.timeline[l.timeline.length - 1]!;
  const now = l.current_name && !same(l.current_name, s.text) ? ` (now ${l.current_name})` : '';
  const taxon = (n: string | null) => (n ? `the ${rank} ${n}` : `no ${rank}`);
  const told = moves.map((m) => `from ${taxon(m.from)} into ${taxon(m.to)} in ${labelled(ctx, m.version)}`);
  // yes or no: moved at all, or into the taxon named ("was rubella virus moved to Matonaviridae?")
  const into = p.taxa[0]?.rank === rank ? p.taxa[0].name : null;
  const lead = !p.form.yesNo ? '' : (into ? moves.some((m) => m.to === into) : moves.length > 0) ? 'Yes: ' : 'No: ';
  return {
    response: lead + (moves.length === 0
      ? `${s.text.charAt(0).toUpperCase()}${s.text.slice(1)}${now} was never moved to another ${rank}: it is in ${taxon(at(last))} in every release that lists it with one (${l.first_appearance}-${l.last_appearance}).`
      : `${s.text.charAt(0).toUpperCase()}${s.text.slice(1)}${now} was moved ${and(told)}.`),
    data: { query_name: s.text, rank, moves, lineage: summaryOf(l) },
    sources: speciesSources(ctx, last.version),
  };
}

/**
 * The species' record in the release asked, or the latest (or last) release that has it. A species split since
 * has no one record: its parts are given instead ("tick-borne encephalitis virus": Orthoflavivirus zilberi and
 * O. neudoerflense, whose exemplars differ).
 */
function recordFor(ctx: Ctx, p: Parsed, s: SpeciesRef): { doc: SpeciesDoc | null; version: ReleaseRow; parts?: string[] } {
  const target = targetRelease(ctx, p);
  const pl = placement(ctx, s, target);
  const parts = splitParts(pl);
  if (parts) return { doc: null, version: target, parts };
  if (pl.species) return { doc: pl.species, version: target };
  const lastRow = rowOf(ctx, mslOf(pl.lineage.last_appearance))!;
  const lastName = pl.lineage.timeline[pl.lineage.timeline.length - 1]!.name;
  return { doc: speciesDoc(ctx.store, lastRow.msl, lastName), version: lastRow };
}

/**
 * The VMR row of the virus a name or accession asked denotes, when it is not its species' exemplar (whose facts the
 * species documents hold): "SARS-CoV-2" is not Betacoronavirus pandemicum's exemplar, SARS-CoV.
 */
async function ownRow(ctx: Ctx, s: SpeciesRef, version: ReleaseRow): Promise<OwnIsolate | null> {
  const named = s.kind === 'virus_name' || s.kind === 'abbreviation';
  if (!named && s.kind !== 'accession') return null;
  return ownIsolate(ctx.store, version.msl, named ? s.matched_name : s.text, !named);
}

/** The species a name's species was split into since, when it ended so (several successors), else null. */
function splitParts(pl: ReturnType<typeof placement>): string[] | null {
  const parts = pl.status === 'ended' ? pl.resolution?.results ?? [] : [];
  return parts.length > 1 ? parts : null;
}

/** Whether the species a split made differ in what is asked of them (their genome type, their hosts). */
function partsDiffer(ctx: Ctx, version: ReleaseRow, parts: string[], fact: (d: SpeciesDoc) => string): boolean {
  return new Set(parts.map((n) => { const d = speciesDoc(ctx.store, version.msl, n); return d ? fact(d) : ''; })).size > 1;
}

/** "Tick-borne encephalitis virus is no one species in MSL41: ...": a name whose species was split, asked a fact of one species. */
const splitInto = (s: SpeciesRef, version: ReleaseRow, parts: string[]): Answer =>
  notUnderstood('species', `${s.text} is no one species in ${release(version)}: its species was split into ${and(parts)}, whose records differ: ask about one of them.`);

export async function speciesGenome(ctx: Ctx, p: Parsed, s: SpeciesRef): Promise<Answer> {
  const { doc, version, parts } = recordFor(ctx, p, s);
  if (parts) return splitInto(s, version, parts);
  if (!doc) return fallback(`I found ${s.text} but no species record for it.`);
  const g = doc.genome;
  const type = g.type ? `a ${g.type} genome (${COMPOSITION_NAMES[g.type] ?? g.type})` : null;
  const exemplar = g.size ? `its exemplar genome${g.size_coverage ? ` (${g.size_coverage.toLowerCase()})` : ''} is ${g.size} long${g.size_from_version && g.size_from_version !== version.version ? ` (VMR of ${g.size_from_version})` : ''}` : null;
  const own = await ownRow(ctx, s, version);
  // its own sequence, where the VMR gives one whose length is known, before the species' exemplar's
  const size = own?.length_bp != null
    ? `its own sequence (${own.accessions.join(', ')}) is ${formatGenomeSize(own.length_bp)} long${exemplar ? `; the species' ${exemplar.replace(/^its /, '')}` : ''}`
    : exemplar;
  const who = called(s, doc.scientific_name);
  const response = type
    ? `${who} has ${type}${g.type_from_version && g.type_from_version !== version.version ? `, as recorded in ${g.type_from_version}` : ''}${size ? `; ${size}` : '; no exemplar genome length is known for it'}.`
    : `The MSL records no genome composition for ${who} (the column starts in MSL29)${size ? `; ${size}` : ''}.`;
  return {
    response,
    data: { query_name: s.text, species: doc.scientific_name, version: version.version, genome: g, ...(own?.length_bp != null ? { own_sequence: { accessions: own.accessions, length_bp: own.length_bp } } : {}) },
    sources: speciesSources(ctx, version.version),
  };
}

export async function speciesHosts(ctx: Ctx, p: Parsed, s: SpeciesRef): Promise<Answer> {
  const { doc: one, version, parts } = recordFor(ctx, p, s);
  if (parts && partsDiffer(ctx, version, parts, (d) => d.hosts.join(','))) return splitInto(s, version, parts);
  const doc = one ?? (parts ? speciesDoc(ctx.store, version.msl, parts[0]!) : null);
  if (!doc) return fallback(`I found ${s.text} but no species record for it.`);
  const who = called(s, doc.scientific_name);
  const own = await ownRow(ctx, s, version);
  if (own?.host_source && own.host_source !== doc.hosts.join(', ')) {
    return {
      response: `${who} has host source ${own.host_source} (its own row of the VMR, ${version.version}); the species' exemplar has ${doc.hosts.join(', ') || 'none recorded'}.`,
      data: { query_name: s.text, species: doc.scientific_name, version: version.version, hosts: own.host_source.split(',').map((h) => h.trim()), exemplar_hosts: doc.hosts },
      sources: speciesSources(ctx, version.version),
    };
  }
  const response = doc.hosts.length > 0
    ? `${who} has host source ${doc.hosts.join(', ')} (the VMR exemplar's host source${doc.hosts_from_version ? `, ${doc.hosts_from_version}` : ''}).`
    : `No host source is recorded for ${who}: host sources come from the VMR, which ICTV publishes from MSL37 on.`;
  return { response, data: { query_name: s.text, species: doc.scientific_name, version: version.version, hosts: doc.hosts, hosts_from_version: doc.hosts_from_version }, sources: speciesSources(ctx, version.version) };
}

// --- yes or no, and a name in a release ---------------------------------------------------------------------

/** The species a name denotes, placed in a release. */
export function speciesIn(ctx: Ctx, s: SpeciesRef, r: ReleaseRow) {
  return placement(ctx, s, r);
}

/** "Zika virus (Orthoflavivirus zikaense)", or the name alone when it is the species'. */
export function who(s: SpeciesRef, name: string): string {
  return s.text.toLowerCase() === name.toLowerCase() ? name : `${s.text} (${name})`;
}

/** "Are A and B in the same genus?": each one's taxon of that rank in the release asked. */
export function sameTaxon(ctx: Ctx, p: Parsed): Answer {
  const rank = p.relationRank!;
  const r = targetRelease(ctx, p);
  const [a, b] = p.species as [SpeciesRef, SpeciesRef];
  const pa = speciesIn(ctx, a, r), pb = speciesIn(ctx, b, r);
  if (!pa.species || !pb.species) {
    const gone = !pa.species ? a : b;
    return notUnderstood('species', `${gone.text} is not a species in ${release(r)}, so I cannot say whether the two share a ${rank} there.`);
  }
  const at = (d: typeof pa) => (rank === 'species' ? d.species!.scientific_name : d.species!.classification[rank] ?? null);
  const ta = at(pa), tb = at(pb);
  const yes = ta !== null && ta === tb;
  const text = (s: SpeciesRef, d: typeof pa) => (rank === 'species'
    ? `${s.text} is in the species ${d.species!.scientific_name}`
    : `${who(s, d.species!.scientific_name)} is in ${at(d) === null ? `no ${rank}` : `the ${rank} ${at(d)}`}`);
  return {
    response: `${yes ? 'Yes' : 'No'}: in ${release(r)}, ${text(a, pa)} and ${text(b, pb)}.`,
    data: { rank, version: r.version, [a.text]: ta, [b.text]: tb, answer: yes ? 'yes' : 'no' }, sources: sources(ctx, 'species_doc', r.version),
  };
}

/** "Is Zika virus an RNA virus?", "Is TMV ssRNA(+)?". */
export function isGenomeType(ctx: Ctx, p: Parsed): Answer {
  const s = p.species[0]!;
  const r = targetRelease(ctx, p);
  // (asked of a species split since, the parts' genome types answer when they agree)
  const pl = speciesIn(ctx, s, r);
  const parts = splitParts(pl);
  if (parts && partsDiffer(ctx, r, parts, (d) => d.genome.type ?? '')) return splitInto(s, r, parts);
  const doc = pl.species;
  if (!doc?.genome.type) return notUnderstood('genome', `No genome composition is recorded for ${s.text} in ${release(r)}.`);
  // ("Is HPV a DNA virus?": Hart Park virus's genome is no answer for the papillomaviruses the reader may mean)
  const doubt = ambiguousAbbreviation(ctx, s, doc.scientific_name);
  if (doubt) return doubt;
  const type = doc.genome.type;
  const wanted = p.genomeTypes;
  // (a genome replicating through reverse transcription is of the kind asked: HBV's dsDNA-RT is double-stranded DNA)
  const yes = wanted.length > 0 ? wanted.includes(type) || wanted.includes(type.replace(/-RT$/, '')) : type.toLowerCase().includes(p.form.nucleic ?? '');
  // an ambisense genome has genes of both senses: "Is Rift Valley fever virus a negative-sense RNA virus?" is no No
  const inPart = !yes && type.endsWith('(+/-)') && wanted.some((w) => w === type.replace('(+/-)', '(-)') || w === type.replace('(+/-)', '(+)'));
  // (the Genome column of the Master Species List, not the VMR's isolates, which may differ)
  return {
    response: `${yes ? 'Yes' : inPart ? 'In part' : 'No'}: ${who(s, doc.scientific_name)} has a ${type} genome (${COMPOSITION_NAMES[type] ?? type}${inPart ? ', with genes of both senses' : ''}), as the Master Species List records it for ${r.version}.`,
    data: { species: doc.scientific_name, genome_type: type, asked: wanted.length ? wanted : [p.form.nucleic], answer: yes ? 'yes' : inPart ? 'in part' : 'no' }, sources: sources(ctx, 'species_doc', r.version),
  };
}

/**
 * An abbreviation that also begins typed abbreviations of other taxa ("HPV": Hart Park virus in the VMR, and
 * HPV1, HPV16, ... papillomaviruses) is no ground for a No about membership: the question may mean the others.
 */
export function ambiguousAbbreviation(ctx: Ctx, s: SpeciesRef, name: string): Answer | null {
  if (s.kind !== 'abbreviation') return null;
  const aside = abbreviationAside(ctx.store, s.text);
  return aside ? notUnderstood('species', `${s.text} is the VMR's abbreviation of ${name}, but ${aside}: ask again naming the virus you mean.`) : null;
}

/**
 * "Is Zika virus in the genus Orthoflavivirus?", "Which genus is West Nile virus in now, still Flavivirus?": the
 * species' taxon of that rank in the release asked; where it is not the one named, until when it was, and what
 * became of a taxon no longer listed (the change lists: "the genus Flavivirus was renamed Orthoflavivirus in MSL38").
 */
export async function memberOf(ctx: Ctx, p: Parsed): Promise<Answer> {
  const s = p.species[0]!, t = p.taxa[0]!;
  const r = targetRelease(ctx, p);
  const pl = speciesIn(ctx, s, r);
  const doc = pl.species;
  if (!doc) {
    // formed later by a merge or split: the species it came from, when all of them answer alike
    const before = pl.status === 'not_yet' ? predecessorsIn(ctx, pl.lineage, r) : [];
    const shared = before.length > 0 ? sharedTaxon(before, t.rank) : undefined;
    if (shared !== undefined) {
      const yes = shared !== null && shared.toLowerCase() === t.name.toLowerCase();
      return {
        response: `${yes ? 'Yes' : 'No'}: ${beforeItsSpecies(ctx, s, pl.lineage, r, before)}, ${shared === null ? `in no ${t.rank}` : `in the ${t.rank} ${shared}`}.`,
        data: { species: s.text, rank: t.rank, asked: t.name, actual: shared, version: r.version, predecessors: before.map((d) => d.scientific_name), answer: yes ? 'yes' : 'no' },
        sources: sources(ctx, 'species_doc', r.version),
      };
    }
    return notUnderstood('species', `${s.text} is not a species in ${release(r)}.`);
  }
  const at = doc.classification[t.rank] ?? null;
  const yes = at !== null && at.toLowerCase() === t.name.toLowerCase();
  let since = '';
  if (!yes) {
    const doubt = ambiguousAbbreviation(ctx, s, doc.scientific_name);
    if (doubt) return doubt;
    // the lineage the name meant and the one the species is listed by now (a name's lineage may have ended in a
    // merge or split its species carried on from: "Coliphage T4" to MSL17, Enterobacteria phage T4 after)
    // (asked of no release, "was Zika ever in Togaviridae?": every species the name was, Zika virus of MSL1-13 too)
    const ids = [...new Set([lineageIn(ctx, s, r), doc.lineage_id, ...(p.releases.length === 0 ? s.lineage_ids : [])])];
    const inIt = timelineOf(ctx, ids).filter((e) => mslOf(e.version) <= r.msl && e.lineage.split(';').includes(t.name));
    const was = inIt[inIt.length - 1];
    // "Was coliphage T4 in the family Myoviridae?", of no release: whether it ever was, and when
    if (was && p.releases.length === 0 && PAST.test(p.normalised)) {
      const first = inIt[0]!;
      return {
        response: `Yes: ${who(s, doc.scientific_name)} was in the ${t.rank} ${t.name} from ${labelled(ctx, first.version)} to ${labelled(ctx, was.version)}; in ${release(r)} it is in ${at ? `the ${t.rank} ${at}` : `no ${t.rank}`}.`,
        data: { species: doc.scientific_name, rank: t.rank, asked: t.name, actual: at, version: r.version, answer: 'yes', by: 'former taxon', from: first.version, to: was.version },
        sources: sources(ctx, 'species_doc', r.version),
      };
    }
    // (a genus no longer listed, written with its capital but with no rank word, "Is mumps virus a Rubulavirus?", is
    // asked as people use the word too: only "in the genus Rubulavirus" asks the genus itself. A name of a higher
    // rank written with its capital, "Does bluetongue virus belong to Reoviridae?", is the taxon's formal name,
    // which nobody uses as an everyday word: asked in the present, a No that says when it ended)
    const everyday = p.rankWord === null && (t.text === t.text.toLowerCase() || (t.entry.last_msl < r.msl && /virus$/i.test(t.text)));
    // a taxon renamed since is the same taxon under its later name, also for a species that came into it after the
    // rename, whether written as an everyday word ("Is AAV2 a dependovirus?") or as the taxon ("Is Zika virus in
    // the genus Flavivirus?", "Is EBV in Herpesviridae?"); asked "still" or "now", it is the name, which is gone: a
    // No that says the rename
    const renamed = t.entry.last_msl < r.msl && !askedNow(p) ? await renamedAs(ctx, t, r.msl) : null;
    const wasToEnd = was !== undefined && mslOf(was.version) === t.entry.last_msl;
    if (renamed && at !== null && at.toLowerCase() === renamed.name.toLowerCase()) {
      const steps = renamed.steps.map((x) => `${x.from} was renamed ${x.to} in ${release(x.at)}`);
      return {
        response: `Yes, by the ${t.rank}'s former name: in ${release(r)}, ${who(s, doc.scientific_name)} is in the ${t.rank} ${at}, and the ${t.rank} ${and(steps)}.`,
        data: { species: doc.scientific_name, rank: t.rank, asked: t.name, actual: at, version: r.version, answer: 'yes', by: 'former name', renames: renamed.steps.map((x) => ({ from: x.from, to: x.to, version: x.at.version })) },
        sources: sources(ctx, 'species_doc', r.version),
      };
    }
    // "Is AFV1 a lipothrixvirus?": a genus no longer listed, written as an everyday word, whose family of the same
    // stem is listed and holds the species: the family is what the word names today (the genus Lipothrixvirus was
    // renamed in MSL22, AFV1 was never in it, but is a lipothrixvirus while in the Lipothrixviridae)
    // (or a family of that stem since renamed: "polydnavirus", the genus Polydnavirus of MSL9-10, and the family
    // Polydnaviridae, now Polydnaviriformidae)
    const stem = t.name.replace(/virus$/, 'vir');
    const stemFamily = t.rank === 'genus' && everyday && !wasToEnd && t.entry.last_msl < r.msl && stem !== t.name && doc.classification.family?.startsWith(stem) ? doc.classification.family : null;
    if (stemFamily) {
      return {
        response: `Yes: in ${release(r)}, ${who(s, doc.scientific_name)} is in the family ${stemFamily}, which "${t.text}" names today (the genus ${t.name} is no longer listed).`,
        data: { species: doc.scientific_name, rank: 'family', asked: t.name, actual: stemFamily, version: r.version, answer: 'yes', by: 'family of the word' }, sources: sources(ctx, 'species_doc', r.version),
      };
    }
    // asked of an earlier release whose taxon is the one named under its name then ("Was potato virus Y a potyvirus
    // in 1982?": the genus then was Potyvirus group, renamed Potyvirus in MSL13): the same taxon
    const then = at !== null && t.entry.first_msl > r.msl ? profileEntries(ctx, at).find((e) => e.rank === t.rank && e.first_msl <= r.msl && e.last_msl >= r.msl) : undefined;
    const later = then ? await renamedAs(ctx, { rank: t.rank, name: at!, entry: then }, t.entry.first_msl) : null;
    if (later && later.name.toLowerCase() === t.name.toLowerCase()) {
      const steps = later.steps.map((x) => `${x.from} was renamed ${x.to} in ${release(x.at)}`);
      return {
        response: `Yes, by the ${t.rank}'s name then: in ${release(r)}, ${who(s, doc.scientific_name)} is in the ${t.rank} ${at}, and the ${t.rank} ${and(steps)}.`,
        data: { species: doc.scientific_name, rank: t.rank, asked: t.name, actual: at, version: r.version, answer: 'yes', by: 'later name', renames: later.steps.map((x) => ({ from: x.from, to: x.to, version: x.at.version })) },
        sources: sources(ctx, 'species_doc', r.version),
      };
    }
    const fate = t.entry.last_msl < r.msl ? await taxonFate(ctx, t) : null;
    const became = fate ? `; the ${t.rank} ${t.name} was ${fate.text} in ${release(fate.at)}` : '';
    since = `${was ? `; it was in the ${t.rank} ${t.name} until ${labelled(ctx, was.version)}` : ''}${became}`;
    // "Is mumps virus a rubulavirus?": a taxon's name written as an everyday word (lower case, no rank word) for a
    // taxon no longer listed, which the species was in to its last release: a member by that name as people use it
    // ("Is mumps virus still a rubulavirus?" asks whether it is one now: the final No, with until when it was)
    if (wasToEnd && t.entry.last_msl < r.msl && everyday && !askedNow(p)) {
      return {
        response: `Yes, by a former ${t.rank}: ${who(s, doc.scientific_name)} was in the ${t.rank} ${t.name} until ${labelled(ctx, was!.version)}, the last release that lists it${became}; in ${release(r)} it is in ${at ? `the ${t.rank} ${at}` : `no ${t.rank}`}.`,
        data: { species: doc.scientific_name, rank: t.rank, asked: t.name, actual: at, version: r.version, answer: 'yes', by: 'former taxon' }, sources: sources(ctx, 'species_doc', r.version),
      };
    }
    // "Is banana bunchy top virus a nanovirus?": a genus's name written as an everyday word is also said of the
    // family of its stem (Nanoviridae), which holds the species, or held it (Qbeta, in Leviviridae to MSL35): a
    // No of the genus alone would answer one sense of two
    const family = t.rank === 'genus' && everyday && stem !== t.name ? stemFamilyOf(ctx, ids, stem, r.msl) : null;
    if (family) {
      return notUnderstood('group', `"${t.text}" may mean the genus ${t.name}, which ${who(s, doc.scientific_name)} is not in (in ${release(r)} it is in ${at ? `the genus ${at}` : 'no genus'}), or any member of the family ${family}, which it ${doc.classification.family === family ? 'is in' : 'was in'}: ask about the genus or the family by name.`);
    }
  }
  return {
    response: `${yes ? 'Yes' : 'No'}: in ${release(r)}, ${who(s, doc.scientific_name)} is in ${at ? `the ${t.rank} ${at}` : `no ${t.rank}`}${since}.`,
    data: { species: doc.scientific_name, rank: t.rank, asked: t.name, actual: at, version: r.version, answer: yes ? 'yes' : 'no' }, sources: sources(ctx, 'species_doc', r.version),
  };
}

/** Host source groups of the VMR that overlap, as "asked|recorded". */
const OVERLAPPING = new Set(['algae|protists', 'protists|algae', 'oomycetes|fungi', 'fungi|oomycetes', 'oomycetes|protists', 'protists|oomycetes']);

// The words of a host source group itself, which a Yes of the VMR's host source answers
const BROAD_HOST = /^(?:prokaryot\w*|archae\w*|bacteri\w*|(?:bacterio)?phages?|oomycetes?|fung(?:i|us|al)|mycovirus(?:es)?|alga[el]?|protists?|protozoa\w*|plants?|invertebrates?|vertebrates?|animals?|soil|marine|freshwater|sewage|phytobiome)$/;

/** The host word of a question narrower than the group it falls in ("bats" of vertebrates), or qualified by a word left unread. */
export function narrowerHost(p: Parsed, hosts: string[]): string | null {
  const asked = findHosts(p.residue).filter((m) => m.values.some((v) => hosts.includes(v)));
  const narrow = asked.find((m) => !BROAD_HOST.test(m.text));
  if (narrow) return narrow.text;
  // a word no vocabulary reads right before the host word qualifies it ("a lytic phage", "a temperate phage")
  for (const m of asked) {
    const before = /([a-z]+)\s*$/.exec(p.residue.slice(0, m.index))?.[1];
    if (before && p.leftovers.includes(before)) return `${before} ${m.text}`;
  }
  return null;
}

/** The family named by a genus word's stem ("Nanovir" -> Nanoviridae) that held the species up to the release, if any. */
function stemFamilyOf(ctx: Ctx, ids: number[], stem: string, msl: number): string | null {
  const family = `${stem}idae`;
  return ids.some((id) => lineageOutline(ctx.store, id).timeline.some((e) => mslOf(e.version) <= msl && e.lineage.split(';').includes(family))) ? family : null;
}

/** "Does Zika virus infect insects?": the VMR exemplar's host source. */
export async function hasHost(ctx: Ctx, p: Parsed): Promise<Answer> {
  const s = p.species[0]!;
  const r = targetRelease(ctx, p);
  const pl = speciesIn(ctx, s, r);
  const parts = splitParts(pl);
  if (parts && partsDiffer(ctx, r, parts, (d) => d.hosts.join(','))) return splitInto(s, r, parts);
  const found = pl.species;
  if (!found || found.hosts.length === 0) return notUnderstood('host', `No host source is recorded for ${s.text} in ${release(r)}.`);
  const doubt = ambiguousAbbreviation(ctx, s, found.scientific_name);
  if (doubt) return doubt;
  // a virus that is not its species' exemplar is answered by its own row's host source
  const own = await ownRow(ctx, s, r);
  const doc = own?.host_source ? { ...found, hosts: own.host_source.split(',').map((h) => h.trim()) } : found;
  const recorded = own?.host_source ? `its own row of the VMR, ${r.version}` : `the VMR exemplar's, ${doc.hosts_from_version ?? r.version}`;
  const groups = doc.hosts.map(hostGroup);
  const yes = groups.some((h) => p.hosts.includes(h));
  // the VMR's host source is a broad group ("vertebrates"): it holds no Yes for a narrower host ("bats",
  // "mosquitoes", "E. coli"), nor for a kind of phage ("a lytic phage"), only a No where the group differs
  const narrower = yes ? narrowerHost(p, groups) : null;
  // the VMR's groups overlap where organisms are classed two ways: an alga is a protist to some, a diatom both;
  // oomycetes were fungi: a host source of one is no No for the other
  const overlap = !yes ? p.hosts.find((h) => groups.some((x) => OVERLAPPING.has(`${h}|${x}`))) : undefined;
  if (overlap) {
    return notUnderstood('host', `The VMR records host source by broad group only: ${who(s, doc.scientific_name)} has host source ${doc.hosts.join(', ')} (${recorded}), a group that may hold ${overlap} or not: the record does not say.`);
  }
  if (narrower) {
    return notUnderstood('host', `The VMR records host source by broad group only: ${who(s, doc.scientific_name)} has host source ${doc.hosts.join(', ')} (${recorded}); it holds no Yes for "${narrower}", which is narrower.`);
  }
  return {
    response: `${yes ? 'Yes' : 'No'}: ${who(s, doc.scientific_name)} has host source ${doc.hosts.join(', ')} (${recorded}).`,
    data: { species: doc.scientific_name, hosts: doc.hosts, asked: p.hosts, answer: yes ? 'yes' : 'no' }, sources: sources(ctx, 'species_doc', r.version),
  };
}

/** "What was Zika virus called in 2010?": the species the name belonged to in that release. */
export function nameIn(ctx: Ctx, p: Parsed): Answer {
  const s = p.species[0]!;
  const named = rowOf(ctx, p.releases[0]!.msl)!;
  // "what was X called before 2023?": the name in the release before the one named
  const before = p.form.span === 'before' || p.form.span === 'prior to' ? rowOf(ctx, named.msl - 1) ?? null : undefined;
  if (before === null) return notUnderstood('release', `${release(named)} is the first release: nothing was listed before it.`);
  const r = before ?? named;
  const lead = before ? `Before ${release(named)}: in` : 'In';
  // the lineage listed in that release: its name there is in its walk, no species document needed
  const here = lineagePlace(ctx.store, lineageIn(ctx, s, r), r.msl).name;
  if (here !== null) {
    return {
      response: `${lead} ${release(r)}, ${s.via?.how === 'typo' ? s.via.name : s.text} was the species ${here}.`,
      data: { query_name: s.text, version: r.version, species: here, placement: 'present' }, sources: sources(ctx, 'species_timeline', r.version),
    };
  }
  const pl = speciesIn(ctx, s, r);
  const earlier = pl.status === 'not_yet' ? predecessorsIn(ctx, pl.lineage, r) : [];
  if (earlier.length > 0) {
    const said = beforeItsSpecies(ctx, s, pl.lineage, r, earlier);
    return {
      response: before ? `Before ${release(named)}: ${said}.` : `${said.charAt(0).toUpperCase()}${said.slice(1)}.`,
      data: { query_name: s.text, version: r.version, predecessors: earlier.map((d) => d.scientific_name), placement: 'not_yet' }, sources: sources(ctx, 'species_doc', r.version),
    };
  }
  if (pl.status === 'not_yet' || pl.status === 'gap') return notUnderstood('release', `${s.text} is not listed in ${release(r)}: its species is listed from ${pl.lineage.first_appearance}.`);
  if (!pl.species) return notUnderstood('release', `${s.text} is not a species in ${release(r)}.`);
  return {
    response: `${lead} ${release(r)}, ${s.via?.how === 'typo' ? s.via.name : s.text} was ${pl.status === 'ended' ? 'part of ' : ''}the species ${pl.species.scientific_name}.`,
    data: { query_name: s.text, version: r.version, species: pl.species.scientific_name, placement: pl.status }, sources: sources(ctx, 'species_doc', r.version),
  };
}

/** "Is Zika virus still called Zika virus?": its species' name in the latest release. */
export function stillNamed(ctx: Ctx, p: Parsed): Answer {
  const s = p.species[0]!;
  // "Is Hepatitis B virus still a species?" asks whether its species is still listed, whatever it is called now
  if (!/\b(?:names?|called)\b/.test(p.residue)) {
    const l = lineageOutline(ctx.store, s.lineage_ids[0]!);
    const yes = l.ended === 'current';
    const own = l.timeline.filter((t) => same(t.name, s.text));
    const used = own.length > 0 && own[own.length - 1]!.version !== l.last_appearance ? `; the name ${own[0]!.name} itself was used from ${own[0]!.version} to ${own[own.length - 1]!.version}` : '';
    return {
      response: yes
        ? `Yes: the species of ${s.text} has been listed since ${labelled(ctx, l.first_appearance)} and is still listed in the latest release, ${release(ctx.latest)}${l.current_name && !same(l.current_name, s.text) ? `, as ${l.current_name}` : ''}${used}.`
        : `No: the species of ${s.text} was listed ${l.first_appearance}-${l.last_appearance} and was then ${endingText(l)}.`,
      data: { query_name: s.text, lineage: summaryOf(l), answer: yes ? 'yes' : 'no' }, sources: lineageSources(ctx),
    };
  }
  const now = speciesIn(ctx, s, ctx.latest).species?.scientific_name ?? null;
  const yes = now !== null && now.toLowerCase() === s.matched_name.toLowerCase();
  return {
    response: yes ? `Yes: ${now} is the species' name in the latest release, ${release(ctx.latest)}.`
      : now ? `No: in the latest release, ${release(ctx.latest)}, ${s.text} is the species ${now}.` : `No: ${s.text} is not a species in the latest release, ${release(ctx.latest)}.`,
    data: { query_name: s.text, current_name: now, answer: yes ? 'yes' : 'no' }, sources: sources(ctx, 'species_doc', ctx.latest.version),
  };
}

/** "Was Zika virus listed in 1990?": whether the name denotes a species in that release, and when its species is listed. */
export function listedIn(ctx: Ctx, p: Parsed): Answer {
  const s = p.species[0]!;
  const r = targetRelease(ctx, p);
  // a virus's name or abbreviation outside the releases the VMR uses it in ("SARS-CoV-2" in 2015): its species was
  // listed, the virus was not named; no yes or no
  if (s.kind !== 'species' && (r.msl < s.first_msl || r.msl > s.last_msl)) {
    return notUnderstood('species', `${s.text} is a virus name the VMR uses in MSL${s.first_msl}-MSL${s.last_msl}, not in ${release(r)}; ask about its species by the species' name.`);
  }
  const doc = speciesIn(ctx, s, r).species;
  const l = lineageOutline(ctx.store, lineageIn(ctx, s, r));
  const span = l.first_appearance === l.last_appearance ? `in ${l.first_appearance} only` : `from ${l.first_appearance} to ${l.last_appearance}`;
  return {
    response: doc ? `Yes: in ${release(r)}, ${who(s, doc.scientific_name)} is listed, as the species ${doc.scientific_name}.`
      : `No: ${s.text} is not listed in ${release(r)}; its species is listed ${span}.`,
    data: { query_name: s.text, version: r.version, species: doc?.scientific_name ?? null, answer: doc ? 'yes' : 'no' }, sources: sources(ctx, 'species_doc', r.version),
  };
}

// Answers about everyday group names (group-names.yaml): "Is SARS-CoV-2 a coronavirus?" is asked of the taxon the
// word names (the family Coronaviridae), in the release asked, by its name in that release (the genus Flavivirus
// before MSL38, Orthoflavivirus since), in the word's strict sense and, where it has one, its wider one; a species
// that is not a member now but was says when it left. A word that names no taxon ("arbovirus") is said to be none,
// and what the taxonomy does say about the virus is given instead.
import { endingText, mslOf } from '../../read/lineages.js';
import { lineageOutline } from '../../read/species-walks.js';
import type { ReleaseRow } from '../../read/releases.js';
import { and, release } from '../format.js';
import type { GroupEntry, GroupTaxon } from '../groups.js';
import type { Parsed } from '../parse.js';
import { askedNow, notUnderstood, PAST, profileEntries, rowOf, sources, targetRelease, type Answer, type Ctx } from './common.js';
import { ambiguousAbbreviation, speciesIn, timelineOf, who } from './species.js';

/** The name a group's taxon had in a release: its former name before the rename, its own after. */
function nameAt(g: GroupEntry, t: GroupTaxon, r: ReleaseRow): string {
  if (t !== g.taxon) return t.name;
  const earlier = (g.former ?? []).filter((f) => mslOf(f.renamed_in) > r.msl).sort((a, b) => mslOf(a.renamed_in) - mslOf(b.renamed_in));
  return earlier[0]?.name ?? t.name;
}

/** "the family Coronaviridae, which \"coronavirus\" names" */
function reading(word: string, t: GroupTaxon, name: string): string {
  return `the ${t.rank} ${name}, which "${word}" names`;
}

/** "Is West Nile virus a flavivirus?": membership of the taxon the word names, strictly and in its wider sense. */
export function groupMembership(ctx: Ctx, p: Parsed): Answer {
  const s = p.species[0]!, t = p.taxa[0]!;
  const g = t.group!;
  const word = t.text.toLowerCase();
  let r = targetRelease(ctx, p);
  const placed = speciesIn(ctx, s, r);
  let doc = placed.species;
  // a species no longer listed ("HHV-6": Human herpesvirus 6, abolished in MSL26), asked of no release: where its
  // last release placed it, said as such
  let lastNote = '';
  if (!doc && p.releases.length === 0 && placed.status === 'ended') {
    r = rowOf(ctx, mslOf(placed.lineage.last_appearance))!;
    doc = speciesIn(ctx, s, r).species;
    lastNote = `, the last release that lists it (it was ${endingText(placed.lineage)})`;
  }
  if (!doc) return notUnderstood('species', `${s.text} is not a species in ${release(r)}.`);
  if (g.ended && t.entry.last_msl < r.msl) return endedGroup(ctx, p, r, doc.scientific_name, doc.classification);
  const c = doc.classification;
  const strict = g.taxon!, wider = g.wider;
  const strictName = nameAt(g, strict, r);
  const inStrict = c[strict.rank] === strictName;
  const inWider = wider ? c[wider.rank] === wider.name : false;
  const it = who(s, doc.scientific_name);
  // "Was Hantaan virus a bunyavirus in 2005?": a release before the word's taxon was made (the class Bunyaviricetes,
  // MSL39) cannot say No; the group was then another taxon (the family Bunyaviridae), which the table does not name
  // (a species never in the taxon, in any release, is not one then either: "Was Human rhinovirus 95 a filovirus in 1982?")
  if (!inStrict && !inWider && !listedIn(ctx, strict.rank, strictName, r.msl) && everIn(ctx, [...s.lineage_ids, doc.lineage_id], g)) return notYetDefined(ctx, word, strict.rank, strictName, r, it, c);
  const src = sources(ctx, 'species_doc', r.version);
  const data = { species: doc.scientific_name, version: r.version, group: word, taxon: { rank: strict.rank, name: strictName }, wider: wider ?? null, classification: c, source: g.source };
  const former = g.former?.filter((f) => mslOf(f.renamed_in) <= r.msl).map((f) => `, formerly the ${f.rank} ${f.name} (renamed in ${f.renamed_in})`).join('') ?? '';
  if (inStrict) {
    return { response: `Yes: in ${release(r)}${lastNote}, ${it} ${lastNote ? 'was' : 'is'} in ${reading(word, strict, strictName)}${former}.`, data: { ...data, answer: 'yes' }, sources: src };
  }
  if (inWider) {
    return {
      response: `Yes, in the wider sense: in ${release(r)}${lastNote}, ${it} ${lastNote ? 'was' : 'is'} in the ${wider!.rank} ${wider!.name}, which "${word}" also names, though not in the ${strict.rank} ${strictName}${former}, the ${g.words[1] ?? word} in the strict sense (it is in ${c[strict.rank] ? `the ${strict.rank} ${c[strict.rank]}` : `no ${strict.rank}`}).`,
      data: { ...data, answer: 'yes', sense: 'wider' }, sources: src,
    };
  }
  const doubt = ambiguousAbbreviation(ctx, s, doc.scientific_name);
  if (doubt) return doubt;
  // a species no longer listed, answered from its last release, which did not have the word's taxon yet ("Is torque
  // teno virus an anellovirus?": the species ended in MSL24, split into species of the family Anelloviridae, first
  // listed in MSL25): that release cannot say No
  if (lastNote && !listedIn(ctx, strict.rank, strictName, r.msl) && !(wider && listedIn(ctx, wider.rank, wider.name, r.msl))) {
    const first = profileEntries(ctx, strictName).find((e) => e.rank === strict.rank);
    const since = first ? `, first listed in ${release(rowOf(ctx, first.first_msl)!)}` : '';
    return notUnderstood('group', `In ${release(r)}${lastNote}, ${it} ${lastNote ? 'was' : 'is'} in ${placedBy(c)}; ${reading(word, strict, strictName)}, is not a taxon of that release${since}, so it cannot say whether it was one.`);
  }
  // not now: when it was, if it ever was (its lineage's classification in each release: the species' own, not an
  // older one its name also served, "Bovine viral diarrhea virus" to MSL17)
  // (asked of no release, every species the name was: "Has Zika ever been a togavirus?", Zika virus of MSL1-13)
  const ids = [...new Set([doc.lineage_id, ...(p.releases.length === 0 ? s.lineage_ids : [])])];
  const timeline = timelineOf(ctx, ids);
  const names = new Set([strict.name, ...(g.former ?? []).map((f) => f.name), ...(wider ? [wider.name] : [])]);
  const was = timeline.filter((e) => mslOf(e.version) <= r.msl && e.lineage.split(';').some((x) => names.has(x)));
  const last = was[was.length - 1];
  const history = last ? `; it was in ${and([...new Set(last.lineage.split(';').filter((x) => names.has(x)))])} until ${release(rowOf(ctx, mslOf(last.version))!)}` : '';
  const placedAt = (rank: string) => (c[rank] ? `the ${rank} ${c[rank]}` : `no ${rank}`);
  const where = `${placedAt(strict.rank)}${wider && strict.rank !== wider.rank ? ` and ${placedAt(wider.rank)}` : ''}`;
  // "Was rubella virus a togavirus?", of no release: whether it ever was, not whether it is now
  if (last && p.releases.length === 0 && PAST.test(p.normalised)) {
    const heldNames = [...new Set(was.flatMap((e) => e.lineage.split(';').filter((x) => names.has(x))))];
    const loosely = wider && heldNames.every((x) => x === wider.name) ? ' in its wider sense' : '';
    return {
      response: `Yes: ${it} was in ${and(heldNames)}, which "${word}" names${loosely}, from ${release(rowOf(ctx, mslOf(was[0]!.version))!)} to ${release(rowOf(ctx, mslOf(last.version))!)}; in ${release(r)} it is in ${where}.`,
      data: { ...data, answer: 'yes', by: 'former taxon' }, sources: src,
    };
  }
  return {
    response: `No: in ${release(r)}${lastNote}, ${it} ${lastNote ? 'was' : 'is'} in ${where}, not in ${reading(word, strict, strictName)}${wider ? ` (or, loosely, the ${wider.rank} ${wider.name})` : ''}${history}.`,
    data: { ...data, answer: 'no' }, sources: src,
  };
}

/** Whether a species' lineage was in the word's taxon (by any of its names, or its wider sense) in any release. */
function everIn(ctx: Ctx, ids: number[], g: GroupEntry): boolean {
  const names = new Set([g.taxon!.name, ...(g.former ?? []).map((f) => f.name), ...(g.wider ? [g.wider.name] : [])]);
  return ids.some((id) => lineageOutline(ctx.store, id).timeline.some((e) => e.lineage.split(';').some((x) => names.has(x))));
}

/** Whether a taxon of that rank and name is listed in the release. */
function listedIn(ctx: Ctx, rank: string, name: string, msl: number): boolean {
  return profileEntries(ctx, name).some((e) => e.rank === rank && e.first_msl <= msl && e.last_msl >= msl);
}

/** The answer to a group word asked of a release that did not list the taxon the word names: not a No. */
function notYetDefined(ctx: Ctx, word: string, rank: string, name: string, r: ReleaseRow, it: string, c: Record<string, string | null>): Answer {
  const e = profileEntries(ctx, name).find((x) => x.rank === rank);
  const when = e && e.first_msl > r.msl ? `was first listed in ${release(rowOf(ctx, e.first_msl)!)}` : 'is not listed there';
  return notUnderstood('group', `"${word}" names the ${rank} ${name}, which ${when}, so ${release(r)} does not say whether ${it} was one; in ${release(r)} it is in ${placedBy(c, ['genus', 'subfamily', 'family', 'order'])}.`);
}

/**
 * "Is Zika virus an arbovirus?": the word names no taxon, so the taxonomy cannot answer membership; the answer
 * says so, what the word groups viruses by, and the classification of the virus (or the place of the taxon)
 * asked about.
 */
export function notATaxon(ctx: Ctx, p: Parsed): Answer {
  const g = p.groupWords[0]!;
  const word = g.text.toLowerCase();
  const s = p.species[0];
  const r = targetRelease(ctx, p);
  const doc = s ? speciesIn(ctx, s, r).species : null;
  // the ranks people place a virus by, not the whole lineage
  // (a taxon above all three, "the class Bunyaviricetes", by the ranks it has)
  const placed = (c: Record<string, string | null>) => and((['genus', 'family', 'order'] as const).filter((k) => c[k]).map((k) => `the ${k} ${c[k]}`))
    || and(Object.entries(c).filter(([, v]) => v).map(([k, v]) => `the ${k} ${v}`));
  const instead = doc ? ` What the taxonomy says: in ${release(r)}, ${who(s!, doc.scientific_name)} is in ${placed(doc.classification)}.`
    : p.taxa[0] ? ` What the taxonomy says: the ${p.taxa[0].rank} ${p.taxa[0].name} is a taxon${p.taxa[0].entry.parents.length ? `, in ${placed(Object.fromEntries(p.taxa[0].entry.parents.map((x) => [x.rank, x.name])))}` : ''}.` : '';
  // a grouping of viruses (not a word for something that is no virus) is no relationship the taxonomy records
  const why = g.entry.not_a_taxon!.startsWith('it groups') ? '; the ICTV classifies viruses by their relationships, so the taxonomy cannot say what is or is not one' : '';
  return {
    response: `"${word}" is not a taxon of the ICTV taxonomy: ${g.entry.not_a_taxon}${why}.${instead}`,
    data: { word, not_a_taxon: g.entry.not_a_taxon, source: g.entry.source, ...(doc ? { species: doc.scientific_name, version: r.version, classification: doc.classification } : {}) },
    sources: doc ? sources(ctx, 'species_doc', r.version) : [],
  };
}

/** The ranks people place a virus by, not the whole lineage: "the family Straboviridae and the class Caudoviricetes". */
const placedBy = (c: Record<string, string | null>, ranks: readonly string[] = ['genus', 'family', 'order', 'class']) => and(ranks.filter((k) => c[k]).map((k) => `the ${k} ${c[k]}`)) || 'no rank above species';

/**
 * "Is T4 a myovirus?", "Was SV40 a papovavirus?", asked of a release after the word's taxon ended (the family
 * Myoviridae, abolished in MSL37): the taxonomy of that release has no such taxon, so the answer is the record's.
 * A species that was in it is a member by that former taxon, said with until when and where it is now; one never
 * in it is not; one first listed after the taxon ended cannot be told, and is not answered with a guess.
 */
function endedGroup(ctx: Ctx, p: Parsed, r: ReleaseRow, name: string, c: Record<string, string | null>): Answer {
  const s = p.species[0]!, t = p.taxa[0]!;
  const g = t.group!;
  const word = t.text.toLowerCase();
  const it = who(s, name);
  const last = rowOf(ctx, t.entry.last_msl)!;
  const ended = rowOf(ctx, mslOf(g.ended!.in)) ?? ctx.all.find((x) => x.msl > t.entry.last_msl)!;
  const taxon = `the ${t.rank} ${t.name}, which "${word}" names`;
  const end = `${g.ended!.how} in ${release(ended)}`;
  const now = `in ${release(r)} it is in ${placedBy(c)}`;
  const l = lineageOutline(ctx.store, s.lineage_ids[0]!);
  const inIt = l.timeline.filter((e) => mslOf(e.version) <= t.entry.last_msl && e.lineage.split(';').includes(t.name));
  const data = { species: name, version: r.version, group: word, taxon: { rank: t.rank, name: t.name, last_version: last.version, ended: { version: ended.version, how: g.ended!.how } }, classification: c, source: g.source };
  const src = sources(ctx, 'species_doc', r.version);
  // in it to its last release, or for a time before (T7 was a podovirus until the family Autographiviridae took it
  // out of Podoviridae in MSL35): either way the word named it once, which is what a word for a group asks
  const lastIn = inIt[inIt.length - 1];
  const yes = lastIn !== undefined;
  // an abbreviation that also begins those of other taxa ("HPV") is no ground for anything but a Yes
  const doubt = yes ? null : ambiguousAbbreviation(ctx, s, name);
  if (doubt) return doubt;
  if (mslOf(l.first_appearance) > t.entry.last_msl) {
    return notUnderstood('group', `${it} was first listed in ${release(rowOf(ctx, mslOf(l.first_appearance))!)}, after ${taxon}, was ${end}, so the taxonomy never said whether it was one; ${now}.`);
  }
  // "Is T4 still a myovirus?": now, no species is in a taxon no longer listed; nor in a release named after it ended
  // ("Was T4 a myovirus in 2021?": MSL37 abolished Myoviridae)
  if (yes && ((askedNow(p) && r.msl === ctx.latest.msl) || p.releases.some((x) => x.msl === r.msl))) {
    return {
      response: `No: the ${t.rank} ${t.name}, which "${word}" names, was ${end}; ${it} was in it until ${release(rowOf(ctx, mslOf(lastIn.version))!)}, and ${now}.`,
      data: { ...data, answer: 'no', by: 'taxon ended' }, sources: src,
    };
  }
  if (yes) {
    const leftAt = mslOf(lastIn.version) < t.entry.last_msl ? l.timeline.find((e) => mslOf(e.version) > mslOf(lastIn.version)) : undefined;
    const into = leftAt?.lineage.split(';').find((x) => x.endsWith(t.rank === 'family' ? 'viridae' : ''));
    const until = leftAt
      ? `until ${release(rowOf(ctx, mslOf(lastIn.version))!)}; ${release(rowOf(ctx, mslOf(leftAt.version))!)} moved it${into ? ` to the ${t.rank} ${into}` : ' out of it'}`
      : `until ${release(last)}, the last release that lists it`;
    return {
      response: `Yes, by a former ${t.rank}: ${it} was in ${taxon}, ${until}; the ${t.rank} ${t.name} was ${end}, and ${now}.`,
      data: { ...data, answer: 'yes', by: 'former taxon' }, sources: src,
    };
  }
  return {
    response: `No: ${it} was never in ${taxon} (listed ${t.entry.first_msl === last.msl ? `in ${last.version}` : `MSL${t.entry.first_msl}-${last.version}`}); the ${t.rank} ${t.name} was ${end}, and ${now}.`,
    data: { ...data, answer: 'no' }, sources: src,
  };
}

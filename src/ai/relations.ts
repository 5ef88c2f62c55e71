// The relations of a question that the intent rules of parse.ts do not read whole, answered only when every
// part is there: a type species (of a genus, in a release that marks them), a yes/no question (same genus or
// family, a genome type, a taxon still in use, one release larger than another), two items compared (both
// counts and the difference), a count between two releases (both and the arithmetic), and which taxa a release
// added, abolished, renamed, merged or split (naming them). A relation that is recognised but lacks a part
// answers "not understood" naming the part; a question that is none of these returns null (answer.ts then).
import type { Store } from '../store/store.js';
import { RANKS, type Rank } from '../read/lineages.js';
import { asResolved, releases as releaseRows, type ReleaseRow } from '../read/releases.js';
import { placeIn } from '../read/resolve.js';
import { fateOf, type RenameRow, renamesIn, speciesChanges, type SpeciesChange, speciesMarked, taxaNames, typeSpecies, typeSpeciesReleases } from '../read/taxonomy-facts.js';
import { listedAside, releaseTotal, taxonFormerNames, type Answer } from './answer.js';
import { and, num, or, RANK_PLURAL, release, signed } from './format.js';
import type { Parsed, SpeciesRef, TaxonRef } from './parse.js';
import { COMPOSITION_NAMES } from './vocabulary.js';

export interface RelationAnswer extends Answer {
  relation: string;
  /** Set when the relation was recognised but a part of it was not understood. */
  missing?: string;
}

const YES_NO = /^\s*(?:is|are|was|were|does|do|did|has|have|had|can)\b/i;
const MAX_NAMED = 120;
/** A question asking how many gets the count and a few names; one asking which gets up to MAX_NAMED. */
const shownOf = (ctx: { q: string }) => (/\b(?:how many|number of|count)\b/.test(ctx.q) ? 10 : MAX_NAMED);

interface Ctx { store: Store; all: ReleaseRow[]; latest: ReleaseRow; q: string }

const rowOf = (ctx: Ctx, msl: number) => ctx.all.find((r) => r.msl === msl);
const plural = (rank: Rank, n: number) => (n === 1 ? rank : RANK_PLURAL[rank] ?? `${rank}s`);

const sources = (ctx: Ctx, model: string, version?: string) => [{ model, version: version ?? `${ctx.all[0]!.version}-${ctx.latest.version}` }];

function notUnderstood(relation: string, missing: string, response: string): RelationAnswer {
  return { relation, missing, response, data: { missing }, sources: [] };
}

/** The release a relation is about: the one named, or the latest, said so in the answer. */
function theRelease(ctx: Ctx, p: Parsed): ReleaseRow {
  const r = p.releases[0];
  return (r && rowOf(ctx, r.msl)) ?? ctx.latest;
}

function speciesIn(ctx: Ctx, s: SpeciesRef, r: ReleaseRow) {
  return placeIn(ctx.store, s.lineage_ids[0]!, s.matched_name, asResolved(r));
}

function who(s: SpeciesRef, name: string): string {
  return s.text.toLowerCase() === name.toLowerCase() ? name : `${s.text} (${name})`;
}

// --- type species ------------------------------------------------------------------------------------------

async function typeSpeciesOf(ctx: Ctx, p: Parsed): Promise<RelationAnswer> {
  const genus = p.taxa.find((t) => t.rank === 'genus');
  const marked = await typeSpeciesReleases(ctx.store);
  const firstMarked = rowOf(ctx, marked[0]!)!, lastMarked = rowOf(ctx, marked[marked.length - 1]!)!;
  const span = `${release(firstMarked)} to ${release(lastMarked)}`;
  if (!genus) return notUnderstood('type_species', 'genus', `I understood a question about a type species but found no genus named in it (type species are marked per genus, in the releases ${span}).`);
  const amb = p.releases.find((r) => r.ambiguous);
  if (amb) return notUnderstood('type_species', 'release', `${amb.note}: I answer for one of them, named (${or(amb.ambiguous!)}), not for the year.`);
  const asked = p.releases[0] ? rowOf(ctx, p.releases[0].msl)! : null;
  if (asked && !marked.includes(asked.msl)) {
    return notUnderstood('type_species', 'release', `${release(asked)} does not mark type species: the Master Species Lists mark them only in the releases ${span}.`);
  }
  const table = await typeSpecies(ctx.store);
  // no release named: the last release that marks them, said so
  const at = asked ?? rowOf(ctx, [...marked].reverse().find((m) => table.has(`${m}|${genus.name.toLowerCase()}`)) ?? lastMarked.msl)!;
  const found = table.get(`${at.msl}|${genus.name.toLowerCase()}`) ?? [];
  const where = asked ? `In ${release(at)}` : `In ${release(at)}, the last release that marks type species (they are marked ${span})`;
  if (found.length === 0) {
    return { relation: 'type_species', response: `${where}, no type species is marked for the genus ${genus.name}${genus.entry.first_msl > at.msl || genus.entry.last_msl < at.msl ? ` (the genus is not in ${at.version}; it is listed ${`MSL${genus.entry.first_msl}`}-${`MSL${genus.entry.last_msl}`})` : ''}.`, data: { genus: genus.name, version: at.version, type_species: [] }, sources: sources(ctx, 'species_marks', at.version) };
  }
  const names = found.map((f) => f.species);
  const s = p.species[0];
  if (s && YES_NO.test(ctx.q)) {
    const here = speciesIn(ctx, s, at);
    const name = here.species?.scientific_name ?? s.matched_name;
    const yes = names.some((n) => n.toLowerCase() === name.toLowerCase());
    return {
      relation: 'type_species', response: `${yes ? 'Yes' : 'No'}: ${where.charAt(0).toLowerCase()}${where.slice(1)}, the type species of the genus ${genus.name} is ${and(names)}${yes ? '' : `, not ${who(s, name)}`}.`,
      data: { genus: genus.name, version: at.version, type_species: names, asked: name, answer: yes ? 'yes' : 'no' }, sources: sources(ctx, 'species_marks', at.version),
    };
  }
  return { relation: 'type_species', response: `${where}, the type species of the genus ${genus.name} is ${and(names)}.`, data: { genus: genus.name, version: at.version, type_species: names }, sources: sources(ctx, 'species_marks', at.version) };
}

// --- yes/no ------------------------------------------------------------------------------------------------

function sameRank(ctx: Ctx, p: Parsed, rank: Rank): RelationAnswer {
  const r = theRelease(ctx, p);
  const [a, b] = p.species;
  const pa = speciesIn(ctx, a!, r), pb = speciesIn(ctx, b!, r);
  if (!pa.species || !pb.species) {
    const gone = !pa.species ? a! : b!;
    return notUnderstood('same_taxon', 'species', `${gone.text} is not a species in ${release(r)}, so I cannot say whether the two share a ${rank} there.`);
  }
  const at = (d: typeof pa) => (rank === 'species' ? d.species!.scientific_name : d.species!.classification[rank] ?? null);
  const ta = at(pa), tb = at(pb);
  const yes = ta !== null && ta === tb;
  const text = (s: SpeciesRef, d: typeof pa) => (rank === 'species'
    ? `${s.text} is in the species ${d.species!.scientific_name}`
    : `${who(s, d.species!.scientific_name)} is in ${at(d) === null ? `no ${rank}` : `the ${rank} ${at(d)}`}`);
  return {
    relation: 'same_taxon', response: `${yes ? 'Yes' : 'No'}: in ${release(r)}, ${text(a!, pa)} and ${text(b!, pb)}.`,
    data: { rank, version: r.version, [a!.text]: ta, [b!.text]: tb, answer: yes ? 'yes' : 'no' }, sources: sources(ctx, 'species_doc', r.version),
  };
}

function isGenomeType(ctx: Ctx, p: Parsed): RelationAnswer | null {
  const s = p.species[0]!;
  const r = theRelease(ctx, p);
  const pl = speciesIn(ctx, s, r);
  const doc = pl.species;
  if (!doc?.genome.type) return notUnderstood('genome_type', 'genome', `No genome composition is recorded for ${s.text} in ${release(r)}.`);
  const type = doc.genome.type;
  const wanted = p.genomeTypes;
  const words = /\b(dna|rna)\b/.exec(ctx.q)?.[1];
  const yes = wanted.length > 0 ? wanted.includes(type) : words ? type.toLowerCase().includes(words) : null;
  if (yes === null) return null;
  return {
    relation: 'genome_type', response: `${yes ? 'Yes' : 'No'}: ${who(s, doc.scientific_name)} has a ${type} genome (${COMPOSITION_NAMES[type] ?? type}), as the VMR records it for ${r.version}.`,
    data: { species: doc.scientific_name, genome_type: type, asked: wanted.length ? wanted : [words], answer: yes ? 'yes' : 'no' }, sources: sources(ctx, 'species_doc', r.version),
  };
}

async function stillInUse(ctx: Ctx, t: TaxonRef): Promise<RelationAnswer> {
  const yes = t.entry.last_msl === ctx.latest.msl;
  const last = rowOf(ctx, t.entry.last_msl)!;
  const fate = (await fateOf(ctx.store, t.name)).filter((f) => f.msl > t.entry.last_msl);
  const became = fate[0];
  const then = became
    ? became.new_name && /renam/i.test(became.change) ? `; in ${release(rowOf(ctx, became.msl)!)} it was renamed ${became.new_name}` : `; it was ${became.change.toLowerCase()} in ${release(rowOf(ctx, became.msl)!)}`
    : '';
  return {
    relation: 'still_in_use',
    response: yes
      ? `Yes: the ${t.rank} ${t.name} is in the latest release, ${release(ctx.latest)} (listed since MSL${t.entry.first_msl}).`
      : `No: the ${t.rank} ${t.name} was listed from MSL${t.entry.first_msl} to ${release(last)} and is not in the latest release, ${release(ctx.latest)}${then}.`,
    data: { taxon: t.name, rank: t.rank, first_version: `MSL${t.entry.first_msl}`, last_version: `MSL${t.entry.last_msl}`, answer: yes ? 'yes' : 'no', ...(became ? { fate: became } : {}) },
    sources: sources(ctx, 'taxon_profile'),
  };
}

function memberOf(ctx: Ctx, p: Parsed): RelationAnswer {
  const s = p.species[0]!, t = p.taxa[0]!;
  const r = theRelease(ctx, p);
  const doc = speciesIn(ctx, s, r).species;
  if (!doc) return notUnderstood('member_of', 'species', `${s.text} is not a species in ${release(r)}.`);
  const at = doc.classification[t.rank] ?? null;
  const yes = at !== null && at.toLowerCase() === t.name.toLowerCase();
  return {
    relation: 'same_taxon', response: `${yes ? 'Yes' : 'No'}: in ${release(r)}, ${who(s, doc.scientific_name)} is in ${at ? `the ${t.rank} ${at}` : `no ${t.rank}`}.`,
    data: { species: doc.scientific_name, rank: t.rank, asked: t.name, actual: at, version: r.version, answer: yes ? 'yes' : 'no' }, sources: sources(ctx, 'species_doc', r.version),
  };
}

function hasHost(ctx: Ctx, p: Parsed): RelationAnswer {
  const s = p.species[0]!;
  const r = theRelease(ctx, p);
  const doc = speciesIn(ctx, s, r).species;
  if (!doc || doc.hosts.length === 0) return notUnderstood('hosts', 'host', `No host source is recorded for ${s.text} in ${release(r)}.`);
  const yes = doc.hosts.some((h) => p.hosts.includes(h));
  return {
    relation: 'hosts', response: `${yes ? 'Yes' : 'No'}: ${who(s, doc.scientific_name)} has host source ${doc.hosts.join(', ')} (the VMR exemplar's, ${doc.hosts_from_version ?? r.version}).`,
    data: { species: doc.scientific_name, hosts: doc.hosts, asked: p.hosts, answer: yes ? 'yes' : 'no' }, sources: sources(ctx, 'species_doc', r.version),
  };
}

function rankIs(ctx: Ctx, t: TaxonRef, rank: Rank): RelationAnswer {
  const yes = t.rank === rank;
  return {
    relation: 'classification', response: `${yes ? 'Yes' : 'No'}: ${t.name} is ${/^[aeiou]/.test(t.rank) ? 'an' : 'a'} ${t.rank} (listed MSL${t.entry.first_msl}-MSL${t.entry.last_msl}).`,
    data: { taxon: t.name, rank: t.rank, asked: rank, answer: yes ? 'yes' : 'no' }, sources: sources(ctx, 'taxon_profile'),
  };
}

function threshold(ctx: Ctx, p: Parsed, t: TaxonRef, how: string, n: number, rank: Rank): RelationAnswer {
  const r = theRelease(ctx, p);
  const has = countOf(t, r.msl, rank);
  const yes = /more|over/.test(how) ? has > n : /at least/.test(how) ? has >= n : has < n;
  return {
    relation: 'count_taxon', response: `${yes ? 'Yes' : 'No'}: in ${release(r)}, the ${t.rank} ${t.name} has ${num(has)} ${plural(rank, has)} (${how} ${num(n)} asked).`,
    data: { taxon: t.name, version: r.version, rank, count: has, asked: `${how} ${n}`, answer: yes ? 'yes' : 'no' }, sources: sources(ctx, 'taxon_profile', r.version),
  };
}

function nameIn(ctx: Ctx, p: Parsed): RelationAnswer {
  const s = p.species[0]!;
  const r = rowOf(ctx, p.releases[0]!.msl)!;
  const pl = speciesIn(ctx, s, r);
  if (pl.status === 'not_yet' || pl.status === 'gap') return notUnderstood('current_name', 'release', `${s.text} is not listed in ${release(r)}: its species is listed from ${pl.lineage.first_appearance}.`);
  if (!pl.species) return notUnderstood('current_name', 'release', `${s.text} is not a species in ${release(r)}.`);
  const was = pl.status === 'ended' ? 'part of' : '';
  return {
    relation: 'current_name', response: `In ${release(r)}, ${s.via?.how === 'typo' ? s.via.name : s.text} was ${was ? 'part of ' : ''}the species ${pl.species.scientific_name}.`,
    data: { query_name: s.text, version: r.version, species: pl.species.scientific_name, placement: pl.status }, sources: sources(ctx, 'species_doc', r.version),
  };
}

function stillNamed(ctx: Ctx, p: Parsed): RelationAnswer {
  const s = p.species[0]!;
  const now = speciesIn(ctx, s, ctx.latest).species?.scientific_name ?? null;
  const yes = now !== null && now.toLowerCase() === s.matched_name.toLowerCase();
  return {
    relation: 'current_name',
    response: yes ? `Yes: ${now} is the species' name in the latest release, ${release(ctx.latest)}.`
      : now ? `No: in the latest release, ${release(ctx.latest)}, ${s.text} is the species ${now}.` : `No: ${s.text} is not a species in the latest release, ${release(ctx.latest)}.`,
    data: { query_name: s.text, current_name: now, answer: yes ? 'yes' : 'no' }, sources: sources(ctx, 'species_doc', ctx.latest.version),
  };
}

// --- two items ---------------------------------------------------------------------------------------------

const countOf = (t: TaxonRef, msl: number, rank: Rank): number => {
  const c = t.entry.counts.find((x) => x.msl === msl);
  if (!c) return 0;
  return rank === 'species' ? c.species : rank === 'genus' ? c.genera : rank === 'family' ? c.families : c.orders;
};
const COUNTABLE: Rank[] = ['species', 'genus', 'family', 'order'];

function twoTaxa(ctx: Ctx, p: Parsed, rank: Rank): RelationAnswer {
  const r = theRelease(ctx, p);
  const [a, b] = p.taxa as [TaxonRef, TaxonRef];
  const na = countOf(a, r.msl, rank), nb = countOf(b, r.msl, rank);
  const sum = /\b(?:combined|together|in total|altogether|sum|jointly|between them)\b/.test(ctx.q);
  // a taxon not in the release is not one with none: say where it is listed instead of comparing a zero
  const absent = [a, b].filter((t) => t.entry.first_msl > r.msl || t.entry.last_msl < r.msl);
  if (absent.length > 0) {
    const where = (t: TaxonRef) => `the ${t.rank} ${t.name} is not in ${r.version} (it is listed in MSL${t.entry.first_msl}-MSL${t.entry.last_msl})`;
    const present = [a, b].filter((t) => !absent.includes(t));
    return {
      relation: 'compare_taxa',
      response: `In ${release(r)}, ${and(absent.map(where))}${present.map((t) => `; the ${t.rank} ${t.name} has ${num(countOf(t, r.msl, rank))} ${plural(rank, countOf(t, r.msl, rank))}`).join('')}.`,
      data: { version: r.version, rank, counts: Object.fromEntries(present.map((t) => [t.name, countOf(t, r.msl, rank)])), not_in_release: absent.map((t) => t.name) },
      sources: sources(ctx, 'taxon_profile', r.version),
    };
  }
  if (sum) {
    return {
      relation: 'compare_taxa',
      response: `In ${release(r)}, the ${a.rank} ${a.name} has ${num(na)} ${plural(rank, na)} and the ${b.rank} ${b.name} ${num(nb)}: ${num(na + nb)} together.`,
      data: { version: r.version, rank, counts: { [a.name]: na, [b.name]: nb }, total: na + nb },
      sources: sources(ctx, 'taxon_profile', r.version),
    };
  }
  const more = na === nb ? null : na > nb ? a : b;
  const asked = /\b(?:fewer|less|smaller|smallest)\b/.test(ctx.q) ? 'fewer' : 'more';
  const lead = YES_NO.test(ctx.q) ? `${(asked === 'more' ? na > nb : na < nb) ? 'Yes' : 'No'}: ` : '';
  const verdict = more === null ? `both have ${num(na)}` : `${more.name} has ${num(Math.abs(na - nb))} more than ${more === a ? b.name : a.name}`;
  return {
    relation: 'compare_taxa',
    response: `${lead}In ${release(r)}, the ${a.rank} ${a.name} has ${num(na)} ${plural(rank, na)} and the ${b.rank} ${b.name} ${num(nb)}: ${verdict}.`,
    data: { version: r.version, rank, counts: { [a.name]: na, [b.name]: nb }, difference: na - nb },
    sources: sources(ctx, 'taxon_profile', r.version),
  };
}

/** "did A or B gain more species between two releases": both changes and their difference. */
function twoTaxaBetween(ctx: Ctx, p: Parsed, rank: Rank): RelationAnswer {
  const [x, y] = p.releases.map((r) => rowOf(ctx, r.msl)!) as [ReleaseRow, ReleaseRow];
  const [from, to] = x.msl <= y.msl ? [x, y] : [y, x];
  const [a, b] = p.taxa as [TaxonRef, TaxonRef];
  const change = (t: TaxonRef) => ({ t, before: countOf(t, from.msl, rank), after: countOf(t, to.msl, rank), d: countOf(t, to.msl, rank) - countOf(t, from.msl, rank) });
  const ca = change(a), cb = change(b);
  // "lost more", "shrank more" ask which fell further; anything else which rose further
  const fell = /\b(?:lost|lose|fewer|less|shr[iu]nk\w*|decreas\w*|drop\w*|fell|declin\w*)\b/.test(ctx.q);
  const [hi, lo] = (fell ? ca.d < cb.d : ca.d > cb.d) ? [ca, cb] : [cb, ca];
  const absent = (c: typeof ca) => [c.t.entry.first_msl > from.msl || c.t.entry.last_msl < from.msl ? `not in ${from.version}` : '', c.t.entry.first_msl > to.msl || c.t.entry.last_msl < to.msl ? `not in ${to.version}` : ''].filter(Boolean);
  const one = (c: typeof ca) => `the ${c.t.rank} ${c.t.name} went from ${num(c.before)} to ${num(c.after)} ${plural(rank, 2)} (${signed(c.d)}${absent(c).length ? `; ${absent(c).join(', ')}` : ''})`;
  const how = fell ? (hi.d <= 0 ? 'lost more' : 'gained less') : (hi.d >= 0 ? 'gained more' : 'lost less');
  const verdict = ca.d === cb.d ? `both changed by ${signed(ca.d)}` : `${hi.t.name} ${how}: ${signed(hi.d)} against ${signed(lo.d)}, a difference of ${num(Math.abs(ca.d - cb.d))}`;
  // "did A gain more than B": A is the subject; "did A or B" asks which, so no yes or no
  const lead = YES_NO.test(ctx.q) && !/\bor\b/.test(ctx.q) && ca.d !== cb.d ? `${hi === ca ? 'Yes' : 'No'}: ` : '';
  return {
    relation: 'compare_taxa',
    response: `${lead}From ${release(from)} to ${release(to)}, ${one(ca)} and ${one(cb)}: ${verdict}.`,
    data: { from: from.version, to: to.version, rank, changes: { [a.name]: { from: ca.before, to: ca.after, difference: ca.d }, [b.name]: { from: cb.before, to: cb.after, difference: cb.d } }, difference: ca.d - cb.d },
    sources: sources(ctx, 'taxon_profile', `${from.version}-${to.version}`),
  };
}

type Named = { name: string; above: string[] };

/**
 * The taxa of a rank above species that changed between two lists of names, by the change lists' records in
 * between: a name that is gone but was renamed, promoted or demoted (rank "family>order") was not abolished,
 * and one that appears under a new name was not new. Only those under `within` when it is given. Null for a
 * change the lists do not record for higher taxa (merges, splits, moves).
 */
function higherTaxaChanged(now: Named[], before: Named[], records: RenameRow[], rank: Rank, change: Change, within?: TaxonRef): { names: string[]; renamed: string[] } | null {
  const ends = (x: RenameRow) => { const [a, b] = x.rank.split('>'); return { from: a, to: b ?? a }; };
  const under = (n: Named) => !within || n.above.includes(within.name);
  const moved = records.filter((x) => x.new_name && x.new_name !== x.old_name);
  if (change === 'renamed' || change === 'promoted' || change === 'demoted') {
    const re = { renamed: /renam/i, promoted: /promot/i, demoted: /demot/i }[change];
    const inside = new Set([...now, ...before].filter(under).map((n) => n.name));
    return { names: records.filter((x) => x.new_name && re.test(x.change) && (ends(x).from === rank || ends(x).to === rank) && (!within || inside.has(x.old_name) || inside.has(x.new_name)))
      .map((x) => `${x.old_name} -> ${x.new_name}${ends(x).from === ends(x).to ? '' : ` (${ends(x).from} to ${ends(x).to})`}`), renamed: [] };
  }
  // the names left out as renames are said too: "no genus new (Flavivirus was renamed Orthoflavivirus)"
  const said = (x: RenameRow) => `${x.old_name} -> ${x.new_name}`;
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

/** "; besides, renamed: Flavivirus -> Orthoflavivirus": the names a new/abolished list left out as renames. */
const ASIDE = 10;
const renamedAside = (renamed: string[]) => (renamed.length === 0 ? '' : ` (besides, renamed: ${renamed.slice(0, ASIDE).join(', ')}${renamed.length > ASIDE ? ` and ${num(renamed.length - ASIDE)} more` : ''})`);

const VERB: Record<Change, string> = {
  added: 'new', abolished: 'abolished', renamed: 'renamed', merged: 'formed by a merge', split: 'formed by a split',
  reclassified: 'moved to another taxon', promoted: 'promoted', demoted: 'demoted',
};

/** "orders added between two releases": the taxa of a rank above species new and gone between two releases. */
async function taxaChangedBetween(ctx: Ctx, p: Parsed, rank: Rank, change: Change): Promise<RelationAnswer> {
  const [x, y] = p.releases.map((r) => rowOf(ctx, r.msl)!) as [ReleaseRow, ReleaseRow];
  const [from, to] = x.msl <= y.msl ? [x, y] : [y, x];
  const steps = ctx.all.filter((r) => r.msl > from.msl && r.msl <= to.msl);
  const [now, before, ...lists] = await Promise.all([taxaNames(ctx.store, to.msl, rank), taxaNames(ctx.store, from.msl, rank), ...steps.map((r) => renamesIn(ctx.store, r.msl))]);
  const found = higherTaxaChanged(now, before, lists.flat(), rank, change);
  if (!found) return notUnderstood('which_changed', 'change', `The change lists record merges, splits and moves of species only; ask which ${RANK_PLURAL[rank]} were added, abolished, renamed, promoted or demoted between ${from.version} and ${to.version}.`);
  const named = found.names;
  const verb = VERB[change];
  const shown = named.slice(0, shownOf(ctx));
  const list = `${named.length === 0 ? `no ${RANK_PLURAL[rank]} were ${verb}` : `${num(named.length)} ${plural(rank, named.length)} ${named.length === 1 ? 'was' : 'were'} ${verb}: ${shown.join(', ')}${named.length > shown.length ? ` and ${num(named.length - shown.length)} more` : ''}`}${renamedAside(found.renamed)}`;
  return {
    relation: 'which_changed',
    response: `From ${release(from)} to ${release(to)} the number of ${RANK_PLURAL[rank]} went from ${num(before.length)} to ${num(now.length)} (${signed(now.length - before.length)}); ${list}${change === 'added' || change === 'abolished' ? ', by their names (renames aside)' : ''}.`,
    data: { from: from.version, to: to.version, rank, change, totals: { from: before.length, to: now.length }, count: named.length, names: named },
    sources: sources(ctx, 'taxon_counts', `${from.version}-${to.version}`),
  };
}

async function betweenReleases(ctx: Ctx, p: Parsed, rank: Rank): Promise<RelationAnswer> {
  const [x, y] = p.releases.map((r) => rowOf(ctx, r.msl)!) as [ReleaseRow, ReleaseRow];
  const [from, to] = x.msl <= y.msl ? [x, y] : [y, x];
  const t = p.taxa[0];
  // a taxon not in one of the releases has no size there to subtract: where it is listed, and what became of it
  if (t && [from, to].some((r) => t.entry.first_msl > r.msl || t.entry.last_msl < r.msl)) {
    const fate = (await fateOf(ctx.store, t.name)).filter((f) => f.msl > from.msl && f.msl <= to.msl);
    const inRelease = [from, to].filter((r) => t.entry.first_msl <= r.msl && t.entry.last_msl >= r.msl);
    return {
      relation: 'compare_releases',
      response: `The ${t.rank} ${t.name} is listed in MSL${t.entry.first_msl}-MSL${t.entry.last_msl}, so it is not in ${and([from, to].filter((r) => !inRelease.includes(r)).map((r) => release(r)))}${inRelease.map((r) => `; in ${release(r)} it has ${num(countOf(t, r.msl, rank))} ${plural(rank, countOf(t, r.msl, rank))}`).join('')}${fate.length ? `; ${fate.map((f) => (f.new_name ? `it was ${f.change.toLowerCase()} ${f.new_name} in ${release(rowOf(ctx, f.msl)!)}` : `it was ${f.change.toLowerCase()} in ${release(rowOf(ctx, f.msl)!)}`)).join(', ')}` : ''}.`,
      data: { rank, taxon: t.name, listed: { first: `MSL${t.entry.first_msl}`, last: `MSL${t.entry.last_msl}` }, counts: inRelease.map((r) => ({ version: r.version, count: countOf(t, r.msl, rank) })) },
      sources: sources(ctx, 'taxon_profile'),
    };
  }
  const n = (r: ReleaseRow) => (t ? countOf(t, r.msl, rank) : releaseTotal(ctx.store, r, rank) ?? 0);
  const a = n(from), b = n(to);
  const d = b - a;
  const what = t ? `${plural(rank, 2)} in the ${t.rank} ${t.name}` : plural(rank, 2);
  let lead = '';
  // "is the difference bigger than 1000?": the size of the change against the number
  const against = /\b(?:differen\w*|change|gap|growth|increase|decrease)\b.*\b(more|bigger|larger|greater|over|above|less|smaller|fewer|under|below)(?: than)?\s+(\d[\d,]*)\b/.exec(ctx.q);
  if (YES_NO.test(ctx.q) && against) {
    const limit = Number(against[2]!.replaceAll(',', ''));
    lead = `${(/^(?:less|smaller|fewer|under|below)$/.test(against[1]!) ? Math.abs(d) < limit : Math.abs(d) > limit) ? 'Yes' : 'No'}: the change is ${num(Math.abs(d))}; `;
  } else if (YES_NO.test(ctx.q)) {
    // "did MSL39 have more species than MSL38": the first release named is the subject
    const [first, second] = [rowOf(ctx, p.releases[0]!.msl)!, rowOf(ctx, p.releases[1]!.msl)!];
    const fewer = /\b(?:fewer|less|smaller|drop\w*|fall|fell|decreas\w*|down|shr[iu]nk\w*)\b/.test(ctx.q);
    const up = /\b(?:more|bigger|larger|greater|increas\w*|grow|grew|go up|went up|rise|rose)\b/.test(ctx.q);
    if (!fewer && !up && /\b(?:chang\w*|differ\w*)\b/.test(ctx.q)) lead = `${d !== 0 ? 'Yes' : 'No'}: `;
    else if (fewer || up) {
      const firstIsLater = first.msl > second.msl;
      const rose = firstIsLater ? n(first) > n(second) : n(second) > n(first);
      const yes = /\bthan\b/.test(ctx.q) ? (fewer ? n(first) < n(second) : n(first) > n(second)) : fewer ? !rose && d !== 0 : rose;
      lead = `${yes ? 'Yes' : 'No'}: `;
    }
  }
  const pct = a > 0 && d !== 0 ? `, ${d > 0 ? '+' : '-'}${(Math.abs(d) * 100 / a).toFixed(1)}%` : '';
  const change = d === 0 ? 'the same number' : `${num(Math.abs(d))} ${d > 0 ? 'more' : 'fewer'} (${d > 0 ? '+' : '-'}${num(Math.abs(d))}${pct})`;
  const which = /\bor\b/.test(ctx.q) && d !== 0 ? ` ${d > 0 ? to.label : from.label} had more.` : '';
  return {
    relation: 'compare_releases',
    response: `${lead}${release(from)} had ${num(a)} ${what}${t ? '' : listedAside(ctx.store, from, rank, a)} and ${release(to)} had ${num(b)}${t ? '' : listedAside(ctx.store, to, rank, b)}: ${change} in ${to.version} than in ${from.version}.${which}`,
    data: { rank, ...(t ? { taxon: t.name } : {}), from: { version: from.version, count: a }, to: { version: to.version, count: b }, difference: d },
    sources: sources(ctx, t ? 'taxon_profile' : 'releases'),
  };
}

// --- which taxa changed ------------------------------------------------------------------------------------

type Change = 'added' | 'abolished' | 'renamed' | 'merged' | 'split' | 'reclassified' | 'promoted' | 'demoted';

function changeAsked(q: string): Change | null {
  if (/\b(?:promot\w*|elevat\w*|rais\w* to)\b/.test(q)) return 'promoted';
  if (/\bdemot\w*/.test(q)) return 'demoted';
  if (/\brenam\w*/.test(q)) return 'renamed';
  if (/\b(?:reclassif\w*|moved|relocat\w*|reassign\w*|transferr\w*)\b/.test(q)) return 'reclassified';
  if (/\bmerg\w*/.test(q)) return 'merged';
  if (/\bsplit\w*/.test(q)) return 'split';
  if (/\b(?:abolish\w*|remov\w*|delet\w*|dropp\w*|discontinu\w*|eliminat\w*|retir\w*|disappear\w*|lost|lose)\b/.test(q)) return 'abolished';
  if (/\b(?:add\w*|new|creat\w*|introduc\w*|establish\w*|appear\w*|gain\w*)\b/.test(q)) return 'added';
  return null;
}

/** Where a species sat, as ICTV's lineage notation names it, less the species itself. */
const placeOf = (lineage: string | null) => (lineage ?? '').split(';').slice(0, -1);

async function whichChanged(ctx: Ctx, p: Parsed, rank: Rank, change: Change, within?: TaxonRef): Promise<RelationAnswer> {
  const r = rowOf(ctx, p.releases[0]!.msl)!;
  const prev = ctx.all.filter((x) => x.msl < r.msl).pop();
  if (!prev) return notUnderstood('which_changed', 'release', `${release(r)} is the first release; nothing changed in it relative to an earlier one.`);
  let named: string[];
  let note = '', aside = '';
  if (rank === 'species') {
    if (change === 'promoted' || change === 'demoted') return notUnderstood('which_changed', 'change', `Species are not promoted or demoted; ask which species were added, abolished, renamed, moved, merged or split in ${r.version}.`);
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
    if (!found) return notUnderstood('which_changed', 'change', `The change lists record merges, splits and moves of species only; ask which ${RANK_PLURAL[rank]} were added, abolished, renamed, promoted or demoted in ${r.version}.`);
    named = found.names;
    aside = renamedAside(found.renamed);
  }
  const verb = VERB[change];
  const where = within ? ` in the ${within.rank} ${within.name}` : '';
  // "what percentage of species were new in MSL36": the count against the release's total, not the list
  if (/\b(?:percent\w*|proportion|share|fraction)\b|%/.test(ctx.q) && !within) {
    const total = releaseTotal(ctx.store, change === 'abolished' ? prev : r, rank) ?? 0;
    const pct = total > 0 ? (named.length * 100 / total).toFixed(1) : null;
    return {
      relation: 'which_changed',
      response: `In ${release(r)}, compared with ${release(prev)}, ${num(named.length)} ${plural(rank, named.length)} ${named.length === 1 ? 'was' : 'were'} ${verb}${pct === null ? '' : `: ${pct}% of the ${num(total)} ${plural(rank, total)} of ${change === 'abolished' ? prev.version : r.version}`}.`,
      data: { version: r.version, previous: prev.version, rank, change, count: named.length, total, percent: pct === null ? null : Number(pct) },
      sources: sources(ctx, rank === 'species' ? 'release_diff_detail' : 'taxon_counts', r.version),
    };
  }
  const shown = named.slice(0, shownOf(ctx));
  const list = `${named.length === 0 ? `no ${RANK_PLURAL[rank] ?? rank}${where} were ${verb}` : `${num(named.length)} ${plural(rank, named.length)}${where} ${named.length === 1 ? 'was' : 'were'} ${verb}${note}: ${shown.join(', ')}${named.length > shown.length ? ` and ${num(named.length - shown.length)} more (GET the release diff for all)` : ''}`}${aside}`;
  // "were any families abolished in 2022?": a yes or a no, then the names
  const lead = YES_NO.test(ctx.q) ? `${named.length > 0 ? 'Yes' : 'No'}: ` : '';
  return {
    relation: 'which_changed',
    response: `${lead}In ${release(r)}, compared with ${release(prev)}, ${list}.`,
    data: { version: r.version, previous: prev.version, rank, change, ...(within ? { within: within.name } : {}), count: named.length, names: named },
    sources: sources(ctx, rank === 'species' ? 'release_diff_detail' : 'taxon_counts', r.version),
  };
}

/** "what taxa were abolished in 2021": the change at every rank of the release, higher taxa named, species counted. */
async function everyRankChanged(ctx: Ctx, p: Parsed, change: 'added' | 'abolished' | 'renamed'): Promise<RelationAnswer> {
  const r = rowOf(ctx, p.releases[0]!.msl)!;
  const prev = ctx.all.filter((x) => x.msl < r.msl).pop();
  if (!prev) return notUnderstood('which_changed', 'release', `${release(r)} is the first release; nothing changed in it relative to an earlier one.`);
  const renames = await renamesIn(ctx.store, r.msl);
  const parts: string[] = [];
  const byRank: Record<string, string[]> = {};
  for (const rank of RANKS.filter((x) => x !== 'species')) {
    const [now, before] = await Promise.all([taxaNames(ctx.store, r.msl, rank), taxaNames(ctx.store, prev.msl, rank)]);
    const names = higherTaxaChanged(now, before, renames, rank, change)?.names ?? [];
    if (names.length === 0) continue;
    byRank[rank] = names;
    parts.push(`${num(names.length)} ${plural(rank, names.length)} (${names.slice(0, ASIDE).join(', ')}${names.length > ASIDE ? ` and ${num(names.length - ASIDE)} more` : ''})`);
  }
  const species = await speciesChanges(ctx.store, prev.msl, r.msl, change === 'abolished' ? 'removed' : change);
  byRank.species = species.map((x) => (change === 'abolished' ? x.old_name! : change === 'added' ? x.new_name! : `${x.old_name} -> ${x.new_name}`));
  parts.push(`${num(species.length)} species`);
  return {
    relation: 'which_changed',
    response: `In ${release(r)}, compared with ${release(prev)}, these taxa were ${VERB[change]}: ${parts.join('; ')}.`,
    data: { version: r.version, previous: prev.version, change, names: byRank },
    sources: sources(ctx, 'taxon_counts', r.version),
  };
}

// --- dispatch ----------------------------------------------------------------------------------------------

/** The rank a comparison counts: "more species", "number of genera", "by species", a plural rank word; species else. */
function countedRank(q: string): Rank | null {
  const m = /\b(?:more|fewer|less|many|number of|most|by|count of)\s+(?:\w+\s+)?(species|genera|families|orders)\b/.exec(q) ?? /\b(species|genera|families|orders)\b/.exec(q);
  return m ? rankWord(m[1]!) : null;
}

function rankWord(q: string): Rank | null {
  const m = /\b(species|genus|genera|famil(?:y|ies)|orders?|realms?|subfamil(?:y|ies)|classes|class|phyl(?:um|a)|kingdoms?|suborders?|subgen(?:us|era)|subrealms?|subphyl(?:um|a)|subclass(?:es)?|subkingdoms?)\b/.exec(q);
  if (!m) return null;
  const w = m[1]!;
  const table: Array<[RegExp, Rank]> = [[/^sub(?:famil)/, 'subfamily'], [/^subgen/, 'subgenus'], [/^subrealm/, 'subrealm'], [/^subphyl/, 'subphylum'], [/^subclass/, 'subclass'], [/^subkingdom/, 'subkingdom'], [/^suborder/, 'suborder'],
    [/^species/, 'species'], [/^gen/, 'genus'], [/^famil/, 'family'], [/^order/, 'order'], [/^realm/, 'realm'], [/^class/, 'class'], [/^phyl/, 'phylum'], [/^kingdom/, 'kingdom']];
  return table.find(([re]) => re.test(w))?.[1] ?? null;
}

/** "how many releases were there between 2000 and 2010": years as the bounds of a span, not as releases. */
export function releasesBetweenYears(store: Store, question: string): RelationAnswer | null {
  const q = question.toLowerCase();
  const m = /\b(?:releases?|versions?|msls?|editions?)\b.*\b(?:between|from)\s+((?:19|20)\d\d)\s+(?:and|to|until|till)\s+((?:19|20)\d\d)\b/.exec(q);
  // "releases of the 1990s": a decade is the span of its ten years
  const decade = m ? null : /\b(?:releases?|versions?|msls?|editions?)\b(?!.*\b(?:species|genera|genus|famil\w*|orders?|realms?|taxa|virus\w*)\b).*\b(?:in|during|of|from)\s+the\s+((?:19|20)\d)0'?s\b/.exec(q);
  if (!m && !decade) return null;
  const all = releaseRows(store);
  const [lo, hi] = m ? [Number(m[1]), Number(m[2])].sort((a, b) => a - b) as [number, number] : [Number(`${decade![1]}0`), Number(`${decade![1]}9`)];
  const inSpan = all.filter((r) => r.year >= lo && r.year <= hi);
  return {
    relation: 'release_info',
    response: `${num(inSpan.length)} release${inSpan.length === 1 ? ' was' : 's were'} published from ${lo} to ${hi}${inSpan.length ? `: ${inSpan.map((r) => release(r)).join(', ')}` : ''}.`,
    data: { from_year: lo, to_year: hi, count: inSpan.length, releases: inSpan.map((r) => r.version) }, sources: sources({ store, all, latest: all[all.length - 1]!, q }, 'releases'),
  };
}

function countsOfYear(ctx: Ctx, p: Parsed, year: number, rank: Rank): RelationAnswer {
  const rows = ctx.all.filter((r) => r.year === year);
  const t = p.taxa[0];
  const n = (r: ReleaseRow) => (t ? countOf(t, r.msl, rank) : releaseTotal(ctx.store, r, rank) ?? 0);
  const what = t ? `${RANK_PLURAL[rank]} in the ${t.rank} ${t.name}` : RANK_PLURAL[rank];
  return {
    relation: 'count_release', response: `${year} had ${rows.length} releases: ${and(rows.map((r) => `${release(r)} had ${num(n(r))} ${what}`))}${rows.length === 2 ? ` (${signed(n(rows[1]!) - n(rows[0]!))} from ${rows[0]!.label} to ${rows[1]!.label})` : ''}.`,
    data: { year, rank, ...(t ? { taxon: t.name } : {}), counts: rows.map((r) => ({ version: r.version, label: r.label, count: n(r) })) }, sources: sources(ctx, t ? 'taxon_profile' : 'releases'),
  };
}

function releasesOfYear(ctx: Ctx, year: number): RelationAnswer {
  const rows = ctx.all.filter((r) => r.year === year);
  return {
    relation: 'release_info', response: `${year} had ${rows.length} releases: ${and(rows.map((r) => release(r)))}.`,
    data: { year, releases: rows.map((r) => ({ version: r.version, label: r.label })) }, sources: sources(ctx, 'releases'),
  };
}

/** The answer of a relation this module reads, or null when the question is none of them. */
export async function answerRelation(store: Store, p: Parsed, question: string): Promise<RelationAnswer | null> {
  const all = releaseRows(store);
  const q = question.toLowerCase();
  const ctx: Ctx = { store, all, latest: all[all.length - 1]!, q };
  const residue = p.residue;

  if (/\btype[- ]species\b/.test(q)) return typeSpeciesOf(ctx, p);
  const twoInYear = p.releases.length === 1 ? p.releases[0]!.ambiguous : undefined;
  if (twoInYear && p.species.length === 0 && p.taxa.length <= 1 && /\b(?:how many|number of|numbers|count|differen\w*|differ|compar\w*|vs\.?|versus|both|two)\b/.test(q) && !changeAsked(q)) {
    const rank = countedRank(residue.replace(/§\w+/g, ' ')) ?? rankWord(residue.replace(/§\w+/g, ' '));
    if (rank && (p.taxa.length === 0 || COUNTABLE.includes(rank))) return countsOfYear(ctx, p, p.releases[0]!.year, rank);
  }
  if (twoInYear && p.species.length === 0 && p.taxa.length === 0 && /\b(?:re?a?l[ae]{0,2}[sc][ae]?s?|msls?|versions?|lists?|editions?)\b/.test(q) && /\b(?:which|what|when|how many|list|name)\b/.test(q) && !/\b(?:species|genera|famil\w*|orders?|realms?)\b/.test(q)) return releasesOfYear(ctx, p.releases[0]!.year);

  // a year of two releases ("1999") read as one of them would answer for a release the question did not name
  const amb = p.releases.find((r) => r.ambiguous);
  if (amb) return notUnderstood('release', 'release', `${amb.note}: I answer for one of them, named (${or(amb.ambiguous!)}), not for the year.`);
  const rankInResidue = rankWord(residue.replace(/§\w+/g, ' '));
  // "since 2019", "after MSL30": a span of releases, which none of these relations reads as its one release
  const span = /\b(since|after|before|prior to|until|till|up to)\s+(?:the\s+)?§rel/.exec(residue);
  if (span && p.releases.length === 1 && p.species.length === 0 && (changeAsked(q) || p.taxa.length === 2)) {
    return notUnderstood('which_changed', 'span', `"${span[1]} ${p.releases[0]!.text}": I answer for one release (against the one before it) or between two releases named, not for the releases ${span[1]} one.`);
  }
  // "how many years between MSL1 and MSL41": the years of the two releases and the span
  if (p.releases.length === 2 && p.species.length === 0 && p.taxa.length === 0 && /\b(?:how many|number of) years\b|\byears? (?:apart|between|passed|elapsed)\b/.test(q)) {
    const [x, y] = (p.releases.map((r) => rowOf(ctx, r.msl)!) as [ReleaseRow, ReleaseRow]).sort((a, b) => a.msl - b.msl);
    return {
      relation: 'release_info',
      response: `${release(x)} is of ${x.year} and ${release(y)} of ${y.year}: ${num(y.year - x.year)} year${y.year - x.year === 1 ? '' : 's'} apart, with ${num(y.msl - x.msl - 1)} release${y.msl - x.msl - 1 === 1 ? '' : 's'} between them.`,
      data: { from: x.version, to: y.version, years: y.year - x.year, releases_between: y.msl - x.msl - 1 }, sources: sources(ctx, 'releases'),
    };
  }
  // "was MSL37 released in 2021?": the release and the year it is of
  if (YES_NO.test(q) && p.releases.length === 2 && p.species.length === 0 && p.taxa.length === 0 && /\b(?:released|published|issued|out|from|of)\b/.test(q) && /\bmsl\s*-?\s*\d/.test(q)) {
    const [x, y] = p.releases.map((r) => rowOf(ctx, r.msl)!) as [ReleaseRow, ReleaseRow];
    return {
      relation: 'release_info',
      response: x.msl === y.msl ? `Yes: ${x.version} is the ${x.label} release.` : `No: ${x.version} is the ${x.label} release; ${p.releases[1]!.text} is ${y.version} (${y.label}).`,
      data: { version: x.version, label: x.label, year: x.year, answer: x.msl === y.msl ? 'yes' : 'no' }, sources: sources(ctx, 'releases'),
    };
  }
  if (YES_NO.test(q) && /\b(?:same|both)\b/.test(q) && p.species.length === 2 && rankInResidue) return sameRank(ctx, p, rankInResidue);
  if (YES_NO.test(q) && p.taxa.length === 1 && p.species.length === 0 && p.releases.length <= 1) {
    const t = p.taxa[0]!;
    const isA = new RegExp(`§tx (?:still )?(?:an? |the )?(${Object.keys(RANK_PLURAL).join('|')})\\b`).exec(residue);
    if (isA && !/\bstill\b/.test(q)) return rankIs(ctx, t, isA[1] as Rank);
    const more = /\b(more than|over|at least|fewer than|less than|under)\s+(\d[\d,]*)\s+(species|genera|families|orders)\b/.exec(q);
    if (more) return threshold(ctx, p, t, more[1]!, Number(more[2]!.replaceAll(',', '')), rankWord(more[3]!)!);
  }
  if (YES_NO.test(q) && p.species.length === 1 && p.taxa.length === 0 && (p.genomeTypes.length > 0 || /\b(?:dna|rna) virus\b/.test(q)) && !/\bor\b/.test(q)) return isGenomeType(ctx, p);
  if (YES_NO.test(q) && p.species.length === 1 && p.taxa.length === 1 && p.releases.length <= 1 && /\b(?:in|part of|belong\w*|member|a)\b/.test(q)) return memberOf(ctx, p);
  if (YES_NO.test(q) && p.species.length === 1 && p.taxa.length === 0 && p.hosts.length > 0 && p.releases.length <= 1) return hasHost(ctx, p);
  if (p.taxa.length === 1 && p.species.length === 0 && p.releases.length <= 1 && (/\bstill\b.*\b(?:a thing|exist\w*|valid|used|around|in use|an? \w+|recogni[sz]ed|listed|there)\b/.test(q) || /\b(?:does|do) .* still exist\b/.test(q))) return stillInUse(ctx, p.taxa[0]!);

  if (p.taxa.length === 1 && p.species.length === 0 && /\b(?:called before|formerly|previous(?:ly)? (?:called|named)|(?:old|older|former|previous|earlier) names?|used to be (?:called|named)|(?:was|were) .* (?:called|named)\b.*\bbefore|renamed from)\b/.test(q)) {
    const former = await taxonFormerNames(store, p.taxa[0]!);
    if (former) return { ...former, relation: 'taxon_history' };
    return notUnderstood('taxon_history', 'former name', `The change lists (which record renames of higher taxa from ${release(rowOf(ctx, 38) ?? ctx.latest)} on) record no earlier name of the ${p.taxa[0]!.rank} ${p.taxa[0]!.name}, and I do not guess one.`);
  }
  // the latest release ("now", "today") is the current name, answered by its own intent with how it got it
  if (p.species.length === 1 && p.taxa.length === 0 && p.releases.length === 1 && p.releases[0]!.msl !== ctx.latest.msl && /\b(?:names?|called|named|known as)\b/.test(q) && !/\b(?:famil\w*|genus|genera|order|realm|class|phylum|kingdom)\b/.test(q)) return nameIn(ctx, p);
  if (YES_NO.test(q) && p.species.length === 1 && p.taxa.length === 0 && p.releases.length === 0 && /\bstill\b/.test(q) && /\b(?:names?|called|species|valid|used)\b/.test(q)) return stillNamed(ctx, p);
  const comparing = /\b(?:more|fewer|less|bigger|larger|smaller|biggest|largest|greater|which|or|vs\.?|versus|compar\w*|than|differen\w*)\b/.test(q);
  const counting = /\b(?:how many|number of|count|more|fewer|less|bigger|larger|smaller|grew|grow|increase\w*|decrease\w*|go up|went up|drop\w*|change|differen\w*|vs\.?|versus|minus|subtract\w*|gap|delta|net|growth|gain\w*|expan\w*|shr[iu]nk\w*)\b/.test(q);
  if (p.taxa.length === 2 && p.species.length === 0 && p.releases.length === 2 && p.releases[0]!.msl !== p.releases[1]!.msl && (comparing || counting || /\b(?:gain\w*|lost|los[et]|add\w*)\b/.test(q))) {
    const rank = countedRank(residue.replace(/§\w+/g, ' ')) ?? 'species';
    if (!COUNTABLE.includes(rank)) return notUnderstood('compare_taxa', 'rank', `I can compare two taxa by their species, genera, families or orders, not by ${rank}.`);
    return twoTaxaBetween(ctx, p, rank);
  }
  if (p.taxa.length === 2 && p.species.length === 0 && p.releases.length <= 1 && (comparing || /\b(?:how many|number of|count)\b/.test(q))) {
    const rank = countedRank(residue.replace(/§\w+/g, ' ')) ?? 'species';
    if (!COUNTABLE.includes(rank)) return notUnderstood('compare_taxa', 'rank', `I can compare two taxa by their species, genera, families or orders, not by ${rank}.`);
    return twoTaxa(ctx, p, rank);
  }
  // "which family grew the most between ...": a ranking of taxa (answer.ts), not two totals
  const ranking = /\b(?:which|what)\b.*\b(?:the most|most|fastest|the least)\b/.test(q) && p.taxa.length === 0;
  const ask = /\b(?:renam|merg|split|abolish|reclassif|moved|add|new|creat|introduc|remov)\w*/.test(q);
  if (p.releases.length === 2 && p.species.length === 0 && p.taxa.length === 0 && ask && /\bor\b/.test(q) && p.releases[0]!.msl !== p.releases[1]!.msl) {
    // "were more species added in 2020 or 2021": each release's own change, not the step between them
    return notUnderstood('compare_releases', 'comparison', `I understood two releases and a change, but I compare the changes of two releases only as the step from one to the other (ask what changed between ${p.releases[0]!.version} and ${p.releases[1]!.version}, or what changed in each).`);
  }
  if (p.releases.length === 2 && p.species.length === 0 && p.taxa.length <= 1 && (counting || ask) && !ranking && p.releases[0]!.msl !== p.releases[1]!.msl) {
    const rank = countedRank(residue.replace(/§\w+/g, ' ')) ?? rankInResidue ?? 'species';
    if (!ask && (p.taxa.length === 0 || COUNTABLE.includes(rank))) return betweenReleases(ctx, p, rank);
    // "orders added between two releases": the taxa of that rank, never the species changes
    const change = changeAsked(q);
    if (ask && p.taxa.length === 0 && rank !== 'species' && change) return taxaChangedBetween(ctx, p, rank, change);
    if (ask && rank !== 'species') return notUnderstood('which_changed', 'change', `I understood ${RANK_PLURAL[rank]} between ${p.releases[0]!.version} and ${p.releases[1]!.version} but not which change of them is asked (added, abolished or renamed).`);
  }
  const change = changeAsked(q);
  // "which species were merged in MSL41", "how many species were split in 2025": a merge or split is told by its species
  const listing = /\b(?:which|what|list|name|names|show)\b/.test(q) || /\b(?:genera|families|orders|realms|subfamilies|classes|phyla|kingdoms|suborders|subgenera)\b/.test(q)
    || change === 'merged' || change === 'split';
  if (p.releases.length === 1 && p.species.length === 0 && p.taxa.length === 0 && change && listing && (!/\bhow many\b/.test(q) || change === 'merged' || change === 'split' || (rankInResidue !== null && rankInResidue !== 'species'))) {
    const rank = rankInResidue;
    if (!rank) return change === 'added' || change === 'abolished' || change === 'renamed' ? everyRankChanged(ctx, p, change) : whichChanged(ctx, p, 'species', change);
    return whichChanged(ctx, p, rank, change);
  }
  // "which genera were added to Flaviviridae in 2022": one release's changes under one taxon
  if (p.releases.length === 1 && p.species.length === 0 && p.taxa.length === 1 && change && /\b(?:which|what|list|name|names|show)\b/.test(q)) {
    const within = p.taxa[0]!;
    // the rank asked, not the one naming the taxon ("in the family Coronaviridae")
    const rank = rankWord(residue.replace(/\b[a-z]+\s+§tx/g, ' ').replace(/§\w+/g, ' '));
    if (rank && RANKS.indexOf(rank) > RANKS.indexOf(within.rank as Rank)) return whichChanged(ctx, p, rank, change, within);
    return notUnderstood('which_changed', 'rank', `I understood a change in ${p.releases[0]!.version} and the ${within.rank} ${within.name}, but not which taxa under it are asked about (its species, genera, ...).`);
  }
  if (YES_NO.test(q) && p.releases.length === 2 && /\bthan\b/.test(q)) return betweenReleases(ctx, p, rankInResidue ?? 'species');
  return null;
}


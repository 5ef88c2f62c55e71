// Answers about releases: a release (its label, year and size), how many taxa of a rank it holds, two releases'
// totals and the arithmetic between them, the releases of a year or a span of years, the years between two, and
// the milestones of the record (the first release, the first realm, the first taxa of each rank, thresholds).
import type { Store } from '../../store/store.js';
import { listedTotal, releaseTotal } from '../../read/diversity.js';
import { mslOf, RANKS, type Rank } from '../../read/lineages.js';
import type { ReleaseRow } from '../../read/releases.js';
import { fateOf, taxaNames, timeline, type TimelineEvent } from '../../read/taxonomy-facts.js';
import { and, count, num, RANK_PLURAL, release, signed } from '../format.js';
import type { Parsed } from '../parse.js';
import { NET_CHANGE, rankOf } from '../vocabulary.js';
import { fallback, inSpan, notUnderstood, rowOf, sources, span, withNote, type Answer, type Ctx } from './common.js';
import { countOf } from './taxa.js';

/** The release totals a size is read by, for the ranks every release has. */
const SIZE_FIELD: Partial<Record<string, { field: 'total_species' | 'total_genera' | 'total_families'; plural: string }>> = {
  species: { field: 'total_species', plural: 'species' },
  genus: { field: 'total_genera', plural: 'genera' },
  family: { field: 'total_families', plural: 'families' },
};

const plural = (rank: Rank, n: number) => (n === 1 ? rank : RANK_PLURAL[rank] ?? `${rank}s`);

export function listedAside(store: Store, r: ReleaseRow, rank: Rank, official: number | null): string {
  const listed = listedTotal(store, r, rank);
  return listed !== null && official !== null && listed !== official ? ` (${num(listed)} named in its list)` : '';
}

export function countRelease(ctx: Ctx, p: Parsed): Answer {
  // "Are there more than 10,000 species in MSL38?": a yes or a no by the count, then the count
  const more = p.releases.length === 1 && p.form.more !== null && p.form.yesNo ? p.form.more : null;
  // "how many genera and species": the species, with the genera and families beside them, and another rank named
  const also = !more && p.targetRank && p.targetRank !== 'species' && /\bspecies\b/.test(p.residue) && /\b(?:and|&)\b/.test(p.residue) ? p.targetRank : null;
  const rank = also ? 'species' : more?.rank ?? p.targetRank ?? 'species';
  // "how many taxa (in total)": every rank's, summed
  const taxa = !more && !p.targetRank && /\btaxa\b/.test(p.residue);
  const targets = p.releases.length ? p.releases.map((r) => rowOf(ctx, r.msl)!) : [ctx.latest];
  // "how many realms were introduced in MSL35", "the net change in genera in MSL41": the count there against the
  // release before, and the difference
  const before = ctx.all.filter((r) => r.msl < targets[0]!.msl).pop();
  const net = rank !== 'species' && targets.length === 1 && before !== undefined && (p.change === 'added' || NET_CHANGE.test(p.residue));
  if (net) targets.unshift(before!);
  const parts = targets.map((r) => {
    const n = releaseTotal(ctx.store, r, rank) ?? 0;
    const more = rank === 'species' ? ` in ${count(r.total_genera, 'genus', 'genera')} and ${count(r.total_families, 'family', 'families')}` : '';
    const other = also && also !== 'genus' && also !== 'family' ? `, and ${count(releaseTotal(ctx.store, r, also) ?? 0, also, RANK_PLURAL[also]!)}` : '';
    const ranks = taxa ? RANKS.map((k) => [k, releaseTotal(ctx.store, r, k) ?? 0] as const).filter(([, x]) => x > 0) : [];
    const all = taxa ? `; ${num(ranks.reduce((a, [, x]) => a + x, 0))} taxa of every rank in all (${ranks.map(([k, x]) => count(x, k, RANK_PLURAL[k]!)).join(', ')})` : '';
    return `${release(r)} has ${count(n, rank, RANK_PLURAL[rank]!)}${listedAside(ctx.store, r, rank, n)}${more}${other}${all}`;
  });
  const n = more ? releaseTotal(ctx.store, targets[targets.length - 1]!, rank) ?? 0 : 0;
  const yes = more ? (/^(?:more than|over)$/.test(more.how) ? n > more.n : more.how === 'at least' ? n >= more.n : n < more.n) : null;
  const d = net ? (releaseTotal(ctx.store, targets[1]!, rank) ?? 0) - (releaseTotal(ctx.store, targets[0]!, rank) ?? 0) : null;
  return {
    response: withNote(`${yes === null ? '' : yes ? 'Yes: ' : 'No: '}${parts.join('; ')}${d === null ? '' : `: a net change of ${signed(d)}`}.`, p),
    data: { rank, counts: targets.map((r) => ({ version: r.version, year: r.year, count: releaseTotal(ctx.store, r, rank) })), ...(yes === null ? {} : { answer: yes ? 'yes' : 'no' }) },
    sources: targets.map((r) => ({ model: rank === 'species' || rank === 'genus' || rank === 'family' || rank === 'order' || rank === 'realm' ? 'releases' : 'diversity_stats', version: r.version })),
  };
}


/** "How many releases had more than 5,000 species?": the releases whose total of a rank is beyond the number. */
function releasesBeyond(ctx: Ctx, how: string, n: number, word: string): Answer {
  const rank = rankOf(word)!;
  const total = (x: ReleaseRow) => (rank === 'species' ? x.total_species : releaseTotal(ctx.store, x, rank) ?? 0);
  const test = /more|over|above/.test(how) ? (t: number) => t > n : how === 'at least' ? (t: number) => t >= n : (t: number) => t < n;
  const hits = ctx.all.filter((x) => test(total(x)));
  const named = hits.length > 8 ? `${hits.slice(0, 3).map((x) => x.version).join(', ')}, ..., ${hits[hits.length - 1]!.version}` : and(hits.map((x) => x.version));
  return {
    response: `${count(hits.length, 'release', 'releases')} of ${ctx.all.length} had ${how} ${num(n)} ${word}${hits.length ? `: ${named}` : ''}.`,
    data: { rank, bound: how, number: n, count: hits.length, releases: hits.map((x) => ({ version: x.version, total: total(x) })) },
    sources: [{ model: 'releases', version: span(ctx) }],
  };
}

export function releaseInfo(ctx: Ctx, p: Parsed): Answer {
  const sources = [{ model: 'releases', version: span(ctx) }];
  if (p.releases.length === 0) {
    // "which years had two releases?": the years, by their releases
    if (/\b(?:which|what) years?\b/.test(p.residue) && /\b(?:two|2|several|multiple|more than one) (?:releases|lists|versions|msls)\b/.test(p.residue)) {
      const years = [...new Set(ctx.all.map((r) => r.year))].filter((y) => ctx.all.filter((r) => r.year === y).length > 1);
      return {
        response: `${and(years.map((y) => `${y} (${and(ctx.all.filter((r) => r.year === y).map((r) => `${r.version} = ${r.label}`))})`))} had more than one release.`,
        data: { years }, sources,
      };
    }
    // "How many releases had more than 5000 species?": the releases whose total passes the number, not all of them
    const bound = /\b(more than|over|above|at least|fewer than|less than|under|below)\s+(\d[\d,]*)\s+(species|genera|families|orders|realms)\b/.exec(p.residue);
    if (bound && /\b(?:how many|number of|which|what|list)\b/.test(p.residue)) return releasesBeyond(ctx, bound[1]!, Number(bound[2]!.replace(/,/g, '')), bound[3]!);
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
  // "How many releases since 2015?": the releases of the span, not the one named
  if (p.form.span && p.releases.length === 1 && /\b(?:how many|number of|which|list)\b[^?]*\b(?:releases|lists|versions|msls)\b/.test(p.residue)) {
    const within = ctx.all.filter((x) => inSpan(p.form.span, x.msl, r.msl));
    return {
      response: `${count(within.length, 'release', 'releases')} ${p.form.span} ${release(r)}${within.length ? `: ${within[0]!.version} to ${within[within.length - 1]!.version}` : ''}.`,
      data: { span: p.form.span, version: r.version, count: within.length, releases: within.map((x) => x.version) }, sources,
    };
  }
  // "Were there two releases in 2019?": a year of one release (a year of two is read by releases_of_year)
  const counted = /\b(?:more than one|two|2|several|multiple|one|1|a single|only one|just one) (?:releases?|lists?|versions?|msls?)\b/.test(p.residue);
  if (p.form.yesNo && counted && String(r.year) === p.releases[0]!.text) {
    const lead = yearLead(p.residue) === 'Yes: ' && !/\b(?:an?|any)\b/.test(p.residue) ? 'No: ' : 'Yes: ';
    return { response: `${lead}${r.year} had one release, ${release(r)}.`, data: { year: r.year, releases: [{ version: r.version, label: r.label }], answer: lead === 'Yes: ' ? 'yes' : 'no' }, sources };
  }
  const latest = r.msl === ctx.latest.msl ? ', the latest release in the data set' : r.msl === ctx.all[0]!.msl ? ', the first release in the data set' : '';
  return {
    response: withNote(`${r.version} is the ${r.label} release${r.label === String(r.year) ? '' : `, published in ${r.year}`}${latest}: ${count(r.total_species, 'species', 'species')}, ${count(r.total_genera, 'genus', 'genera')}, ${count(r.total_families, 'family', 'families')}, ${count(r.total_orders, 'order', 'orders')} and ${count(r.total_realms, 'realm', 'realms')}.`, p),
    data: { ...r },
    sources,
  };
}


/** The taxa of a rank the first release holds are named up to this many. */
const FIRST_NAMED = 80;

export async function milestones(ctx: Ctx, p: Parsed): Promise<Answer> {
  const rows = await timeline(ctx.store);
  const sources = [{ model: 'timeline', version: span(ctx) }];
  const r = p.residue;
  const pick = (rowsOf: TimelineEvent[]): Answer => ({
    response: `${rowsOf.map((x) => x.description).join('. ')}.`,
    data: { milestones: rowsOf.map((x) => ({ ...x, figures: JSON.parse(x.figures) as unknown })) },
    sources,
  });
  // "which was the first family abolished", "the first genus renamed": no milestone here names the first taxon of a
  // rank to change, and the rank's first use is another question
  if (p.targetRank && p.targetRank !== 'species' && p.change && p.change !== 'added') {
    return notUnderstood('milestone', `I do not hold which ${p.targetRank} was the first to be ${p.change}; ask what was ${p.change} in a release, or when a named taxon was.`);
  }
  // "which release added the most genera": no milestone counts the taxa of a rank each release added
  if (p.targetRank && p.targetRank !== 'species' && p.change === 'added' && /\b(?:most|fewest)\b/.test(r)) {
    return notUnderstood('milestone', `I do not hold which release added the most ${RANK_PLURAL[p.targetRank]}; ask how many were added in a release, or which release had the largest increase in ${RANK_PLURAL[p.targetRank]}.`);
  }
  // "when did the number of genera first exceed 1,000", "the first release with more than 100 families": a rank's
  // total against the number, release by release ("reach", "at least": the number itself counts)
  const rank = p.targetRank ?? 'species';
  const sourcesR = [{ model: 'releases', version: span(ctx) }];
  const totalOf = (x: ReleaseRow) => (rank === 'species' ? x.total_species : releaseTotal(ctx.store, x, rank) ?? 0);
  const plural = RANK_PLURAL[rank]!;
  if (rank !== 'species' && p.threshold !== null && /\b(?:more than|over|exceed\w*|pass\w*|surpass\w*|reach\w*|above|cross\w*|top\w*|at least|first (?:had|has|have|with|contained|listed))\b/.test(r)) {
    const atLeast = /\b(?:reach\w*|at least|first (?:had|has|have|with|contained|listed))\b/.test(r) && !/\b(?:more than|over|above)\b/.test(r);
    const threshold = p.threshold;
    const than = atLeast ? `${num(threshold)} ${plural} or more` : `more than ${num(threshold)} ${plural}`;
    return firstReleaseWith(ctx, totalOf, (n) => (atLeast ? n >= threshold : n > threshold), than, (first) => ({ threshold, rank, version: first?.version ?? null }));
  }
  // "which release had the largest increase in genera", "the largest drop in species": the step between two
  // releases in a row whose total changed most
  const step = /\b(?:largest|biggest|greatest|most|sharpest|steepest)\s+(?:net\s+)?(?:(increase|growth|gain|jump|rise)|(drop|decrease|decline|fall|loss|reduction))\b/.exec(r);
  if (step) {
    const steps = ctx.all.slice(1).map((b, k) => ({ a: ctx.all[k]!, b, d: totalOf(b) - totalOf(ctx.all[k]!) }));
    const drop = step[2] !== undefined;
    const best = steps.reduce((m, x) => ((drop ? x.d < m.d : x.d > m.d) ? x : m), steps[0]!);
    if (drop ? best.d >= 0 : best.d <= 0) return { response: `No release has ${drop ? 'fewer' : 'more'} ${plural} than the one before it.`, data: { rank, step: null }, sources: sourcesR };
    return {
      response: `${release(best.b)} had the largest ${drop ? 'drop' : 'increase'} in ${plural}: from ${num(totalOf(best.a))} in ${release(best.a)} to ${num(totalOf(best.b))} (${signed(best.d)}).`,
      data: { rank, from: best.a.version, to: best.b.version, change: best.d }, sources: sourcesR,
    };
  }
  if (/\brealms?\b/.test(r) && !/\bhow many\b/.test(r)) {
    const row = rows.find((x) => x.kind === 'first_realm');
    if (row) return pick([row]);
  }
  if (p.threshold !== null && p.threshold >= 1000) {
    const exact = ctx.all.filter((x) => x.total_species === p.threshold);
    if (exact.length > 0 && !/\b(?:more than|over|exceed\w*|pass\w*|surpass\w*|reach\w*|above|cross\w*)\b/.test(r)) {
      return { response: `${and(exact.map(release))} had exactly ${num(p.threshold)} species.`, data: { species: p.threshold, versions: exact.map((x) => x.version) }, sources: [{ model: 'releases', version: span(ctx) }] };
    }
    const threshold = p.threshold;
    return firstReleaseWith(ctx, (x) => x.total_species, (n) => n > threshold, `more than ${num(threshold)} species`,
      (first) => (first ? { threshold, version: first.version, species: first.total_species } : { threshold, version: null }));
  }
  if (p.targetRank && p.targetRank !== 'species' && /\b(?:introduc|first|creat|establish|appear|began|start|added)\w*/.test(r)) {
    const row = rows.find((x) => x.kind === 'rank_introduced' && x.subject === p.targetRank);
    if (row) {
      // the taxa that first used the rank, by name ("the first order recognised": Mononegavirales)
      const at = rowOf(ctx, mslOf(row.version))!;
      const names = (await taxaNames(ctx.store, at.msl, p.targetRank)).map((x) => x.name);
      const shown = names.slice(0, 10);
      const first = names.length === 1 ? `The first ${p.targetRank} is ${names[0]}, introduced in ${release(at)}` : `The first ${RANK_PLURAL[p.targetRank]} were introduced in ${release(at)}: ${and(shown)}${names.length > shown.length ? ` and ${num(names.length - shown.length)} more` : ''}`;
      return {
        response: `${first}. ${row.description}.`,
        data: { rank: p.targetRank, version: at.version, year: at.year, taxa: names, milestones: [{ ...row, figures: JSON.parse(row.figures) as unknown }] },
        sources: [...sources, { model: 'taxon_counts', version: at.version }],
      };
    }
    const firstRelease = ctx.all[0]!;
    const used = releaseTotal(ctx.store, firstRelease, p.targetRank);
    if (used) {
      // named ("the first families": the 2 of 1971; "the first genera listed": the 43 of 1971), unless too many to read
      const names = used <= FIRST_NAMED ? (await taxaNames(ctx.store, firstRelease.msl, p.targetRank)).map((x) => x.name) : [];
      return { response: `The rank ${p.targetRank} is already used in ${release(firstRelease)}, the first release in the data set (${count(used, p.targetRank, RANK_PLURAL[p.targetRank]!)}${names.length ? `: ${and(names)}` : ''}).`, data: { rank: p.targetRank, taxa: names }, sources };
    }
  }
  if (/\brenam\w*/.test(r)) return pick(rows.filter((x) => x.kind === 'renaming_wave').sort((a, b) => a.description.localeCompare(b.description)).slice(0, 1));
  // "which release had the most species": the largest release, not the largest step
  // (of the species, genera or families, which every release has: "the smallest release" is by its species)
  const ranked = SIZE_FIELD[p.targetRank ?? 'species'];
  if (ranked && /\b(?:most|largest|biggest|fewest|smallest|least)\b/.test(r) && (/\b(?:species|genera|genus|famil\w*)\b/.test(r) || /\b(?:release|version|msl|list|edition)s?\b/.test(r))
    && !/\b(?:added|add|growth|grew|grow|new|gain\w*)\b/.test(r)) {
    const fewest = /\b(?:fewest|smallest|least)\b/.test(r);
    const best = ctx.all.reduce((a, b) => ((fewest ? b[ranked.field] < a[ranked.field] : b[ranked.field] > a[ranked.field]) ? b : a));
    return {
      response: `${release(best)} has the ${fewest ? 'fewest' : 'most'} ${ranked.plural} of any release: ${num(best[ranked.field])}.`,
      data: { version: best.version, rank: p.targetRank ?? 'species', [ranked.plural]: best[ranked.field] }, sources: [{ model: 'releases', version: span(ctx) }],
    };
  }
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


export async function betweenReleases(ctx: Ctx, p: Parsed): Promise<Answer> {
  const rank = p.relationRank ?? 'species';
  const [x, y] = p.releases.map((r) => rowOf(ctx, r.msl)!) as [ReleaseRow, ReleaseRow];
  const [from, to] = x.msl <= y.msl ? [x, y] : [y, x];
  const t = p.taxa[0];
  // a taxon not in one of the releases has no size there to subtract: where it is listed, and what became of it
  if (t && [from, to].some((r) => t.entry.first_msl > r.msl || t.entry.last_msl < r.msl)) {
    const fate = (await fateOf(ctx.store, t.name)).filter((f) => f.msl > from.msl && f.msl <= to.msl);
    const inRelease = [from, to].filter((r) => t.entry.first_msl <= r.msl && t.entry.last_msl >= r.msl);
    return {
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
  const against = p.form.against;
  if (p.form.yesNo && against) {
    lead = `${(against.op === 'less' ? Math.abs(d) < against.n : Math.abs(d) > against.n) ? 'Yes' : 'No'}: the change is ${num(Math.abs(d))}; `;
  } else if (p.form.yesNo) {
    // "did MSL39 have more species than MSL38": the first release named is the subject
    const [first, second] = [rowOf(ctx, p.releases[0]!.msl)!, rowOf(ctx, p.releases[1]!.msl)!];
    const fewer = p.form.down;
    const up = p.form.up;
    if (!fewer && !up && p.form.changed) lead = `${d !== 0 ? 'Yes' : 'No'}: `;
    else if (fewer || up) {
      const firstIsLater = first.msl > second.msl;
      const rose = firstIsLater ? n(first) > n(second) : n(second) > n(first);
      const yes = p.form.than ? (fewer ? n(first) < n(second) : n(first) > n(second)) : fewer ? !rose && d !== 0 : rose;
      lead = `${yes ? 'Yes' : 'No'}: `;
    }
  }
  const pct = a > 0 && d !== 0 ? `, ${d > 0 ? '+' : '-'}${(Math.abs(d) * 100 / a).toFixed(1)}%` : '';
  const change = d === 0 ? 'the same number' : `${num(Math.abs(d))} ${d > 0 ? 'more' : 'fewer'} (${d > 0 ? '+' : '-'}${num(Math.abs(d))}${pct})`;
  const which = p.form.or && d !== 0 ? ` ${d > 0 ? to.label : from.label} had more.` : '';
  // "in MSL30 and MSL31 combined": the two counts added (the same taxa are in both, so it counts them twice: said)
  const sum = p.form.sum ? ` Added together, ${num(a + b)} (a taxon listed in both is counted twice).` : '';
  return {
    response: `${lead}${release(from)} had ${num(a)} ${what}${t ? '' : listedAside(ctx.store, from, rank, a)} and ${release(to)} had ${num(b)}${t ? '' : listedAside(ctx.store, to, rank, b)}: ${change} in ${to.version} than in ${from.version}.${which}${sum}`,
    data: { rank, ...(t ? { taxon: t.name } : {}), from: { version: from.version, count: a }, to: { version: to.version, count: b }, difference: d },
    sources: sources(ctx, t ? 'taxon_profile' : 'releases'),
  };
}


/** "How many releases were published between 2000 and 2010?", "releases of the 1990s". */
export function releasesInYears(ctx: Ctx, p: Parsed): Answer {
  const { from: lo, to: hi } = p.yearSpan!;
  const inSpan = ctx.all.filter((r) => r.year >= lo && r.year <= hi);
  return {
    response: `${num(inSpan.length)} release${inSpan.length === 1 ? ' was' : 's were'} published from ${lo} to ${hi}${inSpan.length ? `: ${inSpan.map((r) => release(r)).join(', ')}` : ''}.`,
    data: { from_year: lo, to_year: hi, count: inSpan.length, releases: inSpan.map((r) => r.version) }, sources: sources(ctx, 'releases'),
  };
}

/** "How many species did the two 2018 releases have?": each release of the year, and the change between them. */
export function yearCounts(ctx: Ctx, p: Parsed): Answer {
  const rank = p.relationRank!;
  const year = p.releases[0]!.year;
  const rows = ctx.all.filter((r) => r.year === year);
  const t = p.taxa[0];
  const n = (r: ReleaseRow) => (t ? countOf(t, r.msl, rank) : releaseTotal(ctx.store, r, rank) ?? 0);
  const what = t ? `${RANK_PLURAL[rank]} in the ${t.rank} ${t.name}` : RANK_PLURAL[rank];
  return {
    response: `${year} had ${rows.length} releases: ${and(rows.map((r) => `${release(r)} had ${num(n(r))} ${what}`))}${rows.length === 2 ? ` (${signed(n(rows[1]!) - n(rows[0]!))} from ${rows[0]!.label} to ${rows[1]!.label})` : ''}.`,
    data: { year, rank, ...(t ? { taxon: t.name } : {}), counts: rows.map((r) => ({ version: r.version, label: r.label, count: n(r) })) }, sources: sources(ctx, t ? 'taxon_profile' : 'releases'),
  };
}

/** The Yes or No of "Were there two releases in 2018?" (a year read here has several): by the number the question says. */
function yearLead(residue: string): string {
  if (/\b(?:more than one|two|2|several|multiple)\b/.test(residue)) return 'Yes: ';
  if (/\b(?:one|1|a single|only one|just one)\b/.test(residue)) return 'No: ';
  return /\b(?:an?|any)\b/.test(residue) ? 'Yes: ' : '';
}

/** "Which releases were published in 2018?". */
export function releasesOfYear(ctx: Ctx, p: Parsed): Answer {
  const year = p.releases[0]!.year;
  const rows = ctx.all.filter((r) => r.year === year);
  return {
    response: `${p.form.yesNo ? yearLead(p.residue) : ''}${year} had ${rows.length} releases: ${and(rows.map((r) => release(r)))}.`,
    data: { year, releases: rows.map((r) => ({ version: r.version, label: r.label })) }, sources: sources(ctx, 'releases'),
  };
}

/** "How many years between MSL1 and MSL41?": the years of the two releases and the span. */
export function yearsBetween(ctx: Ctx, p: Parsed): Answer {
  const [x, y] = (p.releases.map((r) => rowOf(ctx, r.msl)!) as [ReleaseRow, ReleaseRow]).sort((a, b) => a.msl - b.msl);
  return {
    response: `${release(x)} is of ${x.year} and ${release(y)} of ${y.year}: ${num(y.year - x.year)} year${y.year - x.year === 1 ? '' : 's'} apart, with ${num(y.msl - x.msl - 1)} release${y.msl - x.msl - 1 === 1 ? '' : 's'} between them.`,
    data: { from: x.version, to: y.version, years: y.year - x.year, releases_between: y.msl - x.msl - 1 }, sources: sources(ctx, 'releases'),
  };
}

/** "Was MSL37 released in 2021?": the release and the year it is of. */
export function releaseIsYear(ctx: Ctx, p: Parsed): Answer {
  const [x, y] = p.releases.map((r) => rowOf(ctx, r.msl)!) as [ReleaseRow, ReleaseRow];
  // "Was MSL34 released in 2018?": a year of several releases names each of them
  if (p.releases[1]!.ambiguous) {
    const inYear = ctx.all.filter((r) => r.year === y.year);
    const yes = x.year === y.year;
    return {
      response: `${yes ? 'Yes' : 'No'}: ${x.version} is the ${x.label} release; ${y.year} had ${inYear.length} releases, ${and(inYear.map((r) => `${r.version} (${r.label})`))}.`,
      data: { version: x.version, label: x.label, year: x.year, answer: yes ? 'yes' : 'no' }, sources: sources(ctx, 'releases'),
    };
  }
  return {
    // ("Is MSL41 the latest release?": the second name said back when it is no year or label)
    response: x.msl === y.msl ? `Yes: ${x.version} is the ${x.label} release${/^(?:msl\s*)?\d/i.test(p.releases[1]!.text) ? '' : `, ${p.releases[1]!.text}`}.` : `No: ${x.version} is the ${x.label} release; ${p.releases[1]!.text} is ${y.version} (${y.label}).`,
    data: { version: x.version, label: x.label, year: x.year, answer: x.msl === y.msl ? 'yes' : 'no' }, sources: sources(ctx, 'releases'),
  };
}

/** The taxa of a rank a release names in full up to this many; more are counted, with the first of them. */
const LISTED = 120;

/** "Which families existed in 1971?", "What genera did the 1971 list have?": the taxa of a rank in one release, named. */
export async function taxaOfRelease(ctx: Ctx, p: Parsed): Promise<Answer> {
  const rank = p.relationRank!;
  const r = rowOf(ctx, p.releases[0]!.msl)!;
  const names = (await taxaNames(ctx.store, r.msl, rank)).map((x) => x.name);
  const shown = names.slice(0, LISTED);
  const plural = names.length === 1 ? rank : RANK_PLURAL[rank]!;
  return {
    response: names.length === 0 ? `${release(r)} has no ${RANK_PLURAL[rank]}.`
      : `${release(r)} has ${num(names.length)} ${plural}: ${shown.join(', ')}${names.length > shown.length ? ` and ${num(names.length - shown.length)} more` : ''}.`,
    data: { version: r.version, rank, count: names.length, names },
    sources: sources(ctx, 'taxon_counts', r.version),
  };
}

/** The first release whose total (of a rank) passes a number, or that none does, with the latest's total. */
function firstReleaseWith(ctx: Ctx, totalOf: (x: ReleaseRow) => number, passes: (n: number) => boolean, than: string,
  data: (first: ReleaseRow | undefined) => Record<string, unknown>): Answer {
  const first = ctx.all.find((x) => passes(totalOf(x)));
  const sources = [{ model: 'releases', version: span(ctx) }];
  return first
    ? { response: `${release(first)} is the first release with ${than} (${num(totalOf(first))}).`, data: data(first), sources }
    : { response: `No release has ${than}; the latest, ${release(ctx.latest)}, has ${num(totalOf(ctx.latest))}.`, data: data(undefined), sources };
}

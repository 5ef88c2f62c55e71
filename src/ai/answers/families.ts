// "Which families infect archaea?", "Which families have dsRNA genomes?": the families of the latest release with
// species of a host source or genome composition (family_profile, its members as kinds), largest first.
import { diversity } from '../../read/diversity.js';
import { familyKinds, type FamilyKinds, type Kind } from '../../read/family-profiles.js';
import { and, count, num, release } from '../format.js';
import type { Parsed } from '../parse.js';
import { genomeLabel } from '../vocabulary.js';
import { notUnderstood, type Answer, type Ctx } from './common.js';
import { narrowerHost } from './species.js';

/** Which of the numbered values a question asks for (a value the model does not have is asked of no kind). */
function asked(ids: Map<string, number>, values: string[]): Uint8Array {
  const wanted = new Uint8Array(ids.size);
  for (const v of values) {
    const id = ids.get(v);
    if (id !== undefined) wanted[id] = 1;
  }
  return wanted;
}

export async function familiesBy(ctx: Ctx, p: Parsed, what: 'host' | 'genome'): Promise<Answer> {
  // the families' kinds are the latest release's: another release asked is not answered with them
  const other = p.releases.find((r) => r.msl !== ctx.latest.msl);
  if (other) {
    return notUnderstood(what, `I count species and families by ${what === 'host' ? 'host source' : 'genome composition'} in the latest release only, ${release(ctx.latest)}, not in ${other.version}: ask without naming a release.`);
  }
  // "How many viruses infect humans?": the VMR's host groups are broad; humans are vertebrates among others
  const narrow = what === 'host' ? narrowerHost(p, p.hosts) : null;
  if (narrow) {
    return notUnderstood('host', `The VMR records host source by broad group only (${p.hosts.join(', ')}), which holds more than "${narrow}": ask for the group, as "Which families infect ${p.hosts[0]}?".`);
  }
  const wanted = what === 'host' ? p.hosts : p.genomeTypes;
  const { families, hostIds, compositionIds } = await familyKinds(ctx.store);
  // "dsDNA viruses that infect archaea": both filters, the species counted must pass each
  const hosts = asked(hostIds, p.hosts);
  const compositions = asked(compositionIds, p.genomeTypes);
  // "both invertebrate and vertebrate hosts": species recorded with each host asked, not with any of them
  const every = p.hosts.length > 1 && /\bboth\b/.test(p.residue);
  const hostOk = (k: Kind) => {
    if (p.hosts.length === 0) return true;
    let n = 0;
    for (const h of k.hosts) if (hosts[h] === 1) n++;
    return every ? n === p.hosts.length : n > 0;
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
  const d = diversity(ctx.store, ctx.latest.msl);
  // the species total, families or not (diversity_stats counts one attribute at a time, so not for both filters)
  const total = both ? null : what === 'host'
    ? d?.hosts?.reduce((a, x) => ((every ? wanted.every((h) => x.hosts.includes(h)) : x.hosts.some((h) => wanted.includes(h))) ? a + x.species : a), 0)
    : d?.genomes?.reduce((a, x) => (wanted.includes(x.composition) ? a + x.species : a), 0);
  const genomes = `${genomeLabel(p.genomeTypes)} genomes`;
  const hostLabel = `${p.hosts.join(every ? ' and ' : ' or ')} as host source`;
  const label = both ? `${genomes} and ${hostLabel}` : what === 'host' ? hostLabel : genomes;
  const data = { version: ctx.latest.version, [what === 'host' ? 'hosts' : 'genome_types']: wanted, families: hits, total_families: hits.length, total_species: total ?? null };
  const sources = [{ model: 'family_profile', version: ctx.latest.version }, { model: 'diversity_stats', version: ctx.latest.version }];
  if (hits.length === 0) {
    return { response: `${p.form.yesNo && !p.form.or ? 'No: no' : 'No'} family of ${release(ctx.latest)} has species with ${label}.`, data, sources };
  }
  const top = hits.slice(0, limit).map((x) => `${x.family} (${num(x.species)})`);
  // "Are phages viruses?", "Is a bacteriophage a virus?": a word for viruses by their host is of viruses, a Yes
  // ("Do viruses infect archaea?", "Are there dsDNA viruses of archaea?": a Yes, the families that say so)
  const isAVirus = p.form.yesNo && what === 'host' && /^(?:is|are)\b.*\b(?:an? )?virus(?:es)?\W*$/.test(p.residue);
  // a plain Yes runs on into the sentence ("Yes: in MSL41, ..."); a sentence of its own, or none, is followed by one
  const yes = !isAVirus && p.form.yesNo && !p.form.or;
  const lead = isAVirus ? `Yes: they are viruses of ${p.hosts.join(' or ')}. ` : yes ? 'Yes: ' : '';
  return {
    response: `${lead}${yes ? 'in' : 'In'} ${release(ctx.latest)}, ${count(hits.length, 'family has', 'families have')} species with ${label}${total ? ` (${count(total, 'species', 'species')} in all, counting those without a family)` : ''}; ${hits.length > limit ? `the ${limit} largest are` : hits.length === 1 ? 'it is' : 'they are'} ${and(top)}.`,
    data, sources,
  };
}

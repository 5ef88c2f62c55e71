// The metadata classifier of POST /ai/classify: given any of genome composition, host and genome length, how
// likely is each family of the latest release? A naive Bayes model fitted on the real data (family_profile: every
// species of each family with its MSL genome composition, VMR exemplar host source and exemplar genome length):
//
//   log score(f) = log(n_f + 1)                                       prior: bigger families are likelier
//                + log((exact_f + W * related_f + A * p(c)) / (typed_f + A))   composition c: species of f with
//                                                                    c, plus W per species of f with another
//                                                                    composition of c's Baltimore group
//                + log((hosted_f(h) + A * p(h)) / (hosted_f + A))    host category h
//                + log Normal(log10 bp; mu_f, sigma_f^2 + V)         genome length; mu_f and sigma_f^2 shrunk
//                                                                    towards the pooled values by K pseudo-species
//
// p(c), p(h): shares over all families (the smoothing's prior). Scores are normalised over all families
// (softmax), so a candidate's score is the probability the model gives it. Metadata narrows families; many species
// share the same three values, so it never identifies a species: the answer says so.
//
// Parameters W, A, K, V were chosen on the leave-one-out evaluation below (scratch/ai-loo.mjs: a small grid), which
// subtracts the held-out species from its family's counts and sums, so no species is scored by a family that saw
// it; only the overall shares and pooled variance, over ~14k species, keep its one contribution (its accuracy is
// in the README and test/ai-classify.test.ts). Lengths carry most of the signal (phage
// families have tight length ranges), hence a small V: 0.0002 in log10 is about 3% of a length.
import type { Store } from '../store/store.js';
import { familyProfiles, type FamilyProfile, type Member } from '../read/family-profiles.js';
import { count, num } from './format.js';
import { COMPOSITION_NAMES, formatGenomeSize } from './vocabulary.js';

export interface Params {
  /** Weight of a species with another composition of the same Baltimore group. */
  W: number;
  /** Pseudo-count of the smoothing towards the overall shares. */
  A: number;
  /** Pseudo-species pulling a family's length distribution towards the pooled one. */
  K: number;
  /** Variance (log10 bp) added to every family's: a length is a measurement, and a family whose exemplars all
   *  measure 2,768 bp must still accept 2,700 bp. */
  V: number;
}

export const DEFAULT_PARAMS: Params = { W: 0.1, A: 0.5, K: 0.1, V: 0.0002 };

interface FamilyStats {
  profile: FamilyProfile;
  n: number;
  comp: Map<string, number>;
  compTotal: number;
  group: Map<string, number>;
  host: Map<string, number>;
  hostTotal: number;
  sizeN: number;
  s1: number;
  s2: number;
}

export interface Model {
  families: FamilyStats[];
  groupOf: Map<string, string | null>;
  compShare: Map<string, number>;
  groupShare: Map<string, number>;
  hostShare: Map<string, number>;
  /** Mean and pooled within-family variance of log10 genome length; overall variance for families without lengths. */
  mu0: number;
  var0: number;
  varAll: number;
  params: Params;
  /** Species the model was fitted on. */
  trained: number;
}

export type { FamilyProfile };

export interface Features {
  compositions: string[];
  hosts: string[];
  sizeBp: number | null;
}

const models = new WeakMap<Store, Promise<Model>>();

/** The model of a store, fitted once on first use (family_profile is ~14k species: ~100 ms). */
export function modelOf(store: Store): Promise<Model> {
  let m = models.get(store);
  if (!m) {
    m = familyProfiles(store).then((profiles) => fitModel(profiles));
    // a failed load must not stay cached: the next request tries again
    m.catch(() => models.delete(store));
    models.set(store, m);
  }
  return m;
}

const evaluations = new WeakMap<Store, Promise<Evaluation>>();

/** The leave-one-out evaluation of a store's model, computed once (~0.5 s) when first asked for. */
export function evaluationOf(store: Store): Promise<Evaluation> {
  let e = evaluations.get(store);
  if (!e) {
    e = modelOf(store).then(leaveOneOut);
    e.catch(() => evaluations.delete(store));
    evaluations.set(store, e);
  }
  return e;
}

const log10 = Math.log10;
const bump = (m: Map<string, number>, k: string, by = 1) => m.set(k, (m.get(k) ?? 0) + by);

export function fitModel(profiles: FamilyProfile[], params: Params = DEFAULT_PARAMS): Model {
  const groupOf = new Map<string, string | null>();
  for (const p of profiles) for (const c of p.compositions) groupOf.set(c.composition, c.balt_group);
  const compCount = new Map<string, number>(), groupCount = new Map<string, number>(), hostCount = new Map<string, number>();
  let typed = 0, hosted = 0, trained = 0;
  let sum = 0, sumSq = 0, sizes = 0, within = 0, withinDf = 0;
  const families = profiles.map((profile): FamilyStats => {
    const s: FamilyStats = { profile, n: profile.members.length, comp: new Map(), compTotal: 0, group: new Map(), host: new Map(), hostTotal: 0, sizeN: 0, s1: 0, s2: 0 };
    for (const m of profile.members) {
      trained += 1;
      if (m.composition) {
        bump(s.comp, m.composition);
        s.compTotal += 1;
        const g = groupOf.get(m.composition);
        if (g) bump(s.group, g);
      }
      for (const h of m.hosts) bump(s.host, h);
      if (m.hosts.length > 0) s.hostTotal += 1;
      if (m.size_bp) {
        const x = log10(m.size_bp);
        s.sizeN += 1;
        s.s1 += x;
        s.s2 += x * x;
      }
    }
    for (const [c, k] of s.comp) bump(compCount, c, k);
    for (const [g, k] of s.group) bump(groupCount, g, k);
    for (const [h, k] of s.host) bump(hostCount, h, k);
    typed += s.compTotal;
    hosted += s.hostTotal;
    sum += s.s1;
    sumSq += s.s2;
    sizes += s.sizeN;
    if (s.sizeN > 1) {
      within += s.s2 - (s.s1 * s.s1) / s.sizeN;
      withinDf += s.sizeN - 1;
    }
    return s;
  });
  const share = (m: Map<string, number>, total: number) => new Map([...m].map(([k, v]) => [k, v / Math.max(total, 1)]));
  const mu0 = sizes > 0 ? sum / sizes : 4;
  return {
    families, groupOf, params, trained,
    compShare: share(compCount, typed), groupShare: share(groupCount, typed), hostShare: share(hostCount, hosted),
    mu0,
    var0: withinDf > 0 ? within / withinDf : 0.1,
    varAll: sizes > 1 ? sumSq / sizes - mu0 * mu0 : 0.5,
  };
}

/** Per-feature log-likelihoods of one family; `out` is a held-out member of that family whose counts are removed. */
function featureScores(model: Model, f: FamilyStats, x: Features, out: Member | null): { prior: number; comp: number; host: number; size: number } {
  const { W, A, K, V } = model.params;
  const minus = out ? 1 : 0;
  const n = f.n - minus;
  const prior = Math.log(n + 1);

  let comp = 0;
  if (x.compositions.length > 0) {
    let exact = 0, related = 0, p = 0;
    const groups = new Set(x.compositions.map((c) => model.groupOf.get(c)).filter((g): g is string => !!g));
    for (const c of x.compositions) {
      exact += f.comp.get(c) ?? 0;
      p += model.compShare.get(c) ?? 0;
    }
    let inGroups = 0;
    for (const g of groups) inGroups += f.group.get(g) ?? 0;
    if (out?.composition) {
      if (x.compositions.includes(out.composition)) exact -= 1;
      const g = model.groupOf.get(out.composition);
      if (g && groups.has(g)) inGroups -= 1;
    }
    related = Math.max(0, inGroups - exact);
    const total = f.compTotal - (out?.composition ? 1 : 0);
    comp = Math.log((exact + W * related + A * Math.max(p, 1e-4)) / (total + A));
  }

  let host = 0;
  if (x.hosts.length > 0) {
    let best = 0, p = 0;
    for (const h of x.hosts) {
      const k = (f.host.get(h) ?? 0) - (out?.hosts.includes(h) ? 1 : 0);
      if (k > best) best = k;
      p = Math.max(p, model.hostShare.get(h) ?? 0);
    }
    const total = f.hostTotal - (out && out.hosts.length > 0 ? 1 : 0);
    host = Math.log((best + A * Math.max(p, 1e-4)) / (total + A));
  }

  let size = 0;
  if (x.sizeBp) {
    const v = log10(x.sizeBp);
    let k = f.sizeN, s1 = f.s1, s2 = f.s2;
    if (out?.size_bp) {
      const o = log10(out.size_bp);
      k -= 1;
      s1 -= o;
      s2 -= o * o;
    }
    let mu = model.mu0, variance = model.varAll;
    if (k > 0) {
      const mean = s1 / k;
      const ss = Math.max(0, s2 - k * mean * mean);
      mu = (k * mean + K * model.mu0) / (k + K);
      variance = (ss + K * model.var0) / (k + K);
    }
    variance += V;
    size = -0.5 * Math.log(2 * Math.PI * variance) - ((v - mu) ** 2) / (2 * variance);
  }
  return { prior, comp, host, size };
}

export interface Ranked {
  family: FamilyStats;
  logScore: number;
  probability: number;
}

/** Every family, most likely first (ties by name, so the order is deterministic). */
export function rankFamilies(model: Model, x: Features): Ranked[] {
  const scored = model.families.map((f) => {
    const s = featureScores(model, f, x, null);
    return { family: f, logScore: s.prior + s.comp + s.host + s.size };
  });
  const max = Math.max(...scored.map((s) => s.logScore));
  const z = scored.reduce((acc, s) => acc + Math.exp(s.logScore - max), 0);
  return scored
    .map((s) => ({ ...s, probability: Math.exp(s.logScore - max) / z }))
    .sort((a, b) => b.logScore - a.logScore || a.family.profile.family.localeCompare(b.family.profile.family));
}

export interface Evaluation {
  evaluated: number;
  top1: number;
  top5: number;
  families: number;
  params: Params;
}

/**
 * Leave-one-out over every species with all three values: each is scored by the model minus itself (its family's
 * counts and sums less its own contribution), and counts as a hit when its family ranks first / in the first five.
 */
export function leaveOneOut(model: Model): Evaluation {
  let evaluated = 0, top1 = 0, top5 = 0;
  for (const own of model.families) {
    for (const m of own.profile.members) {
      if (!m.composition || m.hosts.length === 0 || !m.size_bp) continue;
      const x: Features = { compositions: [m.composition], hosts: m.hosts, sizeBp: m.size_bp };
      const total = (f: FamilyStats) => {
        const s = featureScores(model, f, x, f === own ? m : null);
        return s.prior + s.comp + s.host + s.size;
      };
      const mine = total(own);
      let better = 0;
      for (const f of model.families) {
        if (f === own) continue;
        const s = total(f);
        // a tie goes against the held-out family unless its name sorts first, as rankFamilies orders them
        if (s > mine || (s === mine && f.profile.family < own.profile.family)) {
          better += 1;
          if (better >= 5) break;
        }
      }
      evaluated += 1;
      if (better === 0) top1 += 1;
      if (better < 5) top5 += 1;
    }
  }
  return { evaluated, top1: evaluated ? top1 / evaluated : 0, top5: evaluated ? top5 / evaluated : 0, families: model.families.length, params: model.params };
}

export interface Evidence {
  match: 'exact' | 'same_baltimore_group' | 'none' | 'in_range' | 'near_range' | 'outside_range' | 'no_data';
  species: number;
  of: number;
  text: string;
}

export interface Candidate {
  family: string;
  score: number;
  realm: string | null;
  order: string | null;
  species: number;
  evidence: { genome_type?: Evidence; host?: Evidence; genome_size?: Evidence };
}

/** The top candidates with what in each family's data supports or weakens them, feature by feature. */
export function candidates(model: Model, x: Features, limit = 5): Candidate[] {
  return rankFamilies(model, x).slice(0, limit).map(({ family: f, probability }) => {
    const p = f.profile;
    const evidence: Candidate['evidence'] = {};
    if (x.compositions.length > 0) evidence.genome_type = compositionEvidence(model, f, x.compositions);
    if (x.hosts.length > 0) evidence.host = hostEvidence(f, x.hosts);
    if (x.sizeBp) evidence.genome_size = sizeEvidence(p, x.sizeBp);
    return { family: p.family, score: Number(probability.toFixed(4)), realm: p.realm, order: p.order, species: p.species, evidence };
  });
}

function compositionEvidence(model: Model, f: FamilyStats, wanted: string[]): Evidence {
  const exact = wanted.reduce((acc, c) => acc + (f.comp.get(c) ?? 0), 0);
  const label = wanted.length === 1 ? wanted[0]! : wanted.join('/');
  if (exact > 0) return { match: 'exact', species: exact, of: f.compTotal, text: `${num(exact)} of ${count(f.compTotal, 'species', 'species')} have a ${label} genome` };
  const groups = new Set(wanted.map((c) => model.groupOf.get(c)).filter((g): g is string => !!g));
  const related = [...groups].reduce((acc, g) => acc + (f.group.get(g) ?? 0), 0);
  const main = f.profile.compositions[0];
  if (related > 0) {
    return { match: 'same_baltimore_group', species: related, of: f.compTotal, text: `none has ${label}, but ${num(related)} of ${num(f.compTotal)} have another composition of Baltimore group ${[...groups].join('/')} (mostly ${main?.composition ?? 'unknown'})` };
  }
  return { match: 'none', species: 0, of: f.compTotal, text: `none of its ${count(f.compTotal, 'species', 'species')} has a ${label} genome${main ? ` (its genomes are ${main.composition}, ${COMPOSITION_NAMES[main.composition] ?? main.composition})` : ''}` };
}

function hostEvidence(f: FamilyStats, wanted: string[]): Evidence {
  const best = wanted.map((h) => [h, f.host.get(h) ?? 0] as const).sort((a, b) => b[1] - a[1])[0]!;
  if (best[1] > 0) return { match: 'exact', species: best[1], of: f.hostTotal, text: `${num(best[1])} of ${count(f.hostTotal, 'species', 'species')} have ${best[0]} as host source` };
  const usual = f.profile.hosts.slice(0, 2).map((h) => h.host).join(' and ');
  return { match: 'none', species: 0, of: f.hostTotal, text: `none of its ${count(f.hostTotal, 'species', 'species')} has ${wanted.join(' or ')} as host source${usual ? ` (its hosts: ${usual})` : ''}` };
}

function sizeEvidence(p: FamilyProfile, bp: number): Evidence {
  const given = formatGenomeSize(bp);
  if (p.size_n === 0 || p.size_min_bp === null || p.size_max_bp === null) {
    return { match: 'no_data', species: 0, of: 0, text: `no exemplar genome length is known for this family, so ${given} neither supports nor excludes it` };
  }
  const range = `${formatGenomeSize(p.size_min_bp)}-${formatGenomeSize(p.size_max_bp)}`;
  const median = formatGenomeSize(p.size_median_bp!);
  const of = p.size_n;
  if (bp >= p.size_min_bp && bp <= p.size_max_bp) {
    return { match: 'in_range', species: of, of, text: `${given} is within its exemplar genome lengths, ${range} (median ${median}, ${count(of, 'genome', 'genomes')})` };
  }
  const ratio = bp < p.size_min_bp ? p.size_min_bp / bp : bp / p.size_max_bp;
  return {
    match: ratio <= 1.25 ? 'near_range' : 'outside_range', species: 0, of,
    text: `${given} is ${bp < p.size_min_bp ? 'shorter' : 'longer'} than any of its exemplar genomes, ${range} (median ${median}, ${count(of, 'genome', 'genomes')})`,
  };
}

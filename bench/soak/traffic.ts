// The soak's requests, by traffic class, each drawn at random from the data (keys.ts). Every request is one
// the API answers with 200: names are ones the release has, pages are within the pair's changes, and a batch
// to resolve may hold unknown names (they are answered, as unknown, in a 200).
import type { Req } from './client.js';
import type { Keys } from './keys.js';

export type TrafficClass = 'lookup' | 'compare' | 'search' | 'ai' | 'resolve' | 'resolve-10k' | 'bulk';
export const CLASSES: readonly TrafficClass[] = ['lookup', 'compare', 'search', 'ai', 'resolve', 'resolve-10k', 'bulk'];

const pick = <T>(xs: readonly T[], rnd = Math.random): T => xs[Math.floor(rnd() * xs.length)]!;
const enc = encodeURIComponent;

/** A lookup: a species in a release, a history by name, or a current species on /taxonomy. */
export function lookup(k: Keys): Req {
  const r = Math.random();
  if (r < 0.55) {
    const s = pick(k.species);
    return { method: 'GET', path: `/api/v1/species/${s.version}/${enc(s.name)}` };
  }
  if (r < 0.8) return { method: 'GET', path: `/api/v1/history/${enc(pick(k.species).name)}` };
  return { method: 'GET', path: `/taxonomy/species/${enc(pick(k.current))}` };
}

/** A page of 20 changes of a random pair of releases, at a random offset within them. */
export function compare(k: Keys): Req {
  const p = pick(k.pairs.filter((x) => x.changes > 0));
  const offset = Math.floor(Math.random() * Math.max(1, p.changes - 20));
  return { method: 'GET', path: `/api/v1/compare/${p.from}/${p.to}/details?limit=20&offset=${offset}` };
}

/** A search by part of a genus name: GET /api/v1/search or POST /search/species. */
export function search(k: Keys): Req {
  const genus = pick(k.genera);
  const term = genus.slice(0, Math.min(genus.length, 4 + Math.floor(Math.random() * 4)));
  if (Math.random() < 0.5) return { method: 'GET', path: `/api/v1/search?q=${enc(term)}&limit=20` };
  return { method: 'POST', path: '/search/species', body: JSON.stringify({ query: term, limit: 20 }) };
}

/** A question in plain words about a real species, family or release, answered afresh (no cache). */
export function ai(k: Keys): Req {
  const questions = [
    () => `what is ${pick(k.species).name} called now?`,
    () => `what kind of genome does ${pick(k.current)} have`,
    () => `how many species were added in ${pick(k.releases).year}?`,
    () => `how many genera are in ${pick(k.families)} in ${pick(k.releases).version}?`,
    () => `what happened to ${pick(k.species).name}?`,
  ];
  return { method: 'POST', path: '/ai/query', body: JSON.stringify({ query: pick(questions)(), use_cache: false }) };
}

/** A misspelling: one letter changed, dropped, doubled or swapped with the next. */
function misspell(name: string, rnd: () => number): string {
  const i = 1 + Math.floor(rnd() * Math.max(1, name.length - 2));
  const letter = String.fromCharCode(97 + Math.floor(rnd() * 26));
  switch (Math.floor(rnd() * 4)) {
    case 0: return name.slice(0, i) + letter + name.slice(i + 1);
    case 1: return name.slice(0, i) + name.slice(i + 1);
    case 2: return name.slice(0, i) + name[i] + name.slice(i);
    default: return name.slice(0, i) + (name[i + 1] ?? '') + name[i] + name.slice(i + 2);
  }
}

/** A name no taxon ever had: a real name's letters shuffled. */
function unknownName(name: string, rnd: () => number): string {
  const letters = [...name.replace(/\s+/g, '')];
  for (let i = letters.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [letters[i], letters[j]] = [letters[j]!, letters[i]!];
  }
  return `${letters.join('').slice(0, 6)} ${letters.join('').slice(6)}`.trim();
}

/**
 * `n` names as a user's list might hold them: species names of any release, accessions and virus names of
 * the VMR, and a share `unknown` of misspelt and unknown names (half each), shuffled together.
 */
export function names(k: Keys, n: number, unknown: number, rnd = Math.random): string[] {
  return Array.from({ length: n }, () => {
    const r = rnd();
    if (r < unknown / 2) return misspell(pick(k.species, rnd).name, rnd);
    if (r < unknown) return unknownName(pick(k.species, rnd).name, rnd);
    if (r < unknown + 0.1) return pick(k.accessions, rnd);
    if (r < unknown + 0.2) return pick(k.virusNames, rnd);
    return pick(k.species, rnd).name;
  });
}

/** A batch to resolve to a random release (one in four as CSV: CSV in, CSV out). */
export function resolve(k: Keys, n: number, unknown: number): Req {
  const list = names(k, n, unknown);
  const to = Math.random() < 0.5 ? k.latest : pick(k.releases).version;
  if (Math.random() < 0.25) {
    const csv = `name\r\n${list.map((x) => `"${x.replaceAll('"', '""')}"`).join('\r\n')}\r\n`;
    return { method: 'POST', path: `/api/v1/resolve?to_version=${to}`, body: csv, contentType: 'text/csv' };
  }
  return { method: 'POST', path: '/api/v1/resolve', body: JSON.stringify({ names: list, to_version: to }) };
}

/** A whole release as JSON, CSV or Parquet. */
export function bulk(k: Keys, version = pick(k.releases).version, format = pick(['json', 'csv', 'parquet'])): Req {
  return { method: 'GET', path: `/api/v1/bulk/species/${version}?format=${format}` };
}

// The taxon page: a name of any rank, any release (/api/v1/history/{name}): the taxon's current name and
// lineage, its timeline across every release as a strip with a mark per change and the proposal behind each,
// how it ended, a family's evolution, and links to the JSON, the citation and ICTV's own page.
import { api, ApiError, fmt, h, placePlot, present, releases, setupSearch, status, taxonUrl, type Release } from './common.js';

interface Step {
  version: string;
  year: number;
  name: string;
  rank?: string;
  lineage: string;
  change: string;
  proposal?: string | null;
  species?: number;
  merged_in?: string[];
  split_off?: string[];
}

interface Lineage {
  name?: string;
  rank?: string;
  current_name: string | null;
  names: string[];
  first_appearance: string;
  last_appearance: string;
  ended: string;
  ended_in?: string | null;
  abolished_in?: string | null;
  merged_into?: string[];
  split_into?: string[];
  split_from?: string[];
  merged_from?: string[];
  destinations?: Array<{ rank: string; name: string; species: number }>;
  species_abolished?: number;
  timeline: Step[];
}

interface History {
  query: string;
  matched_name: string;
  match_type: string;
  rank: string;
  current_name: string | null;
  status: string;
  names: string[];
  lineages: Lineage[];
}

interface Evolution {
  evolution: Array<{ msl_version: string; year: number; species: number; genera: number }>;
}

const PROPOSAL_URL = 'https://ictv.global/ictv/proposals/';
const ICTV_TAXON_URL = 'https://ictv.global/taxonomy/taxondetails?taxnode_id=';
const CHANGE_TEXT: Record<string, string> = {
  present: 'listed in the first release', new: 'new', renamed: 'renamed', moved: 'moved',
  'renamed+moved': 'renamed and moved', split: 'split', merged: 'merged', abolished: 'abolished', ended: 'ended',
};

setupSearch(document.getElementById('search') as HTMLFormElement);
const name = decodeURIComponent(location.pathname.slice('/taxon/'.length));

function lineageLinks(lineage: string): HTMLElement {
  const parts = lineage.split(';');
  return h('ol', { class: 'lineage', 'aria-label': 'Lineage, from the highest rank' },
    ...parts.map((p, i) => h('li', {}, i === parts.length - 1 ? h('span', { 'aria-current': 'page' }, p) : h('a', { href: taxonUrl(p) }, p))));
}

/** What ended the lineage, in one sentence, or null while it is current. */
function ending(l: Lineage): string | null {
  const where = l.ended_in ?? l.abolished_in;
  if (l.ended === 'current') return null;
  if (l.merged_into?.length) return `Merged into ${l.merged_into.join(', ')}${where ? ` in ${where}` : ''}.`;
  if (l.split_into?.length) return `Split into ${l.split_into.join(', ')}${where ? ` in ${where}` : ''}.`;
  const dest = l.destinations?.length
    ? ` Its species went to ${l.destinations.map((d) => `${d.name} (${d.rank}, ${fmt(d.species)})`).join(', ')}${l.species_abolished ? `; ${fmt(l.species_abolished)} were abolished with it` : ''}.`
    : '';
  return `${l.ended === 'abolished' ? 'Abolished' : `Ended (${l.ended})`}${where ? ` in ${where}` : ` after ${l.last_appearance}`}.${dest}`;
}

function timelineStrip(box: HTMLElement, l: Lineage, all: Release[]): void {
  const byVersion = new Map(l.timeline.map((s) => [s.version, s]));
  const cells = all.map((r) => {
    const s = byVersion.get(r.version);
    const state = !s ? 'not listed' : s.change === 'unchanged' || s.change === 'present' ? 'listed' : 'changed';
    return { version: r.version, year: r.year, state, text: s ? `${r.version} (${r.year}): ${s.name}${state === 'changed' ? `, ${CHANGE_TEXT[s.change] ?? s.change}` : ''}` : `${r.version} (${r.year}): not listed` };
  });
  const end = l.ended !== 'current' ? (l.ended_in ?? l.abolished_in) : null;
  const marks = l.timeline.filter((s) => s.change !== 'unchanged' && s.change !== 'present');
  const every = Math.ceil(all.length / Math.max(4, Math.floor(box.clientWidth / 60)));
  const label = new Map(all.map((r, i) => [r.version, i % every === 0 || r.version === end ? String(r.year) : '']));
  placePlot(box, {
    ariaLabel: `Timeline of ${l.name ?? l.names[l.names.length - 1]} across ${all.length} releases`,
    ariaDescription: `Listed from ${l.first_appearance} to ${l.last_appearance}; ${marks.length} changes${end ? `; ended in ${end}` : ''}. The table below lists them.`,
    height: 90, marginLeft: 10, marginRight: 10, marginBottom: 30,
    x: { domain: all.map((r) => r.version), tickFormat: (v: string) => label.get(v) ?? '', tickSize: 0, label: null, padding: 0.1 },
    y: { axis: null },
    color: { domain: ['listed', 'changed', 'not listed', 'ended'], range: ['#7aa6c2', '#d9822b', 'transparent', '#b33'] },
    marks: [
      Plot.cell(cells, { x: 'version', y: () => 'row', fill: 'state', title: 'text', tip: true, inset: 0.5 }),
      Plot.dot(marks, { x: 'version', y: () => 'row', r: 3.5, fill: 'currentColor' }),
      end ? Plot.text([end], { x: (v: string) => v, y: () => 'row', text: () => '✕', fill: '#b33', fontSize: 14, fontWeight: 'bold' }) : null,
    ],
  });
}

function changesTable(l: Lineage): HTMLElement {
  const steps = l.timeline.filter((s) => s.change !== 'unchanged');
  const end = l.ended !== 'current' ? (l.ended_in ?? l.abolished_in) : null;
  const rows = steps.map((s) => h('tr', {},
    h('th', { scope: 'row' }, `${s.version} (${s.year})`),
    h('td', {}, CHANGE_TEXT[s.change] ?? s.change),
    h('td', {}, s.name),
    h('td', { class: 'lineage-cell' }, s.lineage.split(';').slice(0, -1).join(' › ') || '—'),
    h('td', {}, s.proposal && s.change !== 'present' ? h('a', { href: PROPOSAL_URL + encodeURIComponent(s.proposal) }, s.proposal) : '—')));
  if (end) rows.push(h('tr', { class: 'ended' }, h('th', { scope: 'row' }, end), h('td', {}, 'abolished / ended'), h('td', { colspan: 3 }, ending(l) ?? '')));
  return h('table', { class: 'changes' },
    h('caption', {}, `Changes of ${l.name ?? l.names[l.names.length - 1]}, release by release`),
    h('thead', {}, h('tr', {}, ...['Release', 'Change', 'Name', 'Placement', 'Proposal'].map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, ...rows));
}

async function familyEvolution(section: HTMLElement, family: string): Promise<void> {
  const evo = await api<Evolution>(`/historical/family/${encodeURIComponent(family)}/evolution`).catch(() => null);
  if (!evo || evo.evolution.length < 2) return;
  const box = h('div', { class: 'plot' });
  section.append(h('h3', {}, 'Species and genera of the family, release by release'), box);
  const data = evo.evolution.flatMap((e) => [{ version: e.msl_version, year: e.year, what: 'species', n: e.species }, { version: e.msl_version, year: e.year, what: 'genera', n: e.genera }]);
  placePlot(box, {
    ariaLabel: `${family}: species and genera per release`,
    ariaDescription: `From ${evo.evolution[0]!.msl_version} (${fmt(evo.evolution[0]!.species)} species) to ${evo.evolution[evo.evolution.length - 1]!.msl_version} (${fmt(evo.evolution[evo.evolution.length - 1]!.species)} species).`,
    height: 220, marginLeft: 48,
    x: { label: 'year' , tickFormat: 'd' }, y: { grid: true, label: 'count' },
    color: { legend: true },
    marks: [Plot.line(data, { x: 'year', y: 'n', stroke: 'what', marker: 'dot', tip: true, title: (d: typeof data[number]) => `${d.version} (${d.year}): ${fmt(d.n)} ${d.what}` })],
  });
}

async function citation(box: HTMLElement, speciesName: string, rank: string): Promise<void> {
  const body = rank === 'species' ? { species_name: speciesName } : { taxonomic_group: { rank, name: speciesName } };
  try {
    const c = await api<Record<string, unknown>>('/api/v1/citation', { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
    const text = typeof c.citation === 'string' ? c.citation : JSON.stringify(c, null, 2);
    box.replaceChildren(h('pre', { class: 'citation' }, text));
  } catch (err) {
    box.replaceChildren(h('p', {}, `No citation: ${(err as Error).message}`));
  }
}

async function main(): Promise<void> {
  document.title = `${name} - Viral Taxonomy`;
  const main = document.getElementById('taxon')!;
  let hist: History;
  try {
    hist = await api<History>(`/api/v1/history/${encodeURIComponent(name)}`);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 404) throw err;
    const suggestions = (err.body as { suggestions?: string[] } | null)?.suggestions ?? [];
    main.replaceChildren(...present(h('h1', {}, name), h('p', { class: 'error' }, err.message),
      suggestions.length ? h('p', {}, 'Did you mean: ', ...suggestions.flatMap((s, i) => [i ? ', ' : '', h('a', { href: taxonUrl(s) }, s)])) : null));
    status('');
    return;
  }
  const all = await releases();
  const title = hist.current_name ?? hist.matched_name;
  document.title = `${title} - Viral Taxonomy`;
  const head = h('header', { class: 'taxon-head' },
    h('p', { class: 'rank' }, hist.rank),
    h('h1', {}, title),
    hist.current_name && hist.current_name !== hist.matched_name ? h('p', {}, `Found as ${hist.matched_name} (${hist.match_type} match).`) : null,
    h('p', { class: `status status-${hist.status}` }, hist.current_name ? `Current name in ${all[all.length - 1]!.version}.` : `No longer a taxon: ${hist.status}.`),
    hist.names.length > 1 ? h('p', {}, 'Names it has had: ', hist.names.join(', '), '.') : null);
  const links = h('ul', { class: 'links' },
    h('li', {}, h('a', { href: `/api/v1/history/${encodeURIComponent(name)}` }, 'This history as JSON')));
  const cite = h('div', { class: 'cite' });
  main.replaceChildren(head);

  for (const [i, l] of hist.lineages.entries()) {
    const section = h('section', { 'aria-labelledby': `lineage-${i}` });
    const last = l.timeline[l.timeline.length - 1]!;
    const end = ending(l);
    const strip = h('div', { class: 'plot strip' });
    section.append(...present(
      h('h2', { id: `lineage-${i}` }, hist.lineages.length > 1 ? `${l.name ?? l.current_name ?? last.name}: ${l.first_appearance} to ${l.last_appearance}` : `Lineage and timeline, ${l.first_appearance} (${l.timeline[0]!.year}) to ${l.last_appearance} (${last.year})`),
      h('p', {}, `In ${last.version}:`), lineageLinks(last.lineage),
      end ? h('p', { class: 'ended-note' }, h('strong', {}, end)) : null,
      l.split_from?.length ? h('p', {}, `Split off ${l.split_from.join(', ')}.`) : null,
      l.merged_from?.length ? h('p', {}, `Formed by merging ${l.merged_from.join(', ')}.`) : null,
      h('h3', {}, 'Across every release'), strip,
      h('p', { class: 'legend' }, h('span', { class: 'key listed' }), ' listed ', h('span', { class: 'key changed' }), ' changed ', h('span', { class: 'key ended' }), ' ended; blank: not listed'),
      changesTable(l)));
    main.append(section);
    timelineStrip(strip, l, all);
    if ((l.rank ?? hist.rank) === 'family') await familyEvolution(section, l.current_name ?? l.name ?? title);
  }

  if (hist.rank === 'species' && hist.current_name) {
    const doc = await api<{ taxnode_id: number | null }>(`/api/v1/species/latest/${encodeURIComponent(hist.current_name)}`).catch(() => null);
    if (doc?.taxnode_id) links.append(h('li', {}, h('a', { href: ICTV_TAXON_URL + doc.taxnode_id }, "ICTV's page of this taxon")));
  }
  links.append(h('li', {}, h('a', { href: '/docs' }, 'The API')));
  main.append(h('section', { 'aria-labelledby': 'more' }, h('h2', { id: 'more' }, 'Data and citation'), links, cite));
  if (hist.current_name) await citation(cite, hist.current_name, hist.rank);
  status('');
}

main().catch((err: Error) => status(`This page could not be loaded: ${err.message}`, true));

// The home page: the search box, the whole record in plots (/api/v1/stats/releases, /historical/timeline)
// and the form that compares two releases.
import { api, fmt, h, placePlot, releases, setupSearch, status, type Release } from './common.js';

interface Figures {
  releases: Array<{
    version: string;
    year: number;
    species: number;
    species_per_realm: Array<{ realm: string | null; species: number }>;
    changes: Record<string, number> | null;
    families_per_order: Array<{ order: string | null; families: number }>;
  }>;
}

interface Timeline {
  milestones: Array<{ msl_version: string; year: number; kind: string; description: string }>;
}

const NO_REALM = 'no realm (before realms, or unassigned)';
const NO_ORDER = 'in no order';
const OTHER_ORDERS = 'other orders';
/** The orders drawn one by one (the largest in the latest release); the rest are drawn together. */
const ORDERS_SHOWN = 9;
const CHANGE_LABELS: Record<string, string> = {
  added: 'added', removed: 'abolished', renamed: 'renamed', reclassified: 'moved',
  merged: 'merged', split: 'split', ended_by_split: 'ended by split', formed_by_merge: 'formed by merge',
};

/** Tableau 10 and two more: as many distinct colours as there are realms; grey for the left-over groups. */
const PALETTE = ['#4e79a7', '#f28e2c', '#e15759', '#76b7b2', '#59a14f', '#edc949', '#af7aa1', '#ff9da7', '#9c755f', '#2f6f6f', '#8c564b', '#17becf'];
const GREYS = ['#9aa0a6', '#c5c9cd'];

setupSearch(document.getElementById('search') as HTMLFormElement);

/** Release axis labels: a year every few releases, so that they do not overlap on a phone. */
function releaseAxis(rows: Figures['releases'], width: number) {
  const every = Math.ceil(rows.length / Math.max(4, Math.floor(width / 60)));
  const label = new Map(rows.map((r, i) => [r.version, i % every === 0 ? String(r.year) : '']));
  return { domain: rows.map((r) => r.version), tickFormat: (v: string) => label.get(v) ?? '', label: 'release (year)', tickSize: 0 };
}

function drawPlots(fig: Figures): void {
  const rows = fig.releases;
  const last = rows[rows.length - 1]!;
  const realmsBox = document.getElementById('plot-realms')!;
  const xr = releaseAxis(rows, realmsBox.clientWidth);
  // every realm there has been, by the most species it ever held (Monodnaviria ended in a later release)
  const most = new Map<string, number>();
  for (const r of rows) for (const s of r.species_per_realm) if (s.realm !== null) most.set(s.realm, Math.max(most.get(s.realm) ?? 0, s.species));
  const realms = [...most.keys()].sort((a, b) => most.get(b)! - most.get(a)!);
  const realmRows = rows.flatMap((r) => r.species_per_realm.map((s) => ({ version: r.version, year: r.year, realm: s.realm ?? NO_REALM, species: s.species })));
  placePlot(realmsBox, {
    ariaLabel: 'Species per release by realm',
    ariaDescription: `Stacked bars, one per release from ${rows[0]!.year} to ${last.year}: ${fmt(rows[0]!.species)} species in ${rows[0]!.version}, ${fmt(last.species)} in ${last.version}.`,
    x: xr, y: { grid: true, label: 'species', tickFormat: 's' },
    color: { legend: true, domain: [...realms, NO_REALM], range: [...PALETTE.slice(0, realms.length), GREYS[0]!] },
    marginLeft: 48,
    marks: [
      Plot.barY(realmRows, { x: 'version', y: 'species', fill: 'realm', tip: true, title: (d: typeof realmRows[number]) => `${d.version} (${d.year})\n${d.realm}: ${fmt(d.species)} species` }),
      Plot.ruleY([0]),
    ],
  });
  document.getElementById('realms-table')!.replaceChildren(...rows.map((r) => h('tr', {}, h('th', { scope: 'row' }, r.version), h('td', {}, r.year), h('td', {}, fmt(r.species)))));

  const changeRows = rows.flatMap((r) => Object.entries(r.changes ?? {}).filter(([, n]) => n > 0)
    .map(([type, n]) => ({ version: r.version, year: r.year, type: CHANGE_LABELS[type] ?? type, species: n })));
  placePlot(document.getElementById('plot-changes')!, {
    ariaLabel: 'Species changes per release by type',
    ariaDescription: 'Stacked bars, one per release: how many species were added, abolished, renamed, moved, merged or split against the release before.',
    x: xr, y: { grid: true, label: 'species changed', tickFormat: 's' },
    color: { legend: true, domain: Object.values(CHANGE_LABELS), range: PALETTE },
    marginLeft: 48,
    marks: [
      Plot.barY(changeRows, { x: 'version', y: 'species', fill: 'type', tip: true, title: (d: typeof changeRows[number]) => `${d.version} (${d.year})\n${d.type}: ${fmt(d.species)}` }),
      Plot.ruleY([0]),
    ],
  });

  const shown = new Set(last.families_per_order.filter((o) => o.order !== null).slice(0, ORDERS_SHOWN).map((o) => o.order));
  const orderRows = rows.flatMap((r) => {
    const sums = new Map<string, number>();
    for (const o of r.families_per_order) {
      const key = o.order === null ? NO_ORDER : shown.has(o.order) ? o.order : OTHER_ORDERS;
      sums.set(key, (sums.get(key) ?? 0) + o.families);
    }
    return [...sums].map(([order, families]) => ({ version: r.version, year: r.year, order, families }));
  });
  placePlot(document.getElementById('plot-orders')!, {
    ariaLabel: 'Families per order over time',
    ariaDescription: `Stacked bars, one per release: the families under each of the ${ORDERS_SHOWN} largest orders of ${last.version}, the other orders together, and the families in no order.`,
    x: xr, y: { grid: true, label: 'families' },
    color: { legend: true, domain: [...shown, OTHER_ORDERS, NO_ORDER] as string[], range: [...PALETTE.slice(0, shown.size), ...GREYS] },
    marginLeft: 48,
    marks: [
      Plot.barY(orderRows, { x: 'version', y: 'families', fill: 'order', tip: true, title: (d: typeof orderRows[number]) => `${d.version} (${d.year})\n${d.order}: ${d.families} families` }),
      Plot.ruleY([0]),
    ],
  });
}

function fillCompareForm(list: Release[]): void {
  const from = document.getElementById('compare-from') as HTMLSelectElement;
  const to = document.getElementById('compare-to') as HTMLSelectElement;
  const options = () => list.map((r) => h('option', { value: r.version }, `${r.version} (${r.label})`));
  from.replaceChildren(...options());
  to.replaceChildren(...options());
  from.value = list[list.length - 2]?.version ?? list[0]!.version;
  to.value = list[list.length - 1]!.version;
  document.getElementById('compare')!.addEventListener('submit', (e) => {
    e.preventDefault();
    location.assign(`/compare/${from.value}/${to.value}`);
  });
}

async function main(): Promise<void> {
  const [fig, timeline, list] = await Promise.all([
    api<Figures>('/api/v1/stats/releases'), api<Timeline>('/historical/timeline'), releases(),
  ]);
  const first = fig.releases[0]!;
  const last = fig.releases[fig.releases.length - 1]!;
  document.getElementById('lead')!.textContent =
    `${fig.releases.length} releases of ICTV's Master Species List, from ${fmt(first.species)} species in ${first.year} (${first.version}) to ${fmt(last.species)} in ${last.year} (${last.version}).`;
  drawPlots(fig);
  document.getElementById('milestones')!.replaceChildren(...timeline.milestones.map((m) =>
    h('li', {}, h('strong', {}, `${m.msl_version} (${m.year})`), ` ${m.description}`)));
  fillCompareForm(list);
  document.getElementById('bulk-latest')!.textContent = last.version;
  status('');
}

main().catch((err: Error) => status(`The figures could not be loaded: ${err.message}`, true));

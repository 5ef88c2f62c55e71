// The compare page: two releases (/compare/{from}/{to}), the summary (/api/v1/compare) and the changed species
// a page at a time (/details), filtered by kind, downloadable as CSV (built here from the same pages).
import type { SpeciesChange as Row } from '../read/compare.js';
import { api, fmt, h, setupSearch, status, taxonUrl } from './common.js';

interface Summary {
  from_version: string;
  to_version: string;
  from_total: number;
  to_total: number;
  [count: string]: number | string;
}

interface Details {
  total: number;
  limit: number;
  offset: number;
  changes: Row[];
}

const PAGE = 50;
/** The most rows one request of /details returns (its limit's maximum). */
const MOST = 1000;
const COUNTS: Array<[string, string]> = [
  ['species_added', 'added'], ['species_removed', 'abolished'], ['species_renamed', 'renamed'],
  ['species_reclassified', 'moved (reclassified)'], ['species_merged', 'merged'], ['species_split', 'split'],
  ['species_ended_by_split', 'ended by split'], ['species_formed_by_merge', 'formed by merge'], ['species_unchanged', 'unchanged'],
];
const TYPES = ['added', 'removed', 'renamed', 'reclassified', 'merged', 'split'];
const CSV_COLUMNS: Array<Exclude<keyof Row, 'lineage_id'>> = ['change_type', 'old_name', 'new_name', 'old_family', 'new_family', 'old_genus', 'new_genus', 'old_lineage', 'new_lineage', 'proposal'];

setupSearch(document.getElementById('search') as HTMLFormElement);
const [from, to] = location.pathname.split('/').slice(2, 4).map(decodeURIComponent) as [string, string];
let offset = 0;
let type = '';

const detailsUrl = (limit: number, at: number) =>
  `/api/v1/compare/${encodeURIComponent(from)}/${encodeURIComponent(to)}/details?limit=${limit}&offset=${at}${type ? `&change_type=${type}` : ''}`;

const nameCell = (name: string | null) => h('td', {}, name ? h('a', { href: taxonUrl(name) }, name) : '—');

async function showPage(): Promise<void> {
  const tbody = document.getElementById('rows')!;
  tbody.setAttribute('aria-busy', 'true');
  const d = await api<Details>(detailsUrl(PAGE, offset));
  tbody.replaceChildren(...d.changes.map((r) => h('tr', {},
    h('td', {}, r.change_type ?? ''), nameCell(r.old_name), nameCell(r.new_name),
    h('td', {}, r.old_family ?? '—'), h('td', {}, r.new_family ?? '—'), h('td', {}, r.proposal ?? '—'))));
  tbody.removeAttribute('aria-busy');
  const pages = Math.max(1, Math.ceil(d.total / PAGE));
  const page = Math.floor(offset / PAGE) + 1;
  document.getElementById('page-info')!.textContent = `Page ${page} of ${pages} (rows ${d.total ? fmt(offset + 1) : 0}-${fmt(Math.min(offset + PAGE, d.total))} of ${fmt(d.total)})`;
  (document.getElementById('prev') as HTMLButtonElement).disabled = offset === 0;
  (document.getElementById('next') as HTMLButtonElement).disabled = offset + PAGE >= d.total;
}

function csvField(v: string | null): string {
  const s = v ?? '';
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

async function downloadCsv(button: HTMLButtonElement): Promise<void> {
  button.disabled = true;
  status('Preparing the CSV…');
  const lines = [CSV_COLUMNS.join(',')];
  for (let at = 0; ; at += MOST) {
    const d = await api<Details>(detailsUrl(MOST, at));
    for (const r of d.changes) lines.push(CSV_COLUMNS.map((c) => csvField(r[c])).join(','));
    if (at + MOST >= d.total) break;
  }
  const link = h('a', { href: URL.createObjectURL(new Blob([lines.join('\r\n') + '\r\n'], { type: 'text/csv' })), download: `changes-${from}-${to}${type ? `-${type}` : ''}.csv` });
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.getAttribute('href')!), 10_000);
  status(`CSV of ${fmt(lines.length - 1)} rows downloaded.`);
  button.disabled = false;
}

async function main(): Promise<void> {
  document.title = `${from} to ${to} - Viral Taxonomy`;
  const s = await api<Summary>(`/api/v1/compare/${encodeURIComponent(from)}/${encodeURIComponent(to)}`);
  document.getElementById('title')!.textContent = `${s.from_version} to ${s.to_version}`;
  document.getElementById('totals')!.textContent = `${fmt(s.from_total)} species in ${s.from_version}, ${fmt(s.to_total)} in ${s.to_version}.`;
  document.getElementById('summary')!.replaceChildren(...COUNTS.filter(([k]) => typeof s[k] === 'number').map(([k, label]) =>
    h('div', { class: 'count' }, h('dt', {}, label), h('dd', {}, fmt(s[k] as number)))));
  const filter = document.getElementById('type') as HTMLSelectElement;
  filter.replaceChildren(h('option', { value: '' }, 'every change'), ...TYPES.map((t) => h('option', { value: t }, t)));
  filter.addEventListener('change', () => { type = filter.value; offset = 0; void showPage().catch(fail); });
  document.getElementById('prev')!.addEventListener('click', () => { offset = Math.max(0, offset - PAGE); void showPage().catch(fail); });
  document.getElementById('next')!.addEventListener('click', () => { offset += PAGE; void showPage().catch(fail); });
  const csv = document.getElementById('csv') as HTMLButtonElement;
  csv.addEventListener('click', () => { void downloadCsv(csv).catch(fail); });
  document.getElementById('json')!.setAttribute('href', `/api/v1/compare/${encodeURIComponent(from)}/${encodeURIComponent(to)}`);
  await showPage();
  status('');
}

const fail = (err: Error) => status(`Could not load the comparison: ${err.message}`, true);
main().catch(fail);

// What every page shares: reading the API, building elements, the search box with its suggestions, plots
// drawn without inline styles, and the names of releases.

/** An API answer other than 2xx, with the detail the API gave. */
export class ApiError extends Error {
  constructor(readonly status: number, message: string, readonly body: unknown) {
    super(message);
  }
}

export async function api<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(path, { ...init, headers: { Accept: 'application/json', ...(init?.headers ?? {}) } });
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const detail = (body as { detail?: string } | null)?.detail ?? res.statusText;
    throw new ApiError(res.status, detail, body);
  }
  return body as T;
}

type Child = Node | string | number | null | undefined | false;

/** An element with attributes (a false or null value leaves one out) and children. */
export function h(tag: string, attrs: Record<string, string | number | boolean | null | undefined> = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'number' ? String(c) : c);
  }
  return el;
}

/** The nodes given, less the left-out ones (null), for append and replaceChildren. */
export const present = (...nodes: Array<Node | string | null>): Array<Node | string> => nodes.filter((n): n is Node | string => n !== null);

export const fmt = (n: number): string => n.toLocaleString('en');

export function taxonUrl(name: string): string {
  return `/taxon/${encodeURIComponent(name)}`;
}

/** The page's status line (a polite live region): what is loading, what failed. */
export function status(text: string, isError = false): void {
  const el = document.getElementById('status');
  if (!el) return;
  el.textContent = text;
  el.classList.toggle('error', isError);
}

/**
 * A plot placed into its container. Plot adds a <style> element to what it draws; the page's policy allows
 * no inline styles, so it is taken out before the plot meets the document, and site.css holds its rules.
 */
export function placePlot(container: HTMLElement, options: Parameters<typeof Plot.plot>[0]): void {
  const node = Plot.plot({ width: Math.max(320, container.clientWidth), ...options });
  for (const style of node.querySelectorAll('style')) style.remove();
  container.replaceChildren(node);
}

interface Suggestion {
  name: string;
  kind: 'species' | 'virus_name' | 'abbreviation' | 'taxon';
  rank: string;
  current_name: string | null;
  typos: number;
}

const KIND_LABEL: Record<Suggestion['kind'], string> = {
  species: 'species', taxon: '', virus_name: 'virus name', abbreviation: 'abbreviation',
};

/**
 * The search box: a combobox (WAI-ARIA pattern, list autocomplete) over /api/v1/suggest. Arrow keys move
 * through the suggestions, Enter opens the one chosen (or the first, or the text as typed), Escape closes.
 */
export function setupSearch(form: HTMLFormElement): void {
  const input = form.querySelector<HTMLInputElement>('input[role="combobox"]')!;
  const list = document.getElementById(input.getAttribute('aria-controls')!)!;
  const count = form.querySelector<HTMLElement>('.search-count')!;
  let items: Suggestion[] = [];
  let active = -1;
  let asked = 0;

  const open = (on: boolean) => {
    input.setAttribute('aria-expanded', String(on));
    list.hidden = !on;
  };
  const highlight = (i: number) => {
    active = i;
    list.querySelectorAll('[role="option"]').forEach((li, j) => li.setAttribute('aria-selected', String(j === i)));
    if (i >= 0) input.setAttribute('aria-activedescendant', `suggestion-${i}`);
    else input.removeAttribute('aria-activedescendant');
  };
  const go = (s: Suggestion | undefined) => {
    const name = s ? (s.current_name ?? s.name) : input.value.trim();
    if (name) location.assign(taxonUrl(name));
  };
  const render = () => {
    list.replaceChildren(...items.map((s, i) => {
      const note = [KIND_LABEL[s.kind] || s.rank, s.current_name === null ? 'no longer used' : s.current_name !== s.name ? `now ${s.current_name}` : '']
        .filter(Boolean).join(', ');
      const li = h('li', { role: 'option', id: `suggestion-${i}`, 'aria-selected': 'false' },
        h('span', { class: 'name' }, s.name), note ? h('span', { class: 'note' }, ` (${note})`) : null);
      li.addEventListener('mousedown', (e) => { e.preventDefault(); go(s); });
      return li;
    }));
    count.textContent = items.length ? `${items.length} suggestions, use the arrow keys` : input.value.trim().length >= 2 ? 'no suggestions' : '';
    open(items.length > 0);
    highlight(-1);
  };

  input.addEventListener('input', async () => {
    const q = input.value.trim();
    const mine = ++asked;
    if (q.length < 2) { items = []; render(); return; }
    try {
      const answer = await api<{ suggestions: Suggestion[] }>(`/api/v1/suggest?q=${encodeURIComponent(q)}&limit=8`);
      if (mine !== asked) return;
      items = answer.suggestions;
      render();
    } catch (err) {
      if (mine === asked) status(`Suggestions failed: ${(err as Error).message}`, true);
    }
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown' && items.length) { e.preventDefault(); open(true); highlight((active + 1) % items.length); }
    else if (e.key === 'ArrowUp' && items.length) { e.preventDefault(); highlight(active <= 0 ? items.length - 1 : active - 1); }
    else if (e.key === 'Escape') { open(false); highlight(-1); }
  });
  input.addEventListener('blur', () => open(false));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    go(active >= 0 ? items[active] : items[0]);
  });
}

/** The releases, oldest first (/api/v1/versions). */
export interface Release {
  version: string;
  year: number;
  label: string;
  total_species: number;
}

export function releases(): Promise<Release[]> {
  return api<Release[]>('/api/v1/versions');
}

// The releases of the data set, and release identifiers in requests: "MSL40", "msl40" ("40" is not
// accepted); "latest" means the newest release. Which releases exist is the data set's business (the
// manifest it was built from), never this code's.
import { HttpError } from './errors.js';
import type { Store } from '../store/store.js';

/** What an answer is about, for its caching: one release named, or whichever is the latest (which a new
 *  build changes). */
export type Scope = 'release' | 'latest';

export interface ReleaseRow {
  version: string;
  msl: number;
  year: number;
  label: string;
  total_species: number;
  total_genera: number;
  total_families: number;
  total_orders: number;
  total_realms: number;
}

export const RELEASES_LIST = `SELECT version, msl::INTEGER AS msl, year, label, total_species, total_genera, total_families,
  total_orders, total_realms FROM main.releases ORDER BY msl`;

export interface ResolvedVersion extends ReleaseRow {
  /** 'latest' when the request named no release or the word latest: the answer changes with new releases. */
  scope: Scope;
}

export function releases(store: Store): ReleaseRow[] {
  return store.list<ReleaseRow>('releases');
}

// Made once per row and scope (rows are held for the build's life): a request asks for its release several times.
const resolvedRows: Record<Scope, WeakMap<ReleaseRow, ResolvedVersion>> = { release: new WeakMap(), latest: new WeakMap() };

/** A release row with the scope an answer about it has; one object per row and scope, which callers only read. */
export function asResolved(r: ReleaseRow, scope: Scope = 'release'): ResolvedVersion {
  const held = resolvedRows[scope];
  let v = held.get(r);
  if (!v) held.set(r, (v = { ...r, scope }));
  return v;
}

export function latest(store: Store): ResolvedVersion {
  const all = releases(store);
  return asResolved(all[all.length - 1]!, 'latest');
}

/** The releases the data set holds, for messages: "MSL1..MSL41". */
export function releaseSpan(store: Store): string {
  const all = releases(store);
  return `${all[0]!.version}..${all[all.length - 1]!.version}`;
}

/** Resolves a version parameter; unknown versions are a 404 "Version MSL99 not found" (spec, section 7). */
export function resolveVersion(store: Store, raw: string | undefined): ResolvedVersion {
  if (raw === undefined || raw.toLowerCase() === 'latest') return latest(store);
  const m = /^msl(\d{1,4})$/i.exec(raw);
  if (!m) throw new HttpError(400, `invalid version '${raw}'; expected MSL<number> (${releaseSpan(store)}) or latest`);
  const found = releases(store).find((r) => r.msl === Number(m[1]));
  if (!found) throw new HttpError(404, `Version MSL${Number(m[1])} not found`);
  return asResolved(found);
}

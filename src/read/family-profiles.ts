// The families of the latest release as family_profile holds them: each with its species, their genome
// compositions, VMR host sources and exemplar genome lengths. Read whole, once per opened build: the classifier
// of /ai/classify fits its model on them, and /ai/query asks which families have a host or a genome type.
import type { Store } from '../store/store.js';

export interface Member {
  species: string;
  composition: string | null;
  hosts: string[];
  size_bp: number | null;
}

export interface FamilyProfile {
  family: string;
  realm: string | null;
  order: string | null;
  species: number;
  compositions: Array<{ composition: string; balt_group: string | null; species: number }>;
  hosts: Array<{ host: string; species: number }>;
  size_n: number;
  size_min_bp: number | null;
  size_p25_bp: number | null;
  size_median_bp: number | null;
  size_p75_bp: number | null;
  size_max_bp: number | null;
  members: Member[];
}

const PROFILE_SQL = 'SELECT to_json(t)::VARCHAR AS doc FROM main.family_profile t ORDER BY family';

const profiles = new WeakMap<Store, Promise<FamilyProfile[]>>();

/** Every family's profile, by family name, read once per store (~14k species). */
export function familyProfiles(store: Store): Promise<FamilyProfile[]> {
  let p = profiles.get(store);
  if (!p) {
    p = store.query<{ doc: string }>(PROFILE_SQL).then((rows) => rows.map((r) => JSON.parse(r.doc) as FamilyProfile));
    // a failed read must not stay cached: the next request tries again
    p.catch(() => profiles.delete(store));
    profiles.set(store, p);
  }
  return p;
}

/**
 * Members of a family alike in what a question about hosts and genomes tests (composition and hosts), and how
 * many species each, their hosts and composition as numbers (the values' places in the lists; -1: no composition).
 */
export interface Kind { hosts: number[]; composition: number; species: number }

/**
 * A family of the latest release with its members as kinds (a few per family where members are thousands),
 * and its place among the families by name.
 */
export interface FamilyKinds { family: string; species: number; kinds: Kind[]; order: number }

/** The families as kinds, and the number of each host and composition value. */
export interface Kinds { families: FamilyKinds[]; hostIds: Map<string, number>; compositionIds: Map<string, number> }

const kinds = new WeakMap<Store, Promise<Kinds>>();

/** The number of a value, given in the order values are first seen. */
function idOf(ids: Map<string, number>, value: string): number {
  let id = ids.get(value);
  if (id === undefined) ids.set(value, (id = ids.size));
  return id;
}

/**
 * The families as kinds, made once per store: a question tests every kind of every family, each then by
 * numbers instead of strings.
 */
export function familyKinds(store: Store): Promise<Kinds> {
  let held = kinds.get(store);
  if (!held) {
    held = familyProfiles(store).then((all) => {
      const hostIds = new Map<string, number>();
      const compositionIds = new Map<string, number>();
      const families = all.map((f) => {
        const byKey = new Map<string, Kind>();
        for (const m of f.members) {
          const key = `${m.composition}\u0000${m.hosts.join('\u0000')}`;
          const k = byKey.get(key);
          if (k) k.species++;
          else byKey.set(key, { hosts: m.hosts.map((h) => idOf(hostIds, h)), composition: m.composition === null ? -1 : idOf(compositionIds, m.composition), species: 1 });
        }
        return { family: f.family, species: f.species, kinds: [...byKey.values()], order: 0 };
      });
      // sorted by name once (as localeCompare orders them), so that a question's ties are ordered by a number
      [...families].sort((a, b) => a.family.localeCompare(b.family)).forEach((f, i) => { f.order = i; });
      return { families, hostIds, compositionIds };
    });
    held.catch(() => kinds.delete(store));
    kinds.set(store, held);
  }
  return held;
}

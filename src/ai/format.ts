// Writing numbers and lists into answer sentences, the same way everywhere (the tests look for "16,213").

// one formatter: toLocaleString with a locale sets up ICU's formatting again on every call
const EN_US = new Intl.NumberFormat('en-US');

/** 16213 -> "16,213". */
export function num(n: number): string {
  // the counts answers name are integers: grouped by hand, as the formatter would, at a fraction of its cost
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return EN_US.format(n);
  const digits = String(Math.abs(n));
  let out = digits.slice(0, digits.length % 3 || 3);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${out}` : out;
}

/** 0.90976 -> "0.91". */
export function dec(n: number, digits = 2): string {
  return n.toFixed(digits);
}

/** 1523 -> "+1,523", -12 -> "-12". */
export function signed(n: number): string {
  return `${n >= 0 ? '+' : '-'}${num(Math.abs(n))}`;
}

/** ["a", "b", "c"] -> "a, b and c". */
export function and(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** ["a", "b", "c"] -> "a, b or c". */
export function or(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** (1, "species", "species") -> "1 species"; (2, "genus", "genera") -> "2 genera". */
export function count(n: number, one: string, many: string): string {
  return `${num(n)} ${n === 1 ? one : many}`;
}

/** "MSL36 (2020)". */
export function release(r: { version: string; label: string }): string {
  return `${r.version} (${r.label})`;
}

/** Plural of a rank name as used in counts. */
export const RANK_PLURAL: Record<string, string> = {
  realm: 'realms', subrealm: 'subrealms', kingdom: 'kingdoms', subkingdom: 'subkingdoms', phylum: 'phyla',
  subphylum: 'subphyla', class: 'classes', subclass: 'subclasses', order: 'orders', suborder: 'suborders',
  family: 'families', subfamily: 'subfamilies', genus: 'genera', subgenus: 'subgenera', species: 'species',
};

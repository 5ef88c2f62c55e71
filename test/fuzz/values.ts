// fast-check arbitraries derived from the contract's schemas: values a schema accepts and values it refuses.
// Valid strings mix real names (pools, read from the running service) with generated and hostile text, so
// requests reach the data as well as the edges; invalid values break exactly one rule of their schema.
import fc from 'fast-check';
import type { Schema } from './contract.js';

/** Real values from the data set, so that valid requests find something. */
export interface Pools {
  /** No real values: every value generated from its schema alone, as a fuzzer that has only the contract. */
  schemaOnly?: boolean;
  versions: string[];
  species: string[];
  families: string[];
  taxa: string[];
}

type Deref = (s: Schema) => Schema;

/** Text a schema without pattern accepts that tends to break code: unicode, injection-looking, path tricks. */
export const HOSTILE = [
  "'; DROP TABLE species; --", "' OR '1'='1", '" OR 1=1 --', '{{7*7}}', '${7*7}', '<script>alert(1)</script>', '../../etc/passwd',
  '..\\..\\windows', 'a\u0000b', '\u202etxt.exe', 'Zika\u200bvirus', 'Ｔｏｂａｍｏｖｉｒｕｓ', 'tobamovírus', 'İstanbul virus', 'ß', '🦠 virus',
  '\ud83e', 'x'.repeat(200), ' ', '\t=1+2', '=HYPERLINK("http://x")', '+1', '-1', '@SUM(A1)', '%', '%25', '%2F', '*', '?', '#',
  '\\', '"', "'", ',', '\r\n', 'null', 'undefined', 'NaN', 'Infinity', '0x10', '1e400', '__proto__', 'constructor', 'MSL41', 'latest',
];

/** Query-string integers the contract does not write as integers. */
export const NOT_INTEGERS = ['Infinity', '-Infinity', '1e400', '9'.repeat(10_000), '0x10', ' 1', '1 ', '2.0', '1e3', '+1', '', 'NaN', '1,000', '01', '١٢', '1_0', 'true', '[]'];

/** The index of the parenthesis closing the group opened at `open` in a pattern's source. */
function closing(source: string, open: number): number {
  let depth = 0;
  let inClass = false;
  for (let i = open; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') i++;
    else if (inClass) inClass = ch !== ']';
    else if (ch === '[') inClass = true;
    else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return i;
  }
  throw new Error(`unbalanced pattern: ${source}`);
}

/**
 * A pattern fast-check can generate from, matching the same strings: an atomic group written as a lookahead
 * and its backreference, (?=(X))\1, becomes (?:X), and a lookahead left after that is dropped (the
 * contract writes one only where what follows says the same).
 */
export function generable(source: string): string {
  for (let at = source.indexOf('(?=('); at >= 0; at = source.indexOf('(?=(')) {
    const end = closing(source, at);
    if (source.slice(end + 1, end + 3) !== '\\1') throw new Error(`a lookahead the fuzzer cannot generate from: ${source.slice(at, end + 1)}`);
    source = `${source.slice(0, at)}(?:${source.slice(at + 4, end - 1)})${source.slice(end + 3)}`;
  }
  for (let at = source.indexOf('(?='); at >= 0; at = source.indexOf('(?=')) source = source.slice(0, at) + source.slice(closing(source, at) + 1);
  return source;
}

const types = (s: Schema): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

/** The pool a field's name suggests, if any. */
function poolFor(hint: string, pools: Pools): string[] | null {
  if (/version/.test(hint)) return pools.versions;
  if (/family/.test(hint)) return pools.families;
  if (/^(name|taxon)$|group/.test(hint)) return pools.taxa;
  if (/name|species|^q$|query|organism/.test(hint)) return pools.species;
  return null;
}

function stringValue(s: Schema, pools: Pools, hint: string): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? 300;
  const fits = (x: string) => x.length >= min && x.length <= max && (!s.pattern || new RegExp(s.pattern, 'u').test(x));
  if (pools.schemaOnly) {
    // as a fuzzer that knows nothing but the schema generates them: any code point, control characters included
    return s.pattern ? fc.stringMatching(new RegExp(generable(s.pattern), 'u')).filter(fits)
      : fc.oneof(fc.string({ unit: 'binary', minLength: min, maxLength: Math.min(max, 40) }), fc.string({ unit: fc.constantFrom(' ', '\t', '\n', '\u0000', '\u00a0', '\u200b', 'a'), minLength: min, maxLength: Math.min(max, 8) })).filter(fits);
  }
  if (s.pattern) {
    const pool = poolFor(hint, pools)?.filter(fits) ?? [];
    const generated = fc.stringMatching(new RegExp(generable(s.pattern), 'u')).filter(fits);
    return pool.length > 0 ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...pool) }, { weight: 1, arbitrary: generated }) : generated;
  }
  const pool = poolFor(hint, pools)?.filter(fits) ?? [];
  const hostile = HOSTILE.filter(fits);
  const bounds = [min, max].map((n) => 'a'.repeat(n)).filter(fits);
  const options: Array<fc.WeightedArbitrary<string>> = [{ weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: min, maxLength: Math.min(max, 40) }) }];
  if (hostile.length > 0) options.push({ weight: 1, arbitrary: fc.constantFrom(...hostile) });
  if (bounds.length > 0) options.push({ weight: 1, arbitrary: fc.constantFrom(...bounds) });
  if (pool.length > 0) options.push({ weight: 6, arbitrary: fc.constantFrom(...pool) });
  return fc.oneof(...options);
}

/** Values `s` accepts. `hint` is the field or parameter name (it picks a pool of real values). */
export function validValue(s0: Schema, pools: Pools, hint: string, deref: Deref, depth = 0): fc.Arbitrary<unknown> {
  const s = deref(s0);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.oneOf && !s.type) return fc.oneof(...s.oneOf.map((x) => validValue(x, pools, hint, deref, depth)));
  if (s.anyOf && !s.type) return fc.oneof(...s.anyOf.map((x) => validValue(x, pools, hint, deref, depth)));
  const ts = types(s);
  if (ts.length > 1) return fc.oneof(...ts.map((t) => validValue({ ...s, type: t }, pools, hint, deref, depth)));
  switch (ts[0]) {
    case 'string': return stringValue(s, pools, hint);
    case 'integer': {
      const min = s.minimum ?? -1_000_000;
      const max = s.maximum ?? 1_000_000;
      return fc.oneof(fc.constantFrom(min, max), fc.integer({ min, max }));
    }
    case 'number': return fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
    case 'boolean': return fc.boolean();
    case 'null': return fc.constant(null);
    case 'array': return fc.array(validValue(s.items ?? {}, pools, hint, deref, depth + 1), { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 8, 8) });
    case 'object': return objectValue(s, pools, deref, depth);
    default: return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectValue(s: Schema, pools: Pools, deref: Deref, depth: number): fc.Arbitrary<unknown> {
  const props = s.properties ?? {};
  // "exactly one of these fields" (oneOf of required lists): choose the branch, leave the others' fields out
  const branches = (s.oneOf ?? []).map((b) => deref(b).required ?? []);
  const choose = branches.length > 0 ? fc.constantFrom(...branches.map((_, i) => i)) : fc.constant(-1);
  return choose.chain((i) => {
    const required = new Set([...(s.required ?? []), ...(i >= 0 ? branches[i]! : [])]);
    const excluded = new Set(i >= 0 ? branches.flat().filter((k) => !required.has(k)) : []);
    const keys = Object.keys(props).filter((k) => !excluded.has(k));
    const record: Record<string, fc.Arbitrary<unknown>> = {};
    for (const k of keys) record[k] = validValue(props[k]!, pools, k, deref, depth + 1);
    const minProps = s.minProperties ?? 0;
    return fc.record(record, { requiredKeys: [...required].filter((k) => k in record) })
      .filter((o) => Object.keys(o as object).length >= minProps)
      .filter((o) => satisfiesAnyOf(s, o as Record<string, unknown>, deref));
  });
}

/** anyOf of required lists on an object (e.g. "a name, or metadata with at least one field"). */
function satisfiesAnyOf(s: Schema, o: Record<string, unknown>, deref: Deref): boolean {
  if (!s.anyOf) return true;
  return s.anyOf.some((b0) => {
    const b = deref(b0);
    if (!(b.required ?? []).every((k) => o[k] !== undefined)) return false;
    return Object.entries(b.properties ?? {}).every(([k, p]) => o[k] === undefined || Object.keys(o[k] as object).length >= (deref(p).minProperties ?? 0));
  });
}

/** Values that break one rule of `s` (with the rule broken, for reports). Empty when nothing can be broken. */
export function invalidValue(s0: Schema, deref: Deref, inQuery: boolean, empty = true): Array<fc.Arbitrary<unknown>> {
  const s = deref(s0);
  const ts = types(s);
  const out: Array<fc.Arbitrary<unknown>> = [];
  if (s.enum) out.push(fc.constantFrom('zzz', 'FAMILY', ' family', ...(empty ? [''] : [])));
  if (ts.includes('string')) {
    if (s.maxLength !== undefined) out.push(fc.constant('x'.repeat(s.maxLength + 1)), fc.constant('é'.repeat(s.maxLength + 1)));
    if ((s.minLength ?? 0) > 0 && empty) out.push(fc.constant(''));
    if (s.pattern) {
      const re = new RegExp(s.pattern, 'u');
      const broken = ['MSL', 'msl-40', 'MSL 40', 'MSL40a', 'v40', '40', 'MSL99999', 'ＭＳＬ40', 'latest ', ...(empty ? [''] : [])].filter((x) => !re.test(x));
      if (broken.length > 0) out.push(fc.constantFrom(...broken));
    }
  }
  if (ts.includes('integer') || ts.includes('number')) {
    if (inQuery) out.push(fc.constantFrom(...NOT_INTEGERS));
    if (s.minimum !== undefined) out.push(fc.constant(inQuery ? String(s.minimum - 1) : s.minimum - 1));
    if (s.maximum !== undefined) out.push(fc.constant(inQuery ? String(s.maximum + 1) : s.maximum + 1));
    if (!inQuery && ts.includes('integer')) out.push(fc.constantFrom(1.5, '5', true));
  }
  if (!inQuery) {
    // wrong JSON types
    const wrong: unknown[] = [];
    if (!ts.includes('string') && !s.enum) wrong.push('text');
    if (!ts.includes('null')) wrong.push(null);
    if (!ts.includes('array')) wrong.push([1, 2]);
    if (!ts.includes('object')) wrong.push({ a: 1 });
    if (!ts.includes('boolean') && !ts.includes('string')) wrong.push(false);
    if (wrong.length > 0 && ts.length > 0) out.push(fc.constantFrom(...wrong));
    if (ts.includes('array') && s.maxItems !== undefined && s.maxItems <= 100) out.push(fc.constant(Array.from({ length: s.maxItems + 1 }, () => 'x')));
    if (ts.includes('array') && (s.minItems ?? 0) > 0) out.push(fc.constant([]));
  }
  return out;
}

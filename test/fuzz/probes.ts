// The requests: for each operation of the contract, valid ones (every required parameter, some optional
// ones, a valid body) and ones that break exactly one rule (a parameter out of its schema, an unknown
// parameter, a malformed percent-escape, a body field of the wrong type, a missing or foreign body, a wrong
// Content-Type, a body over the limit), JSON nested 100,000 deep wherever a client can put it, valid requests
// made from the schemas alone (as a fuzzer that has only the contract makes them), plus wrong methods on every
// path and HEAD on every GET. Each knows whether the contract accepts it; the checks hold the answer to that.
import fc from 'fast-check';
import type { Probe } from './checks.js';
import type { Contract, Operation, Parameter, Schema } from './contract.js';
import { invalidValue, validValue, type Pools } from './values.js';

/** Larger than any body the service takes (2 MB). */
const HUGE = 2 * 1024 * 1024 + 16;

const MALFORMED_ESCAPES = ['%', '%zz', '%ED%A0%80', '%C0%AF', '%E2%82', '%F4%90%80%80', 'abc%'];

const FOREIGN_TYPES = ['text/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/octet-stream', 'image/png'];

const WRONG_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

/** A URL carries UTF-8, which has no lone surrogates: those become U+FFFD as a browser would send them. */
const enc = (v: unknown): string => encodeURIComponent((typeof v === 'string' ? v : JSON.stringify(v))
  .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));

function url(op: Operation, values: Map<Parameter, unknown>, raw: Map<Parameter, string> = new Map(), extra = ''): string {
  let path = op.template;
  const query: string[] = [];
  for (const p of op.parameters) {
    const r = raw.get(p);
    if (p.in === 'path') path = path.replace(`{${p.name}}`, r ?? enc(values.get(p)));
    else if (p.in === 'query' && (r !== undefined || values.has(p))) query.push(`${p.name}=${r ?? enc(values.get(p))}`);
  }
  if (extra) query.push(extra);
  return query.length > 0 ? `${path}?${query.join('&')}` : path;
}

/** Values for every required parameter and, half the time each, the optional ones. */
function parameterValues(op: Operation, pools: Pools, c: Contract): fc.Arbitrary<Map<Parameter, unknown>> {
  const parts = op.parameters.filter((p) => p.in !== 'header').map((p) => {
    const value = validValue(p.schema, pools, p.name, c.deref);
    return p.required ? value.map((v) => [p, v] as const) : fc.option(value.map((v) => [p, v] as const), { freq: 2 });
  });
  return fc.tuple(...parts).map((pairs) => new Map(pairs.filter((x): x is readonly [Parameter, unknown] => x !== null)));
}

function bodyOf(op: Operation, pools: Pools, c: Contract): fc.Arbitrary<{ type: string; text: string }> {
  const choices = [...op.body!.content].map(([type, schema]) => {
    if (type === 'text/csv' && !pools.schemaOnly) {
      // a CSV of names: the name column and a column of the user's own that the answer echoes
      return fc.array(fc.tuple(validValue({ type: 'string', minLength: 1, maxLength: 80 }, pools, 'name', c.deref), validValue({ type: 'string', maxLength: 40 }, pools, 'note', c.deref)), { minLength: 1, maxLength: 8 })
        .map((rows) => ({ type, text: `name,note\r\n${rows.map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n` }));
    }
    return validValue(schema, pools, 'body', c.deref).map((v) => ({ type, text: type.endsWith('json') ? JSON.stringify(v) : String(v) }));
  });
  return fc.oneof(...choices);
}

/** JSON `levels` deep, arrays or objects, and its text (built without recursion: that is its point). */
export function deepJson(levels: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? `${'['.repeat(levels)}${']'.repeat(levels)}` : `${'{"a":'.repeat(levels)}{}${'}'.repeat(levels)}`;
}

/** Levels of nesting a hostile client sends: JSON.stringify or a recursive walk of one overflows the stack. */
const DEEP = 100_000;
/** Deep enough to overflow a recursive walk, in a small body (under 16 KB). */
const DEEP_SMALL = 5_000;

/**
 * Bodies, query strings and CSV cells holding JSON nested 100,000 levels deep: in place of the whole body,
 * of each field in turn, as the text of a query parameter (as deep as a URL the server takes can hold), as
 * a CSV cell. Whatever the answer, it is one the contract declares, in the documented shape, never a 500.
 */
function deepNesting(op: Operation, pools: Pools, c: Contract): fc.Arbitrary<Probe> | null {
  const options: Array<fc.Arbitrary<Probe>> = [];
  const probe = (note: string, path: string, headers: Record<string, string>, body?: string): Probe => ({
    kind: 'deep nesting', op, method: op.method, path, headers, expect: 'any', note, ...(body === undefined ? {} : { body }),
  });
  const kinds = fc.constantFrom<'array' | 'object'>('array', 'object');
  const json = op.body?.content.get('application/json');
  if (json) {
    const fields = Object.keys(c.deref(json).properties ?? {});
    options.push(fc.tuple(kinds, fc.constantFrom(DEEP, DEEP_SMALL), fc.constantFrom(null, ...fields), validValue(json, pools, 'body', c.deref)).map(([kind, levels, field, valid]) => {
      const body = field === null ? deepJson(levels, kind) : JSON.stringify({ ...(valid as object), [field]: '\u0000' }).replace('"\\u0000"', deepJson(levels, kind));
      return probe(`${field ?? 'the body'} nested ${levels} deep (${kind}s)`, url(op, new Map()), { 'content-type': 'application/json' }, body);
    }));
  }
  if (op.body?.content.has('text/csv')) {
    options.push(kinds.map((kind) => probe(`a CSV cell nested ${DEEP} deep`, url(op, new Map()), { 'content-type': 'text/csv' },
      `name,note\r\n"${deepJson(DEEP, kind).replaceAll('"', '""')}",x\r\n`)));
  }
  const texts = op.parameters.filter((p) => p.in === 'query' && c.deref(p.schema).type === 'string' && !c.deref(p.schema).enum && !c.deref(p.schema).pattern);
  if (texts.length > 0) {
    // a URL of up to 16 KB is read (MAX_HEADER_BYTES); past it, the server's parser refuses it (HTTP-level probes)
    options.push(fc.tuple(parameterValues(op, pools, c), fc.constantFrom(...texts), kinds).map(([values, p, kind]) => {
      const deep = deepJson(Math.min(DEEP, Math.floor((c.deref(p.schema).maxLength ?? 200) / (kind === 'array' ? 2 : 6))), kind);
      return probe(`${p.name} nested JSON text`, url(op, new Map([...values, [p, deep]])), someBody(op).headers, someBody(op).body);
    }));
  }
  return options.length > 0 ? fc.oneof(...options) : null;
}

const csvCell = (v: unknown): string => `"${String(v).replaceAll('"', '""')}"`;

/** A body and its Content-Type, or none. */
const withBody = (type: string | undefined, text: string | undefined): { headers: Record<string, string>; body?: string } =>
  (type && text !== undefined ? { headers: { 'content-type': type }, body: text } : { headers: {} });

/** The smallest body for a probe whose point is elsewhere (a parameter). */
const someBody = (op: Operation) => withBody(op.body ? [...op.body.content.keys()][0] : undefined, op.body ? '{}' : undefined);

function valid(op: Operation, pools: Pools, c: Contract): fc.Arbitrary<Probe> {
  const body = op.body ? bodyOf(op, pools, c) : fc.constant(null);
  return fc.tuple(parameterValues(op, pools, c), body).map(([values, b]) => ({
    kind: 'valid', op, method: op.method, path: url(op, values), expect: 'ok' as const,
    ...withBody(b?.type, b?.text), note: b ? b.text.slice(0, 100) : 'valid parameters',
  }));
}

/** A valid request as a fuzzer that has only the contract makes it: no real names, any text the schemas allow. */
function schemaOnly(op: Operation, pools: Pools, c: Contract): fc.Arbitrary<Probe> {
  return valid(op, { ...pools, schemaOnly: true }, c).map((p) => ({ ...p, kind: 'valid (schema only)' }));
}

function badParameter(op: Operation, pools: Pools, c: Contract): fc.Arbitrary<Probe> | null {
  // An empty path parameter is another path (a 404 or another operation's), not a bad value: left out here.
  const breakable = op.parameters.filter((p) => p.in !== 'header')
    .map((p) => [p, invalidValue(p.schema, c.deref, true, p.in !== 'path')] as const)
    .filter(([, bad]) => bad.length > 0);
  if (breakable.length === 0) return null;
  return fc.tuple(parameterValues(op, pools, c), fc.constantFrom(...breakable).chain(([p, bad]) => fc.oneof(...bad).map((v) => [p, v] as const)))
    .map(([values, [p, v]]) => {
      const raw = new Map([[p, typeof v === 'number' ? String(v) : enc(v)]]);
      return {
        kind: `bad ${p.in} parameter`, op, method: op.method, path: url(op, values, raw),
        expect: 'refused' as const, note: `${p.name}=${JSON.stringify(v).slice(0, 60)}`, ...someBody(op),
      };
    });
}

function unknownParameter(op: Operation, pools: Pools, c: Contract): fc.Arbitrary<Probe> {
  return fc.tuple(parameterValues(op, pools, c), fc.constantFrom('zz_unknown=1', 'LIMIT=5', 'version%00=MSL40', '__proto__=x', 'format=json&format=csv'))
    .map(([values, extra]) => ({
      kind: 'unknown query parameter', op, method: op.method, path: url(op, values, new Map(), extra),
      expect: 'refused' as const, status: [400], note: extra, ...someBody(op),
    }));
}

function malformedEscape(op: Operation, pools: Pools, c: Contract): fc.Arbitrary<Probe> | null {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  if (pathParams.length === 0) return null;
  return fc.tuple(parameterValues(op, pools, c), fc.constantFrom(...pathParams), fc.constantFrom(...MALFORMED_ESCAPES)).map(([values, p, esc]) => ({
    kind: 'malformed percent-escape', op, method: op.method, path: url(op, values, new Map([[p, `abc${esc}`]])), headers: {},
    expect: 'refused' as const, status: [400], note: `${p.name}=abc${esc}`,
  }));
}

/** Bodies that break the contract one way each: the expected status says which way. */
function badBody(op: Operation, pools: Pools, c: Contract): fc.Arbitrary<Probe> | null {
  if (!op.body) return null;
  const jsonSchema = op.body.content.get('application/json');
  const path = url(op, new Map());
  const probe = (note: string, status: number[], headers: Record<string, string>, body?: string): Probe => ({
    kind: 'bad body', op, method: op.method, path, headers, expect: 'refused', status, note, ...(body === undefined ? {} : { body }),
  });
  const options: Array<fc.Arbitrary<Probe>> = [
    fc.constant(probe('no body', [400], {})),
    fc.constant(probe('empty JSON body', [400], { 'content-type': 'application/json' }, '')),
    fc.constantFrom('{"a":', '{', 'nul', '{"query": "x",}', "{'query': 'x'}", '\u0000').map((t) => probe(`not JSON: ${t}`, [400], { 'content-type': 'application/json' }, t)),
    fc.constantFrom(...FOREIGN_TYPES).map((t) => probe(`Content-Type ${t}`, [415], { 'content-type': t }, 'query=x')),
    fc.constant(probe('no Content-Type', [415], {}, '{"query":"x"}')),
    fc.constant(probe('body over the limit', [413], { 'content-type': 'application/json' }, `{"query":"${'x'.repeat(HUGE)}"}`)),
  ];
  if (jsonSchema) {
    const s = c.deref(jsonSchema);
    options.push(fc.constantFrom('[]', '42', '"text"', 'null', 'true').map((t) => probe(`JSON ${t} instead of an object`, [400, 422], { 'content-type': 'application/json' }, t)));
    options.push(validValue(s, pools, 'body', c.deref).map((v) => probe('an unknown field', [422], { 'content-type': 'application/json' }, JSON.stringify({ ...(v as object), zz_unknown: 1 }))));
    const props = Object.entries(s.properties ?? {});
    const breakable = props.map(([k, ps]) => [k, invalidValue(ps as Schema, c.deref, false)] as const).filter(([, bad]) => bad.length > 0);
    if (breakable.length > 0) {
      options.push(fc.tuple(validValue(s, pools, 'body', c.deref), fc.constantFrom(...breakable).chain(([k, bad]) => fc.oneof(...bad).map((v) => [k, v] as const)))
        .map(([v, [k, bad]]) => probe(`field ${k}=${JSON.stringify(bad).slice(0, 40)}`, [422], { 'content-type': 'application/json' }, JSON.stringify({ ...(v as object), [k]: bad }))));
    }
    for (const k of s.required ?? []) {
      options.push(validValue(s, pools, 'body', c.deref).map((v) => {
        const rest = { ...(v as Record<string, unknown>) };
        delete rest[k];
        return probe(`no required field ${k}`, [422], { 'content-type': 'application/json' }, JSON.stringify(rest));
      }));
    }
    const integers = props.filter(([, ps]) => (c.deref(ps as Schema).type ?? '') === 'integer').map(([k]) => k);
    if (integers.length > 0) {
      options.push(fc.tuple(fc.constantFrom(...integers), fc.constantFrom('1e400', '-1e400', '1.0e999', '9'.repeat(400))).map(([k, n]) => probe(`field ${k}=${n}`, [422], { 'content-type': 'application/json' }, `{"${k}": ${n}}`)));
    }
  }
  return fc.oneof(...options);
}

function head(op: Operation, pools: Pools, c: Contract): fc.Arbitrary<Probe> {
  return valid(op, pools, c).map((p) => ({ ...p, kind: 'HEAD', method: 'HEAD', expect: 'any' as const }));
}

/** ETag probes are pairs: the runner first GETs the URL, then sends the validator (see run.ts). */
function conditional(op: Operation, pools: Pools, c: Contract): fc.Arbitrary<Probe> {
  return fc.tuple(valid(op, pools, c), fc.constantFrom('ETAG', '*', 'W/ETAG', '"stale"', '"', 'W/', `"${'x'.repeat(4000)}"`, '"a", ETAG'))
    .map(([p, tag]) => ({ ...p, kind: 'If-None-Match', expect: 'any' as const, headers: { 'if-none-match': tag }, note: `If-None-Match: ${tag.slice(0, 40)}` }));
}

function wrongMethod(c: Contract): fc.Arbitrary<Probe> {
  const pairs = [...c.methods].flatMap(([template, own]) => WRONG_METHODS.filter((m) => !own.includes(m)).map((m) => [template, m] as const));
  return fc.constantFrom(...pairs).map(([template, method]) => ({
    kind: 'wrong method', op: null, template, method, path: template.replace(/\{[^}]+\}/g, 'MSL40'),
    headers: {}, expect: 'refused' as const, status: [405], note: `${method} on ${template}`,
  }));
}

/** Every request kind for every operation, weighted towards valid requests (they reach the data). */
export function probes(c: Contract, pools: Pools): fc.Arbitrary<Probe> {
  const perOp = c.operations.map((op) => {
    // A preflight is answered before anything is validated (its query is the one the page will send): it
    // has no invalid form to probe, and a tenth of a real operation's share of the requests.
    if (op.method === 'OPTIONS') return { weight: 1, arbitrary: valid(op, pools, c) };
    const kinds: Array<fc.WeightedArbitrary<Probe>> = [
      { weight: 8, arbitrary: valid(op, pools, c) },
      { weight: 4, arbitrary: schemaOnly(op, pools, c) },
      { weight: 1, arbitrary: unknownParameter(op, pools, c) },
    ];
    const bad = badParameter(op, pools, c);
    if (bad) kinds.push({ weight: 3, arbitrary: bad });
    const escapes = malformedEscape(op, pools, c);
    if (escapes) kinds.push({ weight: 1, arbitrary: escapes });
    const body = badBody(op, pools, c);
    if (body) kinds.push({ weight: 4, arbitrary: body });
    const deep = deepNesting(op, pools, c);
    if (deep) kinds.push({ weight: 1, arbitrary: deep });
    if (op.method === 'GET') kinds.push({ weight: 1, arbitrary: head(op, pools, c) });
    if (op.method === 'GET' && op.responses.has('304')) kinds.push({ weight: 1, arbitrary: conditional(op, pools, c) });
    return { weight: 10, arbitrary: fc.oneof(...kinds) };
  });
  return fc.oneof({ weight: 12, arbitrary: fc.oneof(...perOp) }, { weight: 1, arbitrary: wrongMethod(c) });
}

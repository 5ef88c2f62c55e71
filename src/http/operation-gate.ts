// The contract's operations as the HTTP layer needs them before the request validator runs: which methods
// a path has (a 405 names them in Allow; HEAD is answered wherever GET is, OPTIONS on every path), and the integer query
// parameters, parsed once here. The validator coerces any string JavaScript reads as a number ('0x10',
// ' 1', '1e3', 'Infinity'), none of which is an integer as the contract writes one, so integers are read
// strictly here and the validator then only checks their bounds. Defaults come from the contract too, so a
// handler reads req.query as the contract describes it and validates nothing again.
import type { Request, RequestHandler } from 'express';
import { type ContractTerms } from './errors.js';
import { HttpError } from '../read/errors.js';

interface ParameterSchema {
  type?: string | string[];
  minimum?: number;
  maximum?: number;
  default?: unknown;
  $ref?: string;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: ParameterSchema;
  $ref?: string;
}

interface BodySchema extends ParameterSchema {
  'x-expected'?: string;
  properties?: Record<string, BodySchema>;
  items?: BodySchema;
  oneOf?: BodySchema[];
  anyOf?: BodySchema[];
  allOf?: BodySchema[];
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema?: BodySchema }> };
}

type Document = {
  paths: Record<string, Record<string, Operation>>;
  components?: { parameters?: Record<string, Parameter>; schemas?: Record<string, ParameterSchema & { pattern?: string; 'x-expected'?: string }> };
};

interface QueryParameter {
  name: string;
  integer: { min: number; max: number } | null;
  default: unknown;
}

/** The operation a request was matched to: its path as the contract writes it, and its parameters decoded. */
export interface MatchedOperation {
  template: string;
  params: Record<string, string>;
}

interface PathEntry {
  template: string;
  pattern: RegExp;
  /** The template's text before its first parameter: a path that does not begin with it cannot match. */
  prefix: string;
  methods: Map<string, QueryParameter[]>;
  bodyTypes: Map<string, string[]>;
  bodyRules: Map<string, string>;
  bodySchemas: Map<string, BodySchema>;
  allow: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** The order Allow lists methods in: reads first, OPTIONS last. */
const ALLOW_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'TRACE', 'OPTIONS'];

/** Canonical decimal integers only: what `type: integer` serialises to in a query string. */
const INTEGER = /^-?(0|[1-9][0-9]{0,15})$/;

function deref<T extends { $ref?: string }>(doc: Document, x: T): T {
  if (!x.$ref) return x;
  const [, , group, name] = x.$ref.split('/');
  return deref(doc, (doc.components as Record<string, Record<string, T>>)[group!]![name!]!);
}

function queryParameters(doc: Document, op: Operation): QueryParameter[] {
  return (op.parameters ?? []).map((p) => deref(doc, p)).filter((p) => p.in === 'query').map((p) => {
    const schema = deref(doc, p.schema ?? {});
    const integer = schema.type === 'integer'
      ? { min: schema.minimum ?? Number.MIN_SAFE_INTEGER, max: schema.maximum ?? Number.MAX_SAFE_INTEGER }
      : null;
    return { name: p.name, integer, default: schema.default };
  });
}

export function contractPaths(spec: Record<string, unknown>): PathEntry[] {
  const doc = spec as Document;
  return Object.entries(doc.paths).map(([template, ops]) => {
    const methods = new Map<string, QueryParameter[]>();
    const bodyTypes = new Map<string, string[]>();
    const bodyRules = new Map<string, string>();
    const bodySchemas = new Map<string, BodySchema>();
    for (const [method, op] of Object.entries(ops)) {
      if (!METHODS.includes(method)) continue;
      methods.set(method.toUpperCase(), queryParameters(doc, op));
      if (!op.requestBody) continue;
      bodyTypes.set(method.toUpperCase(), Object.keys(op.requestBody.content));
      const json = op.requestBody.content['application/json']?.schema;
      if (json) bodySchemas.set(method.toUpperCase(), json);
      const rule = json ? deref(doc, json)['x-expected'] : undefined;
      if (rule) bodyRules.set(method.toUpperCase(), rule);
    }
    if (methods.has('GET') && !methods.has('HEAD')) methods.set('HEAD', methods.get('GET')!);
    if (!methods.has('OPTIONS')) methods.set('OPTIONS', []);
    const allow = ALLOW_ORDER.filter((m) => methods.has(m)).join(', ');
    return { template, ...templatePattern(template, true), methods, bodyTypes, bodyRules, bodySchemas, allow };
  });
}

/**
 * A contract path's template as a pattern: each parameter a named group of one non-empty path segment, as
 * the router matches it, with a trailing slash allowed or not; and the template's literal beginning.
 */
export function templatePattern(template: string, trailingSlash: boolean): { pattern: RegExp; prefix: string } {
  const names = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const source = template.split(/\{[^}]+\}/).map((s) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
    .reduce((all, part, i) => (i === 0 ? part : `${all}(?<${names[i - 1]}>[^/]+)${part}`), '');
  return { pattern: new RegExp(`^${source}${trailingSlash ? '/?' : ''}$`), prefix: template.split('{')[0]! };
}

/**
 * The first of `entries` whose pattern matches `path`, with the match. A path is tested only against the
 * patterns whose literal beginning it has (the contract has ~90 of them).
 */
function firstMatch<T extends { prefix: string; pattern: RegExp }>(entries: readonly T[], path: string): { entry: T; match: RegExpExecArray } | null {
  for (const entry of entries) {
    if (!path.startsWith(entry.prefix)) continue;
    const match = entry.pattern.exec(path);
    if (match) return { entry, match };
  }
  return null;
}

function integerOf(name: string, raw: unknown, bounds: { min: number; max: number }): number {
  const range = `an integer from ${bounds.min} to ${bounds.max}`;
  if (typeof raw !== 'string') throw new HttpError(400, `query parameter '${name}' is given more than once; it takes one value, ${range}`);
  // out of bounds too: the message then says the whole range, where the validator would name one end
  if (!INTEGER.test(raw) || Number(raw) < bounds.min || Number(raw) > bounds.max) {
    throw new HttpError(400, `query parameter '${name}' must be ${range}; got '${raw.slice(0, 40)}'`);
  }
  return Number(raw);
}

/**
 * 405 with Allow for a method the path does not have, HEAD served as GET, the path's percent-escapes
 * checked, and the query's integers and defaults set. Paths outside the contract pass untouched (404 later).
 */
export function operationGate(spec: Record<string, unknown>): RequestHandler {
  const paths = contractPaths(spec);
  return (req: Request, res, next) => {
    const path = req.path;
    // A preflight names a path, it is not a request for it: its escapes are not read (nor is anything else).
    if (path.includes('%') && req.method !== 'OPTIONS') {
      try {
        decodeURIComponent(path);
      } catch {
        throw new HttpError(400, 'the URL path has a percent-escape that is not valid UTF-8 (e.g. %ED%A0%80 or a lone %)');
      }
    }
    const found = firstMatch(paths, path);
    if (!found) return next();
    const { entry, match } = found;
    // kept for error messages, which quote the value a parameter was refused for
    if (match.groups) res.locals.pathParams = match.groups;
    const query = entry.methods.get(req.method);
    if (!query) {
      res.setHeader('Allow', entry.allow);
      throw new HttpError(405, `method ${req.method} is not allowed on ${path}; allowed: ${entry.allow}`);
    }
    // A preflight (or a plain OPTIONS): the CORS headers are set already (app.ts); the path's methods are
    // the answer. Its query string is not looked at: a browser sends the query of the request it will make.
    if (req.method === 'OPTIONS') {
      res.setHeader('Allow', entry.allow);
      // the cors middleware names every method the service has; a preflight is told this path's
      if (res.getHeader('Access-Control-Allow-Methods') !== undefined) res.setHeader('Access-Control-Allow-Methods', entry.allow);
      res.setHeader('Content-Length', '0');
      res.status(204).end();
      return;
    }
    // The response knows it answers a HEAD (it sends no body); routing and validation see the GET it mirrors.
    if (req.method === 'HEAD') req.method = 'GET';
    const bodyTypes = entry.bodyTypes.get(req.method);
    if (bodyTypes) res.locals.bodyTypes = bodyTypes;
    const params: Record<string, string> = {};
    for (const [name, raw] of Object.entries(match.groups ?? {})) params[name] = decodeURIComponent(raw);
    res.locals.operation = { template: entry.template, params } satisfies MatchedOperation;
    if (query.length > 0) {
      const values: Record<string, unknown> = { ...req.query };
      for (const p of query) {
        if (values[p.name] === undefined) {
          if (p.default !== undefined) values[p.name] = p.default;
        } else if (p.integer) {
          values[p.name] = integerOf(p.name, values[p.name], p.integer);
        }
      }
      // Express 5 recomputes req.query on every read; an own property keeps the parsed values (the validator
      // reads and keeps it the same way).
      Object.defineProperty(req, 'query', { value: values, writable: true, configurable: true, enumerable: true });
    }
    next();
  };
}

export function contractTerms(spec: Record<string, unknown>): ContractTerms {
  const doc = spec as Document;
  const paths = contractPaths(spec);
  // every schema in the document that gives its pattern a meaning, named or inline
  const meanings = new Map<string, string>();
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const s = node as { pattern?: unknown; 'x-expected'?: unknown };
    if (typeof s.pattern === 'string' && typeof s['x-expected'] === 'string') meanings.set(s.pattern, s['x-expected']);
    for (const child of Object.values(node)) walk(child);
  };
  walk(doc);
  // The fields an object of a body schema may have, at a path of field names (through $refs, the branches
  // of oneOf/anyOf/allOf and array items).
  const fieldsAt = (schema: BodySchema | undefined, at: string[]): string[] => {
    if (!schema) return [];
    const s = deref(doc, schema);
    const branches = [...(s.oneOf ?? []), ...(s.anyOf ?? []), ...(s.allOf ?? [])].flatMap((b) => fieldsAt(b, at));
    if (at.length === 0) return [...new Set([...Object.keys(s.properties ?? {}), ...branches])];
    const [head, ...rest] = at;
    const child = /^[0-9]+$/.test(head!) ? s.items : s.properties?.[head!];
    return [...new Set([...fieldsAt(child, rest), ...branches])];
  };
  const entryOf = (path: string) => paths.find((p) => p.pattern.test(path));
  return {
    fieldNames: (method, path, where, at) => (where === 'query'
      ? (entryOf(path)?.methods.get(method) ?? []).map((p) => p.name)
      : fieldsAt(entryOf(path)?.bodySchemas.get(method), at)),
    bodyTypes: (method, path) => paths.find((p) => p.pattern.test(path))?.bodyTypes.get(method) ?? ['application/json'],
    patternMeaning: (pattern) => meanings.get(pattern),
    bodyRule: (method, path) => paths.find((p) => p.pattern.test(path))?.bodyRules.get(method),
  };
}

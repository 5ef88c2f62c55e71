// One error middleware (the error class is the read layer's: read/errors.ts). /api/v1 answers {detail}; every other route {error, detail, type}.
// Messages name what was wrong in the user's terms (the parameter, the value, what is expected), never the
// validator's internals: a user reads 'query parameter "depth" must be an integer from 1 to 15', not an
// ajv path.
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { distance } from 'fastest-levenshtein';
import { HttpError, TYPES } from '../read/errors.js';

const TITLES: Record<number, string> = {
  400: 'Bad request', 401: 'Unauthorized', 404: 'Not found', 405: 'Method not allowed', 406: 'Not acceptable', 413: 'Payload too large',
  415: 'Unsupported media type', 422: 'Validation error', 429: 'Too many requests', 500: 'Internal server error',
  501: 'Not implemented', 503: 'Service unavailable',
};

export const notFound: RequestHandler = (req) => {
  // inside a router (the pages' files) req.path is the router's own part of the path
  throw new HttpError(404, `no route for ${req.method} ${req.baseUrl}${req.path}`);
};

/** What the contract says that error messages quote: the body types an operation takes, what a pattern means. */
export interface ContractTerms {
  bodyTypes(method: string, path: string): string[];
  /** The `x-expected` text of the schema whose pattern is this one. */
  patternMeaning(pattern: string): string | undefined;
  /** The `x-expected` text of an operation's body schema: the rule a body as a whole must follow. */
  bodyRule(method: string, path: string): string | undefined;
  /** The query parameters an operation takes, or the fields of its JSON body at a path of field names. */
  fieldNames(method: string, path: string, where: 'query' | 'body', at: string[]): string[];
}

/** Errors thrown by express-openapi-validator and body-parser, mapped to one shape. */
interface LibraryError {
  status?: number;
  statusCode?: number;
  type?: string;
  message?: string;
  limit?: number;
  errors?: Array<{ path?: string; message?: string; errorCode?: string }>;
}

/**
 * The name someone most likely meant by an unknown one: a name it is a whole `_`-separated part or the
 * start of (`to` -> `to_version`, `species` -> `species_name`), else the closest spelling within a third of
 * its length in edits, two at least (`limt` -> `limit`, `hots` -> `host`); a plural gets its singular
 * (`genera` -> `genus`). Edit distance alone would offer `names` for `to`: the short
 * names people type are parts of the long ones, not misspellings of them.
 */
export function closestName(given: string, names: readonly string[]): string | undefined {
  const g = given.toLowerCase().replace(/-/g, '_');
  const part = names.find((n) => n.toLowerCase().split('_').includes(g)) ?? names.find((n) => n.toLowerCase().startsWith(g) && g.length >= 2)
    ?? names.find((n) => n.toLowerCase().replace(/_/g, '') === g.replace(/_/g, ''));
  if (part) return part;
  // a plural for the singular a parameter takes (ranks: genera, families, phyla)
  const singular = [g.replace(/ies$/, 'y'), g.replace(/era$/, 'us'), g.replace(/a$/, 'um'), g.replace(/e?s$/, '')];
  const plural = names.find((n) => singular.includes(n.toLowerCase()));
  if (plural) return plural;
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.ceil(g.length / 3)) + 1;
  for (const n of names) {
    const d = distance(g, n.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [n, d];
  }
  return best;
}

const quoted = (names: readonly string[]): string => names.map((n) => `'${n}'`).join(', ');
const didYouMean = (given: string, names: readonly string[]): string => {
  const near = closestName(given, names);
  return near && near !== given ? `; did you mean '${near}'?` : '';
};

/** How much of a value a message quotes. */
const SHOWN = 60;

/** A value as a message quotes it: text as given, anything else as JSON, cut at SHOWN characters. */
export function shownValue(value: unknown): string {
  const text = typeof value === 'string' ? value : jsonPreview(value, SHOWN + 1);
  return `'${text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text}'`;
}

/**
 * The first `limit` characters of a value's JSON, written without recursion and without writing the rest:
 * a body is whatever a client sent, a list of 10,000 names or an array nested 100,000 deep, and
 * JSON.stringify would write all of it (or overflow the stack) to quote sixty characters.
 */
export function jsonPreview(value: unknown, limit: number): string {
  let out = '';
  // what is still to write, last first: values, and the punctuation between them
  const todo: Array<{ value: unknown } | string> = [{ value }];
  while (todo.length > 0 && out.length < limit) {
    const next = todo.pop()!;
    if (typeof next === 'string') {
      out += next;
      continue;
    }
    const v = next.value;
    if (Array.isArray(v)) {
      todo.push(']');
      for (let i = Math.min(v.length, limit) - 1; i >= 0; i--) todo.push({ value: v[i] }, i > 0 ? ',' : '');
      out += '[';
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v).slice(0, limit);
      todo.push('}');
      for (let i = keys.length - 1; i >= 0; i--) todo.push({ value: (v as Record<string, unknown>)[keys[i]!] }, `${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:`);
      out += '{';
    } else {
      out += typeof v === 'string' ? JSON.stringify(v.length > limit ? v.slice(0, limit) : v) : JSON.stringify(v) ?? 'null';
    }
  }
  return out;
}

function valueAt(root: unknown, at: string[]): unknown {
  let node = root;
  for (const key of at) node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  return node;
}

/**
 * The one error middleware. It must not throw: Express would then answer with its own HTML page and a stack
 * trace. What it cannot describe (a fault in describing it) is answered with the error's status and a
 * placeholder message, and what it cannot write is answered with a fixed body.
 */
export function errorHandler(terms: ContractTerms, log: (err: unknown) => void): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    let d: Described;
    try {
      d = describe(err, req, terms);
    } catch (fault) {
      log(fault);
      d = placeholder(err);
    }
    if (d.status >= 500) log(err);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    try {
      res.setHeader('Cache-Control', 'no-store');
      // A 304 or an ETag set before the failure must not describe the error body.
      res.removeHeader('ETag');
      res.status(d.status).json(errorBody(req.path, d));
    } catch (fault) {
      log(fault);
      if (!res.headersSent) {
        res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
        res.end(JSON.stringify(errorBody(req.path, described(500, 'internal error; the failure has been logged'))));
      } else {
        res.destroy();
      }
    }
  };
}

/** An error that could not be described: its own status when it is a client error, with a message that says no more. */
function placeholder(err: unknown): Described {
  const status = Number((err as LibraryError | null)?.status ?? (err as LibraryError | null)?.statusCode);
  return Number.isInteger(status) && status >= 400 && status < 500
    ? described(status, 'the request was refused; what was wrong with it cannot be shown')
    : described(500, 'internal error; the failure has been logged');
}

/** An error's body as every answer writes it: /api/v1 in its own shape, every other path in the spec's. */
export function errorBody(path: string, { status, detail, type, extra }: Described): object {
  return path.startsWith('/api/v1/') || path === '/api/v1' ? { detail, ...extra } : { error: TITLES[status] ?? 'Error', detail, type, ...extra };
}

/** An HttpError as the error handler describes it. */
const describedHttpError = (err: HttpError): Described => ({ status: err.status, detail: err.message, type: err.type, extra: err.extra });

export interface Described { status: number; detail: string; type: string; extra: Record<string, unknown> }

const described = (status: number, detail: string): Described => ({ status, detail, type: TYPES[status] ?? 'Error', extra: {} });

function describe(err: unknown, req: Request, terms: ContractTerms): Described {
  if (err instanceof HttpError) return describedHttpError(err);
  const e = err as LibraryError;
  const status = e.status ?? e.statusCode ?? 500;
  if (status >= 500 || status < 400) return described(500, 'internal error; the failure has been logged');
  if (e.type === 'entity.parse.failed') return described(400, 'request body is not valid JSON');
  if (e.type === 'entity.too.large') return described(413, `the request body is larger than ${Math.round((e.limit ?? 0) / 1048576)} MB`);
  if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') return described(415, `the request body's ${e.type.split('.')[0]} is not supported; send UTF-8`);
  if (status === 415) {
    const got = req.headers['content-type'];
    return described(415, `${req.method} ${req.path} takes a body of type ${terms.bodyTypes(req.method, req.path).join(' or ')}; ${got ? `got ${got}` : 'the request has no Content-Type'}`);
  }
  if (status === 404) return described(404, `no route for ${req.method} ${req.path}`);
  if (status === 405) return described(405, `method ${req.method} is not allowed on ${req.path}`);
  // A body that breaks a rule over several fields (exactly one of two, one of these or those): ajv reports the
  // branches' missing fields first; the rule, in the contract's words, is what the user needs.
  const rule = e.errors?.some((x) => x.path === '/body' && /must match (exactly one|a) schema/.test(x.message ?? ''))
    ? terms.bodyRule(req.method, req.path) : undefined;
  if (status === 400 && rule) {
    // a field it does not know is most likely the one the rule wanted, misnamed
    const names = terms.fieldNames(req.method, req.path, 'body', []);
    const body = req.body !== null && typeof req.body === 'object' ? Object.keys(req.body as object) : [];
    const unknown = body.filter((k) => !names.includes(k)).map((k) => `; '${k}' is not one of its fields (${quoted(names)})${didYouMean(k, names)}`);
    return described(422, `the body must have ${rule}${unknown.join('')}`);
  }
  // An unknown field beside a missing one is most often the missing one misnamed: it is the one to name.
  const first = e.errors?.find((x) => x.errorCode === 'additionalProperties.openapi.validation') ?? e.errors?.[0];
  if (status === 400 && first) {
    const [, where = '', ...at] = (first.path ?? '').split('/');
    const message = first.message ?? 'is invalid';
    // A body that misses a required field or has one of the wrong type is a 422 (spec section 7); a bad
    // path or query parameter stays a 400.
    if (where === 'body') return described(422, bodyMessage(req, terms, at, message, first.errorCode));
    const field = at.join('.');
    const kind = where === 'params' ? 'path parameter' : where === 'query' ? 'query parameter' : where === 'headers' ? 'header' : 'parameter';
    if (where === 'query' && /^Unknown query parameter/.test(message)) {
      const names = terms.fieldNames(req.method, req.path, 'query', []);
      return described(400, `query parameter '${field}' is not a parameter of ${req.method} ${req.path}; it takes ${names.length > 0 ? quoted(names) : 'none'}${didYouMean(field, names)}`);
    }
    const value = where === 'query' ? req.query[field] : where === 'params' ? (req.res?.locals.pathParams as Record<string, string> | undefined)?.[field] : undefined;
    const shown = value === undefined ? '' : `; got ${shownValue(where === 'params' && typeof value === 'string' ? safeDecode(value) : value)}${enumHint(message, value)}`;
    return described(400, `${kind} '${field}' ${plain(message, terms)}${shown}`);
  }
  return described(status, e.message ?? TITLES[status] ?? 'error');
}

/** An enum's closest allowed value to the one given, when the message lists the allowed ones. */
function enumHint(message: string, value: unknown): string {
  const allowed = /must be equal to one of the allowed values: (.*)$/.exec(message);
  return allowed && typeof value === 'string' ? didYouMean(value, allowed[1]!.split(', ')) : '';
}

/** A body's refusal as one sentence: the field (its path in the body), the value given, what is allowed. */
function bodyMessage(req: Request, terms: ContractTerms, at: string[], message: string, code: string | undefined): string {
  const additional = code === 'additionalProperties.openapi.validation' || /must NOT have additional properties/.test(message);
  if (additional) {
    const name = at[at.length - 1] ?? '';
    const parent = at.slice(0, -1);
    const names = terms.fieldNames(req.method, req.path, 'body', parent);
    const where = parent.length > 0 ? `the body's '${parent.join('.')}'` : 'the body';
    return `'${name}' is not a field of ${where} for ${req.method} ${req.path}; it takes ${quoted(names)}${didYouMean(name, names)}`;
  }
  const required = /^must have required property '(.*)'$/.exec(message);
  // the validator's path ends with the missing field itself
  if (required && at[at.length - 1] === required[1]) at = at.slice(0, -1);
  if (required) {
    const names = terms.fieldNames(req.method, req.path, 'body', at);
    const given = valueAt(req.body, at);
    const unknown = given !== null && typeof given === 'object' ? Object.keys(given).filter((k) => !names.includes(k)) : [];
    const misnamed = unknown.map((k) => `; '${k}' is not one of its fields (${quoted(names)})${didYouMean(k, names)}`).join('');
    return `${at.length > 0 ? `body field '${at.join('.')}'` : 'the body'} is missing the required field '${required[1]}'${misnamed}`;
  }
  const value = valueAt(req.body, at);
  const got = value === undefined ? '' : `; got ${shownValue(value)}${enumHint(message, value)}`;
  return `${at.length > 0 ? `body field '${at.join('.')}'` : 'the body'} ${plain(message, terms)}${got}`;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a text', integer: 'an integer', number: 'a number', boolean: 'true or false', array: 'a list', object: 'an object', null: 'null',
};

/** An ajv message in plain words; a pattern is replaced by what it stands for. */
function plain(message: string, terms: ContractTerms): string {
  const pattern = /^must match pattern "(.*)"$/.exec(message);
  if (pattern) {
    const meaning = terms.patternMeaning(pattern[1]!);
    return meaning ? `must be ${meaning}` : message;
  }
  const type = /^must be ([a-z]+(?:,[a-z]+)*)$/.exec(message);
  if (type) return `must be ${type[1]!.split(',').map((t) => TYPE_WORDS[t] ?? t).join(' or ')}`;
  return message.replace(/^Empty value found for query parameter '.*'$/, 'must not be empty')
    .replace('must NOT have fewer than', 'must have at least').replace('must NOT have more than', 'must have at most')
    .replace(/^must be <= /, 'must be at most ').replace(/^must be >= /, 'must be at least ')
    .replace(/^must be < /, 'must be less than ').replace(/^must be > /, 'must be more than ')
    .replace('must be equal to one of the allowed values:', 'must be one of:');
}

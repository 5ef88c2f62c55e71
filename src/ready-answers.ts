// Answers held ready (a pre-rendered document, a summary or a search in memory), sent before the framework.
// Through Express, its router, the request validator and the middlewares, a point lookup costs several times
// the lookup itself (README, Serving). Only a plain GET of a path listed by a router is answered here;
// anything else goes to the framework, which answers it as it answers every request: a body,
// If-None-Match, a client that accepts compression of a body of 1 KB or more, a parameter the contract
// refuses or does not declare (checked against the contract's own schemas), and every miss (no such
// document, a name the resolver has to find, an error). An answer sent here has the bytes and headers the
// framework would have sent (test/ready-answers.test.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { Ajv, type ValidateFunction } from 'ajv';
import type { Logger } from 'pino';
import { ACCEPTS_COMPRESSION, requestLogger, setRequestId, setSafetyHeaders, setSimpleCors } from './front.js';
import { declaredParameters, firstMatch, integerParam, templatePattern } from './operations.js';
import { CACHE_CONTROL, etagOf, linkTo, type Scope } from './respond.js';
import type { Store } from './store.js';

/** A lookup's answer when it is held ready (with its next page's URL, if paged), else null: the framework answers, errors included. */
export type ReadyAnswer = { body: Buffer | object; scope: Scope; next?: string | null } | null;

/** A request as a ready route sees it: its parameters decoded, valid by the contract, the query's defaults set. */
export interface ReadyRequest {
  params: Record<string, string>;
  query: Record<string, string | number>;
  /** The path and query as sent (the ETag's and the next page's base). */
  url: string;
}

export interface ReadyRoute {
  /** The operation's path as the contract writes it, e.g. `/api/v1/species/{version}/{scientific_name}`. */
  path: string;
  /** The answer; a throw counts as null. */
  answer(store: Store, req: ReadyRequest): ReadyAnswer | Promise<ReadyAnswer>;
}

export interface ReadyOptions {
  spec: Record<string, unknown>;
  stores: { current(): Store | null };
  logger: Logger;
  logSample?: number;
}

/** Bodies from this size are compressed for a client that accepts an encoding (app.ts): those take the framework. */
const COMPRESSED_FROM = 1024;

interface Compiled {
  route: ReadyRoute;
  /** The path's literal beginning: a URL without it cannot match. */
  prefix: string;
  pattern: RegExp;
  /** Each path parameter's check, by name. */
  valid: Map<string, ValidateFunction>;
  query: Map<string, QueryParameter>;
}

interface QueryParameter { required: boolean; integer: boolean; default: unknown; valid: ValidateFunction }

function compile(spec: Record<string, unknown>, route: ReadyRoute, ajv: Ajv): Compiled {
  // no trailing slash: the framework answers that spelling
  const { pattern, prefix } = templatePattern(route.path, false);
  const valid = new Map(declaredParameters(spec, route.path, 'get', 'path').map((p) => [p.name, ajv.compile(p.schema)]));
  const query = new Map(declaredParameters(spec, route.path, 'get', 'query').map((p) => [p.name, {
    required: p.required, integer: p.schema.type === 'integer', default: p.schema.default, valid: ajv.compile(p.schema),
  }]));
  return { route, prefix, pattern, valid, query };
}

/**
 * The query as the framework reads it (Node's querystring, as Express's simple parser), with integers
 * parsed and defaults set, when every parameter is declared, given once and valid; else null.
 */
function queryOf(c: Compiled, search: string): Record<string, string | number> | null {
  const given = parseQuery(search);
  const query: Record<string, string | number> = {};
  for (const [name, raw] of Object.entries(given)) {
    const p = c.query.get(name);
    if (!p || typeof raw !== 'string') return null;
    const value = p.integer ? integerParam(raw) : raw;
    if (value === null || !p.valid(value)) return null;
    query[name] = value;
  }
  for (const [name, p] of c.query) {
    if (query[name] !== undefined) continue;
    if (p.required) return null;
    if (p.default !== undefined) query[name] = p.default as string | number;
  }
  return query;
}

/** The parameters decoded as the router decodes them, when every one is valid by the contract; else null. */
function parameters(c: Compiled, match: RegExpExecArray): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (const [name, raw] of Object.entries(match.groups ?? {})) {
    let value: string;
    try {
      value = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (!c.valid.get(name)!(value)) return null;
    params[name] = value;
  }
  return params;
}

/** A request only the framework can answer, whatever its path. */
function notPlain(req: IncomingMessage): boolean {
  const h = req.headers;
  return req.method !== 'GET' || h['if-none-match'] !== undefined
    || (h['content-length'] !== undefined && h['content-length'] !== '0') || h['transfer-encoding'] !== undefined;
}

/**
 * The server's request listener in front of the framework's: answers what is held ready, else calls
 * `framework`. The store is held from the lookup until the answer has gone, as a request through the
 * framework holds it (app.ts), so a rebuild swapped in meanwhile closes it only afterwards.
 */
export function readyAnswers(routes: ReadyRoute[], opts: ReadyOptions): (req: IncomingMessage, res: ServerResponse, framework: () => void) => void {
  const ajv = new Ajv({ strict: false });
  const compiled = routes.map((r) => compile(opts.spec, r, ajv));
  const logRequest = requestLogger(opts.logger, opts.logSample ?? 1);

  const send = (req: IncomingMessage, res: ServerResponse, url: string, store: Store, answer: ReadyAnswer, framework: () => void): void => {
    if (!answer) return framework();
    const body = Buffer.isBuffer(answer.body) ? answer.body : Buffer.from(JSON.stringify(answer.body));
    if (body.length >= COMPRESSED_FROM && ACCEPTS_COMPRESSION.test(req.headers['accept-encoding'] ?? '')) return framework();
    const id = setRequestId(req, res);
    setSafetyHeaders(res);
    setSimpleCors(res);
    logRequest?.(req, url, res, id);
    res.setHeader('Vary', 'Accept-Encoding');
    if (answer.next) res.setHeader('Link', linkTo(answer.next));
    res.setHeader('ETag', etagOf(store.buildId, 'GET', url));
    res.setHeader('Cache-Control', CACHE_CONTROL[answer.scope]);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', body.length);
    res.end(body);
  };

  return (req, res, framework) => {
    const url = req.url ?? '';
    if (notPlain(req)) return framework();
    const at = url.indexOf('?');
    const path = at < 0 ? url : url.slice(0, at);
    const found = firstMatch(compiled, path);
    const c = found?.entry;
    const params = found ? parameters(found.entry, found.match) : null;
    const query = c && params ? queryOf(c, at < 0 ? '' : url.slice(at + 1)) : null;
    const store = opts.stores.current();
    if (!c || !params || !query || !store) return framework();
    store.retain();
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      store.release();
    };
    res.on('close', release);
    const fallBack = () => {
      release();
      framework();
    };
    try {
      const answer = c.route.answer(store, { params, query, url });
      if (answer instanceof Promise) answer.then((a) => send(req, res, url, store, a, fallBack), fallBack);
      else send(req, res, url, store, answer, fallBack);
    } catch {
      fallBack();
    }
  };
}

// Answers held ready (a pre-rendered document, a summary or a search in memory), sent before the framework.
// Through Express, its router, the request validator and the middlewares, a point lookup costs several times
// the lookup itself (docs/architecture.md). Only a plain GET, or a POST of a small JSON body, of a path listed by
// a router is answered here; anything else goes to the framework, which answers it as it answers every
// request: If-None-Match, a client that accepts compression of a body of 1 KB or more, a parameter or body
// the contract refuses or does not declare (checked against the contract's own schemas), a body that is not
// plain JSON, a miss a route leaves to the framework (a name the resolver has to find) and any failure. A
// lookup's own refusal (an unknown name or release: an HttpError under 500) is sent here as the error handler
// would send it. An answer sent here has the bytes and headers the framework would have sent
// (test/ready-answers.test.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { Ajv, type ValidateFunction } from 'ajv';
import type { Logger } from 'pino';
import { describedHttpError, errorBody } from './errors.js';
import { HttpError } from '../read/errors.js';
import { ACCEPTS_COMPRESSION, corsHeaders, EXPOSED_HEADERS, requestLogger, setRequestId, setSafetyHeaders } from './every-request.js';
import { declaredJsonBody, declaredParameters, firstMatch, integerParam, templatePattern } from './operation-gate.js';
import { CACHE_CONTROL, etagOf, linkTo } from './send-answer.js';
import { type Scope } from '../read/releases.js';
import type { Store } from '../store/store.js';

/**
 * A lookup's answer when it is held ready (with its next page's URL, if paged), else null: the framework
 * answers, errors included. A POST's answer is never cached: its scope is not read.
 */
export type ReadyAnswer = { body: Buffer | object; scope: Scope; next?: string | null } | null;

/** A request as a ready route sees it: its parameters decoded, valid by the contract, the query's defaults set. */
export interface ReadyRequest {
  params: Record<string, string>;
  query: Record<string, string | number>;
  /** The path and query as sent (the ETag's and the next page's base). */
  url: string;
  /** A POST's JSON body, valid by the contract, its defaults set. */
  body?: unknown;
}

export interface ReadyRoute {
  /** The operation's path as the contract writes it, e.g. `/api/v1/species/{version}/{scientific_name}`. */
  path: string;
  /** GET unless said. */
  method?: 'get' | 'post';
  /** The answer; null (or a throw other than a refusal, an HttpError under 500) hands the request to the framework. */
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

/** The largest request body read here: a question or a search; a batch goes to the framework. */
const BODY_LIMIT = 16 * 1024;

/** The one media type a body is read as here; body-parser decodes any other charset, or refuses it. */
const PLAIN_JSON = /^application\/json\s*(;\s*charset="?utf-8"?\s*)?$/i;

interface Compiled {
  route: ReadyRoute;
  /** The path's literal beginning: a URL without it cannot match. */
  prefix: string;
  pattern: RegExp;
  /** Each path parameter's check, by name. */
  valid: Map<string, ValidateFunction>;
  query: Map<string, QueryParameter>;
  /** A POST's body check (with the contract's defaults set on the body). */
  body: ValidateFunction | null;
}

interface QueryParameter { required: boolean; integer: boolean; default: unknown; valid: ValidateFunction }

function compile(spec: Record<string, unknown>, route: ReadyRoute, ajv: Ajv): Compiled {
  // no trailing slash: the framework answers that spelling
  const { pattern, prefix } = templatePattern(route.path, false);
  const method = route.method ?? 'get';
  const valid = new Map(declaredParameters(spec, route.path, method, 'path').map((p) => [p.name, ajv.compile(p.schema)]));
  const query = new Map(declaredParameters(spec, route.path, method, 'query').map((p) => [p.name, {
    required: p.required, integer: p.schema.type === 'integer', default: p.schema.default, valid: ajv.compile(p.schema),
  }]));
  // a schema the contract names is compiled where it stands in the document (CONTRACT), so that its own
  // references resolve as the request validator resolves them
  const schema = method === 'post' ? declaredJsonBody(spec, route.path, method) : null;
  const body = schema ? ajv.compile(typeof schema.$ref === 'string' ? { $ref: `${CONTRACT}${schema.$ref}` } : schema) : null;
  return { route, prefix, pattern, valid, query, body };
}

/** The contract's key in the validators' Ajv. */
const CONTRACT = 'contract';

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

/** A GET only the framework can answer, whatever its path. */
function notPlain(req: IncomingMessage): boolean {
  const h = req.headers;
  return h['if-none-match'] !== undefined || (h['content-length'] !== undefined && h['content-length'] !== '0')
    || h['transfer-encoding'] !== undefined;
}

/**
 * The length of a POST's body when it is read here (plain JSON in UTF-8, of a stated length up to
 * BODY_LIMIT, not encoded), else null. A client that accepts compression is left to the framework before
 * the body is read: most answers to a POST are over 1 KB, and the body cannot be handed on once it is gone.
 */
function plainJsonLength(req: IncomingMessage): number | null {
  const h = req.headers;
  if (h['transfer-encoding'] !== undefined || h['content-encoding'] !== undefined || !PLAIN_JSON.test(h['content-type'] ?? '')
    || ACCEPTS_COMPRESSION.test(h['accept-encoding'] ?? '')) return null;
  const length = Number(h['content-length']);
  return Number.isInteger(length) && length > 0 && length <= BODY_LIMIT ? length : null;
}

/**
 * Reads `length` bytes of the body without ending the stream: `took` runs in the same turn as the last read,
 * so a body it does not take can be put back (unshift) before the stream ends, and the framework then reads
 * the request as if nothing had (body-parser's own errors included).
 */
function readBody(req: IncomingMessage, length: number, took: (bytes: Buffer) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const onReadable = (): void => {
    for (let chunk = req.read() as Buffer | null; chunk !== null; chunk = req.read() as Buffer | null) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= length) {
        req.off('readable', onReadable);
        took(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
        return;
      }
    }
  };
  req.on('readable', onReadable);
}

/** A JSON text's value when it is an object (what every body schema asks for), else null. */
function jsonObject(bytes: Buffer): object | null {
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * The server's request listener in front of the framework's: answers what is held ready, else calls
 * `framework`. The store is held from the lookup until the answer has gone, as a request through the
 * framework holds it (app.ts), so a rebuild swapped in meanwhile closes it only afterwards.
 */
export function readyAnswers(routes: ReadyRoute[], opts: ReadyOptions): (req: IncomingMessage, res: ServerResponse, framework: () => void) => void {
  const ajv = new Ajv({ strict: false, useDefaults: true });
  ajv.addSchema(opts.spec, CONTRACT);
  const compiled = routes.map((r) => compile(opts.spec, r, ajv));
  const gets = compiled.filter((c) => c.body === null);
  const posts = compiled.filter((c) => c.body !== null);
  const logRequest = requestLogger(opts.logger, opts.logSample ?? 1);
  // keys and limits send every request through the framework (app.ts): the plain list is the one sent here
  const setSimpleCors = corsHeaders(EXPOSED_HEADERS);

  /** Writes a JSON answer with the headers every answer has; false when the framework must send it (compressed). */
  const write = (req: IncomingMessage, res: ServerResponse, url: string, status: number, body: Buffer, headers: (res: ServerResponse) => void): boolean => {
    if (body.length >= COMPRESSED_FROM && ACCEPTS_COMPRESSION.test(req.headers['accept-encoding'] ?? '')) return false;
    const id = setRequestId(req, res);
    setSafetyHeaders(res);
    setSimpleCors(res);
    res.statusCode = status;
    logRequest?.(req, url, res, id);
    res.setHeader('Vary', 'Accept-Encoding');
    headers(res);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', body.length);
    res.end(body);
    return true;
  };

  const send = (req: IncomingMessage, res: ServerResponse, url: string, store: Store, answer: ReadyAnswer, framework: () => void): void => {
    if (!answer) return framework();
    const body = Buffer.isBuffer(answer.body) ? answer.body : Buffer.from(JSON.stringify(answer.body));
    const sent = write(req, res, url, 200, body, () => {
      if (answer.next) res.setHeader('Link', linkTo(answer.next));
      if (req.method === 'GET') {
        res.setHeader('ETag', etagOf(store.buildId, 'GET', url));
        res.setHeader('Cache-Control', CACHE_CONTROL[answer.scope]);
      } else {
        res.setHeader('Cache-Control', 'no-store');
      }
    });
    if (!sent) framework();
  };

  /**
   * A lookup's refusal (no such name, no such release) as the error handler would send it (errors.ts), so that a
   * miss is not looked up twice; anything else thrown (a failure) goes to the framework, which logs it.
   */
  const refuse = (req: IncomingMessage, res: ServerResponse, url: string, err: unknown, framework: () => void): void => {
    if (!(err instanceof HttpError) || err.status >= 500) return framework();
    const path = url.split('?', 1)[0]!;
    const body = Buffer.from(JSON.stringify(errorBody(path, describedHttpError(err))));
    if (!write(req, res, url, err.status, body, () => res.setHeader('Cache-Control', 'no-store'))) framework();
  };

  /** Answers `c` for `ready` with the store current now, or has the framework answer (`fallBack`). */
  const answer = (req: IncomingMessage, res: ServerResponse, c: Compiled, ready: ReadyRequest, fallBack: () => void): void => {
    const store = opts.stores.current();
    if (!store) return fallBack();
    store.retain();
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      store.release();
    };
    res.on('close', release);
    const handOn = () => {
      release();
      fallBack();
    };
    const failed = (err: unknown) => refuse(req, res, ready.url, err, handOn);
    try {
      const a = c.route.answer(store, ready);
      if (a instanceof Promise) a.then((x) => send(req, res, ready.url, store, x, handOn), failed);
      else send(req, res, ready.url, store, a, handOn);
    } catch (err) {
      failed(err);
    }
  };

  return (req, res, framework) => {
    const url = req.url ?? '';
    const at = url.indexOf('?');
    const path = at < 0 ? url : url.slice(0, at);
    if (req.method === 'GET') {
      const found = notPlain(req) ? null : firstMatch(gets, path);
      const c = found?.entry;
      const params = found ? parameters(found.entry, found.match) : null;
      const query = c && params ? queryOf(c, at < 0 ? '' : url.slice(at + 1)) : null;
      if (!c || !params || !query) return framework();
      return answer(req, res, c, { params, query, url }, framework);
    }
    // A POST's operation takes no query; its body is read only when nothing else sends it to the framework.
    const found = req.method === 'POST' && at < 0 ? firstMatch(posts, path) : null;
    const params = found ? parameters(found.entry, found.match) : null;
    const length = params ? plainJsonLength(req) : null;
    if (!found || !params || length === null) return framework();
    const c = found.entry;
    readBody(req, length, (bytes) => {
      const body = jsonObject(bytes);
      if (!body || !c.body!(body)) {
        req.unshift(bytes);
        return framework();
      }
      // let the stream end; a miss found later is handed on with the body as body-parser would have parsed it
      req.resume();
      answer(req, res, c, { params, query: {}, url, body }, () => {
        (req as IncomingMessage & { body?: unknown }).body = jsonObject(bytes);
        if (req.readableEnded) framework();
        else req.once('end', framework);
      });
    });
  };
}

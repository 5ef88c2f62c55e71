// Answers held ready (a pre-rendered document, a summary in memory), sent before the framework. Through
// Express, its router, the request validator and the middlewares, a point lookup costs several times the
// lookup itself (README, Serving). Only a plain GET of a path listed by a router is answered here; anything
// else goes to the framework, which answers it as it answers every request: a query string, a body,
// If-None-Match, a client that accepts compression of a body of 1 KB or more, a parameter the contract
// refuses (checked against the contract's own schemas), and every miss (no such document, a name the
// resolver has to find, an error). An answer sent here has the bytes and headers the framework would
// have sent (test/ready-answers.test.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Ajv, type ValidateFunction } from 'ajv';
import type { Logger } from 'pino';
import { ACCEPTS_COMPRESSION, requestLogger, setRequestId, setSafetyHeaders, setSimpleCors } from './front.js';
import { pathParameterSchemas } from './operations.js';
import { CACHE_CONTROL, etagOf, type Scope } from './respond.js';
import type { Store } from './store.js';

/** A lookup's answer when it is held ready, else null: the framework answers, errors included. */
export type ReadyAnswer = { body: Buffer | object; scope: Scope } | null;

export interface ReadyRoute {
  /** The operation's path as the contract writes it, e.g. `/api/v1/species/{version}/{scientific_name}`. */
  path: string;
  /** The answer from the path parameters (decoded and valid by the contract); a throw counts as null. */
  answer(store: Store, params: Record<string, string>): ReadyAnswer | Promise<ReadyAnswer>;
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
  names: string[];
  valid: ValidateFunction[];
}

function compile(spec: Record<string, unknown>, route: ReadyRoute, ajv: Ajv): Compiled {
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const literals = route.path.split(/\{\w+\}/);
  // a parameter is one non-empty path segment, as the router matches it
  const pattern = new RegExp(`^${literals.map((l) => l.replace(/[.*+?^$()|[\]\\]/g, '\\$&')).join('([^/]+)')}$`);
  const schemas = pathParameterSchemas(spec, route.path, 'get');
  return { route, prefix: literals[0]!, pattern, names, valid: names.map((n) => ajv.compile(schemas[n]!)) };
}

/** The parameters decoded as the router decodes them, when every one is valid by the contract; else null. */
function parameters(c: Compiled, match: RegExpExecArray): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (let i = 0; i < c.names.length; i++) {
    let value: string;
    try {
      value = decodeURIComponent(match[i + 1]!);
    } catch {
      return null;
    }
    if (!c.valid[i]!(value)) return null;
    params[c.names[i]!] = value;
  }
  return params;
}

/** A request only the framework can answer, whatever its path. */
function notPlain(req: IncomingMessage, url: string): boolean {
  const h = req.headers;
  return req.method !== 'GET' || url.includes('?') || h['if-none-match'] !== undefined
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
    res.setHeader('ETag', etagOf(store.buildId, 'GET', url));
    res.setHeader('Cache-Control', CACHE_CONTROL[answer.scope]);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', body.length);
    res.end(body);
  };

  return (req, res, framework) => {
    const url = req.url ?? '';
    if (notPlain(req, url)) return framework();
    let c: Compiled | undefined;
    let match: RegExpExecArray | null = null;
    for (const x of compiled) {
      if (url.startsWith(x.prefix) && (match = x.pattern.exec(url))) {
        c = x;
        break;
      }
    }
    const params = c && match ? parameters(c, match) : null;
    const store = opts.stores.current();
    if (!params || !store) return framework();
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
      const answer = c!.route.answer(store, params);
      if (answer instanceof Promise) answer.then((a) => send(req, res, url, store, a, fallBack), fallBack);
      else send(req, res, url, store, answer, fallBack);
    } catch {
      fallBack();
    }
  };
}

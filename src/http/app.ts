// createApp: middleware order, routers, 404 and the error handler. It never listens (server.ts does).
import compression from 'compression';
import cors from 'cors';
import express, { type Request, type RequestHandler } from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import swaggerUi from 'swagger-ui-express';
import { openApiDocument } from '../contract/openapi.js';
import { accessLimits, LIMIT_HEADERS, type AccessOptions } from './access-limits.js';
import { errorHandler, notFound } from './errors.js';
import { HttpError } from '../read/errors.js';
import { ACCEPTS_COMPRESSION, corsHeaders, EXPOSED_HEADERS, requestLogger, setRequestId, setSafetyHeaders } from './every-request.js';
import { contractTerms, operationGate } from './operation-gate.js';
import { requestValidator } from './request-validator.js';
import { metricsEndpoint, metricsOff } from './metrics.js';
import { aiAnswers, aiRouter, type AiAnswers } from '../routes/ai.js';
import { historicalRouter } from '../routes/historical.js';
import { searchRouter } from '../routes/search.js';
import { taxonomyRouter } from '../routes/taxonomy.js';
import { v1Router } from '../routes/v1.js';
import { bulkRouter } from '../routes/v1-bulk.js';
import { citationRouter } from '../routes/v1-citation.js';
import { historyRouter } from '../routes/v1-history.js';
import { resolveRouter } from '../routes/v1-resolve.js';
import { assetsRouter, pagesRouter } from '../routes/web.js';
import type { Store } from '../store/store.js';

/** Largest request body (a /resolve batch of 10,000 names fits). */
const BODY_LIMIT = '2mb';

/** What is served outside the contract: the contract itself, its explorer and the pages' files. */
const OUTSIDE_CONTRACT = /^\/(docs|assets|openapi\.json)(\/|$)/;

/** Holds the store currently served; server.ts swaps it when a rebuild lands. */
export interface StoreHolder {
  current(): Store | null;
  /** True once the server is shutting down: it finishes what it has, and is no longer ready for more. */
  draining?(): boolean;
}

declare module 'express-serve-static-core' {
  interface Request {
    store: Store;
  }
}

export interface AppOptions {
  stores: StoreHolder;
  logger: Logger;
  /** Share of requests logged, 0..1. */
  logSample?: number;
  /** /metrics served (true unless false); the counting itself wraps the server's listener (metrics.ts). */
  metrics?: boolean;
  /** Check every response against the contract (tests); costs throughput, so off in production. */
  validateResponses?: boolean;
  /** The answers /ai/query keeps (a new cache if not given). */
  aiAnswers?: AiAnswers;
  /** Rate limits and API keys (off when not given, or given nothing). */
  access?: AccessOptions;
  /** Addresses (or subnets) of the proxies whose X-Forwarded-For names the client; none: it is ignored. */
  trustedProxies?: string[];
}

export function createApp(opts: AppOptions): express.Express {
  const app = express();
  const spec = openApiDocument();
  app.disable('x-powered-by');
  // Express' weak ETag hashes every body; ours are derived from the build id and the resource (respond.ts).
  app.set('etag', false);
  app.set('query parser', 'simple');
  // req.ip, which the rate limits count by, is the client X-Forwarded-For names only behind these
  if (opts.trustedProxies?.length) app.set('trust proxy', opts.trustedProxies);
  const limits = accessLimits(opts.access ?? {});
  app.locals.validateResponses = opts.validateResponses ?? false;

  // What every request meets, /docs and the pages' files included.
  app.use((req, res, next) => {
    res.locals.requestId = setRequestId(req, res);
    // A request line may name the whole URL (absolute form, as proxies send it). Express routes such a
    // request by its path already; the request validator reads originalUrl, so that becomes the path too.
    if (req.originalUrl.charCodeAt(0) !== 47) {
      try {
        const u = new URL(req.originalUrl);
        req.originalUrl = u.pathname + u.search;
      } catch {
        // not a URL either: left for the 404
      }
    }
    setSafetyHeaders(res);
    // HTTP/1.1 requires it (RFC 9112, 3.2); Node would refuse it itself, with an empty body (server.ts)
    if (req.headers.host === undefined && req.httpVersion === '1.1') throw new HttpError(400, 'an HTTP/1.1 request needs a Host header');
    next();
  });
  // A public, read-only API with no credentials: any origin may read every answer. A preflight gets its
  // headers here and its 204 from operationGate, which knows the paths (an unknown path is a 404, a
  // preflight included). Max-age: browsers cap it lower anyway (Chromium at two hours). Any other request
  // gets the two headers cors would set for it, without cors's per-request option handling.
  const exposed = limits.length > 0 ? [...EXPOSED_HEADERS, ...LIMIT_HEADERS] : EXPOSED_HEADERS;
  const preflight = cors({ origin: '*', methods: ['GET', 'HEAD', 'POST', 'OPTIONS'], maxAge: 86400, preflightContinue: true, exposedHeaders: exposed });
  const simpleCors = corsHeaders(exposed);
  app.use((req, res, next) => {
    if (req.method === 'OPTIONS') return preflight(req, res, next);
    simpleCors(res);
    next();
  });

  // One log line per request (LOG_SAMPLE thins them).
  const logRequest = requestLogger(opts.logger, opts.logSample ?? 1);
  if (logRequest) {
    app.use((req, res, next) => {
      logRequest(req, req.originalUrl, res, res.locals.requestId as string);
      next();
    });
  }
  // compression wraps every response it passes, even one it will not compress; a client that accepts no
  // encoding gets none, so it skips the wrapping (measured: ~25% of a point lookup). Bodies under 1 KB
  // are never compressed.
  // Bulk downloads are files sent with an encoding of their own (routes/v1-bulk.ts): they skip it too.
  const compress = compression({ threshold: 1024 });
  app.use((req, res, next) => {
    if (!ACCEPTS_COMPRESSION.test(req.headers['accept-encoding'] ?? '') || req.path.startsWith('/api/v1/bulk/')) {
      // Nothing earlier sets Vary, so this is what res.vary() would do, without parsing the header first.
      res.setHeader('Vary', 'Accept-Encoding');
      return next();
    }
    return compress(req, res, next);
  });
  // Keys and limits before anything costs: a refused request is not validated, let alone answered.
  if (limits.length > 0) app.use(limits);

  // The contract: what every operation's request must be, checked before any handler runs, in one router
  // that a request enters only when its path is in the contract (the explorer, the contract itself and the
  // pages' files are not).
  const contract = express.Router();
  // Only requests with a body meet the parsers.
  const json = express.json({ limit: BODY_LIMIT });
  const text = express.text({ type: ['text/csv', 'text/plain'], limit: BODY_LIMIT });
  contract.use(operationGate(spec), (req, res, next) => {
    const bodyTypes = res.locals.bodyTypes as string[] | undefined;
    const sent = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    // The validator lets an operation whose body the contract requires run without one; this does not. A
    // body of a type the operation does not take goes on to the validator, which answers 415.
    if (bodyTypes && !sent) throw new HttpError(400, `${req.method} ${req.path} needs a body of type ${bodyTypes.join(' or ')}`);
    if (!sent) return next();
    json(req, res, (err?: unknown) => (err ? next(err) : text(req, res, next)));
  }, requestValidator(withRawSubDelimiters(spec), { validateResponses: opts.validateResponses ?? false }));
  app.use((req, res, next) => (OUTSIDE_CONTRACT.test(req.path) ? next() : contract(req, res, next)));

  // Every request holds on to the store it started with, so a rebuild swapped in meanwhile never pulls
  // the data out from under it; the old store closes when its last request has finished.
  const withStore: RequestHandler = (req: Request, res, next) => {
    const store = opts.stores.current();
    if (!store) throw new HttpError(503, 'the data set is still loading; retry in a few seconds');
    req.store = store;
    store.retain();
    res.on('close', () => store.release());
    next();
  };
  app.use('/api/v1', withStore, v1Router(), historyRouter(), resolveRouter(), citationRouter(), bulkRouter());
  app.use('/taxonomy', withStore, taxonomyRouter());
  app.use('/historical', withStore, historicalRouter());
  app.use('/search', withStore, searchRouter());
  app.use('/ai', withStore, aiRouter(opts.aiAnswers ?? aiAnswers()));

  app.get('/openapi.json', (_req, res) => { res.json(spec); });
  // Swagger UI is the one HTML page: helmet's defaults (a self-only CSP, framing refused) fit it, except
  // upgrade-insecure-requests, which would send its scripts to https:// on a site served over plain HTTP.
  const pageHeaders = helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } });
  app.use('/docs', pageHeaders, docsRouter(spec));

  // The pages' scripts, styles and plotting library: files, left out of the contract like /docs.
  app.use('/assets', assetsRouter());

  // /health and the pages need no data set (the pages' scripts ask the API). All of these come after the
  // API, which most requests are for, so those never walk past them.
  app.get('/health', (_req, res) => {
    const store = opts.stores.current();
    res.set('Cache-Control', 'no-store').json({ status: store ? 'ok' : 'starting', build_id: store?.buildId ?? null, documents: store?.docsSource ?? null });
  });
  // Readiness, for load balancers and Kubernetes (liveness is /health): a verified build is loaded and the
  // server is not shutting down.
  app.get('/ready', (_req, res) => {
    const store = opts.stores.current();
    const status = opts.stores.draining?.() ? 'draining' : store ? 'ready' : 'loading';
    res.status(status === 'ready' ? 200 : 503).set('Cache-Control', 'no-store').json({ ready: status === 'ready', status, build_id: store?.buildId ?? null });
  });
  app.get('/metrics', opts.metrics === false ? metricsOff : metricsEndpoint);
  app.use(pagesRouter());
  app.use(notFound);
  app.use(errorHandler(contractTerms(spec), (err) => opts.logger.error({ err }, 'request failed')));
  return app;
}

/**
 * The contract as the request validator is given it: every query parameter with `allowReserved`. The
 * contract writes none (a client percent-encodes reserved characters, the one serialisation that cannot be
 * misread), but the server also reads those RFC 3986 lets a query hold as they are (`/ ? : @ ! $ ' ( ) * , ;`,
 * which encodeURIComponent and URLSearchParams leave raw) and `+` as a space (as forms send it): the
 * validator would refuse them, and `allowReserved` changes nothing else it checks. `&`, `=` and `#` end a
 * value whatever the contract says.
 */
function withRawSubDelimiters(spec: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(spec) as { paths: Record<string, Record<string, { parameters?: Array<Record<string, unknown>> }>>; components?: { parameters?: Record<string, Record<string, unknown>> } };
  const lenient = (p: Record<string, unknown>) => { if (p.in === 'query') p.allowReserved = true; };
  for (const item of Object.values(copy.paths)) for (const op of Object.values(item)) op.parameters?.forEach(lenient);
  Object.values(copy.components?.parameters ?? {}).forEach(lenient);
  return copy;
}

/**
 * /docs: Swagger UI's page at /docs/ and its files beside it; anything else is the JSON 404 every unknown
 * path gets (swagger-ui-express alone answers any other path under it with the page, and a path ending in
 * package.json with a text/plain 404).
 */
function docsRouter(spec: Record<string, unknown>): express.Router {
  const router = express.Router({ strict: true });
  const page = swaggerUi.setup(spec, { customSiteTitle: 'Viral Taxonomy Query Service' });
  router.get('/', (req, res, next) => (req.originalUrl.split('?')[0]!.endsWith('/') ? page(req, res, next) : res.redirect(301, `${req.baseUrl}/`)));
  router.use((req: express.Request, _res: express.Response, next: express.NextFunction) => next(req.path.endsWith('/package.json') ? 'router' : undefined), swaggerUi.serve);
  return router;
}

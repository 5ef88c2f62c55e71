// One error class, one middleware. /api/v1 answers {detail}; every other route {error, detail, type}.
import type { ErrorRequestHandler, RequestHandler } from 'express';

const TYPES: Record<number, string> = {
  400: 'BadRequest', 404: 'NotFound', 405: 'MethodNotAllowed', 413: 'PayloadTooLarge', 415: 'UnsupportedMediaType',
  422: 'ValidationError', 500: 'InternalServerError', 501: 'NotImplemented', 503: 'ServiceUnavailable',
};
const TITLES: Record<number, string> = {
  400: 'Bad request', 404: 'Not found', 405: 'Method not allowed', 413: 'Payload too large', 415: 'Unsupported media type',
  422: 'Validation error', 500: 'Internal server error', 501: 'Not implemented', 503: 'Service unavailable',
};

export class HttpError extends Error {
  constructor(readonly status: number, message: string, readonly type: string = TYPES[status] ?? 'Error', readonly extra: Record<string, unknown> = {}) {
    super(message);
    this.name = 'HttpError';
  }
}

export const notFound: RequestHandler = (req) => {
  throw new HttpError(404, `no route for ${req.method} ${req.path}`);
};

/** Errors thrown by express-openapi-validator, body-parser and our routes, mapped to one shape. */
interface LibraryError {
  status?: number;
  statusCode?: number;
  type?: string;
  message?: string;
  errors?: Array<{ path?: string; message?: string; errorCode?: string }>;
}

export function errorHandler(log: (err: unknown) => void): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const { status, detail, type, extra } = describe(err, req.path, req.method);
    if (status >= 500) log(err);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.set('Cache-Control', 'no-store');
    if (req.path.startsWith('/api/v1/') || req.path === '/api/v1') {
      res.status(status).json({ detail, ...extra });
    } else {
      res.status(status).json({ error: TITLES[status] ?? 'Error', detail, type, ...extra });
    }
  };
}

function describe(err: unknown, path: string, method: string): { status: number; detail: string; type: string; extra: Record<string, unknown> } {
  if (err instanceof HttpError) return { status: err.status, detail: err.message, type: err.type, extra: err.extra };
  const e = err as LibraryError;
  const status = e.status ?? e.statusCode ?? 500;
  if (status >= 500 || status < 400) return { status: 500, detail: 'internal error; the failure has been logged', type: TYPES[500]!, extra: {} };
  if (e.type === 'entity.parse.failed') return { status: 400, detail: 'request body is not valid JSON', type: 'BadRequest', extra: {} };
  if (e.type === 'entity.too.large') return { status: 413, detail: 'request body is too large', type: TYPES[413]!, extra: {} };
  const first = e.errors?.[0];
  if (status === 400 && first) {
    // A missing required body field or a body field of the wrong type is a 422 (spec section 7); a bad
    // path or query parameter stays a 400.
    const inBody = (first.path ?? '').startsWith('/body');
    const detail = `${(first.path ?? '').replace(/^\//, '').replaceAll('/', '.')} ${first.message ?? 'is invalid'}`.trim();
    return inBody ? { status: 422, detail, type: TYPES[422]!, extra: {} } : { status: 400, detail, type: TYPES[400]!, extra: {} };
  }
  if (status === 404) return { status: 404, detail: `no route for ${method} ${path}`, type: TYPES[404]!, extra: {} };
  if (status === 405) return { status: 405, detail: `method ${method} is not allowed on ${path}`, type: TYPES[405]!, extra: {} };
  return { status, detail: e.message ?? TITLES[status] ?? 'error', type: TYPES[status] ?? 'Error', extra: {} };
}

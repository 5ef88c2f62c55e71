// One error class, one middleware. /api/v1 answers {detail}; every other route {error, detail, type}.
// Messages name what was wrong in the user's terms (the parameter, the value, what is expected), never the
// validator's internals: a user reads 'query parameter "depth" must be an integer from 1 to 15', not an
// ajv path.
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';

const TYPES: Record<number, string> = {
  400: 'BadRequest', 404: 'NotFound', 405: 'MethodNotAllowed', 406: 'NotAcceptable', 413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType', 422: 'ValidationError', 429: 'TooManyRequests', 500: 'InternalServerError',
  501: 'NotImplemented', 503: 'ServiceUnavailable',
};
const TITLES: Record<number, string> = {
  400: 'Bad request', 404: 'Not found', 405: 'Method not allowed', 406: 'Not acceptable', 413: 'Payload too large',
  415: 'Unsupported media type', 422: 'Validation error', 429: 'Too many requests', 500: 'Internal server error',
  501: 'Not implemented', 503: 'Service unavailable',
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

/** What the contract says that error messages quote: the body types an operation takes, what a pattern means. */
export interface ContractTerms {
  bodyTypes(method: string, path: string): string[];
  /** The `x-expected` text of the schema whose pattern is this one. */
  patternMeaning(pattern: string): string | undefined;
  /** The `x-expected` text of an operation's body schema: the rule a body as a whole must follow. */
  bodyRule(method: string, path: string): string | undefined;
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

export function errorHandler(terms: ContractTerms, log: (err: unknown) => void): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const { status, detail, type, extra } = describe(err, req, terms);
    if (status >= 500) log(err);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.setHeader('Cache-Control', 'no-store');
    // A 304 or an ETag set before the failure must not describe the error body.
    res.removeHeader('ETag');
    if (req.path.startsWith('/api/v1/') || req.path === '/api/v1') {
      res.status(status).json({ detail, ...extra });
    } else {
      res.status(status).json({ error: TITLES[status] ?? 'Error', detail, type, ...extra });
    }
  };
}

interface Described { status: number; detail: string; type: string; extra: Record<string, unknown> }

const described = (status: number, detail: string): Described => ({ status, detail, type: TYPES[status] ?? 'Error', extra: {} });

function describe(err: unknown, req: Request, terms: ContractTerms): Described {
  if (err instanceof HttpError) return { status: err.status, detail: err.message, type: err.type, extra: err.extra };
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
  if (status === 400 && rule) return described(422, `the body must have ${rule}`);
  const first = e.errors?.[0];
  if (status === 400 && first) {
    const [, where = '', ...rest] = (first.path ?? '').split('/');
    const field = rest.join('.');
    const message = plain(first.message ?? 'is invalid', first.errorCode, terms);
    // A body that misses a required field or has one of the wrong type is a 422 (spec section 7); a bad
    // path or query parameter stays a 400.
    if (where === 'body') return described(422, field ? `body field '${field}' ${message}` : `the body ${message}`);
    const value = where === 'query' ? req.query[field] : where === 'params' ? (req.res?.locals.pathParams as Record<string, string> | undefined)?.[field] : undefined;
    const shown = typeof value === 'string' ? `; got '${(where === 'params' ? safeDecode(value) : value).slice(0, 60)}'` : '';
    const kind = where === 'params' ? 'path parameter' : where === 'query' ? 'query parameter' : where === 'headers' ? 'header' : 'parameter';
    return described(400, `${kind} '${field}' ${message}${shown}`);
  }
  return described(status, e.message ?? TITLES[status] ?? 'error');
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** An ajv message in plain words; a pattern is replaced by what it stands for. */
function plain(message: string, code: string | undefined, terms: ContractTerms): string {
  const pattern = /^must match pattern "(.*)"$/.exec(message);
  if (pattern) {
    const meaning = terms.patternMeaning(pattern[1]!);
    return meaning ? `must be ${meaning}` : message;
  }
  if (code === 'additionalProperties.openapi.validation' || /must NOT have additional properties/.test(message)) return message.replace('must NOT have additional properties', 'is not a field this operation takes');
  return message.replace(/^Unknown query parameter '.*'$/, 'is not a parameter of this operation')
    .replace(/^Empty value found for query parameter '.*'$/, 'must not be empty')
    .replace('must NOT have fewer than', 'must have at least').replace('must NOT have more than', 'must have at most')
    .replace('must be equal to one of the allowed values:', 'must be one of:');
}

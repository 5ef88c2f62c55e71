// The one error class: a question the read layer (or a route) refuses, with the HTTP status that says why.
// The read layer throws it where it finds the fault (an unknown release, a name that matches nothing); the
// HTTP layer's one error middleware (http/errors.ts) writes it in the documented shape.

export const TYPES: Record<number, string> = {
  400: 'BadRequest', 401: 'Unauthorized', 404: 'NotFound', 405: 'MethodNotAllowed', 406: 'NotAcceptable', 413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType', 422: 'ValidationError', 429: 'TooManyRequests', 500: 'InternalServerError',
  501: 'NotImplemented', 503: 'ServiceUnavailable',
};
export class HttpError extends Error {
  constructor(readonly status: number, message: string, readonly type: string = TYPES[status] ?? 'Error', readonly extra: Record<string, unknown> = {}) {
    super(message);
    this.name = 'HttpError';
  }
}


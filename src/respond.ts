// Sending a JSON answer with HTTP caching. Every answer of one build is immutable, so a strong ETag is
// the build id plus a hash of the request URL: computing it costs a hash of a short string, never of the
// body. Release-scoped answers (a version in the path) may be cached for a day; "latest" ones (no version,
// or the word latest) only for minutes, since a new release changes what they mean.
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';

export type Scope = 'release' | 'latest';

const CACHE_CONTROL: Record<Scope, string> = {
  release: 'public, max-age=86400',
  latest: 'public, max-age=300',
};

function etagFor(req: Request): string {
  const h = createHash('sha1').update(`${req.method} ${req.originalUrl}`).digest('base64url').slice(0, 16);
  return `"${req.store.buildId}-${h}"`;
}

/** Sets the caching headers; returns true when the client's copy is current and a 304 has been sent. */
export function notModified(req: Request, res: Response, scope: Scope): boolean {
  const etag = etagFor(req);
  res.set('ETag', etag);
  res.set('Cache-Control', CACHE_CONTROL[scope]);
  const match = req.headers['if-none-match'];
  if (match && match.split(',').some((t) => t.trim() === etag || t.trim() === `W/${etag}`)) {
    res.status(304).end();
    return true;
  }
  return false;
}

/**
 * Sends a JSON body that may already be serialised: pre-rendered documents are sent as the bytes they are
 * stored as. With response validation on (tests), the body goes through res.json so the validator sees it.
 */
export function sendJson(req: Request, res: Response, body: unknown, scope: Scope): void {
  if (notModified(req, res, scope)) return;
  if (Buffer.isBuffer(body)) {
    if (req.app.locals.validateResponses) res.json(JSON.parse(body.toString()));
    else res.type('application/json').send(body);
  } else {
    res.json(body);
  }
}

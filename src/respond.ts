// Sending a JSON answer with HTTP caching. Every answer of one build is immutable, so a strong ETag is
// the build id plus a hash of the request URL: computing it costs a hash of a short string, never of the
// body. Release-scoped answers (a version in the path) may be cached for a day; "latest" ones (no version,
// or the word latest) only for minutes, since a new release changes what they mean.
// Point lookups are the hot path, so headers are set with setHeader and documents sent with end():
// res.set and res.send redo work already done here (charset handling, a second freshness check).
import type { Request, Response } from 'express';
import { eachInSlices } from './slices.js';

export type Scope = 'release' | 'latest';

const CACHE_CONTROL: Record<Scope, string> = {
  release: 'public, max-age=86400',
  latest: 'public, max-age=300',
};

/**
 * 64 bits of FNV-1a over the method and URL, in two 32-bit lanes. The hash only has to tell one URL's
 * answers apart (the build id tells builds apart), not resist forgery; sha1 cost ~9 us a request here.
 */
function urlHash(method: string, url: string): string {
  let a = 0x811c9dc5;
  let b = 0xcbf29ce4;
  const s = `${method} ${url}`;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

function etagFor(req: Request): string {
  return `"${req.store.buildId}-${urlHash(req.method, req.originalUrl)}"`;
}

/** Sets the caching headers; returns true when the client's copy is current and a 304 has been sent. */
export function notModified(req: Request, res: Response, scope: Scope): boolean {
  const etag = etagFor(req);
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', CACHE_CONTROL[scope]);
  const match = req.headers['if-none-match'];
  // '*' matches any current representation (RFC 9110 13.1.2); a weak comparison, as the RFC asks for GET
  if (match && (match.trim() === '*' || match.split(',').some((t) => t.trim() === etag || t.trim() === `W/${etag}`))) {
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
    else {
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.setHeader('Content-Length', body.length);
      res.end(body);
    }
  } else {
    res.json(body);
  }
}

/**
 * res.json({ ...head, [key]: items.map(show) }), the same bytes and headers, with the list serialised in
 * slices (slices.ts): a batch of 10,000 results is tens of milliseconds of JSON.stringify in one piece.
 * With response validation on (tests), the body goes through res.json so the validator sees it.
 */
export async function sendJsonList<T>(req: Request, res: Response, head: Record<string, unknown>, key: string, items: readonly T[],
  show: (item: T) => unknown): Promise<void> {
  if (req.app.locals.validateResponses) {
    res.json({ ...head, [key]: items.map(show) });
    return;
  }
  const opening = JSON.stringify(head);
  const parts = [`${opening.slice(0, -1)}${opening === '{}' ? '' : ','}${JSON.stringify(key)}:[`];
  await eachInSlices(items, (item, i) => parts.push(`${i > 0 ? ',' : ''}${JSON.stringify(show(item))}`));
  parts.push(']}');
  const body = Buffer.from(parts.join(''));
  if (!res.get('Content-Type')) res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', body.length);
  res.end(body);
}

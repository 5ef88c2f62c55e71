// Sending a JSON answer with HTTP caching. Every answer of one build is immutable, so a strong ETag is
// the build id plus a hash of the request URL: computing it costs a hash of a short string, never of the
// body. Release-scoped answers (a version in the path) may be cached for a day; "latest" ones (no version,
// or the word latest) only for minutes, since a new release changes what they mean.
// Point lookups are the hot path, so headers are set with setHeader and documents sent with end():
// res.set and res.send redo work already done here (charset handling, a second freshness check).
import { open } from 'node:fs/promises';
import type { Socket } from 'node:net';
import type { Request, Response } from 'express';
import { openingWith } from '../read/json-text.js';
import type { Scope } from '../read/releases.js';
import { nextTurn } from '../read/slices.js';

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

/** The ETag of the answer to `method url` from the build `buildId`. */
function etagOf(buildId: string, method: string, url: string): string {
  return `"${buildId}-${urlHash(method, url)}"`;
}

/** Sets the caching headers; returns true when the client's copy is current and a 304 has been sent. */
export function notModified(req: Request, res: Response, scope: Scope): boolean {
  const etag = etagOf(req.store.buildId, req.method, req.originalUrl);
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
 * The next page of a paged answer as a link: the URL asked with `offset` moved on by `limit`, or null on
 * the last page. It is set as a `Link: <...>; rel="next"` header (RFC 8288) and returned for the body's
 * `next`. A path-absolute URL: the service cannot know the scheme and host a proxy in front of it is
 * reached by, and a client resolves it against the URL it asked.
 */
export function nextPage(req: Request, res: Response, page: Page): string | null {
  const next = nextPageOf(req.originalUrl, page);
  if (next) res.setHeader('Link', linkTo(next));
  return next;
}

export interface Page { total: number; limit: number; offset: number }

/** The next page's URL after `url` (nextPage), or null on the last page. */
export function nextPageOf(url: string, page: Page): string | null {
  if (page.offset + page.limit >= page.total) return null;
  const at = url.indexOf('?');
  const query = new URLSearchParams(at < 0 ? '' : url.slice(at + 1));
  query.set('offset', String(page.offset + page.limit));
  return `${at < 0 ? url : url.slice(0, at)}?${query.toString()}`;
}

/** The Link header naming the next page. */
export const linkTo = (next: string): string => `<${next}>; rel="next"`;

/**
 * Sends a JSON body that may already be serialised: pre-rendered documents are sent as the bytes they are
 * stored as. With response validation on (tests), the body goes through res.json so the validator sees it.
 */
export function sendJson(req: Request, res: Response, body: unknown, scope: Scope): void {
  if (notModified(req, res, scope)) return;
  endJson(req, res, body);
}

/** A body of another type than JSON, made whole (an Arrow stream of a page), with the same caching as JSON. */
export function sendBytes(req: Request, res: Response, body: Uint8Array, type: string, scope: Scope): void {
  if (notModified(req, res, scope)) return;
  res.setHeader('Content-Type', type);
  res.setHeader('Content-Length', body.byteLength);
  res.end(body);
}

/** A JSON answer that is never cached: a POST's (its URL does not name the answer) or the service's state. */
export function sendUncached(req: Request, res: Response, body: unknown): void {
  res.setHeader('Cache-Control', 'no-store');
  endJson(req, res, body);
}

/**
 * The body as res.json would send it (JSON.stringify, UTF-8, its length), written with setHeader and end:
 * res.json and res.send redo work for every answer (the charset through a MIME lookup, a freshness check
 * that notModified has done, an ETag that the app turns off).
 */
function endJson(req: Request, res: Response, body: unknown): void {
  if (req.app.locals.validateResponses) {
    res.json(Buffer.isBuffer(body) ? JSON.parse(body.toString()) : body);
    return;
  }
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', bytes.length);
  res.end(bytes);
}

/**
 * Text gathered piece by piece as UTF-8 buffers of about CHUNK_CHARS characters each: a body of megabytes
 * is never joined into one string nor encoded in one go (either held the event loop for milliseconds).
 */
class Utf8Chunks {
  static readonly CHUNK_CHARS = 65_536;
  readonly buffers: Buffer[] = [];
  bytes = 0;
  private pending: string[] = [];
  private chars = 0;

  push(text: string): void {
    this.pending.push(text);
    this.chars += text.length;
    if (this.chars >= Utf8Chunks.CHUNK_CHARS) this.flush();
  }

  flush(): void {
    if (this.pending.length === 0) return;
    const buffer = Buffer.from(this.pending.join(''));
    this.buffers.push(buffer);
    this.bytes += buffer.length;
    this.pending = [];
    this.chars = 0;
  }

  /** Sends the text as the body, after `before`, with its Content-Length. */
  send(res: Response, before = ''): void {
    this.flush();
    const opening = Buffer.from(before);
    res.setHeader('Content-Length', opening.length + this.bytes);
    if (opening.length > 0) res.write(opening);
    for (const b of this.buffers) res.write(b);
    res.end();
  }
}

/**
 * res.json({ ...head(), [key]: items }), the same bytes and headers, where the items come as JSON text a piece
 * at a time (the items of a slice, a comma before each but the first) and the head is known only once the last
 * piece is out (a summary of the items): the pieces are held as UTF-8 buffers, never as the objects they were
 * made from, and the head is written before them. With response validation on (tests), the body goes through
 * res.json so the validator sees it.
 */
export async function sendJsonPieces(req: Request, res: Response, key: string, pieces: AsyncIterable<string>,
  head: () => Record<string, unknown>): Promise<void> {
  const items = new Utf8Chunks();
  for await (const piece of pieces) items.push(piece);
  items.push(']}');
  const before = `${openingWith(head(), key)}[`;
  if (req.app.locals.validateResponses) {
    items.flush();
    res.json(JSON.parse(before + Buffer.concat(items.buffers).toString()));
    return;
  }
  if (!res.get('Content-Type')) res.setHeader('Content-Type', 'application/json; charset=utf-8');
  items.send(res, before);
}

/** A CSV body written piece by piece (pieces: the CSV text of a few hundred rows each), as sendJsonPieces does. */
export async function sendCsvPieces(res: Response, pieces: AsyncIterable<string>): Promise<void> {
  const body = new Utf8Chunks();
  for await (const piece of pieces) body.push(piece);
  res.type('text/csv; charset=utf-8');
  body.send(res);
}

/** Bytes of a file body read and written per step; each response reads into one buffer of this size. */
const FILE_STEP_BYTES = 256 * 1024;

/**
 * A file of `bytes` bytes as the body (bulk downloads), read into one buffer per response that is reused for
 * every step once the socket has taken the step before, one step per turn of the sliced work. A stream of the file would allocate a buffer per
 * chunk: six downloads at once made tens of megabytes of short-lived buffers a second, whose external
 * memory set V8 collecting garbage every few hundred milliseconds and held lookups up for tens of them.
 */
export async function sendFile(res: Response, path: string, bytes: number): Promise<void> {
  // The buffer is reused once write() calls back, which a wrapper of write() (compression's) never does:
  // such a response would hang, so it is refused outright.
  if (Object.hasOwn(res, 'write')) throw new Error('sendFile: the response has a wrapped write(); skip the wrapper for this route');
  res.setHeader('Content-Length', bytes);
  if (res.req.method === 'HEAD') {
    res.end();
    return;
  }
  // the request's connection as well as the response: see written()
  const connection = res.req.socket;
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafeSlow(Math.max(1, Math.min(FILE_STEP_BYTES, bytes)));
    for (let at = 0; at < bytes && !res.destroyed && !connection.destroyed;) {
      const { bytesRead } = await file.read(buffer, 0, Math.min(buffer.length, bytes - at), at);
      if (bytesRead === 0) throw new Error(`${path} ended at byte ${at} of ${bytes}`);
      at += bytesRead;
      await written(res, buffer.subarray(0, bytesRead), connection);
      // Downloads take their steps in the queue of sliced work (slices.ts): one step a turn among all of
      // them and the batches, with lookups answered between.
      await nextTurn();
    }
  } finally {
    await file.close();
  }
  if (!res.destroyed && !connection.destroyed) res.end();
}

/** Writes a chunk and settles when the socket has taken it, or when the client has gone. */
function written(res: Response, chunk: Buffer, connection: Socket): Promise<void> {
  return new Promise((resolve) => {
    // Node drops a write to a socket already destroyed without calling it back, and the response's 'close' may
    // have come while the file was read: waiting then would never end (the file handle left to the garbage
    // collector, which warned of it under the bench's downloads). A response with no socket yet (one pipelined
    // behind another on its connection) is written as ever: Node holds its bytes until the socket is its; but
    // if that connection closes first, such a response never gets 'close' nor the write's callback, so the
    // connection's own close counts too.
    if (res.destroyed || connection.destroyed) {
      resolve();
      return;
    }
    const done = () => {
      res.off('close', done);
      connection.off('close', done);
      resolve();
    };
    res.once('close', done);
    connection.once('close', done);
    res.write(chunk, done);
  });
}

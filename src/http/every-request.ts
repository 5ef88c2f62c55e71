// What every answer carries (app.ts): the request id, the safety headers, CORS for a simple request, the log
// line.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';

/**
 * A client's X-Request-Id is kept when it is one token a log line and a header can carry as they are
 * (letters, digits and `-_.:@/+=`, up to 128 characters), so a caller's trace id follows its request;
 * anything else is replaced, never cleaned up into something the caller did not send.
 */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/**
 * Response headers a script on another origin may read (CORS safelists only a few others): the validator
 * for If-None-Match, the request id to quote in a report, the next page's link, a download's file name,
 * the methods a path has.
 */
export const EXPOSED_HEADERS = ['ETag', 'X-Request-Id', 'Link', 'Content-Disposition', 'Allow'];

/** A client that accepts an encoding the service compresses with (bodies of 1 KB or more). */
export const ACCEPTS_COMPRESSION = /\b(gzip|deflate|br)\b/;

/** Sets the request id (the client's when sane, else a new one) and returns it. */
export function setRequestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/**
 * Every answer: no MIME sniffing, and (for anything a browser might render) no scripts, no framing. The HTML
 * pages (routes/web.ts) and /docs replace the policy with ones that let them run.
 */
export function setSafetyHeaders(res: ServerResponse): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
}

/** The CORS headers of a simple request (not a preflight), as the cors middleware sets them for any origin. */
export function corsHeaders(exposed: string[]): (res: ServerResponse) => void {
  const list = exposed.join(',');
  return (res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Expose-Headers', list);
  };
}

/**
 * One log line per request, written when the response has gone, for a `sample` share of requests (null
 * when the level is off or the share is 0). Hand-rolled over pino rather than pino-http: pino-http builds a
 * child logger and serialisers per request whatever the level, which cost ~35% of a point lookup's
 * throughput here (bench/).
 */
export function requestLogger(logger: Logger, sample: number): ((req: IncomingMessage, url: string, res: ServerResponse, id: string) => void) | null {
  if (!logger.isLevelEnabled('info') || sample <= 0) return null;
  return (req, url, res, id) => {
    if (sample < 1 && Math.random() >= sample) return;
    const t0 = performance.now();
    // on, not once: a response finishes once, and once() wraps the listener on every request. Before Node's own
    // listener, which ends the request's part in the connection: after it, under load, the request and its
    // response were kept past V8's young-generation collections and filled the old one (bench/message-classes.ts
    // reads the same effect from V8's GC trace).
    res.prependListener('finish', () => logger.info({
      // an API key given in the query is never written to the log
      method: req.method, url: url.includes('api_key=') ? url.replace(/([?&]api_key=)[^&]*/g, '$1[redacted]') : url, status: res.statusCode, request_id: id, ms: Math.round((performance.now() - t0) * 1000) / 1000,
    }, 'request'));
  };
}

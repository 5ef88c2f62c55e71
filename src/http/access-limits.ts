// Rate limits and API keys for a public deployment, both off unless configured (the interface specification:
// no limits "currently"). As NCBI's E-utilities and GBIF do it: anonymous clients get a limit per address, a
// client with a key a limit of its own (or none). express-rate-limit does the counting, in this process:
// each replica counts its own share (docs/operations.md says how to count at the load balancer instead).
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import { HttpError } from '../read/errors.js';

export interface AccessOptions {
  /** Requests a minute an anonymous client (one address, an IPv6 /56) may send; unset: no limit. */
  perMinute?: number;
  /** Requests a minute a client with a key may send; unset: no limit. */
  keyedPerMinute?: number;
  /** Lines `NAME sha256:HEX`, HEX the SHA-256 of the key; unset: keys are not asked for, and ignored. */
  keysFile?: string;
}

/** Whether anything is configured: otherwise nothing of this runs. */
const accessConfigured = (opts: AccessOptions): boolean =>
  opts.keysFile !== undefined || opts.perMinute !== undefined || opts.keyedPerMinute !== undefined;

/** The headers a script on another origin may read when limits are on. */
export const LIMIT_HEADERS = ['RateLimit', 'RateLimit-Policy', 'Retry-After'];

/** Paths never limited: the load balancer's and the monitoring's, which must see a busy server as it is. */
const UNLIMITED = /^\/(health|ready|metrics)$/;

const KEY_LINE = /^(\S+)\s+sha256:([0-9a-fA-F]{64})$/;

/** A key's owner by the SHA-256 of the key; the keys themselves are never held. */
export interface ApiKeys {
  /** The name of the key's owner, or null for a key that is none of them. */
  owner(key: string): string | null;
  size: number;
}

/** Reads API_KEYS_FILE; throws naming the line of a malformed entry (never its text: it may hold a key). */
export function readApiKeys(file: string): ApiKeys {
  const entries: Array<{ name: string; digest: Buffer }> = [];
  readFileSync(file, 'utf8').split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const m = KEY_LINE.exec(line);
    if (!m) throw new Error(`${file}, line ${i + 1}: expected 'NAME sha256:HEX' (HEX the 64 hex digits of the key's SHA-256)`);
    entries.push({ name: m[1]!, digest: Buffer.from(m[2]!, 'hex') });
  });
  return {
    size: entries.length,
    owner(key) {
      const digest = createHash('sha256').update(key).digest();
      // every entry compared, each in constant time: how long this takes says nothing of which key is near
      let owner: string | null = null;
      for (const e of entries) if (timingSafeEqual(digest, e.digest) && owner === null) owner = e.name;
      return owner;
    },
  };
}

/** The key a request presents: the X-API-Key header, else the api_key query parameter. */
function presentedKey(req: Request): string | undefined {
  const header = req.headers['x-api-key'];
  if (typeof header === 'string') return header;
  const query = (req.query as Record<string, unknown>).api_key;
  return typeof query === 'string' ? query : undefined;
}

/**
 * The middlewares that check keys and count requests, in order; none when nothing is configured (then not a
 * header changes and nothing runs). A key that is none of the configured ones is a 401, a client over its
 * limit a 429 with Retry-After and the IETF RateLimit headers (draft 8), both in the documented error shape.
 */
export function accessLimits(opts: AccessOptions): RequestHandler[] {
  if (!accessConfigured(opts)) return [];
  const keys = opts.keysFile ? readApiKeys(opts.keysFile) : null;
  const owners = new WeakMap<Request, string>();
  const handlers: RequestHandler[] = [];
  if (keys) {
    handlers.push((req, _res, next) => {
      const key = presentedKey(req);
      if (key === undefined || req.method === 'OPTIONS' || UNLIMITED.test(req.path)) return next();
      const owner = keys.owner(key);
      if (owner === null) throw new HttpError(401, 'the API key given (X-API-Key or api_key) is not a key of this service; leave it out to be served as an anonymous client');
      owners.set(req, owner);
      next();
    });
  }
  const limiter = (name: string, limit: number, key: (req: Request) => string, applies: (req: Request) => boolean): RequestHandler => rateLimit({
    windowMs: 60_000,
    limit,
    identifier: name,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: key,
    skip: (req) => req.method === 'OPTIONS' || UNLIMITED.test(req.path) || !applies(req),
    handler: (_req, _res, next) => next(new HttpError(429, `the limit of ${limit} request${limit === 1 ? '' : 's'} a minute ${name === 'keyed' ? 'with this API key' : 'from one address'} is reached; retry after the seconds Retry-After gives${name === 'keyed' ? '' : ', or send an API key (X-API-Key) where the service gives them out'}`)),
    // X-Forwarded-For is honoured only from TRUSTED_PROXIES (Express's trust proxy); from anyone else it is
    // ignored on purpose, which the library would otherwise warn of on every such request
    validate: { xForwardedForHeader: false, forwardedHeader: false },
  });
  if (opts.perMinute !== undefined) {
    handlers.push(limiter('anonymous', opts.perMinute, (req) => ipKeyGenerator(req.ip ?? ''), (req) => !owners.has(req)));
  }
  if (opts.keyedPerMinute !== undefined) {
    handlers.push(limiter('keyed', opts.keyedPerMinute, (req) => owners.get(req)!, (req) => owners.has(req)));
  }
  return handlers;
}

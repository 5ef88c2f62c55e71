// Runtime configuration, from the environment only (the README's table; docs/operations.md says more).
import { join } from 'node:path';
import { z } from 'zod';
import { DOC_SNAPSHOT_FILE } from '../store/files.js';
import { projectRoot } from '../shared/project-root.js';

/** A variable set to nothing is a variable not set (`RATE_LIMIT_PER_MINUTE=` turns the limit off). */
const unsetIfEmpty = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema);

const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Share of requests logged (0..1): a log line per request costs throughput, so busy sites may sample. */
  LOG_SAMPLE: z.coerce.number().min(0).max(1).default(1),
  /** `off`: requests are neither counted nor timed and /metrics answers 404 (a site that does not scrape). */
  METRICS: z.enum(['on', 'off']).default('on'),
  /** DuckDB connections for searches and other light queries (point lookups are served from memory; bulk
   *  downloads and the suggestions of a batch have connections of their own, store.ts). */
  DB_POOL: z.coerce.number().int().min(1).max(32).default(4),
  // Connection limits (server.ts says what each one guards against).
  /** ms a client has to send a request's line and headers; a connection silent from the start gets 408 then too. */
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(10_000),
  /** ms a client has to send a whole request, body included (bodies are at most 2 MB: app.ts). */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(30_000),
  /** ms an idle keep-alive connection is kept after a response. */
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
  /** ms a connection may go without a byte read or written while a request is under way (a client that stops reading). */
  SOCKET_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
  /** Bytes of request line plus headers (so also the longest URL); more is answered 431. */
  MAX_HEADER_BYTES: z.coerce.number().int().min(1024).max(1 << 20).default(16_384),
  /** Headers read per request; any beyond are ignored. */
  MAX_HEADERS: z.coerce.number().int().min(10).max(2000).default(100),
  /** Open connections; one more is closed as soon as it connects. `ulimit -n` must leave room above it. */
  MAX_CONNECTIONS: z.coerce.number().int().min(16).max(1_000_000).default(4096),
  // Rate limits and API keys (http/access-limits.ts): all off unless set.
  /** Requests a minute from one anonymous client address. */
  RATE_LIMIT_PER_MINUTE: unsetIfEmpty(z.coerce.number().int().min(1).optional()),
  /** Requests a minute with one API key. */
  RATE_LIMIT_KEYED_PER_MINUTE: unsetIfEmpty(z.coerce.number().int().min(1).optional()),
  /** Lines `NAME sha256:HEX`: the keys clients may send as X-API-Key or api_key. */
  API_KEYS_FILE: unsetIfEmpty(z.string().optional()),
  /** Comma-separated addresses or subnets of the proxies whose X-Forwarded-For names the client. */
  TRUSTED_PROXIES: z.string().optional().transform((s) => (s ?? '').split(',').map((p) => p.trim()).filter(Boolean)),
  // Published bundles (docs/operations.md): with DATA_URL set, the data set is pulled, not read from DATA_DIR.
  /** `<base>/latest` of a published bundle store (http or https): downloaded into DATA_DIR, verified, served, polled. */
  DATA_URL: z.string().url().refine((u) => /^https?:\/\//.test(u), { message: 'must be an http:// or https:// URL' }).optional(),
  /** Seconds between two looks at DATA_URL's pointer (and between retries while no build is served yet). */
  DATA_POLL_SECONDS: z.coerce.number().min(0.2).max(86_400).default(60),
  /** ms a bundle's transfer may go without receiving a byte before it is given up as unreachable. */
  DATA_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  /**
   * ms between SIGTERM and closing the listener, while /ready answers 503: time for a load balancer's health
   * checks to take the replica out of rotation before it stops accepting connections (0: close at once).
   */
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(0),
}).refine((e) => e.HEADERS_TIMEOUT_MS <= e.REQUEST_TIMEOUT_MS, {
  message: 'HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS', path: ['HEADERS_TIMEOUT_MS'],
});

export interface Limits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  socketTimeoutMs: number;
  maxHeaderBytes: number;
  maxHeaders: number;
  maxConnections: number;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  dbFile: string;
  /** The build's document snapshot, read at start-up instead of the document tables when it matches. */
  snapshotFile: string;
  logLevel: z.infer<typeof Env>['LOG_LEVEL'];
  logSample: number;
  /** Requests counted and timed, and served at /metrics (METRICS). */
  metrics: boolean;
  dbPool: number;
  limits: Limits;
  /** Rate limits and API keys (http/access-limits.ts); each unset is off. */
  access: { perMinute?: number; keyedPerMinute?: number; keysFile?: string };
  trustedProxies: string[];
  /** Where published bundles are pulled from, or null: the data set in dataDir is served. */
  dataUrl: string | null;
  pollMs: number;
  idleTimeoutMs: number;
  shutdownDelayMs: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`configuration: ${issue.path.join('.')}: ${issue.message}`);
  }
  const e = parsed.data;
  const dataDir = e.DATA_DIR ?? join(projectRoot(), 'data');
  return {
    port: e.PORT, host: e.HOST, dataDir, dbFile: join(dataDir, 'taxonomy.duckdb'), snapshotFile: join(dataDir, DOC_SNAPSHOT_FILE),
    logLevel: e.LOG_LEVEL, logSample: e.LOG_SAMPLE, metrics: e.METRICS === 'on', dbPool: e.DB_POOL,
    dataUrl: e.DATA_URL ?? null, pollMs: Math.round(e.DATA_POLL_SECONDS * 1000), idleTimeoutMs: e.DATA_IDLE_TIMEOUT_MS,
    shutdownDelayMs: e.SHUTDOWN_DELAY_MS,
    limits: {
      headersTimeoutMs: e.HEADERS_TIMEOUT_MS, requestTimeoutMs: e.REQUEST_TIMEOUT_MS, keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
      socketTimeoutMs: e.SOCKET_TIMEOUT_MS, maxHeaderBytes: e.MAX_HEADER_BYTES, maxHeaders: e.MAX_HEADERS, maxConnections: e.MAX_CONNECTIONS,
    },
    access: {
      ...(e.RATE_LIMIT_PER_MINUTE === undefined ? {} : { perMinute: e.RATE_LIMIT_PER_MINUTE }),
      ...(e.RATE_LIMIT_KEYED_PER_MINUTE === undefined ? {} : { keyedPerMinute: e.RATE_LIMIT_KEYED_PER_MINUTE }),
      ...(e.API_KEYS_FILE === undefined ? {} : { keysFile: e.API_KEYS_FILE }),
    },
    trustedProxies: e.TRUSTED_PROXIES,
  };
}

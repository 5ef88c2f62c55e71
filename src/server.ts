// Opens the data set (`npm start` builds it first when there is none: build/cli.ts), listens, and swaps in a rebuilt database
// without downtime: on SIGHUP or when the database file is replaced, a new store is opened and swapped in
// atomically; requests already running finish on the old one, which closes when they are done. A new
// store of the same build takes over the old one's documents and indexes.
// A database that fails its checks (data-set.ts) is never served: at start-up the server falls back to the
// generation the last build kept, and while running it goes on serving what it has.
// With DATA_URL, the data set is a published bundle pulled from a store instead (bundle-mirror.ts), checked
// file by file before it is opened, and the store is polled for the next one.
// It listens before the data set is loaded: /health answers at once, /ready once a build is served.
import { existsSync, watch } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import { basename, join } from 'node:path';
import { pino } from 'pino';
import type { Express } from 'express';
import { createApp } from './http/app.js';
import { messageClasses } from './http/message-classes.js';
import { answerClientError } from './http/client-errors.js';
import { metered, serviceMetrics } from './http/metrics.js';
import { loadConfig } from './config/env.js';
import { builtAt, dataSet, openDataSet, type DataSet, type Opened } from './read/data-set.js';
import { UPDATE_STATUS_FILE } from './store/bundle-format.js';
import { BundleError, BundleMirror } from './store/bundle-mirror.js';
import { readUpdateStatus, type UpdateStatus } from './store/update-status.js';
import type { Store } from './store/store.js';

const config = loadConfig();
// Lines are written in batches while the last batch is being written. Each line added to a batch has its
// destination (sonic-boom) measure the batch's whole text again, copying it: a small batch keeps that copy
// small, at a write per few lines under load.
const LOG_BATCH_BYTES = 2048;
const logger = pino({ level: config.logLevel }, pino.destination({ sync: false, maxWrite: LOG_BATCH_BYTES }));

let store: Store | null = null;
/** Set on SIGTERM: /ready answers 503 from then on. */
let draining = false;
let reloading: Promise<void> | null = null;
/** A reload asked for while one runs: the file may have changed after that one opened it. */
let reloadAgain: string | null = null;

/** Opens a data set, or logs in one line why it is refused and returns null. */
async function open(set: DataSet, context: string, previous?: Store): Promise<Opened | null> {
  try {
    const opened = await openDataSet(set, config.dbPool, previous);
    const { store: s } = opened;
    if (s.docsSource !== 'snapshot') {
      logger.warn({ build_id: s.buildId, snapshot: set.snapshotFile },
        `document snapshot ${set.snapshotFile} not used: ${s.docsSource.replace(/^database \((.*)\)$/, '$1')}; documents read from the database instead`);
    }
    return opened;
  } catch (err) {
    logger.error({ file: set.dbFile, err: { message: (err as Error).message } },
      `refused ${set.dbFile}: ${(err as Error).message}; ${context}`);
    return null;
  }
}

/**
 * Opens `set` and serves it in place of the store served now, which closes once its requests are done.
 * False when the data set is refused (logged; the store served stays).
 */
async function swapTo(set: DataSet, reason: string): Promise<boolean> {
  // A new store of the same build (a rebuild of the same data, SIGHUP) takes over the documents and indexes
  // of the one it replaces, so the two never hold two copies of them at once.
  const opened = await open(set, store ? `still serving build ${store.buildId}` : 'no build served yet', store ?? undefined);
  if (!opened) {
    serviceMetrics.swap('refused');
    return false;
  }
  const next = opened.store;
  const made = await builtAt(next);
  // Swapped in even when it is the same build (a rebuild of unchanged inputs): the published file is
  // what is served, and the old store's file is the kept generation, which the next build deletes.
  const replaced = store;
  store = next;
  serviceMetrics.serving(next.buildId, made);
  serviceMetrics.swap('swapped');
  logger.info({
    build_id: next.buildId, same_build: replaced?.buildId === next.buildId, reason, file: set.dbFile,
    documents: next.docsSource, verified: opened.verified,
    documents_mb: Math.round(next.docBytes() / 1e6), documents_in_memory_mb: Math.round(next.docHeldBytes() / 1e6), documents_taken_over_mb: Math.round(next.docsReused / 1e6),
  }, 'data set loaded');
  if (replaced) await replaced.close();
  return true;
}

async function reload(reason: string): Promise<void> {
  if (reloading) {
    reloadAgain = reason;
    return reloading;
  }
  reloading = (async () => {
    try {
      await swapTo(dataSet(config.dataDir), reason);
    } catch (err) {
      logger.error({ err, reason }, 'reload failed; still serving the previous store');
    } finally {
      reloading = null;
      if (reloadAgain) {
        const again = reloadAgain;
        reloadAgain = null;
        void reload(again);
      }
    }
  })();
  return reloading;
}

/** The published data set, else the previous generation; logs which one is served. */
async function start(): Promise<void> {
  const published = dataSet(config.dataDir);
  const kept = dataSet(config.dataDir, 'previous');
  const fallback = existsSync(kept.dbFile) ? `trying the previous generation ${kept.dbFile}` : 'no previous generation to fall back on';
  let opened = await open(published, fallback);
  let set = published;
  if (!opened && existsSync(kept.dbFile)) {
    opened = await open(kept, 'no data set left to serve');
    set = kept;
  }
  if (!opened) throw new Error(`no data set could be opened in ${config.dataDir}`);
  const served = opened.store;
  serviceMetrics.serving(served.buildId, await builtAt(served));
  serviceMetrics.swap('swapped');
  logger[set === published ? 'info' : 'warn']({
    build_id: served.buildId, reason: 'start', file: set.dbFile, documents: served.docsSource, verified: opened.verified,
  }, `serving the ${set.name} data set: build ${served.buildId} from ${set.dbFile}`);
  // served (and /ready) only once said
  store = served;
}

/**
 * DATA_URL: serves the bundle this replica served last (checked again) if it has one, then looks at the
 * store now and every DATA_POLL_SECONDS, downloading, checking and swapping in each new bundle. A bundle
 * refused, or a store that does not answer, is logged and the build served stays; until a first build is
 * served, the server is alive and not ready, and keeps trying.
 */
function pullBundles(url: string): { close(): void } {
  const mirror = new BundleMirror(url, join(config.dataDir, 'bundles'), config.idleTimeoutMs);
  let serving: string | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let status: UpdateStatus | null = null;
  serviceMetrics.updateStatusFrom(() => status);

  const serve = async (bundle: { id: string; buildId: string; dir: string }, reason: string): Promise<boolean> => {
    if (!(await swapTo(dataSet(bundle.dir), reason))) {
      mirror.discard(bundle.id);
      return false;
    }
    serving = bundle.id;
    mirror.keep(bundle.id);
    return true;
  };
  const refused = (err: unknown, what: string) => {
    const e = err instanceof BundleError ? err : new BundleError('unreachable', (err as Error).message);
    serviceMetrics.download(e.outcome);
    logger.error({ url, outcome: e.outcome, build_id: store?.buildId ?? null },
      `refused ${what}: ${e.message}; ${store ? `still serving build ${store.buildId}` : 'no build served yet'}`);
  };

  // A bundle never changes once published: one refused for what it holds (damaged, malformed, or failing
  // the data set's own checks) is not downloaded again; one cut short or unreachable is tried at the next look.
  const given = new Set<string>();
  const pull = async () => {
    let named: string | null = null;
    try {
      const pointer = await mirror.pointer();
      status = (await mirror.updateStatus()) ?? status;
      if (pointer.bundle === serving || given.has(pointer.bundle)) return;
      named = pointer.bundle;
      const t0 = Date.now();
      const bundle = await mirror.download(pointer);
      serviceMetrics.download('verified', bundle.bytes);
      logger.info({ bundle: bundle.id, build_id: bundle.buildId, mb: Math.round(bundle.bytes / 1e6), ms: Date.now() - t0 }, `bundle ${bundle.id} downloaded and verified`);
      if (!(await serve(bundle, `bundle ${bundle.id} published`))) given.add(bundle.id);
    } catch (err) {
      if (named && err instanceof BundleError && (err.outcome === 'corrupt' || err.outcome === 'invalid')) given.add(named);
      refused(err, `the bundle ${url} names`);
    }
  };
  const loop = async () => {
    await pull();
    if (!stopped) timer = setTimeout(() => void loop(), config.pollMs);
  };

  void (async () => {
    try {
      const local = await mirror.local();
      if (local) await serve(local, `start: bundle ${local.id}, served before this start, checked again`);
    } catch (err) {
      refused(err, 'the bundle served before this start');
    }
    await loop();
  })();
  return {
    close() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}

/**
 * The HTTP server's limits. Each bounds what a client can hold without sending a request: a socket that
 * sends nothing or drips its headers a byte at a time costs a file descriptor and a little memory until a
 * timeout ends it, and without these Node waits 60 s for headers, 300 s for a request and, for an idle
 * response, forever. Timeouts are checked every second (Node's default is every 30 s, which would let a
 * drip-feeding client stay up to 30 s past its limit). The URL counts towards the header bytes: a longer
 * one is answered 431 by Node before the app sees it.
 */
function listen(app: Express, listener: RequestListener): Server {
  const l = config.limits;
  const server = createServer({
    ...messageClasses(app),
    headersTimeout: l.headersTimeoutMs,
    requestTimeout: l.requestTimeoutMs,
    keepAliveTimeout: l.keepAliveTimeoutMs,
    connectionsCheckingInterval: 1000,
    maxHeaderSize: l.maxHeaderBytes,
    // the app refuses a request without Host itself (http/app.ts), with the documented error body
    requireHostHeader: false,
  }, listener);
  server.on('clientError', answerClientError);
  server.maxHeadersCount = l.maxHeaders;
  server.maxConnections = l.maxConnections;
  server.setTimeout(l.socketTimeoutMs);
  return server;
}

async function main(): Promise<void> {
  const t0 = Date.now();
  // The app first: the request validator prepares the contract asynchronously, in the gaps while DuckDB
  // scans the document tables.
  const app = createApp({
    stores: { current: () => store, draining: () => draining }, logger, logSample: config.logSample, metrics: config.metrics, access: config.access, trustedProxies: config.trustedProxies,
  });
  const server = listen(app, config.metrics ? metered(app) : app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      logger.info({ port: config.port, host: config.host, ms: Date.now() - t0, limits: config.limits }, 'listening');
      resolve();
    });
  });

  let watcher: { close(): void };
  if (config.dataUrl) {
    watcher = pullBundles(config.dataUrl);
  } else {
    await start();
    logger.info({ ms: Date.now() - t0 }, 'ready');
    serviceMetrics.updateStatusFrom(() => readUpdateStatus(join(config.dataDir, UPDATE_STATUS_FILE)));
    // The build replaces the file with a rename; watching the folder sees that (a watch on the file itself
    // would stay on the old inode). Debounced: one rebuild renames several files.
    let timer: NodeJS.Timeout | null = null;
    watcher = watch(config.dataDir, (_event, file) => {
      if (file !== basename(config.dbFile)) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void reload('database file replaced'), 300);
    });
    process.on('SIGHUP', () => void reload('SIGHUP'));
  }

  // Not ready from the signal on; the listener closes SHUTDOWN_DELAY_MS later, once a load balancer has
  // seen that and sends no more, and the process exits when the requests under way are answered.
  const stop = (signal: string) => {
    draining = true;
    logger.info({ signal, delay_ms: config.shutdownDelayMs }, 'draining');
    watcher.close();
    setTimeout(() => {
      server.close(() => {
        void (store?.close() ?? Promise.resolve()).then(() => {
          logger.flush();
          process.exit(0);
        });
      });
      server.closeIdleConnections();
      setTimeout(() => process.exit(1), 10_000).unref();
    }, config.shutdownDelayMs);
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

main().catch((err: Error) => {
  logger.fatal({ err }, 'failed to start');
  logger.flush();
  process.exit(1);
});

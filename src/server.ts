// Opens the data set (building it first when there is none), listens, and swaps in a rebuilt database
// without downtime: on SIGHUP or when the database file is replaced, a new store is opened and swapped in
// atomically; requests already running finish on the old one, which closes when they are done. The new
// store takes over the old one's documents where they have not changed.
import { spawnSync } from 'node:child_process';
import { existsSync, watch } from 'node:fs';
import type { Server } from 'node:http';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { createApp } from './app.js';
import { loadConfig } from './config.js';
import { openStore } from './read/documents.js';
import type { Store } from './store.js';

const config = loadConfig();
const logger = pino({ level: config.logLevel }, pino.destination({ sync: false }));

let store: Store | null = null;
let reloading: Promise<void> | null = null;
/** A reload asked for while one runs: the file may have changed after that one opened it. */
let reloadAgain: string | null = null;

async function reload(reason: string): Promise<void> {
  if (reloading) {
    reloadAgain = reason;
    return reloading;
  }
  reloading = (async () => {
    try {
      // The new store takes over the documents of the one it replaces where they are the same (all of them
      // for a rebuild of the same data), so the two never hold two copies of them at once.
      const next = await openStore(config.dbFile, config.dbPool, config.snapshotFile, store ?? undefined);
      const previous = store;
      store = next;
      logger.info({
        build_id: next.buildId, reason, documents: next.docsSource, documents_mb: Math.round(next.docBytes() / 1e6),
        documents_taken_over_mb: Math.round(next.docsReused / 1e6),
      }, 'data set loaded');
      if (previous) await previous.close();
    } catch (err) {
      logger.error({ err, reason }, 'could not open the data set; still serving the previous one');
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

async function main(): Promise<void> {
  const t0 = Date.now();
  if (!existsSync(config.dbFile)) {
    logger.info('no data set yet: building it from the raw ICTV files');
    // In a process of its own: the build parses spreadsheets in JS and needs far more heap than serving,
    // which `npm start` caps (README, Configuration).
    const built = spawnSync(process.execPath, [fileURLToPath(new URL('./cli/build.js', import.meta.url))], { stdio: 'inherit' });
    if (built.status !== 0) throw new Error(`the data build failed (exit status ${built.status ?? built.signal})`);
  }
  // The app first: the request validator prepares the contract asynchronously, in the gaps while DuckDB
  // scans the document tables.
  const app = createApp({ stores: { current: () => store }, logger, logSample: config.logSample });
  await reload('start');
  if (!store) throw new Error(`cannot open ${config.dbFile}`);
  const server: Server = app.listen(config.port, config.host, () => {
    logger.info({ port: config.port, host: config.host, ms: Date.now() - t0 }, 'listening');
  });

  // The build replaces the file with a rename; watching the folder sees that (a watch on the file itself
  // would stay on the old inode). Debounced: one rebuild renames several files.
  let timer: NodeJS.Timeout | null = null;
  const watcher = watch(config.dataDir, (_event, file) => {
    if (file !== basename(config.dbFile)) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void reload('database file replaced'), 300);
  });
  process.on('SIGHUP', () => void reload('SIGHUP'));

  const stop = (signal: string) => {
    logger.info({ signal }, 'draining');
    watcher.close();
    server.close(() => {
      void (store?.close() ?? Promise.resolve()).then(() => {
        logger.flush();
        process.exit(0);
      });
    });
    server.closeIdleConnections();
    setTimeout(() => process.exit(1), 10_000).unref();
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

main().catch((err: Error) => {
  logger.fatal({ err }, 'failed to start');
  logger.flush();
  process.exit(1);
});

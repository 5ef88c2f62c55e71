// The app under test: the real data set, every response checked against the contract.
import type { Express } from 'express';
import { join } from 'node:path';
import { pino } from 'pino';
import { DB_FILE, DOC_SNAPSHOT_FILE } from '../../src/store/files.js';
import { defaultPaths } from '../../build/paths.js';
import { createApp } from '../../src/http/app.js';
import { openStore } from '../../src/read/documents.js';
import type { Store } from '../../src/store/store.js';
import { realBuild, realDb, type Db } from './data.js';

let shared: Promise<{ app: Express; store: Store }> | null = null;

/**
 * One app and store for the whole test run (opening the store loads ~250k documents), from the build's
 * document snapshot as the server does; test/doc-snapshot.test.ts holds it equal to the database's.
 */
export function testApp(): Promise<{ app: Express; store: Store }> {
  shared ??= (async () => {
    await realBuild();
    const { dataDir } = defaultPaths();
    const store = await openStore(join(dataDir, DB_FILE), 2, join(dataDir, DOC_SNAPSHOT_FILE));
    if (store.docsSource !== 'snapshot') throw new Error(`the real build wrote no usable snapshot: ${store.docsSource}`);
    const app = createApp({ stores: { current: () => store }, logger: pino({ level: 'silent' }), validateResponses: true });
    return { app, store };
  })();
  return shared;
}

export interface RealApp {
  app: Express;
  db: Db;
  /** The newest release of the data set, read from src.releases: what `latest` answers with. */
  latest: { version: string; msl: number; year: number };
  /** The oldest release of the data set. */
  first: { version: string; msl: number; year: number };
}

/**
 * For a describe block that exercises the app on the real data: opens the shared app and a read-only
 * connection to the database (for expected values) before its tests, closes the connection after them.
 * The fields are set once the block's `before` hook has run.
 */
export function onRealApp(): RealApp {
  const real = {} as RealApp;
  before(async () => {
    real.app = (await testApp()).app;
    real.db = await realDb();
    const ends = await real.db.all<{ version: string; msl: number; year: number }>(
      'SELECT version, msl, year FROM src.releases WHERE msl IN ((SELECT min(msl) FROM src.releases), (SELECT max(msl) FROM src.releases)) ORDER BY msl');
    [real.first, real.latest] = [ends[0]!, ends[ends.length - 1]!];
  });
  after(() => real.db.close());
  return real;
}

// Runtime configuration, from the environment only (documented in the README).
import { join } from 'node:path';
import { z } from 'zod';
import { DOC_SNAPSHOT_FILE, projectRoot } from '../build/paths.js';

const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Share of requests logged (0..1): a log line per request costs throughput, so busy sites may sample. */
  LOG_SAMPLE: z.coerce.number().min(0).max(1).default(1),
  /** DuckDB connections for searches and other light queries (point lookups are served from memory; bulk
   *  downloads and the suggestions of a batch have connections of their own, store.ts). */
  DB_POOL: z.coerce.number().int().min(1).max(32).default(4),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  dbFile: string;
  /** The build's document snapshot, read at start-up instead of the document tables when it matches. */
  snapshotFile: string;
  logLevel: z.infer<typeof Env>['LOG_LEVEL'];
  logSample: number;
  dbPool: number;
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
    logLevel: e.LOG_LEVEL, logSample: e.LOG_SAMPLE, dbPool: e.DB_POOL,
  };
}

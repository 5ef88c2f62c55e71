// The server under soak: dist/src/server.js started as `npm start` starts it (the Node options of its start
// script), over the soak's data folder, its log kept in a file and read for the swaps it reports.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from '../../test/support/server-process.js';
import { residentMemory } from '../../test/support/measure.js';

export interface Loaded { t: number; reason: string; documents: string; takenOverMb: number; documentsMb: number }

export interface SoakServer {
  child: ChildProcess;
  base: string;
  /** The data sets it has reported loaded ('data set loaded' log lines), in order. */
  loaded: Loaded[];
  /** Lines it logged at level error or above. */
  errors: string[];
  /** Resident memory now and its high-water mark, in MB (/proc/<pid>/status). */
  memory(): { rss: number; peak: number };
  stop(): Promise<number | null>;
}

/** The environment and Node options `npm start` gives the server (package.json), so that it runs as it is shipped. */
export function startCommand(root: string): { env: Record<string, string>; args: string[] } {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const found = /((?:[A-Z_]+=\S+ )*)node ((?:--\S+ )*)dist\/src\/server\.js/.exec(pkg.scripts.start);
  if (!found) throw new Error(`cannot read the server's environment and Node options from the start script: ${pkg.scripts.start}`);
  const words = (s: string | undefined) => (s ?? '').trim().split(' ').filter(Boolean);
  return { env: Object.fromEntries(words(found[1]).map((w) => w.split('=', 2) as [string, string])), args: words(found[2]) };
}

export async function startServer(root: string, dataDir: string, logFile: string, now: () => number): Promise<SoakServer> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const start = startCommand(root);
  const child = spawn(process.execPath, [...start.args, join(root, 'dist', 'src', 'server.js')], {
    // LOG_SAMPLE=0: no line per request, the lifecycle lines (loaded, draining, errors) only
    env: { ...process.env, ...start.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', LOG_SAMPLE: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // A child takes the soak's raised priority (soak.ts); the server runs at the ordinary one, as in production.
  try { setPriority(child.pid!, 0); } catch { /* not raised */ }
  const log = createWriteStream(logFile);
  child.stderr!.pipe(log, { end: false });
  const loaded: Loaded[] = [];
  const errors: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    log.write(`${line}\n`);
    try {
      const entry = JSON.parse(line) as { level: number; msg: string; reason?: string; documents?: string; documents_mb?: number; documents_taken_over_mb?: number };
      if (entry.msg === 'data set loaded') {
        loaded.push({ t: now(), reason: entry.reason ?? '', documents: entry.documents ?? '', takenOverMb: entry.documents_taken_over_mb ?? 0, documentsMb: entry.documents_mb ?? 0 });
      }
      if (entry.level >= 50) errors.push(line);
    } catch {
      // not a log line
    }
  });
  const server: SoakServer = {
    child, base, loaded, errors,
    memory: () => {
      const { rss, peak } = residentMemory(child.pid!);
      return { rss: rss / 2 ** 20, peak: peak / 2 ** 20 };
    },
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null) return resolve(child.exitCode);
      child.once('exit', (code) => {
        log.end();
        resolve(code);
      });
      child.kill('SIGTERM');
    }),
  };
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with status ${child.exitCode} while starting; see ${logFile}`);
    try {
      const health = await fetch(`${base}/health`);
      if (health.ok && ((await health.json()) as { status: string }).status === 'ok') return server;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not answer /health within 60 s; see ${logFile}`);
}

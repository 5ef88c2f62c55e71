// The real server process, for tests that swap data sets under it: started on a free port over a data
// folder, and a load of clients that count every answer's status until told to stop.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { projectRoot } from '../../src/shared/project-root.js';

import { setTimeout as sleep } from 'node:timers/promises';
import { CEILING_MS } from './wait.js';


export interface ServerProcess {
  child: ChildProcess;
  base: string;
  /** The build id /health reports. */
  buildId(): Promise<string>;
  /** The server's log lines so far, parsed (only when started with `logs: true`). */
  logs: Array<{ level: number; msg: string; [field: string]: unknown }>;
  kill(): void;
}

export interface StartOptions {
  /** Environment on top of the test's own (limits, LOG_LEVEL). */
  env?: Record<string, string>;
  /** Keep the server's log lines (at info level unless env says otherwise) instead of passing them through. */
  logs?: boolean;
  /** How long to wait for its first answer (CEILING_MS). */
  timeoutMs?: number;
  /** What to wait for: /ready (a build served, the default) or /health (the process answers). */
  until?: 'ready' | 'health';
}

/**
 * A port free now, as the system picks one. A random port could be one a server of an earlier test still
 * held while it was being killed: /health answered by that server, the test then ran against it and saw it
 * go away.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts dist/src/server.js over `dataDir` and waits until /ready says it serves a build (or /health answers,
 * with `until: 'health'`); on another port again if it could not listen on the first (taken between the
 * probe and its start).
 */
export async function startServer(dataDir: string, opts: StartOptions = {}): Promise<ServerProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(dataDir, opts, await freePort());
    } catch (err) {
      if (attempt === 3 || !(err as Error).message.includes('EADDRINUSE')) throw err;
    }
  }
}

async function startOnce(dataDir: string, opts: StartOptions, port: number): Promise<ServerProcess> {
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [join(projectRoot(), 'dist', 'src', 'server.js')], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: opts.logs ? 'info' : 'warn', ...opts.env },
    stdio: ['ignore', opts.logs ? 'pipe' : 'inherit', 'pipe'],
  });
  // passed through, and kept for the error if it does not start (EADDRINUSE is said there)
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    process.stderr.write(chunk);
    stderr = (stderr + chunk).slice(-4000);
  });
  const closed = new Promise((resolve) => child.once('close', resolve));
  const logs: ServerProcess['logs'] = [];
  if (opts.logs) {
    let rest = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop()!;
      for (const line of lines.filter((l) => l.trim())) {
        try {
          logs.push(JSON.parse(line) as ServerProcess['logs'][number]);
        } catch {
          logs.push({ level: 0, msg: line }); // not the server's own (a build it started)
        }
      }
    });
  }
  const server: ServerProcess = {
    child, base, logs,
    buildId: async () => ((await (await fetch(`${base}/health`)).json()) as { build_id: string }).build_id,
    kill: () => { if (child.exitCode === null) child.kill('SIGKILL'); },
  };
  for (let waited = 0; waited < (opts.timeoutMs ?? CEILING_MS) && child.exitCode === null; waited += 100) {
    try {
      const res = await fetch(`${base}/${opts.until ?? 'ready'}`);
      await res.arrayBuffer();
      if (res.ok) return server;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  server.kill();
  await closed; // its last log lines
  throw new Error(`server did not start${child.exitCode !== null ? ` (exit status ${child.exitCode})` : ''}: ${[...logs.map((l) => l.msg), stderr].join(' | ')}`);
}

/**
 * `clients` clients asking `paths` in turn until stop() is called; stop() resolves to the count of
 * answers per status (-1: the connection failed). until(n) resolves once n more answers have come (an
 * event, where a test would otherwise sleep and hope the load got going).
 */
export function loadOn(base: string, paths: readonly string[], clients: number): { stop(): Promise<Record<number, number>>; until(n: number): Promise<void> } {
  const statuses = new Map<number, number>();
  let stopped = false;
  let answered = 0;
  const waiting: Array<{ at: number; resolve: () => void }> = [];
  const client = async (c: number) => {
    for (let i = 0; !stopped; i++) {
      let status = -1;
      try {
        const res = await fetch(`${base}${paths[(c + i) % paths.length]}`);
        await res.arrayBuffer();
        status = res.status;
      } catch {
        // connection refused or reset: a failed request
      }
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      answered += 1;
      for (let w = waiting.findIndex((x) => x.at <= answered); w >= 0; w = waiting.findIndex((x) => x.at <= answered)) waiting.splice(w, 1)[0]!.resolve();
    }
  };
  const running = Promise.all(Array.from({ length: clients }, (_, c) => client(c)));
  return {
    async stop() {
      stopped = true;
      await running;
      return Object.fromEntries(statuses);
    },
    until: (n) => new Promise((resolve) => waiting.push({ at: answered + n, resolve })),
  };
}

/** Waits until the server reports another build than `before` (at most `ms`); returns the one it reports. */
export async function awaitSwitch(server: ServerProcess, before: string, ms = CEILING_MS): Promise<string> {
  let now = before;
  for (let waited = 0; waited < ms && now === before; waited += 100) {
    await sleep(100);
    now = await server.buildId();
  }
  return now;
}

// Helpers of the operations tests: a server's metrics read from its Prometheus text, and waiting on a
// condition that an asynchronous probe checks (an answer, a log line), with a ceiling, never a fixed time.
import { sleep } from './server-process.js';

/** The text of GET /metrics. */
export async function scrape(base: string): Promise<string> {
  const res = await fetch(`${base}/metrics`);
  if (res.status !== 200) throw new Error(`GET /metrics answered ${res.status}`);
  return res.text();
}

/**
 * The value of a sample in a Prometheus text: the line of metric `name` whose labels include `labels`
 * (undefined when there is none).
 */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name) || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[3]);
  }
  return undefined;
}

/** Runs `probe` every 100 ms until it gives something other than undefined; fails after `ms`. */
export async function waitUntil<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 60_000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    let found: T | undefined;
    try {
      found = await probe();
    } catch {
      found = undefined;
    }
    if (found !== undefined) return found;
    if (Date.now() - t0 > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(100);
  }
}

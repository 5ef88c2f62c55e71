// Waiting in a test: for an event (a server answering, a build swapped in, a log line), never for a fixed
// time that only a fast machine meets.
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * How long a test waits for an event before it gives up: far above what it takes here, so that a machine
 * twice as slow, and busy, still meets it. A wait ends at the event.
 */
export const CEILING_MS = 120_000;

/** Runs `probe` every 100 ms until it gives something other than undefined; fails after `ms`. */
export async function waitUntil<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = CEILING_MS): Promise<T> {
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

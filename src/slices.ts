// Long synchronous work (a batch of 10,000 names resolved, serialised or written as CSV) cut into slices of a
// few milliseconds, with a turn of the event loop between them: everything else the server is doing (a
// lookup is ~0.2 ms) gets its turn in the gaps instead of waiting for the whole batch.
import { setImmediate } from 'node:timers/promises';

/** Work done between two turns of the event loop. */
const SLICE_MS = 4;

/** Calls fn for every item in order, yielding to the event loop whenever SLICE_MS of work has run. */
export async function eachInSlices<T>(items: readonly T[], fn: (item: T, index: number) => void): Promise<void> {
  let start = performance.now();
  for (let i = 0; i < items.length; i++) {
    fn(items[i]!, i);
    if (performance.now() - start >= SLICE_MS && i + 1 < items.length) {
      await setImmediate();
      start = performance.now();
    }
  }
}

/** items.map(fn), in slices. */
export async function mapInSlices<T, U>(items: readonly T[], fn: (item: T, index: number) => U): Promise<U[]> {
  const out: U[] = [];
  await eachInSlices(items, (item, i) => out.push(fn(item, i)));
  return out;
}

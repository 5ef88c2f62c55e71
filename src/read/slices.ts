// Long synchronous work (a batch of 10,000 names resolved, serialised or written as CSV) cut into slices of a
// few milliseconds, with a turn of the event loop between them: everything else the server is doing (a
// lookup is ~0.2 ms) gets its turn in the gaps instead of waiting for the whole batch.
//
// Every sliced task waits in one queue, and each turn of the event loop runs one slice of one of them, in
// turn. Had each task scheduled its own next slice, a turn would run a slice of every batch in progress,
// and a lookup arriving meanwhile would wait for all of them; this way it waits for one slice at most,
// however many batches run, and they share what the lookups leave.

/** Work done in one slice. */
const SLICE_MS = 2;

const waiting: Array<() => void> = [];
let scheduled = false;

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(runOne);
}

function runOne(): void {
  scheduled = false;
  // The task resumes after this callback returns (its promise settles), runs its slice and queues again.
  waiting.shift()?.();
  if (waiting.length > 0) schedule();
}

/** Resolves on a later turn of the event loop, when the sliced tasks queued before this one have had theirs. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    schedule();
  });
}

/** Calls fn for every item in order, waiting for a turn (nextTurn) whenever SLICE_MS of work has run. */
export async function eachInSlices<T>(items: ArrayLike<T>, fn: (item: T, index: number) => void): Promise<void> {
  let start = performance.now();
  for (let i = 0; i < items.length; i++) {
    fn(items[i]!, i);
    if (performance.now() - start >= SLICE_MS && i + 1 < items.length) {
      await nextTurn();
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

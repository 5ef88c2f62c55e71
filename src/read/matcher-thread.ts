// "Did you mean" for a batch, on the machine's other core. A batch of 10,000 names with a fifth of them
// misspelt spends about a third of its time matching those against every known name (name-matcher.ts); the
// rest (looking names up, following lineages, writing JSON) is on the main thread. The matcher thread scans
// a slice's misspelt names while the main thread resolves the next slice, so the batch takes the longer of
// the two, not their sum. It scans the very arrays the main thread's scanner reads (shared memory, no copy,
// no string): the same code on the same data, so the same forms found (test/name-matcher.test.ts holds both
// to DuckDB). The main thread ranks what it finds into names (NameMatcher.best).
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { FormScanner, type Found, type ScannerArrays } from './name-matcher.js';

interface Request {
  id: number;
  forms: string[];
  minScore: number;
  limit: number;
}

/** Each input's forms found: those of input i are forms/scores[start[i]] .. [start[i + 1] - 1]. */
interface Reply {
  id: number;
  start: Int32Array;
  forms: Int32Array;
  scores: Float64Array;
}

/** A scanner on a thread of its own. Requests are answered in order; the thread ends with terminate(). */
export class MatcherThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (found: Found[][]) => void; reject: (e: Error) => void }>();
  private nextId = 0;
  private failure: Error | null = null;
  private ended = false;
  /** Set once the thread has started: until then a caller does better scanning on its own. */
  ready = false;
  readonly started: Promise<void>;

  /** arrays: the scanner's (FormScanner.arrays), in shared memory. */
  constructor(arrays: ScannerArrays) {
    // execArgv: none of the process's own (an --input-type of its command line would stop a file from loading)
    this.worker = new Worker(new URL(import.meta.url), { workerData: { scannerArrays: arrays }, execArgv: [] });
    // an idle thread does not keep the process alive; one with requests does (ref in find)
    this.worker.unref();
    this.started = new Promise<void>((resolve, reject) => {
      this.worker.once('message', () => {
        this.ready = true;
        this.worker.on('message', (reply: Reply) => this.answer(reply));
        // a listener added refs the thread's port again: an idle thread must not keep the process alive
        if (this.pending.size === 0) this.worker.unref();
        resolve();
      });
      const fail = (err: Error) => {
        this.failure ??= err;
        this.ready = false;
        for (const p of this.pending.values()) p.reject(this.failure);
        this.pending.clear();
        reject(this.failure);
      };
      this.worker.once('error', fail);
      this.worker.once('exit', (code) => fail(new Error(`the matcher thread exited with code ${code}`)));
    });
    // a thread that fails to start is said once, not as an unhandled rejection; callers scan on their own
    this.started.catch((err: Error) => {
      if (!this.ended) process.emitWarning(`the matcher thread did not start: ${err.message}`);
    });
  }

  /** FormScanner.find of every input, on the thread. Rejects when the thread has failed or ended. */
  find(inputs: string[], minScore: number, limit: number): Promise<Found[][]> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    if (this.pending.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, forms: inputs, minScore, limit } satisfies Request);
    });
  }

  private answer({ id, start, forms, scores }: Reply): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker.unref();
    const out: Found[][] = [];
    for (let i = 0; i + 1 < start.length; i++) {
      const found: Found[] = [];
      for (let k = start[i]!; k < start[i + 1]!; k++) found.push({ form: forms[k]!, score: scores[k]! });
      out.push(found);
    }
    p.resolve(out);
  }

  async terminate(): Promise<void> {
    this.ended = true;
    this.failure ??= new Error('the matcher thread was ended');
    await this.worker.terminate();
  }
}

/** The thread's side: a scanner over the shared arrays, answering each request. */
function serve(arrays: ScannerArrays): void {
  const scanner = new FormScanner(arrays);
  const port = parentPort!;
  port.postMessage('ready');
  port.on('message', ({ id, forms: inputs, minScore, limit }: Request) => {
    const start = new Int32Array(inputs.length + 1);
    const forms: number[] = [];
    const scores: number[] = [];
    inputs.forEach((q, i) => {
      for (const f of scanner.find(q, minScore, limit)) {
        forms.push(f.form);
        scores.push(f.score);
      }
      start[i + 1] = forms.length;
    });
    const reply: Reply = { id, start, forms: Int32Array.from(forms), scores: Float64Array.from(scores) };
    port.postMessage(reply, [reply.start.buffer, reply.forms.buffer, reply.scores.buffer] as ArrayBuffer[]);
  });
}

const job = workerData as { scannerArrays?: ScannerArrays } | null;
if (!isMainThread && job?.scannerArrays) serve(job.scannerArrays);

// The service's metrics in Prometheus' text format (prom-client), served at GET /metrics: requests by the
// contract's operation and status with their latency, the build served and its age, data swaps and bundle
// downloads by outcome, what the update job last did, and Node's own (event-loop lag, RSS, heap, GC).
// Requests are counted around the server's request listener (metered), each named by matching its path
// against the contract's path templates once, when it arrives (routers rewrite req.url while they run).
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Counter, Gauge, Registry } from 'prom-client';
import { openApiDocument } from '../contract/openapi.js';
import { HttpError } from '../read/errors.js';
import { UPDATE_OUTCOMES, type UpdateStatus } from '../store/update-status.js';
import { templatePattern } from './operation-gate.js';

export const registry = new Registry();

/** Latency buckets, in seconds: a lookup answers in well under a millisecond, a bulk download in seconds. */
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Requests as counted while they are answered: one Map lookup and a few additions each. prom-client's own
 * counter and histogram hash their label values on every call, which cost several times more per request
 * than a lookup budgets for (docs/operations.md); the figures are handed to the text format when scraped.
 */
interface Counted {
  codes: Map<string, number>;
  /** Requests per bucket, not cumulative: the last slot holds those above the largest bound. */
  buckets: Float64Array;
  sum: number;
  count: number;
}
const counted = new Map<string, Counted>();

function count(operation: string, code: string, seconds: number | null): void {
  let c = counted.get(operation);
  if (!c) counted.set(operation, c = { codes: new Map(), buckets: new Float64Array(BUCKETS.length + 1), sum: 0, count: 0 });
  c.codes.set(code, (c.codes.get(code) ?? 0) + 1);
  if (seconds === null) return;
  let i = 0;
  while (i < BUCKETS.length && seconds > BUCKETS[i]!) i++;
  c.buckets[i]! += 1;
  c.sum += seconds;
  c.count += 1;
}

new Counter({
  name: 'vtqs_http_requests_total',
  help: "Requests answered, by operation (the contract's operationId; unmatched: no path of the contract) and status code (aborted: the client left first)",
  labelNames: ['operation', 'code'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const [operation, c] of counted) for (const [code, n] of c.codes) this.inc({ operation, code }, n);
  },
});

/** The latency histogram, written from the counts above in the shape prom-client's own histograms give. */
const durations = {
  name: 'vtqs_http_request_duration_seconds',
  help: "Time from a request's arrival to its last byte handed to the system, by operation",
  type: 'histogram',
  aggregator: 'sum',
  get() {
    const values: Array<{ labels: Record<string, string | number>; value: number; metricName: string }> = [];
    for (const [operation, c] of counted) {
      if (c.count === 0) continue;
      let cumulative = 0;
      BUCKETS.forEach((le, i) => {
        cumulative += c.buckets[i]!;
        values.push({ labels: { le, operation }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf', operation }, value: c.count, metricName: `${this.name}_bucket` });
      values.push({ labels: { operation }, value: c.sum, metricName: `${this.name}_sum` });
      values.push({ labels: { operation }, value: c.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  },
  reset() {
    counted.clear();
  },
};
registry.registerMetric(durations as never);

let served: { buildId: string; builtAt: Date | null } | null = null;
new Gauge({
  name: 'vtqs_build_info',
  help: 'The build served (1), by build id; absent while none is loaded',
  labelNames: ['build_id'] as const,
  registers: [registry],
  collect() {
    this.reset();
    if (served) this.set({ build_id: served.buildId }, 1);
  },
});
new Gauge({
  name: 'vtqs_build_age_seconds',
  help: 'Seconds since the build served was made',
  registers: [registry],
  collect() {
    this.reset();
    if (served?.builtAt) this.set((Date.now() - served.builtAt.getTime()) / 1000);
  },
});
const swaps = new Counter({
  name: 'vtqs_data_swaps_total',
  help: 'Data sets opened to be served, by outcome (swapped: now served; refused: failed its checks, the one served stays)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});
const downloads = new Counter({
  name: 'vtqs_bundle_downloads_total',
  help: 'Bundles pulled from DATA_URL, by outcome (verified, or refused as unreachable, truncated, corrupt, invalid)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});
const downloadBytes = new Counter({
  name: 'vtqs_bundle_download_bytes_total',
  help: 'Bytes of bundles downloaded and verified',
  registers: [registry],
});

let updateStatus: () => UpdateStatus | null = () => null;
new Gauge({
  name: 'vtqs_update_runs',
  help: "Runs of the update job by outcome, as its status file (update-status.json) counts them",
  labelNames: ['outcome'] as const,
  registers: [registry],
  collect() {
    this.reset();
    const s = updateStatus();
    if (s) for (const o of UPDATE_OUTCOMES) this.set({ outcome: o }, s.runs[o] ?? 0);
  },
});
new Gauge({
  name: 'vtqs_update_last_run_timestamp_seconds',
  help: 'When the update job last ran, labelled with what that run did (published, unchanged, refused, failed)',
  labelNames: ['outcome'] as const,
  registers: [registry],
  collect() {
    this.reset();
    const s = updateStatus();
    if (s) this.set({ outcome: s.last.outcome }, Date.parse(s.last.at) / 1000);
  },
});
new Gauge({
  name: 'vtqs_update_last_published_timestamp_seconds',
  help: 'When a run of the update job last published a new build',
  registers: [registry],
  collect() {
    this.reset();
    const at = updateStatus()?.last_published_at;
    if (at) this.set(Date.parse(at) / 1000);
  },
});

// Node's own, under the names prom-client's default metrics give them, read when scraped. (Its defaults
// whole also watch every garbage collection as it happens, which costs each request a little.)
const loopDelay = monitorEventLoopDelay({ resolution: 20 });
loopDelay.enable();
new Gauge({
  name: 'nodejs_eventloop_lag_seconds',
  help: 'Lag of the event loop now: how late a callback queued at the scrape runs',
  registers: [registry],
  async collect() {
    const t0 = process.hrtime.bigint();
    await new Promise((resolve) => setImmediate(resolve));
    this.set(Number(process.hrtime.bigint() - t0) / 1e9);
  },
});
for (const [stat, help] of [['p50', 'median'], ['p99', '99th percentile'], ['max', 'largest']] as const) {
  new Gauge({
    name: `nodejs_eventloop_lag_${stat}_seconds`,
    help: `The ${help} of the event loop's delays since the server started`,
    registers: [registry],
    collect() {
      this.set((stat === 'max' ? loopDelay.max : loopDelay.percentile(stat === 'p50' ? 50 : 99)) / 1e9);
    },
  });
}
new Gauge({
  name: 'process_resident_memory_bytes',
  help: 'Resident memory size in bytes',
  registers: [registry],
  collect() {
    this.set(process.memoryUsage.rss());
  },
});
new Gauge({
  name: 'nodejs_heap_size_used_bytes',
  help: "V8's heap in use, in bytes",
  registers: [registry],
  collect() {
    this.set(process.memoryUsage().heapUsed);
  },
});
new Counter({
  name: 'process_cpu_seconds_total',
  help: 'CPU time the process has used, user and system, in seconds',
  registers: [registry],
  collect() {
    const u = process.cpuUsage();
    this.reset();
    this.inc((u.user + u.system) / 1e6);
  },
});

/** What server.ts reports as it happens. */
export const serviceMetrics = {
  serving(buildId: string, builtAt: Date | null): void {
    served = { buildId, builtAt };
  },
  swap(outcome: 'swapped' | 'refused'): void {
    swaps.inc({ outcome });
  },
  download(outcome: string, bytes = 0): void {
    downloads.inc({ outcome });
    if (bytes > 0) downloadBytes.inc(bytes);
  },
  /** Where the update job's status is read from at each scrape. */
  updateStatusFrom(source: () => UpdateStatus | null): void {
    updateStatus = source;
  },
};

/** GET /metrics. */
export const metricsEndpoint: RequestHandler = async (_req, res) => {
  const text = await registry.metrics();
  res.set('Cache-Control', 'no-store').type(registry.contentType).send(text);
};

/** GET /metrics with METRICS=off: nothing is counted, so there is nothing to serve. */
export const metricsOff: RequestHandler = () => {
  throw new HttpError(404, 'metrics are off on this server (METRICS=off)');
};

/** Paths outside the contract, named by their first segment. */
const OUTSIDE_CONTRACT: Record<string, string> = { docs: 'docs', assets: 'assets', 'openapi.json': 'openapiDocument' };

/** The operation a request is for: the contract's operationId of its path and method (HEAD as GET). */
export function operationNamer(spec: Record<string, unknown>): (method: string, url: string) => string {
  const paths = spec.paths as Record<string, Record<string, { operationId?: string }>>;
  const entries = Object.entries(paths).map(([template, item]) => {
    const { prefix, pattern } = templatePattern(template, true);
    return {
      prefix,
      // tested, not matched: without its named groups a pattern builds no match object
      pattern: new RegExp(pattern.source.replace(/\(\?<[^>]+>(\[\^\/\]\+)\)/g, '$1')),
      ids: new Map(Object.entries(item).filter(([, op]) => typeof op?.operationId === 'string').map(([m, op]) => [m.toUpperCase(), op.operationId!])),
    };
  });
  const name = (method: string, path: string): string => {
    // absolute form (a proxy's request line)
    if (path.charCodeAt(0) !== 47) {
      try {
        path = new URL(path).pathname;
      } catch {
        return 'unmatched';
      }
    }
    for (const entry of entries) {
      if (path.startsWith(entry.prefix) && entry.pattern.test(path)) return entry.ids.get(method === 'HEAD' ? 'GET' : method) ?? 'unmatched';
    }
    return OUTSIDE_CONTRACT[path.split('/', 2)[1] ?? ''] ?? 'unmatched';
  };
  // Matching a path against the templates costs several lookups; the paths asked again (the
  // popular names) are looked up instead. Bounded: emptied when it holds MEMO_SIZE paths.
  const memo = new Map<string, string>();
  return (method, url) => {
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    const key = method === 'GET' ? path : `${method} ${path}`;
    let op = memo.get(key);
    if (op === undefined) {
      op = name(method, path);
      if (memo.size >= MEMO_SIZE) memo.clear();
      memo.set(key, op);
    }
    return op;
  };
}

const MEMO_SIZE = 10_000;

const OPERATION = Symbol('operation');
const STARTED = Symbol('started');
type Metered = ServerResponse & { [OPERATION]: string; [STARTED]: number };

/** One listener for every response (a closure per request would cost an allocation each). */
function closed(this: Metered): void {
  if (this.writableFinished) count(this[OPERATION], String(this.statusCode), (performance.now() - this[STARTED]) / 1000);
  else count(this[OPERATION], 'aborted', null);
}

/** The listener, with every request counted and timed. */
export function metered(listener: RequestListener, spec: Record<string, unknown> = openApiDocument()): RequestListener {
  const nameOf = operationNamer(spec);
  return (req: IncomingMessage, res: ServerResponse) => {
    const m = res as Metered;
    m[STARTED] = performance.now();
    m[OPERATION] = nameOf(req.method ?? 'GET', req.url ?? '/');
    res.on('close', closed);
    listener(req, res);
  };
}

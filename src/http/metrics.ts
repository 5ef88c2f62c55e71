// The service's metrics in Prometheus' text format (prom-client), served at GET /metrics: requests by the
// contract's operation and status with their latency, the build served and its age, data swaps and bundle
// downloads by outcome, what the update job last did, and Node's own (event-loop lag, RSS, heap, GC).
// Requests are counted around the server's request listener (metered), so an answer counts the same whether
// the framework or an answer held ready sent it; each is named by matching its path against the contract's
// path templates once, when it arrives (routers rewrite req.url while they run).
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { openApiDocument } from '../contract/openapi.js';
import { UPDATE_OUTCOMES, type UpdateStatus } from '../store/update-status.js';
import { firstMatch, templatePattern } from './operation-gate.js';

export const registry = new Registry();

const requests = new Counter({
  name: 'vtqs_http_requests_total',
  help: "Requests answered, by operation (the contract's operationId; unmatched: no path of the contract) and status code (aborted: the client left first)",
  labelNames: ['operation', 'code'] as const,
  registers: [registry],
});
const latency = new Histogram({
  name: 'vtqs_http_request_duration_seconds',
  help: 'Time from a request\'s arrival to its last byte handed to the system, by operation',
  labelNames: ['operation'] as const,
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

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

// Event-loop lag, resident memory, heap and GC, under their usual names (nodejs_eventloop_lag_seconds,
// process_resident_memory_bytes, ...).
collectDefaultMetrics({ register: registry });

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

/** Paths outside the contract, named by their first segment. */
const OUTSIDE_CONTRACT: Record<string, string> = { docs: 'docs', assets: 'assets', 'openapi.json': 'openapiDocument' };

/** The operation a request is for: the contract's operationId of its path and method (HEAD as GET). */
export function operationNamer(spec: Record<string, unknown>): (method: string, url: string) => string {
  const paths = spec.paths as Record<string, Record<string, { operationId?: string }>>;
  const entries = Object.entries(paths).map(([template, item]) => ({
    ...templatePattern(template, true),
    ids: new Map(Object.entries(item).filter(([, op]) => typeof op?.operationId === 'string').map(([m, op]) => [m.toUpperCase(), op.operationId!])),
  }));
  return (method, url) => {
    let path = url.split('?', 1)[0]!;
    // absolute form (a proxy's request line)
    if (path.charCodeAt(0) !== 47) {
      try {
        path = new URL(path).pathname;
      } catch {
        return 'unmatched';
      }
    }
    const found = firstMatch(entries, path);
    if (!found) return OUTSIDE_CONTRACT[path.split('/', 2)[1] ?? ''] ?? 'unmatched';
    return found.entry.ids.get(method === 'HEAD' ? 'GET' : method) ?? 'unmatched';
  };
}

/** The listener, with every request counted and timed. */
export function metered(listener: RequestListener, spec: Record<string, unknown> = openApiDocument()): RequestListener {
  const nameOf = operationNamer(spec);
  type Counted = { inc(): void };
  type Timed = { observe(v: number): void };
  // prom-client hashes the label values on every call; a child per label set is looked up once.
  const counted = new Map<string, Counted>();
  const timed = new Map<string, Timed>();
  const done = (operation: string, res: ServerResponse, t0: number) => {
    const code = res.writableFinished ? String(res.statusCode) : 'aborted';
    const key = `${operation} ${code}`;
    let c = counted.get(key);
    if (!c) counted.set(key, c = requests.labels(operation, code));
    c.inc();
    if (code === 'aborted') return;
    let t = timed.get(operation);
    if (!t) timed.set(operation, t = latency.labels(operation));
    t.observe((performance.now() - t0) / 1000);
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    const t0 = performance.now();
    const operation = nameOf(req.method ?? 'GET', req.url ?? '/');
    res.on('close', () => done(operation, res, t0));
    listener(req, res);
  };
}

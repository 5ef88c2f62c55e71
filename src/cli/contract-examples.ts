// `npm run examples`: the contract's response examples, taken from real answers. For every response of
// every operation (each status and media type) one request is derived from the contract itself (its
// parameter and body examples; a bad value for a 400, an unknown name or release for a 404, a body over the
// limit, of a foreign type or with a misnamed field for 413, 415 and 422), sent to the app over the data set
// in DATA_DIR, and the answer written to src/contract/openapi-examples.json, which the served contract carries
// (contract/openapi.ts). test/contract-document.test.ts derives them again and holds the file equal to the answers.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { loadConfig } from '../config/env.js';
import { projectRoot } from '../shared/project-root.js';
import type { AccessOptions } from '../http/access-limits.js';
import { createApp } from '../http/app.js';
import { openApiDocument } from '../contract/openapi.js';
import { openStore } from '../read/documents.js';
import type { Store } from '../store/store.js';

export const EXAMPLES_FILE = join(projectRoot(), 'src', 'contract', 'openapi-examples.json');

/** One example: the request that gave it (shown as the example's summary) and the answer. */
export interface Example {
  summary: string;
  value: unknown;
}

/** Examples by `METHOD path` -> status -> media type. */
export type Examples = Record<string, Record<string, Record<string, Example>>>;

/** examples: a value of the parameter per media type of the answer it leads to, where one value cannot show them all. */
interface Parameter { name: string; in: string; required?: boolean; example?: unknown; examples?: Record<string, { value: unknown }>; schema?: Schema; $ref?: string }
interface Schema { $ref?: string; pattern?: string; enum?: unknown[]; example?: unknown; examples?: unknown[]; format?: string; properties?: Record<string, Schema> }
/** Format names whose media type does not end with them. */
const MEDIA_ALIASES: Record<string, string> = { tsv: 'text/tab-separated-values', arrow: 'application/vnd.apache.arrow.stream' };
interface Media { schema?: Schema; example?: unknown; examples?: Record<string, { value: unknown }> }
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { $ref?: string; content?: Record<string, Media> }>;
}

/** A request as sent: path with query, and a body with its type. */
interface Request {
  path: string;
  body?: { type: string; text: string };
  headers?: Record<string, string>;
  /** Sent to an app with API keys and a limit of one request a minute, after one request that uses it up. */
  limited?: 'key' | 'over';
  /** Sent to an app with METRICS=off. */
  metricsOff?: true;
}

const BODY_LIMIT_BYTES = 2 * 1024 * 1024;

/** Requests the derivation cannot make from the contract alone: a name that exists nowhere in a body. */
const BODY_404: Record<string, Record<string, unknown>> = {
  'POST /api/v1/citation': { species_name: 'Tobamovirus tabacum', format: 'bibtex' },
  'POST /api/v1/resolve': { names: ['Tobacco mosaic virus'], from_version: 'MSL99' },
  'POST /search/faceted': { family: 'Virgavirdae', msl_version: 'latest' },
  'POST /ai/classify': { metadata: { genome_type: 'crystalline' } },
};

export function deriveRequests(doc: Record<string, unknown>): Array<{ key: string; status: string; type: string; method: string; request: Request }> {
  const lookup = <T>(x: T & { $ref?: string }): T => {
    let node: unknown = x;
    while (node && typeof (node as { $ref?: string }).$ref === 'string') {
      node = (node as { $ref: string }).$ref.slice(2).split('/').reduce((n: unknown, k) => (n as Record<string, unknown>)[k], doc);
    }
    return node as T;
  };
  const out: Array<{ key: string; status: string; type: string; method: string; request: Request }> = [];
  const paths = doc.paths as Record<string, Record<string, Operation>>;
  for (const [template, item] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (method !== 'get' && method !== 'post') continue;
      const key = `${method.toUpperCase()} ${template}`;
      const params = (op.parameters ?? []).map((p) => lookup(p));
      const exampleOf = (p: Parameter): string => {
        const s = lookup(p.schema ?? {});
        return String(p.example ?? s.example ?? s.examples?.[0] ?? s.enum?.[0]);
      };
      const build = (override: Record<string, string> = {}, extraQuery = ''): string => {
        let path = template;
        const query = new URLSearchParams();
        for (const p of params) {
          const value = override[p.name] ?? (p.in === 'path' || p.required ? exampleOf(p) : undefined);
          if (value === undefined) continue;
          if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(value));
          else if (p.in === 'query') query.set(p.name, value);
        }
        const q = [query.toString(), extraQuery].filter((x) => x !== '').join('&');
        return q === '' ? path : `${path}?${q}`;
      };
      const jsonBody = op.requestBody?.content['application/json'];
      const bodyExample = jsonBody ? (jsonBody.example ?? Object.values(jsonBody.examples ?? {})[0]?.value) : undefined;
      const json = (value: unknown) => ({ type: 'application/json', text: JSON.stringify(value) });
      const ok: Request = { path: build(), ...(bodyExample !== undefined ? { body: json(bodyExample) } : {}) };
      const versionParam = params.find((p) => p.in === 'path' && lookup(p.schema ?? {}).pattern);
      const nameParam = params.find((p) => p.in === 'path' && !lookup(p.schema ?? {}).pattern && !lookup(p.schema ?? {}).enum && p.name !== 'rank');
      for (const [status, r] of Object.entries(op.responses)) {
        const response = lookup(r);
        for (const type of Object.keys(response.content ?? {})) {
          let request: Request | null = null;
          if (status.startsWith('2')) {
            const format = params.find((p) => p.name === 'format' && p.in === 'query');
            const formats = format ? (lookup(format.schema ?? {}).enum ?? []).map(String) : [];
            const wanted = formats.find((f) => type.endsWith(f) || type.endsWith(`+${f}`) || MEDIA_ALIASES[f] === type);
            const sameBody = op.requestBody?.content[type];
            const byType = Object.fromEntries(params.flatMap((p) => (p.examples?.[type] ? [[p.name, String(p.examples[type].value)]] : [])));
            if (Object.keys(byType).length > 0) request = { ...ok, path: build(byType) };
            else if ((type === 'application/json' || type === 'text/html') && !wanted) request = ok;
            // the one media type of an operation that has no format to choose (/metrics' text)
            else if (!format && Object.keys(response.content ?? {}).length === 1) request = ok;
            else if (wanted) request = { ...ok, path: build({ format: wanted }) };
            else if (sameBody) {
              const value = sameBody.example ?? Object.values(sameBody.examples ?? {})[0]?.value;
              request = { path: build(), body: { type, text: String(value) } };
            }
          } else if (status === '400') {
            // a value its pattern refuses: a release spelt out, or a file name with a space
            if (versionParam) request = { ...ok, path: build({ [versionParam.name]: versionParam.name.includes('version') ? 'forty' : 'no such file' }) };
            else {
              const query = params.find((p) => p.in === 'query');
              // a known parameter misspelt: the message names the one meant
              const misspelt = query ? (query.name.length > 3 ? query.name.slice(0, -1) : `${query.name}${query.name.slice(-1)}`) : 'verbose';
              request = { ...ok, path: build({}, `${misspelt}=1`) };
            }
          } else if (status === '404') {
            if (BODY_404[key]) request = { path: build(), body: json(BODY_404[key]) };
            else if (nameParam) request = { ...ok, path: build({ [nameParam.name]: `${exampleOf(nameParam).slice(0, -1)}x` }) };
            else if (versionParam) request = { ...ok, path: build({ [versionParam.name]: 'MSL99' }) };
            else if (key === 'GET /metrics') request = { ...ok, metricsOff: true };
            else {
              const version = params.find((p) => p.in === 'query' && p.name.includes('version'));
              if (version) request = { ...ok, path: build({ [version.name]: 'MSL99' }) };
            }
          } else if (status === '401') {
            request = { ...ok, headers: { 'x-api-key': 'not-a-key-of-this-service' }, limited: 'key' };
          } else if (status === '429') {
            request = { ...ok, limited: 'over' };
          } else if (status === '503') {
            // the same request, to a service whose first data set is still loading (realExamples)
            request = ok;
          } else if (status === '413') {
            request = { path: build(), body: { type: 'application/json', text: JSON.stringify({ text: 'x'.repeat(BODY_LIMIT_BYTES) }) } };
          } else if (status === '415') {
            request = { path: build(), body: { type: 'application/xml', text: '<names/>' } };
          } else if (status === '422' && bodyExample && typeof bodyExample === 'object') {
            // a field given by the first part of its name: the message names the field meant
            const fields = Object.keys(bodyExample);
            const long = fields.find((f) => f.includes('_'));
            const value = long
              ? Object.fromEntries(Object.entries(bodyExample).map(([k, v]) => [k === long ? long.split('_')[0]! : k, v]))
              : {};
            request = { path: build(), body: json(value) };
          }
          if (request) out.push({ key, status, type, method: method.toUpperCase(), request });
        }
      }
    }
  }
  return out;
}

/** Long lists cut to their first items, long text to its first lines: an example shows the shape. */
function trimmed(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, 3).map(trimmed);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trimmed(v)]));
  if (typeof value === 'string' && value.includes('\n') && value.length > 1000) return `${value.split('\n').slice(0, 6).join('\n')}\n`;
  return value;
}

/**
 * Sends every derived request to an app over the store and collects the answers as examples; a 503's to an
 * app with no data set yet, as a server answers while its first one loads.
 */
export async function realExamples(store: Store): Promise<{ examples: Examples; mismatches: string[] }> {
  const doc = openApiDocument();
  const listen = async (current: () => Store | null, access?: AccessOptions, metrics = true) => {
    const app = createApp({ stores: { current }, logger: pino({ level: 'silent' }), validateResponses: true, metrics, ...(access ? { access } : {}) });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  };
  // keys and limits are off unless configured: their answers come from an app that has both; a 503 from one
  // whose first data set is still loading; /metrics' 404 from one with METRICS=off
  const keysDir = mkdtempSync(join(tmpdir(), 'vtqs-keys-'));
  const keysFile = join(keysDir, 'keys');
  writeFileSync(keysFile, `examples sha256:${createHash('sha256').update('a-key').digest('hex')}\n`);
  const [served, limited, loading, unmetered] = [
    await listen(() => store), await listen(() => store, { keysFile, perMinute: 1 }), await listen(() => null), await listen(() => store, undefined, false),
  ];
  const examples: Examples = {};
  const mismatches: string[] = [];
  try {
    for (const { key, status, type, method, request } of deriveRequests(doc)) {
      const base = status === '503' ? loading.base : request.limited ? limited.base : request.metricsOff ? unmetered.base : served.base;
      const send = () => fetch(base + request.path, {
        method,
        headers: { ...request.headers, ...(request.body ? { 'content-type': request.body.type } : {}) },
        ...(request.body ? { body: request.body.text } : {}),
      });
      if (request.limited === 'over') await (await send()).arrayBuffer();
      const res = await send();
      const got = (res.headers.get('content-type') ?? '').split(';')[0]!;
      const summary = `${method} ${request.path}${request.body ? ` ${request.body.text.length > 200 ? `(a body of ${request.body.text.length} bytes)` : request.body.text}` : ''}`;
      if (String(res.status) !== status || got !== type) {
        mismatches.push(`${key} ${status} ${type}: ${summary} answered ${res.status} ${got}`);
        await res.arrayBuffer();
        continue;
      }
      // JSON Lines is text (one document a line), not one JSON document
      const value = type === 'application/jsonl' || type.startsWith('text/') ? await res.text()
        : type.includes('json') ? await res.json() as unknown : null;
      await (value === null ? res.arrayBuffer() : Promise.resolve());
      if (value === null) continue;
      ((examples[key] ??= {})[status] ??= {})[type] = { summary, value: trimmed(value) };
    }
  } finally {
    for (const { server } of [served, limited, loading, unmetered]) await new Promise((resolve) => server.close(resolve));
    rmSync(keysDir, { recursive: true, force: true });
  }
  return { examples, mismatches };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { dbFile, snapshotFile } = loadConfig();
  const store = await openStore(dbFile, 2, snapshotFile);
  const { examples, mismatches } = await realExamples(store);
  writeFileSync(EXAMPLES_FILE, `${JSON.stringify(examples, null, 1)}\n`);
  const n = Object.values(examples).flatMap((s) => Object.values(s).flatMap((t) => Object.keys(t))).length;
  console.log(`${n} examples written to ${EXAMPLES_FILE}`);
  for (const m of mismatches) console.log(`not taken: ${m}`);
  store.release();
  process.exit(mismatches.length > 0 ? 1 : 0);
}

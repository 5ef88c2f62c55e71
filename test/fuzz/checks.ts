// What every answer must satisfy, whatever was asked: a status the contract declares for the operation, a
// body valid against the schema declared for that status and media type, error bodies in the documented
// shape with a specific message and nothing internal, the right Content-Type, safe CSV, security headers.
import { parse as parseCsv } from 'csv-parse/sync';
import type { Contract, Operation } from './contract.js';

export interface Probe {
  /** What kind of request this is (the summary counts per kind). */
  kind: string;
  op: Operation | null;
  /** For a wrong-method probe: the path template whose methods Allow must list. */
  template?: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** ok: the contract accepts the request (it may still be a 404); refused: it does not (4xx expected). */
  expect: 'ok' | 'refused' | 'any';
  /** The statuses that must answer it, when the probe knows (405, 304, 413, ...). */
  status?: number[];
  note: string;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface Finding {
  check: string;
  probe: string;
  status: number;
  detail: string;
}

/** Text an error message must never show: validator internals, code paths, stack frames. */
const LEAKS = /malformed uri|api\.v1\.|openapi\.validation|\bajv\b|\/work\/|node_modules|dist\/src|\.js:\d+|\n\s+at |undefined|\[object Object\]|ZodError|TypeError|ReferenceError|SyntaxError: Unexpected|duckdb|Binder Error|Catalog Error/i;

/** ajv's and the request validator's words: a message that still has them was not put in plain words. */
const VALIDATOR_WORDS = /must NOT|allowed values|additional properties|required property|must be equal to|\b(?:params|query|body|headers)\.[A-Za-z_]/;

/** Cells a spreadsheet would run as a formula (OWASP: =, +, -, @, tab, carriage return). */
const FORMULA = /^[=+\-@\t\r]/;

const REFUSALS = [400, 405, 413, 415, 422];

const mediaType = (h: string | string[] | undefined): string => String(h ?? '').split(';')[0]!.trim().toLowerCase();

export function describeProbe(p: Probe): string {
  return `${p.method} ${p.path.length > 160 ? `${p.path.slice(0, 160)}…` : p.path} [${p.kind}: ${p.note.slice(0, 120)}]`;
}

export function check(contract: Contract, p: Probe, a: Answer): Finding[] {
  const findings: Finding[] = [];
  const find = (name: string, detail: string) => findings.push({ check: name, probe: describeProbe(p), status: a.status, detail: detail.slice(0, 300) });
  const type = mediaType(a.headers['content-type']);
  const text = a.body.toString('utf8');
  const head = p.method === 'HEAD';

  if (a.status >= 500) find('status >= 500', text.slice(0, 200));
  if (a.headers['x-content-type-options'] !== 'nosniff') find('security headers', 'no X-Content-Type-Options: nosniff');
  if (p.status && !p.status.includes(a.status)) find('expected status', `expected ${p.status.join('/')}, got ${a.status}`);
  if (p.expect === 'ok' && REFUSALS.includes(a.status)) find('contract-valid request refused', text.slice(0, 200));
  if (p.expect === 'refused' && a.status < 400) find('contract-invalid request answered', `status ${a.status}`);
  if (head && a.body.length > 0) find('HEAD with a body', `${a.body.length} bytes`);

  // Which declared response this is.
  let validators: Map<string, (x: unknown) => boolean> | null = null;
  if (a.status === 405 && p.template) {
    const allow = String(a.headers.allow ?? '');
    const expected = contract.methods.get(p.template)!.join(', ');
    if (allow !== expected) find('405 without the right Allow', `Allow '${allow}', expected '${expected}'`);
    validators = new Map([['application/json', contract.methodNotAllowed]]);
  } else if (p.op) {
    const declared = p.op.responses.get(String(a.status)) ?? p.op.responses.get('default');
    if (!declared) {
      find('undeclared status', `${a.status} is not declared for ${p.op.id}`);
      return findings;
    }
    validators = declared.content;
  } else if (a.status !== 404) {
    find('undeclared status', `${a.status} for a path outside the contract`);
  }

  if (a.status === 304) {
    if (a.body.length > 0) find('304 with a body', `${a.body.length} bytes`);
    return findings;
  }
  if (validators && validators.size > 0) {
    if (!validators.has(type)) find('content type', `'${String(a.headers['content-type'])}' is not declared (${[...validators.keys()].join(', ')})`);
    else if (!head) checkBody(type, validators.get(type)!, text, a.body, find);
  }
  if (a.status >= 400 && !head && type === 'application/json') {
    let detail: unknown;
    try {
      detail = (JSON.parse(text) as { detail?: unknown }).detail;
    } catch {
      detail = undefined;
    }
    if (typeof detail !== 'string' || detail.trim().length < 12) find('error message', `not a specific message: ${text.slice(0, 120)}`);
    else {
      // echoing the user's own text back ('undefined' is not a name ...) is not a leak
      const leak = LEAKS.exec(detail);
      if (leak && !requestText(p).toLowerCase().includes(leak[0].toLowerCase())) find('error message', `leaks internals: ${detail.slice(0, 200)}`);
      // the validator's own phrasing, which a user should never have to decode
      const raw = VALIDATOR_WORDS.exec(detail);
      if (raw && !requestText(p).includes(raw[0])) find('error message', `validator phrasing '${raw[0]}': ${detail.slice(0, 200)}`);
      // a refused parameter is named in the message
      const named = /^(?:bad (?:path|query) parameter|unknown query parameter)$/.test(p.kind) ? /^([^=]+)=/.exec(p.note)?.[1] : undefined;
      if (named && /^[a-z_]+$/.test(named) && !detail.includes(`'${named}'`)) find('error message', `does not name '${named}': ${detail.slice(0, 200)}`);
    }
  }
  return findings;
}

function requestText(p: Probe): string {
  let path = p.path;
  try {
    path = decodeURIComponent(p.path);
  } catch {
    // a malformed escape is the probe's point; the raw text is what the user sent
  }
  return `${path} ${p.body === undefined ? '' : p.body.toString()}`;
}

function checkBody(type: string, validate: (x: unknown) => boolean, text: string, bytes: Buffer, find: (check: string, detail: string) => void): void {
  if (type.endsWith('json')) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      find('body schema', `not JSON: ${(err as Error).message}`);
      return;
    }
    if (!validate(value)) find('body schema', JSON.stringify((validate as unknown as { errors?: unknown[] }).errors?.slice(0, 2)));
  } else if (type === 'text/csv') {
    let rows: string[][];
    try {
      rows = parseCsv(text, { relax_column_count: false, bom: true, record_delimiter: ['\r\n', '\n'] }) as string[][];
    } catch (err) {
      find('body schema', `CSV does not parse: ${(err as Error).message}`);
      return;
    }
    for (const row of rows) {
      const cell = row.find((c) => FORMULA.test(c));
      if (cell !== undefined) {
        find('CSV formula cell', JSON.stringify(cell).slice(0, 80));
        break;
      }
    }
  } else if (type === 'application/vnd.apache.parquet') {
    const magic = 'PAR1';
    if (bytes.subarray(0, 4).toString() !== magic || bytes.subarray(-4).toString() !== magic) find('body schema', 'not a Parquet file');
  }
}

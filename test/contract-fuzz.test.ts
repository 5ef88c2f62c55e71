// The contract holds from outside: a seeded, bounded run of the contract fuzzer (test/fuzz) against the
// server as shipped, on the real data set, finds nothing; `npm run fuzz` runs the same over 20,000+ requests
// with a fresh seed. Beside it, what the fuzzer's checks rest on: the contract reads the same in two YAML
// parsers, and CSV answers are safe to open in a spreadsheet.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { parse as parseCsv } from 'csv-parse/sync';
import { load as loadJsYaml } from 'js-yaml';
import { parse as parseYaml } from 'yaml';
import { projectRoot } from '../src/shared/project-root.js';
import { loadContract } from './fuzz/contract.js';
import { fuzz, startServer, summary } from './fuzz/run.js';

/** Fixed: a failure names a run anyone can repeat (FUZZ_SEED=20261125 npm run fuzz). */
const SEED = 20261125;
const REQUESTS = 3000;

describe('the contract, fuzzed from outside', function () {
  let server: { child: ChildProcess; port: number; stderr: () => string };
  const base = () => `http://127.0.0.1:${server.port}`;

  before(async () => {
    server = await startServer();
  });

  after(() => {
    server?.child.kill('SIGTERM');
  });

  it('reads the same in two YAML parsers (yaml, js-yaml)', () => {
    const text = readFileSync(join(projectRoot(), 'src', 'contract', 'openapi.yaml'), 'utf8');
    const a = parseYaml(text) as Record<string, unknown>;
    expect(loadJsYaml(text)).to.deep.equal(a);
    expect(Object.keys(a.paths as object)).to.have.length.above(30);
  });

  it(`answers ${REQUESTS.toLocaleString('en')} seeded requests with no finding`, async () => {
    const report = await fuzz(server.port, loadContract(), { requests: REQUESTS, seed: SEED, concurrency: 8 });
    const shown = report.findings.slice(0, 10).map((f) => `${f.check} (${f.status}): ${f.probe}\n  ${f.detail}`).join('\n');
    expect(report.findings, `${summary(report)}\n${shown}\n${server.stderr().slice(-2000)}`).to.have.length(0);
    // every kind of probe ran
    expect([...report.byKind.keys()]).to.include.members(['valid', 'bad body', 'bad query parameter', 'bad path parameter', 'unknown query parameter',
      'malformed percent-escape', 'wrong method', 'HEAD', 'If-None-Match', 'HTTP-level', 'deep nesting', 'valid (schema only)']);
  });

  it('neutralises formula cells in CSV answers, the user\'s own echoed columns included', async () => {
    const cells = ['=1+2', '+SUM(A1)', '-2+3', '@cmd', '\t=1+2', '\r=1'];
    const csv = `name,note\r\n${cells.map((c, i) => `"${i % 2 ? 'Tobamovirus tabaci' : c}","${c}"`).join('\r\n')}\r\n`;
    const res = await fetch(`${base()}/api/v1/resolve`, { method: 'POST', headers: { 'content-type': 'text/csv' }, body: csv });
    expect(res.status).to.equal(200);
    const rows = parseCsv(await res.text(), { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => r.note)).to.deep.equal(cells.map((c) => `'${c}`));
    for (const row of rows) for (const cell of Object.values(row)) expect(cell, JSON.stringify(row)).to.not.match(/^[=+\-@\t\r]/);
    // the user's note column is kept; the answer's own note is written beside it
    expect(Object.keys(rows[0]!)).to.include.members(['name', 'note', 'status', 'resolve_note']);
    // the resolution read the name as written (a formula is no name), and the real name in between resolved
    expect(rows[1]!.status).to.equal('unchanged');
    expect(rows[0]!.status).to.equal('unknown');
  });

  it('answers HEAD as GET without a body, and a method a path lacks with 405 and Allow', async () => {
    const get = await fetch(`${base()}/api/v1/versions`);
    const head = await fetch(`${base()}/api/v1/versions`, { method: 'HEAD' });
    expect(head.status).to.equal(200);
    expect(head.headers.get('etag')).to.equal(get.headers.get('etag'));
    expect(await head.text()).to.equal('');
    const del = await fetch(`${base()}/api/v1/versions`, { method: 'DELETE' });
    expect(del.status).to.equal(405);
    expect(del.headers.get('allow')).to.equal('GET, HEAD, OPTIONS');
    const post = await fetch(`${base()}/api/v1/citation`, { method: 'GET' });
    expect(post.headers.get('allow')).to.equal('POST, OPTIONS');
    expect((await post.json() as { detail: string }).detail).to.contain('allowed: POST, OPTIONS');
  });

  it('answers If-None-Match: * with 304 for a resource that exists, and every answer with nosniff', async () => {
    const res = await fetch(`${base()}/api/v1/species/MSL40/Tobamovirus%20tabaci`, { headers: { 'if-none-match': '*' } });
    expect(res.status).to.equal(304);
    const missing = await fetch(`${base()}/api/v1/species/MSL40/Nonexistent%20virus`, { headers: { 'if-none-match': '*' } });
    expect(missing.status).to.equal(404);
    expect(missing.headers.get('x-content-type-options')).to.equal('nosniff');
  });
});

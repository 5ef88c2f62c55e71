// Answers held ready (src/ready-answers.ts) against the framework's, on the real data: for lookups drawn from
// the data set, the same status, bytes and headers (the date aside) and the same log line; and every
// request the ready path must not answer (a query string, If-None-Match, HEAD, compression, a parameter
// the contract refuses, a miss) is handed to the framework, once.
import { expect } from 'chai';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import request from 'supertest';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { createApp, readyRoutes } from '../src/http/app.js';
import { openApiDocument } from '../src/contract/openapi.js';
import { readyAnswers } from '../src/http/ready-answers.js';
import { aiAnswers } from '../src/routes/ai.js';
import { realDb, type Db } from './support/data.js';
import { testApp } from './support/http.js';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** Log lines as written, without the fields that differ between two requests (time, pid, duration). */
function logSink(): { lines: Array<Record<string, unknown>>; logger: pino.Logger } {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      const line = JSON.parse(chunk.toString()) as Record<string, unknown>;
      for (const k of ['time', 'pid', 'hostname', 'ms']) delete line[k];
      lines.push(line);
      done();
    },
  });
  return { lines, logger: pino({ level: 'info' }, stream) };
}

const raw = (res: request.Response, done: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

type Method = 'get' | 'head' | 'post';

/** Status, headers (the date and connection aside) and body bytes of an answer. */
async function answer(listener: Listener, method: Method, path: string, headers: Record<string, string>, body?: string) {
  const asked = request(listener)[method](path).set(headers);
  const res = await (body === undefined ? asked : asked.send(body)).buffer(true).parse(raw);
  const got = { ...res.headers as Record<string, string> };
  for (const k of ['date', 'connection', 'keep-alive']) delete got[k];
  return { status: res.status, headers: got, body: (res.body as Buffer | undefined)?.toString('utf8') ?? '' };
}

describe('answers held ready, against the framework (real data)', function () {
  let db: Db;
  let framework: Listener;
  let ready: Listener;
  let fellBack = 0;
  const logs = { framework: logSink(), ready: logSink() };

  before(async () => {
    const { store } = await testApp();
    db = await realDb();
    const stores = { current: () => store };
    framework = createApp({ stores, logger: logs.framework.logger });
    // the framework behind the ready path is a second app, so that its log lines are told apart
    // which keeps the /ai/query answers the ready path keeps, as in the server (app.ts)
    const cache = aiAnswers();
    const behind = createApp({ stores, logger: logs.ready.logger, aiAnswers: cache });
    const answers = readyAnswers(readyRoutes(cache), { spec: openApiDocument(), stores, logger: logs.ready.logger });
    ready = (req, res) => answers(req, res, () => {
      fellBack += 1;
      void behind(req, res);
    });
  });
  after(() => db.close());

  /** Asks both; expects the same answer and log line, and the ready path to have answered or not (null: either). */
  async function same(path: string, expectReady: boolean | null, headers: Record<string, string> = {}, method: Method = 'get', body?: string) {
    const id = `parity-${Math.random().toString(36).slice(2)}`;
    const before = fellBack;
    // supertest asks for gzip unless told otherwise
    const sent = { 'X-Request-Id': id, 'Accept-Encoding': 'identity', ...headers };
    const [a, b] = [await answer(framework, method, path, sent, body), await answer(ready, method, path, sent, body)];
    expect(b, `${method.toUpperCase()} ${path} ${body ?? ''}`.slice(0, 300)).to.deep.equal(a);
    if (expectReady !== null) expect(fellBack - before, `${path} ${body ?? ''}: handed to the framework`.slice(0, 300)).to.equal(expectReady ? 0 : 1);
    // one log line each, the same
    expect(logs.ready.lines.at(-1), path).to.deep.equal(logs.framework.lines.at(-1));
    expect(logs.ready.lines.at(-1)).to.include({ request_id: id });
    return a;
  }

  const enc = encodeURIComponent;

  it('species by their own names, in any release, as written, in another case and by `latest`', async () => {
    const rows = await db.all<{ version: string; species: string; latest: boolean }>(`
      SELECT r.version, s.species, s.msl = (SELECT max(msl) FROM src.releases) AS latest
      FROM src.species s JOIN src.releases r USING (msl) USING SAMPLE 120 ROWS (reservoir, 17)`);
    expect(rows).to.have.length(120);
    for (const r of rows) {
      await same(`/api/v1/species/${r.version}/${enc(r.species)}`, true);
      await same(`/api/v1/species/${r.version.toLowerCase()}/${enc(r.species.toUpperCase())}`, true);
      if (r.latest) await same(`/api/v1/species/latest/${enc(r.species)}`, true);
    }
  });

  it('comparison summaries of release pairs in either order, and releases by number or `latest`', async () => {
    const pairs = await db.all<{ a: string; b: string }>(`
      SELECT x.version AS a, y.version AS b FROM src.releases x, src.releases y WHERE x.msl <> y.msl USING SAMPLE 60 ROWS (reservoir, 5)`);
    for (const { a, b } of pairs) await same(`/api/v1/compare/${a}/${b}`, true);
    const versions = await db.all<{ version: string }>('SELECT version FROM src.releases ORDER BY msl');
    await same(`/api/v1/compare/${versions[0]!.version}/latest`, true);
    for (const { version } of versions) await same(`/historical/releases/${version}`, true);
    await same('/historical/releases/latest', true);
    await same(`/historical/releases/${versions.at(-1)!.version.toLowerCase()}`, true);
  });

  it('histories and /taxonomy/species of names of any release, the gone and unknown ones refused as the framework refuses them', async () => {
    const names = await db.all<{ species: string; current: boolean }>(`
      SELECT species, bool_or(msl = (SELECT max(msl) FROM src.releases)) AS current FROM src.species
      GROUP BY species USING SAMPLE 80 ROWS (reservoir, 23)`);
    for (const { species, current } of names) {
      await same(`/api/v1/history/${enc(species)}`, true);
      // a name of the latest release is always a species there; an earlier one may be gone (a 404, sent ready too)
      const t = await same(`/taxonomy/species/${enc(species)}`, true);
      if (current) expect(t.status).to.equal(200);
    }
    for (const path of ['/api/v1/history/TMV', '/api/v1/history/Coronaviridae', '/taxonomy/species/SARS-CoV-2']) await same(path, true);
    // misses the lookup itself refuses (unknown, gone, not a species): the error handler's answer, sent ready
    for (const path of ['/api/v1/history/No%20such%20virus%20at%20all', '/taxonomy/species/Caudovirales', '/taxonomy/species/zzzzqqq',
      '/taxonomy/species/%C2%B5', '/api/v1/species/MSL99/Tobamovirus%20tabaci', '/api/v1/compare/MSL40/MSL40', '/api/v1/search?q=virus&version=MSL99', '/historical/releases/MSL0']) {
      expect((await same(path, true)).status, path).to.equal(404);
    }
  });

  it('searches of any release by any field, paged, with their next page\'s link', async () => {
    const rows = await db.all<{ version: string; species: string; family: string | null }>(`
      SELECT r.version, s.species, s.family FROM src.species s JOIN src.releases r USING (msl) USING SAMPLE 40 ROWS (reservoir, 29)`);
    let paged = 0;
    for (const [i, r] of rows.entries()) {
      const word = r.species.split(' ')[0]!;
      for (const q of [`q=${enc(word.toLowerCase())}&version=${r.version}`, `q=${enc(r.species.slice(0, 5))}&field=all&limit=5&offset=${i % 3}`,
        `version=${r.version.toLowerCase()}&q=${enc(r.family ?? word)}&field=family`]) {
        const got = await same(`/api/v1/search?${q}`, true);
        expect(got.status).to.equal(200);
        if (got.headers.link) paged += 1;
      }
    }
    expect(paged).to.be.greaterThan(20);
    await same('/api/v1/search?q=sars', true);
    await same('/api/v1/search?q=tobamo&limit=1&offset=0', true);
  });

  it('hands to the framework what it must not answer, which answers it as ever', async () => {
    const tmv = '/api/v1/species/MSL40/Tobamovirus%20tabaci';
    expect((await same(`${tmv}?fields=all`, false)).status).to.equal(400);
    expect((await same(tmv, false, { 'If-None-Match': '*' })).status).to.equal(304);
    expect((await same(tmv, false, {}, 'head')).status).to.equal(200);
    // a body of 1 KB or more to a client that accepts compression: compressed, by the framework; one under
    // 1 KB is never compressed, so answered ready whatever the client accepts
    const sizes = await db.all<{ version: string; name: string; bytes: number }>(`
      SELECT version, json_extract_string(doc, '$.scientific_name') AS name, strlen(doc::VARCHAR) AS bytes
      FROM main.species_doc WHERE msl = 40 ORDER BY bytes`);
    for (const [{ version, name, bytes }, compressed] of [[sizes.at(-1)!, true], [sizes[0]!, false]] as const) {
      expect(bytes >= 1024).to.equal(compressed);
      const got = await same(`/api/v1/species/${version}/${enc(name)}`, !compressed, { 'Accept-Encoding': 'gzip, deflate, br' });
      expect(got.headers['content-encoding']).to.equal(compressed ? 'br' : undefined);
    }
    for (const [path, status] of [
      ['/api/v1/species/MSL0x/Tobamovirus%20tabaci', 400],
      [`/api/v1/species/MSL40/${'x'.repeat(501)}`, 400], ['/api/v1/species/MSL40/%E0%A4%A', 400],
      ['/api/v1/species/MSL40/Tobacco%20mosaic%20virus', 200], ['/api/v1/species/MSL40/No%20such%20virus', 404],
      ['/api/v1/species/MSL40/Tobamovirus%20tabaci/', 200],
      ['/api/v1/search?q=virus&limit=abc', 400], ['/api/v1/search?q=virus&q=phage', 400], ['/api/v1/search?q=', 400],
      ['/api/v1/search?q=virus&page=2', 400], ['/api/v1/search?limit=5', 400],
      ['/api/v1/search?q=virus&limit=0', 400], ['/api/v1/search?q=virus&field=genus', 400],
    ] as const) {
      expect((await same(path, false)).status, path).to.equal(status);
    }
  });
  const JSON_BODY = { 'Content-Type': 'application/json' };
  const post = (path: string, body: string, expectReady: boolean | null, headers: Record<string, string> = JSON_BODY) =>
    same(path, expectReady, headers, 'post', body);

  it('species searches by real names of any release, filtered, exact, misspelt', async () => {
    const rows = await db.all<{ species: string; family: string | null; genus: string | null }>(`
      SELECT s.species, s.family, s.genus FROM src.species s USING SAMPLE 50 ROWS (reservoir, 31)`);
    let found = 0;
    for (const [i, r] of rows.entries()) {
      const typo = r.species.length > 6 ? r.species.slice(0, 3) + r.species[4] + r.species[3] + r.species.slice(5) : r.species;
      for (const body of [
        { query: r.species }, { query: r.species.slice(0, 5).toLowerCase(), limit: 1 + (i % 30) }, { query: typo },
        { query: r.species.split(' ').at(-1)!, family_filter: r.family?.toUpperCase() ?? null, exact_match: i % 2 === 0 },
        { query: r.species, genus_filter: r.genus, exact_match: true, limit: 3 },
      ]) {
        const got = await post('/search/species', JSON.stringify(body), true);
        expect(got.status).to.equal(200);
        if ((JSON.parse(got.body) as { total_matches: number }).total_matches > 0) found += 1;
      }
    }
    // not all: a name of 1971 may be no species' name since, and typos may miss
    expect(found).to.be.greaterThan(150);
  });

  it('questions of the development set, with the cache off and on', async () => {
    const dev = JSON.parse(readFileSync('test/ai-eval/dev.json', 'utf8')) as Array<{ question: string }>;
    expect(dev.length).to.be.greaterThan(100);
    for (const [i, { question }] of dev.entries()) {
      // each side keeps its own cache: both are asked the same questions in the same order, so `cached` agrees
      const body = i % 3 === 0 ? { query: question } : { query: question, use_cache: i % 3 === 1 };
      expect((await post('/ai/query', JSON.stringify(body), true)).status).to.equal(200);
    }
    await post('/ai/query', JSON.stringify({ query: dev[0]!.question }), true);
  });

  it('hands a POST to the framework, its body unread or put back, when it must not answer it', async () => {
    const tmv = JSON.stringify({ query: 'tobacco mosaic' });
    for (const [body, status, headers] of [
      ['{"query": "tobacco', 400], ['[]', 422], ['"tmv"', 400], ['{}', 422], ['null', 400], ['{"query": ""}', 422],
      ['{"query": "tmv", "limit": 0}', 422], ['{"query": "tmv", "limit": "10"}', 422], ['{"query": "tmv", "page": 2}', 422],
      ['\ufeff{"query": "tmv"}', 200], [tmv + ' '.repeat(17_000), 200],
      [tmv, 415, { 'Content-Type': 'text/html' }], [tmv, 415, { 'Content-Type': 'application/json; charset=latin1' }],
      [tmv, 200, { ...JSON_BODY, 'Accept-Encoding': 'gzip' }],
    ] as Array<[string, number, Record<string, string>?]>) {
      expect((await post('/search/species', body, false, headers ?? JSON_BODY)).status, body.slice(0, 40)).to.equal(status);
    }
    expect((await post('/search/species?limit=2', tmv, false)).status).to.equal(400);
    expect((await post('/ai/query', '{"query": 42}', false)).status).to.equal(422);
    expect((await post('/ai/query', JSON.stringify({ query: 'what is TMV?', use_cache: 'no' }), false)).status).to.equal(422);
    // the two answered ready still: a charset spelt out, and a question with no answer (a 200 that says so)
    await post('/search/species', tmv, true, { 'Content-Type': 'application/json; charset=UTF-8' });
    await post('/ai/query', JSON.stringify({ query: 'zzqx' }), true);
  });

  it('reads a body that comes in pieces, and puts back one it does not take', async () => {
    const servers: Server[] = [framework, ready].map((l) => createServer(l));
    await Promise.all(servers.map((s) => new Promise((listening) => s.listen(0, '127.0.0.1', () => listening(null)))));
    try {
      const ask = (server: Server, body: string) => new Promise<string>((resolve, reject) => {
        const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
        let got = '';
        socket.on('data', (c: Buffer) => { got += c.toString(); });
        socket.on('end', () => resolve(got.replace(/^(Date|X-Request-Id): .*\r\n/gm, '')));
        socket.on('error', reject);
        const bytes = Buffer.from(body);
        socket.write(`POST /search/species HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${bytes.length}\r\nConnection: close\r\n\r\n`);
        socket.write(bytes.subarray(0, 7));
        setTimeout(() => socket.end(bytes.subarray(7)), 50);
      });
      for (const body of ['{"query": "tobacco mosaic", "limit": 2}', '{"query": "tobacco', '{"query": "tmv", "limit": 0}']) {
        const before = fellBack;
        const [a, b] = [await ask(servers[0]!, body), await ask(servers[1]!, body)];
        expect(b, body).to.equal(a);
        expect(a).to.match(/^HTTP\/1\.1 (200|400|422)/);
        expect(fellBack - before, body).to.equal(body.includes('limit": 2') ? 0 : 1);
      }
    } finally {
      for (const s of servers) s.close();
    }
  });
});

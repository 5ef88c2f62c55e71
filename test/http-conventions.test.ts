// The HTTP conventions every operation follows, on the real data set: HEAD wherever GET is, 405 with Allow,
// CORS for any origin (in a real browser too), request ids, next-page links, and validator messages that
// read as sentences naming the parameter, the value and what is allowed.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { pino } from 'pino';
import request from 'supertest';
import { createApp } from '../src/http/app.js';
import { deriveRequests } from '../src/cli/contract-examples.js';
import { openApiDocument } from '../src/contract/openapi.js';
import { launchBrowser } from './support/browser.js';
import { onRealApp, testApp } from './support/http.js';

const doc = openApiDocument() as { paths: Record<string, Record<string, unknown>> };
const OPERATION_METHODS = ['get', 'post', 'put', 'delete', 'patch'];

/** One request per GET operation that the contract answers 200 (its parameters' examples; JSON where it has several types). */
const gets = deriveRequests(doc).filter((r) => r.method === 'GET' && r.status === '200')
  .sort((a, b) => Number(b.type === 'application/json') - Number(a.type === 'application/json'))
  .filter((r, i, all) => all.findIndex((x) => x.key === r.key) === i);

/** What every validator-originated message must be: one sentence naming the parameter, none of ajv's words. */
function expectHumanMessage(detail: string, parameter: string): void {
  expect(detail, detail).to.include(`'${parameter}'`);
  expect(detail, detail).not.to.match(/must NOT|allowed values|additional properties|required property|\b(params|query|body)\.|\/body|openapi|ajv/i);
  expect(detail, detail).not.to.match(/\n/);
}

describe('HTTP conventions', function () {
  const real = onRealApp();

  describe('HEAD', () => {
    it('is answered wherever GET is, with the GET\'s status and headers and no body', async () => {
      expect(gets.length).to.equal(Object.values(doc.paths).filter((item) => item.get).length);
      for (const { request: r } of gets) {
        const get = await request(real.app).get(r.path);
        const head = await request(real.app).head(r.path);
        expect(head.status, r.path).to.equal(get.status);
        expect(head.headers.etag, r.path).to.equal(get.headers.etag);
        expect(head.headers['content-type'], r.path).to.equal(get.headers['content-type']);
        expect(head.text ?? '', r.path).to.equal('');
      }
    });
  });

  describe('a method a path lacks', () => {
    it('is a 405 whose Allow lists the path\'s methods (HEAD wherever GET is, OPTIONS everywhere)', async () => {
      for (const [template, item] of Object.entries(doc.paths)) {
        const own = OPERATION_METHODS.filter((m) => item[m]).map((m) => m.toUpperCase());
        const allow = [...own, ...(own.includes('GET') ? ['HEAD'] : []), 'OPTIONS'];
        const path = gets.find((g) => g.key === `GET ${template}`)?.request.path ?? template.replace(/\{[^}]+\}/g, 'MSL40');
        const res = await request(real.app).delete(path).expect(405);
        expect(res.headers.allow.split(', ').sort(), template).to.deep.equal(allow.sort());
      }
    });
  });

  describe('CORS', () => {
    it('lets any origin read every answer, errors included, and exposes ETag, X-Request-Id and Link', async () => {
      for (const path of ['/api/v1/versions', '/api/v1/species/MSL99/x', '/taxonomy/families?nope=1']) {
        const res = await request(real.app).get(path).set('Origin', 'https://example.org');
        expect(res.headers['access-control-allow-origin'], path).to.equal('*');
        expect(res.headers['access-control-expose-headers']!.split(','), path).to.include.members(['ETag', 'X-Request-Id', 'Link']);
      }
    });

    it('answers a preflight on every path with 204, Allow and the Access-Control-Allow-* headers, whatever its query', async () => {
      for (const template of Object.keys(doc.paths)) {
        const path = `${gets.find((g) => g.key === `GET ${template}`)?.request.path ?? template.replace(/\{[^}]+\}/g, 'MSL40')}`;
        const res = await request(real.app).options(`${path}${path.includes('?') ? '&' : '?'}anything=1`)
          .set('Origin', 'http://localhost:5173').set('Access-Control-Request-Method', 'POST')
          .set('Access-Control-Request-Headers', 'content-type, x-request-id, if-none-match')
          .expect(204);
        expect(res.headers['access-control-allow-origin']).to.equal('*');
        // the path's own methods, as Allow says: a preflight for a method the path lacks is refused by the browser
        expect(res.headers['access-control-allow-methods'], path).to.equal(res.headers.allow).and.include('OPTIONS');
        expect(res.headers['access-control-allow-headers']).to.equal('content-type, x-request-id, if-none-match');
        expect(res.headers.allow).to.include('OPTIONS');
        expect(res.text ?? '').to.equal('');
      }
      await request(real.app).options('/no/such/path').expect(404);
    });

    describe('in headless Chromium', () => {
      let api: Server;
      let page: Server;
      before(async () => {
        const { app } = await testApp();
        api = app.listen(0, '127.0.0.1');
        await new Promise((resolve) => api.once('listening', resolve));
        const apiOrigin = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
        // A page on another port is another origin: everything it reads from the API goes through CORS. The
        // X-Request-Id and If-None-Match headers make its requests non-simple, so Chromium sends a preflight.
        page = createServer((_req, res) => {
          res.setHeader('Content-Type', 'text/html; charset=utf-8');
          res.end(`<!doctype html><title>cross-origin</title><script>
            window.result = (async () => {
              const first = await fetch('${apiOrigin}/api/v1/search?q=tobamovirus&limit=2', { headers: { 'X-Request-Id': 'page-42' } });
              const body = await first.json();
              const again = await fetch('${apiOrigin}/api/v1/search?q=tobamovirus&limit=2', { headers: { 'If-None-Match': first.headers.get('ETag') }, cache: 'no-store' });
              const citation = await fetch('${apiOrigin}/api/v1/citation', { method: 'POST', headers: { 'Content-Type': 'application/json' },
                body: JSON.stringify({ species_name: 'Tobamovirus tabaci', format: 'bibtex' }) });
              return { status: first.status, etag: first.headers.get('ETag'), requestId: first.headers.get('X-Request-Id'),
                link: first.headers.get('Link'), next: body.next, results: body.results.length, revalidated: again.status,
                citation: citation.status, citationType: citation.headers.get('Content-Type') };
            })();
          </script>`);
        });
        page.listen(0, '127.0.0.1');
        await new Promise((resolve) => page.once('listening', resolve));
      });
      after(async () => {
        await new Promise((resolve) => api.close(resolve));
        await new Promise((resolve) => page.close(resolve));
      });

      it('fetches, revalidates and posts from a page served on another port', async () => {
        const browser = await launchBrowser();
        try {
          const tab = await browser.context.newPage();
          await tab.goto(`http://127.0.0.1:${(page.address() as AddressInfo).port}/`);
          const got = await tab.evaluate(() => (window as unknown as { result: Promise<Record<string, unknown>> }).result);
          expect(got).to.include({ status: 200, requestId: 'page-42', results: 2, revalidated: 304, citation: 200 });
          expect(got.etag).to.match(/^"[^"]+"$/);
          expect(got.link).to.equal(`<${got.next as string}>; rel="next"`);
          expect(got.next).to.equal('/api/v1/search?q=tobamovirus&limit=2&offset=2');
        } finally {
          await browser.close();
        }
      });
    });
  });

  describe('X-Request-Id', () => {
    it('echoes a sane id, replaces any other with a UUID, and writes it in the request\'s log line', async () => {
      const lines: string[] = [];
      const sink = new Writable({ write: (chunk: Buffer, _enc, done) => { lines.push(chunk.toString()); done(); } });
      const { store } = await testApp();
      const app = createApp({ stores: { current: () => store }, logger: pino({ level: 'info' }, sink) });
      const kept = await request(app).get('/api/v1/versions').set('X-Request-Id', 'trace-7f3a:01/2').expect(200);
      expect(kept.headers['x-request-id']).to.equal('trace-7f3a:01/2');
      const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
      for (const bad of ['has space', 'x'.repeat(129), '<script>', '']) {
        const res = await request(app).get('/api/v1/versions').set('X-Request-Id', bad).expect(200);
        expect(res.headers['x-request-id'], bad).to.match(uuid);
      }
      const generated = await request(app).get('/api/v1/nothing').expect(404);
      expect(generated.headers['x-request-id']).to.match(uuid);
      const logged = lines.map((l) => JSON.parse(l) as { msg: string; request_id?: string; url?: string }).filter((l) => l.msg === 'request');
      expect(logged.map((l) => l.request_id)).to.include.members(['trace-7f3a:01/2', generated.headers['x-request-id']]);
    });
  });

  describe('pages', () => {
    const paged = [
      '/api/v1/search?q=virus&version=MSL40&limit=7',
      '/api/v1/taxonomy/MSL41/family/Virgaviridae?limit=4',
      '/api/v1/compare/MSL36/MSL37/details?change_type=reclassified&limit=5',
    ];
    for (const first of paged) {
      it(`link to the next page, and the pages join up to the whole list: ${first}`, async () => {
        const key = first.includes('/search') ? 'results' : first.includes('/details') ? 'changes' : 'species';
        const whole = await request(real.app).get(first.replace(/limit=\d+/, 'limit=21')).expect(200);
        let url: string | null = first;
        const seen: unknown[] = [];
        for (let i = 0; i < 3 && url; i++) {
          const res = await request(real.app).get(url).expect(200);
          seen.push(...(res.body[key] as unknown[]));
          url = res.body.next as string | null;
          expect(res.headers.link ?? null).to.equal(url === null ? null : `<${url}>; rel="next"`);
        }
        expect(seen).to.deep.equal((whole.body[key] as unknown[]).slice(0, seen.length));
        expect(seen.length).to.be.greaterThan(7);
      });
    }

    it('has no next page on the last one', async () => {
      const total = (await request(real.app).get('/api/v1/taxonomy/MSL41/genus/Tobamovirus?limit=1').expect(200)).body.total_species as number;
      const last = await request(real.app).get(`/api/v1/taxonomy/MSL41/genus/Tobamovirus?limit=5&offset=${total - 5}`).expect(200);
      expect(last.body.next).to.equal(null);
      expect(last.headers.link).to.equal(undefined);
    });

    it('gives the next offset of a POST page in the body', async () => {
      const res = await request(real.app).post('/search/faceted').send({ family: 'virgaviridae', msl_version: 'latest', limit: 5 }).expect(200);
      expect(res.body.next_offset).to.equal(5);
      const last = await request(real.app).post('/search/faceted').send({ family: 'virgaviridae', msl_version: 'latest', limit: 1000 }).expect(200);
      expect(last.body.next_offset).to.equal(null);
    });
  });

  describe('validator messages', () => {
    const cases: Array<{ send: () => request.Test; status: number; parameter: string; includes: string[] }> = [
      { send: () => request(real.app).get('/api/v1/search?q=tmv&limt=5'), status: 400, parameter: 'limt', includes: ["did you mean 'limit'?", "'q', 'version', 'field', 'limit', 'offset'"] },
      { send: () => request(real.app).get('/api/v1/search?q=tmv&field=hots'), status: 400, parameter: 'field', includes: ["got 'hots'", 'name, family, host, all', "did you mean 'host'?"] },
      { send: () => request(real.app).get('/api/v1/taxonomy/latest/famly/Virgaviridae'), status: 400, parameter: 'rank', includes: ["got 'famly'", "did you mean 'family'?"] },
      { send: () => request(real.app).get('/api/v1/taxonomy/latest/genera/Tobamovirus'), status: 400, parameter: 'rank', includes: ["got 'genera'", "did you mean 'genus'?"] },
      { send: () => request(real.app).post('/ai/query').send({ question: 'what is zika?' }), status: 422, parameter: 'question', includes: ["missing the required field 'query'", "'question' is not one of its fields ('query', 'use_cache')"] },
      { send: () => request(real.app).get('/api/v1/search?q=tmv&limit=5000'), status: 400, parameter: 'limit', includes: ["got '5000'", 'an integer from 1 to 1000'] },
      { send: () => request(real.app).get('/taxonomy/hierarchy?depth=99'), status: 400, parameter: 'depth', includes: ["got '99'"] },
      { send: () => request(real.app).get('/api/v1/species/forty/Zika%20virus'), status: 400, parameter: 'version', includes: ["'forty'"] },
      { send: () => request(real.app).post('/api/v1/resolve').send({ names: ['Zika virus'], to: 'MSL41' }), status: 422, parameter: 'to', includes: ["did you mean 'to_version'?", "'names', 'from_version', 'to_version'"] },
      { send: () => request(real.app).post('/api/v1/citation').send({ species: 'Tobamovirus tabaci' }), status: 422, parameter: 'species', includes: ["did you mean 'species_name'?"] },
      { send: () => request(real.app).post('/api/v1/citation').send({ species_name: 'Tobamovirus tabaci', format: 'bibtext' }), status: 422, parameter: 'format', includes: ["got 'bibtext'", "did you mean 'bibtex'?"] },
      { send: () => request(real.app).post('/ai/query').send({}), status: 422, parameter: 'query', includes: ["missing the required field 'query'"] },
      { send: () => request(real.app).post('/ai/query').send({ query: 42 }), status: 422, parameter: 'query', includes: ['must be a text', "got '42'"] },
      { send: () => request(real.app).post('/search/advanced').send({ filters: { famly: 'Virgaviridae' } }), status: 422, parameter: 'famly', includes: ["did you mean 'family'?", "the body's 'filters'"] },
    ];
    for (const c of cases) {
      it(`name the parameter, the value and what is allowed: ${c.parameter} (${c.status})`, async () => {
        const res = await c.send().expect(c.status);
        const detail = res.body.detail as string;
        expectHumanMessage(detail, c.parameter);
        for (const part of c.includes) expect(detail).to.include(part);
      });
    }
  });
});

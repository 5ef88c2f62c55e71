// Rate limits and API keys: off unless configured (nothing changes, not a header), and when configured an
// anonymous limit per client address (X-Forwarded-For believed only from trusted proxies), a limit per key,
// 429 with Retry-After and the IETF RateLimit headers, 401 for a key that is none of the service's, every
// refusal in the documented shape and checked against the contract, and a key never written to the log.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { pino } from 'pino';
import request from 'supertest';
import { readApiKeys, type AccessOptions } from '../src/http/access-limits.js';
import { createApp } from '../src/http/app.js';
import type { Store } from '../src/store/store.js';
import { testApp } from './support/http.js';

const TMV = '/api/v1/species/latest/Tobacco%20mosaic%20virus';
const sha256 = (key: string) => createHash('sha256').update(key).digest('hex');

describe('rate limits and API keys', function () {
  let store: Store;
  let dir: string;
  let keysFile: string;
  const logged: string[] = [];

  before(async () => {
    store = (await testApp()).store;
    dir = mkdtempSync(join(tmpdir(), 'vtqs-keys-'));
    keysFile = join(dir, 'keys');
    writeFileSync(keysFile, `# who has a key\nlab-one sha256:${sha256('key-of-lab-one')}\n\npipeline sha256:${sha256('key-of-the-pipeline').toUpperCase()}\n`);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const appWith = (access: AccessOptions, trustedProxies: string[] = []) => createApp({
    stores: { current: () => store }, validateResponses: true, access, trustedProxies,
    logger: pino({ level: 'info' }, new Writable({ write(chunk: Buffer, _e, done) { logged.push(chunk.toString()); done(); } })),
  });

  describe('when nothing is configured', () => {
    it('answers as ever: no RateLimit headers, the same exposed headers, an api_key taken and ignored', async () => {
      const { app } = await testApp();
      const res = await request(app).get(`${TMV}?api_key=whatever`).expect(200);
      expect(res.headers).to.not.have.any.keys('ratelimit', 'ratelimit-policy', 'retry-after');
      expect(res.headers['access-control-expose-headers']).to.equal('ETag,X-Request-Id,Link,Content-Disposition,Allow');
      await request(app).get(TMV).set('X-API-Key', 'not a key').expect(200);
    });
  });

  describe('an anonymous limit', () => {
    it('counts each address, answers 429 over it with Retry-After and the RateLimit headers, in the shape of each area', async () => {
      const app = appWith({ perMinute: 3 });
      for (let i = 3; i > 0; i--) {
        const ok = await request(app).get(TMV).expect(200);
        expect(ok.headers.ratelimit).to.match(new RegExp(`^"anonymous"; r=${i - 1}; t=\\d+$`));
        expect(ok.headers['ratelimit-policy']).to.match(/^"anonymous"; q=3; w=60; pk=:[^:]+:$/);
      }
      const over = await request(app).get(TMV).expect(429).expect('Content-Type', /application\/json/);
      expect(Number(over.headers['retry-after'])).to.be.within(1, 60);
      expect(over.headers.ratelimit).to.match(/^"anonymous"; r=0; t=\d+$/);
      expect(over.body).to.have.keys(['detail']);
      expect(over.body.detail).to.match(/^the limit of 3 requests a minute from one address is reached/);
      const other = await request(app).get('/taxonomy/families').expect(429);
      expect(other.body).to.include({ error: 'Too many requests', type: 'TooManyRequests' });
      // the probes of the service and preflights are never limited
      await request(app).get('/health').expect(200);
      await request(app).options(TMV).set('Origin', 'https://example.org').set('Access-Control-Request-Method', 'GET').expect(204);
      expect((await request(app).get(TMV).set('Origin', 'https://example.org')).headers['access-control-expose-headers']).to.include('RateLimit');
    });

    it('believes X-Forwarded-For only from a trusted proxy', async () => {
      const behind = appWith({ perMinute: 1 }, ['loopback']);
      await request(behind).get(TMV).set('X-Forwarded-For', '203.0.113.7').expect(200);
      await request(behind).get(TMV).set('X-Forwarded-For', '203.0.113.7').expect(429);
      await request(behind).get(TMV).set('X-Forwarded-For', '198.51.100.20').expect(200);
      // from anyone else it names no one: every request counts against the connecting address
      const direct = appWith({ perMinute: 1 });
      await request(direct).get(TMV).set('X-Forwarded-For', '203.0.113.7').expect(200);
      await request(direct).get(TMV).set('X-Forwarded-For', '198.51.100.20').expect(429);
    });
  });

  describe('API keys', () => {
    it('lift the anonymous limit to the key\'s own, taken as X-API-Key or api_key, and are never logged', async () => {
      logged.length = 0;
      const app = appWith({ perMinute: 1, keyedPerMinute: 2, keysFile });
      await request(app).get(TMV).expect(200);
      await request(app).get(TMV).expect(429);
      const keyed = await request(app).get(TMV).set('X-API-Key', 'key-of-lab-one').expect(200);
      expect(keyed.headers.ratelimit).to.match(/^"keyed"; r=1; t=\d+$/);
      // a key hashed in capitals in the file is the same key
      await request(app).get(`${TMV}?api_key=key-of-the-pipeline`).expect(200);
      await request(app).get(`${TMV}?api_key=key-of-lab-one`).expect(200);
      const over = await request(app).get(TMV).set('X-API-Key', 'key-of-lab-one').expect(429);
      expect(over.body.detail).to.match(/^the limit of 2 requests a minute with this API key is reached/);
      const text = logged.join('');
      expect(text).to.include('[redacted]');
      expect(text).to.not.include('key-of-lab-one').and.to.not.include('key-of-the-pipeline');
    });

    it('refuse a key that is none of the service\'s with 401, in the shape of each area', async () => {
      const app = appWith({ keysFile });
      const v1 = await request(app).get(TMV).set('X-API-Key', 'guessed').expect(401).expect('Content-Type', /application\/json/);
      expect(v1.body).to.have.keys(['detail']);
      const other = await request(app).get('/taxonomy/families?api_key=guessed').expect(401);
      expect(other.body).to.include({ error: 'Unauthorized', type: 'Unauthorized' });
      // without a key, or with one of the file's, served
      await request(app).get(TMV).expect(200);
      await request(app).get(TMV).set('X-API-Key', 'key-of-lab-one').expect(200);
    });

    it('are read from a file of NAME sha256:HEX lines, a malformed one named by its line, never shown', () => {
      expect(readApiKeys(keysFile).size).to.equal(2);
      const bad = join(dir, 'bad');
      writeFileSync(bad, `ok sha256:${sha256('a')}\nsecret-key-in-plain-text\n`);
      expect(() => readApiKeys(bad)).to.throw(/bad, line 2: expected 'NAME sha256:HEX'/).with.property('message').that.does.not.include('secret-key');
    });
  });
});

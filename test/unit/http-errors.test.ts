// The one error middleware cannot be made to throw, whatever it is handed: it quotes values without writing
// them whole (a body nested 100,000 deep, a list of 10,000 names), and answers an error it cannot describe
// with its status and a placeholder, never with Express's HTML page.
import { expect } from 'chai';
import express from 'express';
import request from 'supertest';
import { errorHandler, jsonPreview, shownValue, type ContractTerms } from '../../src/http/errors.js';

const terms: ContractTerms = { bodyTypes: () => ['application/json'], patternMeaning: () => undefined, bodyRule: () => undefined, fieldNames: () => [] };

function appThrowing(err: unknown, logged: unknown[] = []): express.Express {
  const app = express();
  app.get('/api/v1/x', () => { throw err; });
  app.get('/x', () => { throw err; });
  app.use(errorHandler(terms, (e) => logged.push(e)));
  return app;
}

describe('the error middleware', () => {
  describe('quoting a value', () => {
    it('writes the beginning of JSON nested 100,000 deep without recursing', () => {
      expect(jsonPreview(JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown, 20)).to.equal('['.repeat(20));
      const deep = JSON.parse(`${'{"a":'.repeat(100_000)}{}${'}'.repeat(100_000)}`) as unknown;
      expect(shownValue(deep)).to.equal(`'${'{"a":'.repeat(12)}…'`);
    });

    it('writes what JSON.stringify writes, as far as it is quoted', () => {
      const values: unknown[] = [{ names: ['Zika virus', 'TMV'], n: 3, ok: true, none: null }, [1, 'two', [3, { four: 4 }]], 'text', 42, null, false, {}, []];
      for (const v of values) expect(jsonPreview(v, 1000)).to.equal(JSON.stringify(v));
      const long = Array.from({ length: 10_000 }, (_, i) => `name ${i}`);
      expect(shownValue(long)).to.equal(`'${JSON.stringify(long).slice(0, 60)}…'`);
    });
  });

  describe('an error it cannot describe', () => {
    it('answers with the error\'s own client status and a placeholder, as JSON in the shape of its area', async () => {
      const logged: unknown[] = [];
      // describing it reads its fields; one that throws when read stands in for any fault in describing
      const hostile = { status: 400, get errors(): never { throw new RangeError('Maximum call stack size exceeded'); } };
      for (const [path, keys] of [['/api/v1/x', ['detail']], ['/x', ['error', 'detail', 'type']]] as const) {
        const res = await request(appThrowing(hostile, logged)).get(path).expect(400).expect('Content-Type', /application\/json/);
        expect(res.body).to.have.keys([...keys]);
        expect(res.body.detail).to.equal('the request was refused; what was wrong with it cannot be shown');
      }
      expect(logged.filter((e) => e instanceof RangeError)).to.have.length(2);
    });

    it('answers anything else with a JSON 500 that shows nothing of it', async () => {
      const res = await request(appThrowing(new Error('secret /work/main/dist/src/x.js:1'))).get('/x').expect(500).expect('Content-Type', /application\/json/);
      expect(res.body).to.deep.equal({ error: 'Internal server error', detail: 'internal error; the failure has been logged', type: 'InternalServerError' });
    });
  });
});

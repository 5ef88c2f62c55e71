import { expect } from 'chai';
import { extendedJson, jsonArray, withJsonField } from '../../src/read/json-text.js';

const text = (x: unknown) => Buffer.from(JSON.stringify(x));

describe('JSON made of JSON text already held', () => {
  const docs = [{}, { a: 1 }, { name: 'Tobamovirus tabaci', hosts: ['plants'], note: 'ä "quoted" }' }];

  it('gives the bytes JSON.stringify gives for a head with a field whose value is text already', () => {
    for (const head of [{}, { query: 'x', total: 3, next: null }]) {
      for (const value of [[], docs, { nested: docs }, 'text', 0]) {
        expect(withJsonField(head, 'results', text(value)).toString()).to.equal(JSON.stringify({ ...head, results: value }));
      }
    }
  });

  it('joins items given as text into the array JSON.stringify writes', () => {
    for (const n of [0, 1, 3]) expect(jsonArray(docs.slice(0, n).map(text)).toString()).to.equal(JSON.stringify(docs.slice(0, n)));
  });

  it('extends a document with fields it does not have, as a spread of both', () => {
    for (const doc of docs) {
      for (const extra of [{}, { query: 'q' }, { query: 'q', match: { type: 'exact', similarity: 1 }, also: [] }]) {
        expect(extendedJson(text(doc), extra).toString()).to.equal(JSON.stringify({ ...doc, ...extra }));
      }
    }
  });
});

// PackedDocs: documents handed over in batches ("key NUL byte-length NUL document") must come back byte for
// byte, whichever batch they came in, including multi-byte characters and bytes that look like separators.
import { expect } from 'chai';
import { dictionaryOf, PackedDocs } from '../../src/store/documents-in-memory.js';

/** A batch in the layout store.ts builds in SQL. */
function batch(entries: Array<[string, string]>): Buffer {
  return Buffer.concat(entries.map(([key, doc]) =>
    Buffer.concat([Buffer.from(key), Buffer.from([0]), Buffer.from(String(Buffer.byteLength(doc))), Buffer.from([0]), Buffer.from(doc)])));
}

describe('PackedDocs', () => {
  it('returns every document of every batch as it was handed over', () => {
    const docs = new PackedDocs();
    const expected = new Map<string, string>();
    for (let b = 0; b < 5; b++) {
      const entries: Array<[string, string]> = [];
      for (let i = 0; i < 700; i++) {
        const key = `${b}|k${i}`;
        const doc = JSON.stringify({ b, i, pad: 'x'.repeat((i * 37) % 1000) });
        entries.push([key, doc]);
        expected.set(key, doc);
      }
      expect(docs.addBatch(batch(entries))).to.equal(700);
    }
    // The length, not a separator, ends a document: a NUL inside one must not cut it.
    const odd: Array<[string, string]> = [['café|α', JSON.stringify({ name: 'Café virus α–β 🦠' })], ['nul', 'a\u0000b'], ['empty', '']];
    for (const [key, doc] of odd) expected.set(key, doc);
    expect(docs.addBatch(batch(odd))).to.equal(3);
    docs.seal();

    expect(docs.size).to.equal(expected.size);
    for (const [key, doc] of expected) expect(docs.get(key)?.toString('utf8'), key).to.equal(doc);
  });

  it('answers undefined for an unknown key and refuses batches after sealing', () => {
    const docs = new PackedDocs();
    docs.addBatch(batch([['a', '{}']]));
    docs.seal();
    expect(docs.get('b')).to.equal(undefined);
    expect(() => docs.addBatch(batch([['c', '{}']]))).to.throw(/after seal/);
  });

  it('refuses a batch whose last entry is cut short or has no length', () => {
    const whole = batch([['a', '{"n":1}'], ['b', '{"n":2}']]);
    expect(() => new PackedDocs().addBatch(whole.subarray(0, whole.length - 1))).to.throw(/malformed batch entry at byte 11/);
    expect(() => new PackedDocs().addBatch(Buffer.from('key\u0000{}'))).to.throw(/malformed/);
    expect(() => new PackedDocs().addBatch(Buffer.from('key\u0000x\u0000{}'))).to.throw(/malformed/);
  });

  it('holds a compressed table deflated with its dictionary and gives every document back as it was', () => {
    const entries: Array<[string, string]> = Array.from({ length: 500 }, (_, i) => [`41|species ${i}`,
      JSON.stringify({ scientific_name: `Examplevirus species${i}`, classification: { realm: null, family: 'Exampleviridae', genus: 'Examplevirus' }, note: 'α'.repeat(i % 7) })]);
    const dictionary = dictionaryOf(entries.slice(0, 40).map(([, doc]) => Buffer.from(doc)));
    const docs = new PackedDocs(dictionary);
    const plain = batch(entries);
    const packed = docs.compressBatch(plain);
    expect(packed.length).to.be.below(plain.length / 3);
    expect(docs.addBatch(packed)).to.equal(500);
    docs.seal();
    for (const [key, doc] of entries) expect(docs.get(key)?.toString('utf8'), key).to.equal(doc);
    // a table without a dictionary keeps its batches as they are
    expect(new PackedDocs().compressBatch(plain)).to.equal(plain);
  });

  it('cuts a dictionary to the 32 KB zlib reads, keeping the end', () => {
    const samples = [Buffer.alloc(30_000, 'a'), Buffer.alloc(10_000, 'b')];
    const d = dictionaryOf(samples);
    expect(d.length).to.equal(32 * 1024);
    expect(d.subarray(-10_000).equals(samples[1]!)).to.equal(true);
  });
});

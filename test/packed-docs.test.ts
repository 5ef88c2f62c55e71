// PackedDocs: documents copied into shared 1 MB buffers must come back byte for byte, whichever chunk
// they landed in, including one larger than a chunk and one with multi-byte characters.
import { expect } from 'chai';
import { PackedDocs } from '../src/packed-docs.js';

describe('PackedDocs', () => {
  const utf8 = (s: string) => new TextEncoder().encode(s);

  it('returns every document as it was added, across chunk boundaries', () => {
    const docs = new PackedDocs();
    const expected = new Map<string, string>();
    // ~3.5 MB in documents of varying size, so several chunks fill up and some documents would straddle one.
    for (let i = 0; i < 7000; i++) {
      const text = JSON.stringify({ id: i, pad: 'x'.repeat((i * 37) % 1000) });
      expected.set(`k${i}`, text);
      docs.add(`k${i}`, utf8(text));
    }
    const big = JSON.stringify({ big: 'y'.repeat(1.5 * 1024 * 1024) });
    expected.set('big', big);
    docs.add('big', utf8(big));
    const accents = JSON.stringify({ name: 'Café virus α–β 🦠' });
    expected.set('accents', accents);
    docs.add('accents', utf8(accents));
    docs.seal();

    expect(docs.size).to.equal(expected.size);
    for (const [key, text] of expected) expect(docs.get(key)?.toString('utf8'), key).to.equal(text);
    const totalBytes = [...expected.values()].reduce((n, t) => n + Buffer.byteLength(t), 0);
    expect(docs.bytes).to.equal(totalBytes);
  });

  it('answers undefined for an unknown key and refuses documents after sealing', () => {
    const docs = new PackedDocs();
    docs.add('a', utf8('{}'));
    docs.seal();
    expect(docs.get('b')).to.equal(undefined);
    expect(() => docs.add('c', utf8('{}'))).to.throw(/after seal/);
  });

  it('copies the bytes, so the caller may reuse its array', () => {
    const docs = new PackedDocs();
    const scratch = utf8('{"n":1}');
    docs.add('one', scratch);
    scratch.set(utf8('{"n":2}'));
    docs.add('two', scratch);
    docs.seal();
    expect(docs.get('one')!.toString()).to.equal('{"n":1}');
    expect(docs.get('two')!.toString()).to.equal('{"n":2}');
  });
});

// An index image gives back what was written, typed arrays as views of its bytes, and refuses to be read
// as something else (the snapshot's fingerprint guards the layout; this guards a reader's mistakes).
import { expect } from 'chai';
import { Image, writeImage } from '../../src/store/index-image.js';

describe('an index image', () => {
  const fields = {
    starts: Int32Array.from([0, 5, -7, 2 ** 31 - 1]),
    years: Int16Array.from([1971, 2025, -1]),
    codes: Uint8Array.from([0, 255, 3]),
    blob: Buffer.from('deflated bytes'),
    text: 'tobacco mosaic virus\u001fzika virus\u00e9',
    releases: [[40, 0, 16213], [41, 16213, 32000]],
  };

  it('reads back every field as it was written, whatever the offset of the bytes it is read from', () => {
    const bytes = writeImage(fields);
    // bytes read into the middle of a larger buffer, at an offset no Int32Array can start at
    const holder = Buffer.alloc(bytes.length + 3);
    bytes.copy(holder, 3);
    for (const b of [bytes, holder.subarray(3)]) {
      const image = new Image(b);
      expect(image.i32('starts')).to.deep.equal(fields.starts);
      expect(image.i16('years')).to.deep.equal(fields.years);
      expect(image.u8('codes')).to.deep.equal(fields.codes);
      expect(image.bytes('blob').toString()).to.equal('deflated bytes');
      expect(image.json('text')).to.equal(fields.text);
      expect(image.json('releases')).to.deep.equal(fields.releases);
    }
  });

  it('gives typed arrays that are views of the image, not copies', () => {
    const bytes = writeImage(fields);
    const starts = new Image(bytes).i32('starts');
    expect(starts.buffer).to.equal(bytes.buffer);
  });

  it('refuses a field it lacks, one read as another kind, and bytes cut short', () => {
    const bytes = writeImage(fields);
    const image = new Image(bytes);
    expect(() => image.i32('missing')).to.throw('index image has no field missing');
    expect(() => image.i32('years')).to.throw('index image field years is i16, not i32');
    expect(() => image.bytes('text')).to.throw('index image field text is json, not bytes');
    expect(() => new Image(bytes.subarray(0, bytes.length - 8))).to.throw(/index image of \d+ bytes, its header says \d+/);
  });
});

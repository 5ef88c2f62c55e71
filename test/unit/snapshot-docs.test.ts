// SnapshotDocs: documents indexed from batches in a file must be read back from it byte for byte, found by
// their exact key even among keys of the same 32-bit hash, and a key given twice keeps its last document.
import { expect } from 'chai';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dictionaryOf, fnv1a, PackedDocs } from '../../src/store/documents-in-memory.js';
import { OpenFile, SnapshotDocs } from '../../src/store/documents-from-snapshot.js';

/** A batch in the layout store.ts builds in SQL. */
function batch(entries: ReadonlyArray<readonly [string, string | Buffer]>): Buffer {
  return Buffer.concat(entries.map(([key, doc]) =>
    Buffer.concat([Buffer.from(key), Buffer.from([0]), Buffer.from(String(Buffer.byteLength(doc))), Buffer.from([0]), Buffer.from(doc)])));
}

describe('SnapshotDocs', () => {
  let dir: string;
  before(() => { dir = mkdtempSync(join(tmpdir(), 'vtqs-snapdocs-')); });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Writes the batches after `lead` bytes of something else, and indexes them from the file. */
  function indexed(batches: Buffer[], dictionary: Buffer | null = null, lead = 17): { docs: SnapshotDocs; file: OpenFile } {
    const path = join(dir, `f${Math.random()}`);
    writeFileSync(path, Buffer.concat([Buffer.alloc(lead, 'x'), ...batches]));
    const file = new OpenFile(openSync(path, 'r'));
    const docs = new SnapshotDocs(file, dictionary);
    let position = lead;
    for (const b of batches) {
      docs.addBatch(b, position);
      position += b.length;
    }
    return { docs: docs.seal(), file };
  }

  it('reads every document back from the file, among keys whose hashes collide', () => {
    const entries = Array.from({ length: 150_000 }, (_, i) => [`${i % 41}|name ${i}`, JSON.stringify({ i, note: 'é'.repeat(i % 5) })] as const);
    // 150,000 keys give some pairs of equal 32-bit hashes: those must still be told apart by their bytes
    const seen = new Map<number, number>();
    let collisions = 0;
    for (const [key] of entries) {
      const b = Buffer.from(key);
      const h = fnv1a(b, 0, b.length);
      if (seen.has(h)) collisions++;
      seen.set(h, 1);
    }
    expect(collisions).to.be.greaterThan(0);
    const batches = [batch(entries.slice(0, 70_000)), batch(entries.slice(70_000))];
    const { docs, file } = indexed(batches);
    try {
      expect(docs.size).to.equal(entries.length);
      for (const [key, doc] of entries) expect(docs.get(key)?.toString('utf8'), key).to.equal(doc);
      expect(docs.get('41|name 0')).to.equal(undefined);
      expect(docs.get('')).to.equal(undefined);
      expect(docs.bytes).to.equal(batches[0]!.length + batches[1]!.length);
      expect(docs.heldBytes).to.equal(0);
      // its batches, read from the file again, are the batches it was given
      expect(Buffer.concat([...docs.batches()]).equals(Buffer.concat(batches))).to.equal(true);
    } finally {
      file.release();
    }
  });

  it('keeps the last document of a key given twice, and inflates a compressed table', () => {
    const plain = Array.from({ length: 300 }, (_, i) => [`k${i}`, JSON.stringify({ genus: 'Examplevirus', i })] as const);
    const dictionary = dictionaryOf(plain.slice(0, 30).map(([, d]) => Buffer.from(d)));
    const packer = new PackedDocs(dictionary);
    const batches = [packer.compressBatch(batch(plain)), packer.compressBatch(batch([['k7', '{"again":true}']]))];
    const { docs, file } = indexed(batches, dictionary);
    try {
      expect(docs.size).to.equal(300);
      expect(docs.get('k7')?.toString()).to.equal('{"again":true}');
      expect(docs.get('k8')?.toString()).to.equal(plain[8]![1]);
      expect(docs.heldBytes).to.equal(dictionary.length);
    } finally {
      file.release();
    }
  });

  it('never reads through a file once the last holder let it go', () => {
    const { docs, file } = indexed([batch([['a', '{}']])]);
    file.retain();
    file.release();
    expect(docs.get('a')?.toString()).to.equal('{}');
    file.release();
    expect(() => docs.get('a')).to.throw(/read after it was closed/);
    // a descriptor number reused by another file is not read either
    const other = openSync(join(dir, 'other'), 'w');
    try {
      expect(() => docs.get('a')).to.throw(/read after it was closed/);
    } finally {
      closeSync(other);
    }
  });
});

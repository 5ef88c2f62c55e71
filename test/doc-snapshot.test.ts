// The document snapshot: a server started from it must serve exactly what one started from the database
// serves, and a snapshot that is not this build's, or is damaged, must never be used (nor crash the start).
import { expect } from 'chai';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { DB_FILE, DOC_SNAPSHOT_FILE } from '../src/store/files.js';
import { defaultPaths } from '../build/paths.js';
import { definitionsKey, readSnapshot, snapshotMismatch } from '../src/store/snapshot-file.js';
import { DOCUMENTS, IMAGE_LAYOUT, openStore, refreshDocSnapshot } from '../src/read/documents.js';
import { releases } from '../src/read/releases.js';
import { matchNames, releaseSearch } from '../src/read/search-index.js';
import { speciesWalks, speciesWalksLoaded } from '../src/read/species-walks.js';
import { suggest } from '../src/read/suggest.js';
import { typeahead } from '../src/read/typeahead.js';
import type { Store } from '../src/store/store.js';
import { realBuild, realDb } from './support/data.js';

describe('the document snapshot', function () {
  let dir: string;
  let fromDb: Store;
  let snapshot: string;
  const dbFile = () => join(defaultPaths().dataDir, DB_FILE);

  before(async () => {
    await realBuild();
    dir = mkdtempSync(join(tmpdir(), 'vtqs-snapshot-'));
    snapshot = join(dir, DOC_SNAPSHOT_FILE);
    fromDb = await openStore(dbFile(), 2);
    await speciesWalksLoaded(fromDb);
    fromDb.writeSnapshot(snapshot);
  });

  after(async () => {
    await fromDb.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads from the database when no snapshot is given, and says so', () => {
    expect(fromDb.docsSource).to.equal('database (no snapshot given)');
  });

  it('gives a store with every document of every read model, byte for byte', async () => {
    const fromSnapshot = await openStore(dbFile(), 1, snapshot);
    const db = await realDb();
    try {
      expect(fromSnapshot.docsSource).to.equal('snapshot');
      for (const spec of DOCUMENTS) expect(fromSnapshot.docCount(spec.table), spec.table).to.equal(fromDb.docCount(spec.table)).and.be.greaterThan(0);
      // Every species document of two releases, and a spread of every other table's keys.
      const species = await db.all<{ msl: number; name_key: string }>('SELECT msl, name_key FROM species_doc WHERE msl IN (23, 40)');
      expect(species.length).to.be.greaterThan(16_000);
      for (const { msl, name_key } of species) {
        expect(fromSnapshot.doc('species_doc', msl, name_key)?.equals(fromDb.doc('species_doc', msl, name_key)!), `${msl}|${name_key}`).to.equal(true);
      }
      for (const spec of DOCUMENTS.filter((s) => s.table !== 'species_doc')) {
        const cols = spec.key.map((k) => `CAST("${k}" AS VARCHAR) AS "${k}"`).join(', ');
        const keys = await db.all<Record<string, string>>(`SELECT ${cols} FROM main."${spec.table}" USING SAMPLE 200 ROWS`);
        for (const row of keys) {
          const key = spec.key.map((k) => row[k]!);
          const expected = fromDb.doc(spec.table, ...key);
          expect(expected, `${spec.table} ${key.join('|')}`).to.not.equal(undefined);
          expect(fromSnapshot.doc(spec.table, ...key)?.equals(expected!), `${spec.table} ${key.join('|')}`).to.equal(true);
        }
      }
      // Written again from the snapshot's own store, the file comes out identical.
      const again = join(dir, 'again.bin');
      fromSnapshot.writeSnapshot(again);
      expect(readFileSync(again).equals(readFileSync(snapshot))).to.equal(true);
    } finally {
      db.close();
      await fromSnapshot.close();
    }
  });

  it('gives in-memory indexes that answer as those built from the database', async () => {
    const fromSnapshot = await openStore(dbFile(), 1, snapshot);
    const db = await realDb();
    try {
      // Real names of every kind, cut to prefixes, inner words and misspellings (one letter dropped).
      const names = (await db.all<{ name: string }>('SELECT name FROM name_index USING SAMPLE 150 ROWS (reservoir, 7)')).map((r) => r.name.toLowerCase());
      expect(names.length).to.equal(150);
      const texts = names.flatMap((n) => [n, n.slice(0, 4), n.split(' ').at(-1)!, n.slice(0, 3) + n.slice(4)]);
      const msls = releases(fromDb).map((r) => r.msl);
      for (const [i, t] of texts.entries()) {
        const msl = msls[i % msls.length]!;
        for (const field of ['name', 'family', 'host', 'all'] as const) {
          expect(releaseSearch(fromSnapshot).search(msl, field, t, 20, 0), `${msl} ${field} ${t}`).to.deep.equal(releaseSearch(fromDb).search(msl, field, t, 20, 0));
        }
        const form = t.replace(/[^a-z0-9]/g, '');
        expect(matchNames(fromSnapshot, form, false, 0.75), t).to.deep.equal(matchNames(fromDb, form, false, 0.75));
        expect(await typeahead(fromSnapshot, t, 10), t).to.deep.equal(await typeahead(fromDb, t, 10));
      }
      expect([...(await suggest(fromSnapshot, texts))]).to.deep.equal([...(await suggest(fromDb, texts))]).and.have.length.greaterThan(100);
      expect(releaseSearch(fromSnapshot).latest).to.deep.equal(releaseSearch(fromDb).latest);
      // read from the snapshot as the store opens, not loaded afterwards
      const walks = speciesWalks(fromSnapshot)!;
      expect(walks.size).to.equal(speciesWalks(fromDb)!.size).and.be.greaterThan(10_000);
      for (let id = 0, seen = 0; seen < 500 && id < 1e6; id += 37) {
        if (speciesWalks(fromDb)!.get(id) === undefined) continue;
        expect(walks.get(id), `lineage ${id}`).to.deep.equal(speciesWalks(fromDb)!.get(id));
        seen++;
      }
    } finally {
      db.close();
      await fromSnapshot.close();
    }
  });

  it("is not used for another build or other document definitions, and the header alone tells", async () => {
    const defs = definitionsKey(DOCUMENTS, IMAGE_LAYOUT);
    expect(snapshotMismatch(snapshot, fromDb.buildId, defs)).to.equal(null);
    expect(snapshotMismatch(snapshot, 'another-build', defs)).to.equal(`snapshot of build ${fromDb.buildId}, not another-build`);
    expect(snapshotMismatch(snapshot, fromDb.buildId, definitionsKey(DOCUMENTS.slice(1), IMAGE_LAYOUT))).to.equal('documents are defined differently since the snapshot');
    expect(await readSnapshot(snapshot, 'another-build', defs)).to.deep.equal({ reason: `snapshot of build ${fromDb.buildId}, not another-build` });
    expect(snapshotMismatch(join(dir, 'missing.bin'), fromDb.buildId, defs)).to.equal('no snapshot');
  });

  it('refuses a damaged file, saying why, and never throws', async () => {
    const defs = definitionsKey(DOCUMENTS, IMAGE_LAYOUT);
    const damaged = join(dir, 'damaged.bin');
    const cases: Array<[string, () => void, RegExp]> = [
      ['truncated', () => truncateSync(damaged, statSync(snapshot).size - 10), /^truncated or padded/],
      ['not a snapshot', () => writeFileSync(damaged, 'PAR1 not json\n'), /^not a snapshot \(header is not JSON\)/],
      ['no header line', () => writeFileSync(damaged, 'x'.repeat(100)), /^not a snapshot \(no header\)/],
      ['a length digit changed inside a batch', () => {
        const bytes = readFileSync(snapshot);
        // The first entry's length digits follow the first NUL after the header line.
        const lengthAt = bytes.indexOf(0, bytes.indexOf(10)) + 1;
        bytes[lengthAt] = bytes[lengthAt] === 0x39 ? 0x31 : bytes[lengthAt]! + 1;
        writeFileSync(damaged, bytes);
      }, /^damaged \(body CRC-32 [0-9a-f]{8}, header says [0-9a-f]{8}\)$/],
      // A letter of a document's text: the entry still parses, only the checksum can tell.
      ['a letter changed inside a document', () => {
        const bytes = readFileSync(snapshot);
        const at = bytes.indexOf('"name"', Math.floor(bytes.length / 2)) + 2;
        bytes[at] = bytes[at] === 0x6e ? 0x4e : 0x6e;
        writeFileSync(damaged, bytes);
      }, /^damaged \(body CRC-32/],
    ];
    for (const [name, damage, reason] of cases) {
      copyFileSync(snapshot, damaged);
      damage();
      const read = await readSnapshot(damaged, fromDb.buildId, defs);
      expect('reason' in read && read.reason, name).to.match(reason);
    }
    // A server started with such a file serves from the database instead: test/fault-drills.test.ts.
  });

  it('serves documents from the file, holding only their index, and keeps it open while a store uses it', async () => {
    const first = await openStore(dbFile(), 1, snapshot);
    const stores: Store[] = [first];
    try {
      // Read from the file: of the documents' bytes, only the deflate dictionaries are held.
      expect(first.docBytes()).to.be.greaterThan(100e6);
      expect(first.docHeldBytes()).to.be.below(first.docBytes() / 1000);
      expect(fromDb.docHeldBytes()).to.equal(fromDb.docBytes());

      // The same build again (a rebuild of unchanged data, SIGHUP): every document is taken over, and the
      // file stays open for the new store when the old one closes.
      const same = await openStore(dbFile(), 1, snapshot, first);
      stores.push(same);
      expect(same.docsSource).to.equal('snapshot');
      expect(same.docsReused).to.equal(first.docBytes());
      const db = await realDb();
      const [row] = await db.all<{ msl: number; name_key: string }>('SELECT msl, name_key FROM species_doc ORDER BY msl DESC, name_key LIMIT 1 OFFSET 999');
      db.close();
      const key = [row!.msl, row!.name_key];
      const expected = fromDb.doc('species_doc', ...key);
      expect(expected).to.not.equal(undefined);
      await first.close();
      expect(same.doc('species_doc', ...key)?.equals(expected!)).to.equal(true);

      // Another build whose snapshot differs in one letter of one document: served as that file has it.
      const other = join(dir, 'other.duckdb');
      copyFileSync(dbFile(), other);
      const instance = await DuckDBInstance.create(other);
      const conn = await instance.connect();
      await conn.run("UPDATE src.build_info SET build_id = 'another-build'");
      conn.closeSync();
      instance.closeSync();
      const changed = join(dir, 'changed.bin');
      const bytes = readFileSync(snapshot);
      const headerEnd = bytes.indexOf(10);
      const body = Buffer.from(bytes.subarray(headerEnd + 1));
      type Table = { table: string; dictionary: number; batches: number[] };
      const header = JSON.parse(bytes.toString('utf8', 0, headerEnd)) as { build_id: string; crc32: string; tables: Table[] };
      // the first document of the first table held as plain JSON: a letter of it
      const plain = header.tables.findIndex((t) => t.dictionary === 0);
      const table = header.tables[plain]!;
      const start = header.tables.slice(0, plain).reduce((n, t) => n + t.dictionary + t.batches.reduce((a, b) => a + b, 0), 0);
      const keyEnd = body.indexOf(0, start);
      const docStart = body.indexOf(0, keyEnd + 1) + 1;
      const at = body.indexOf('"', docStart + 2);
      body[at + 1] = body[at + 1] === 0x61 ? 0x62 : 0x61;
      header.build_id = 'another-build';
      header.crc32 = (crc32(body) >>> 0).toString(16).padStart(8, '0');
      writeFileSync(changed, Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), body]));
      const next = await openStore(other, 1, changed, same);
      stores.push(next);
      expect(next.buildId).to.equal('another-build');
      expect(next.docsSource).to.equal('snapshot');
      expect(next.docsReused).to.equal(0);
      expect(next.docCount(table.table)).to.equal(same.docCount(table.table));
      const changedKey = body.toString('utf8', start, keyEnd).split('|');
      const served = next.doc(table.table, ...changedKey)!;
      expect(served.equals(same.doc(table.table, ...changedKey)!)).to.equal(false);
      expect(served.toString('utf8')).to.equal(body.toString('utf8', docStart, docStart + served.length));
      // A closed store's file is closed: nothing is read through its descriptor any more.
      await next.close();
      expect(() => next.doc(table.table, ...changedKey)).to.throw(/read after it was closed/);
    } finally {
      for (const s of stores) await s.close();
    }
  });

  it('is kept by the build when current and rewritten when not', async () => {
    const file = join(dir, 'refreshed.bin');
    copyFileSync(snapshot, file);
    expect(await refreshDocSnapshot(dbFile(), file, fromDb.buildId)).to.equal('current');
    writeFileSync(file, 'stale');
    expect(await refreshDocSnapshot(dbFile(), file, fromDb.buildId)).to.equal('written');
    // Same documents; batches may be in another order (the pool's connections finish them in any order).
    expect(statSync(file).size).to.equal(statSync(snapshot).size);
    expect(snapshotMismatch(file, fromDb.buildId, definitionsKey(DOCUMENTS, IMAGE_LAYOUT))).to.equal(null);
    const read = await readSnapshot(file, fromDb.buildId, definitionsKey(DOCUMENTS, IMAGE_LAYOUT));
    try {
      expect('docs' in read && read.docs.get('history_doc')?.size).to.equal(fromDb.docCount('history_doc'));
    } finally {
      if ('file' in read) read.file.release();
    }
  });
});

// Bulk downloads on the real data: every format of every bulk resource, file names that name the release,
// the 404 with suggestions for a filter naming no taxon, the whole-record files with their checksums, and
// the data dictionary served through the contract.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { expect } from 'chai';
import { tableFromIPC } from 'apache-arrow';
import request from 'supertest';
import { onRealApp } from './support/http.js';

const binary = (res: request.Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

describe('bulk downloads', function () {
  const real = onRealApp();

  it('gives a release\'s species in all six formats, with the same rows and columns and their registered types', async () => {
    const expected = await real.db.count("SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = $1 AND family = 'Coronaviridae'", [real.latest.msl]);
    const url = '/api/v1/bulk/species/latest?family=coronaviridae&format=';
    const json = await request(real.app).get(`${url}json`).expect(200).expect('Content-Type', /^application\/json/);
    const columns = Object.keys(json.body[0]);
    expect(json.body).to.have.length(expected);
    const jsonl = await request(real.app).get(`${url}jsonl`).buffer(true).parse(binary).expect(200).expect('Content-Type', /^application\/jsonl/)
      .expect('Content-Disposition', new RegExp(`^attachment; filename="?species_${real.latest.version}_coronaviridae\\.jsonl"?$`));
    const lines = (jsonl.body as Buffer).toString('utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).to.deep.equal(json.body);
    const csv = await request(real.app).get(`${url}csv`).expect(200).expect('Content-Type', /^text\/csv/);
    expect(csv.text.split('\r\n')[0]!.split(',')).to.deep.equal(columns);
    const tsv = await request(real.app).get(`${url}tsv`).buffer(true).parse(binary).expect(200).expect('Content-Type', /^text\/tab-separated-values/)
      .expect('Content-Disposition', new RegExp(`^attachment; filename="?species_${real.latest.version}_coronaviridae\\.tsv"?$`));
    const rows = (tsv.body as Buffer).toString('utf8').trim().split('\n').map((l) => l.split('\t'));
    expect(rows[0]).to.deep.equal(columns);
    expect(rows.slice(1).every((r) => r.length === columns.length)).to.equal(true);
    expect(rows.slice(1).map((r) => r[columns.indexOf('species')])).to.deep.equal(json.body.map((r: { species: string }) => r.species));
    const pq = await request(real.app).get(`${url}parquet`).buffer(true).parse(binary).expect(200).expect('Content-Type', 'application/vnd.apache.parquet');
    expect((pq.body as Buffer).subarray(0, 4).toString()).to.equal('PAR1');
    const arrow = await request(real.app).get(`${url}arrow`).buffer(true).parse(binary).expect(200).expect('Content-Type', 'application/vnd.apache.arrow.stream')
      .expect('Content-Disposition', new RegExp(`^attachment; filename="?species_${real.latest.version}_coronaviridae\\.arrows"?$`));
    const table = tableFromIPC(arrow.body as Buffer);
    expect(table.schema.fields.map((f) => f.name)).to.deep.equal(columns);
    // typed: integers as Arrow integers, names as text; the same rows as the JSON download, value for value
    expect(String(table.schema.fields.find((f) => f.name === 'taxnode_id')!.type)).to.equal('Int32');
    expect(String(table.schema.fields.find((f) => f.name === 'species')!.type)).to.equal('Utf8');
    expect(table.toArray().map((r) => r.toJSON())).to.deep.equal(json.body);
  });

  it('gives the changes of a step as Arrow with their lists, as the JSON download has them', async () => {
    const json = await request(real.app).get(`/api/v1/bulk/changes/${real.latest.version}`).expect(200);
    const arrow = await request(real.app).get(`/api/v1/bulk/changes/${real.latest.version}?format=arrow`).buffer(true).parse(binary).expect(200);
    const table = tableFromIPC(arrow.body as Buffer);
    expect(String(table.schema.fields.find((f) => f.name === 'ended_into')!.type)).to.equal('List<Utf8>');
    // BIGINT columns come as 64-bit integers (JavaScript bigints), JSON writes them as numbers
    expect(String(table.schema.fields.find((f) => f.name === 'from_taxnode')!.type)).to.equal('Int64');
    const rows = table.toArray().map((r) => Object.fromEntries(Object.entries(r.toJSON() as Record<string, unknown>).map(([k, v]) =>
      [k, typeof v === 'bigint' ? Number(v) : v !== null && typeof v === 'object' ? [...(v as Iterable<string>)] : v])));
    expect(rows).to.deep.equal(json.body);
  });

  it('gives the changes into the first release, which are none, as an Arrow stream of no rows with every column', async () => {
    const first = real.first.version;
    const json = await request(real.app).get(`/api/v1/bulk/changes/${first}`).expect(200);
    expect(json.body).to.deep.equal([]);
    const arrow = await request(real.app).get(`/api/v1/bulk/changes/${first}?format=arrow`).buffer(true).parse(binary).expect(200);
    const table = tableFromIPC(arrow.body as Buffer);
    expect(table.numRows).to.equal(0);
    expect(String(table.schema.fields.find((f) => f.name === 'ended_into')!.type)).to.equal('List<Utf8>');
  });

  it('says from which release borrowed host and genome size come (MSL36 has no VMR of its own)', async () => {
    const res = await request(real.app).get('/api/v1/bulk/species/MSL36?family=Virgaviridae').expect(200);
    const withHost = res.body.filter((r: { host_source: string | null }) => r.host_source !== null);
    expect(withHost.length).to.be.above(0);
    for (const r of withHost) expect(r.host_source_msl).to.be.above(36);
    for (const r of res.body) if (r.genome_size_bp !== null) expect(r.genome_size_source_msl).to.be.a('number');
  });

  it('answers a family that is not one with a 404 and suggestions, not an empty file', async () => {
    const res = await request(real.app).get('/api/v1/bulk/species/MSL40?format=csv&family=Coronaviridea').expect(404).expect('Content-Type', /json/);
    expect(res.body.suggestions).to.include('Coronaviridae');
    const none = await request(real.app).get('/api/v1/bulk/species/MSL40?format=csv&family=Nonexistiviridae').expect(404);
    expect(none.body.detail).to.match(/Nonexistiviridae/);
    // a realm of another release: the resolver says where it stands
    const later = await request(real.app).get('/api/v1/bulk/taxa/MSL30?realm=Riboviria').expect(404);
    expect(later.body.detail).to.match(/Riboviria/);
  });

  it('gives the taxa of every rank of a release with their lineage ids, and the changes of a step', async () => {
    const taxa = await request(real.app).get('/api/v1/bulk/taxa/latest?family=Virgaviridae').expect(200)
      .expect('Content-Disposition', new RegExp(`^attachment; filename="?taxa_${real.latest.version}_Virgaviridae\\.json"?$`));
    const ranks = new Set(taxa.body.map((r: { rank: string }) => r.rank));
    expect([...ranks]).to.include.members(['family', 'genus', 'species']);
    const tmv = taxa.body.find((r: { name: string }) => r.name === 'Tobamovirus tabaci');
    expect(tmv).to.include({ ictv_id: 19710322, lineage_kind: 'species', lineage_id: 19710322 });
    const changes = await request(real.app).get('/api/v1/bulk/changes/latest').expect(200);
    const counts: Record<string, number> = {};
    for (const r of changes.body as Array<{ rank: string; change: string }>) if (r.rank === 'species') counts[r.change] = (counts[r.change] ?? 0) + 1;
    const ours = await real.db.all<{ change: string; n: number }>('SELECT change, count(*)::INTEGER AS n FROM species_transition WHERE to_msl = $1 GROUP BY ALL', [real.latest.msl]);
    expect(counts).to.deep.equal(Object.fromEntries(ours.map((r) => [r.change, r.n])));
    await request(real.app).get('/api/v1/bulk/changes/latest?family=Virgaviridae').expect(400);
  });

  it('lists the whole-record files with checksums that match their bytes', async () => {
    const list = await request(real.app).get('/api/v1/bulk/files').expect(200);
    const names = list.body.files.map((f: { file: string }) => f.file);
    expect(names).to.include.members(['species.parquet', 'release_taxa.parquet', 'release_changes.parquet', 'name_crosswalk.parquet']);
    const f = list.body.files.find((x: { file: string }) => x.file === 'release_changes.parquet');
    const body = await request(real.app).get(f.url).buffer(true).parse(binary).expect(200).expect('Content-Type', 'application/vnd.apache.parquet');
    expect(createHash('sha256').update(body.body as Buffer).digest('hex')).to.equal(f.sha256);
    expect((body.body as Buffer).length).to.equal(f.bytes);
    const sum = await request(real.app).get(f.sha256_url).expect(200);
    expect(sum.text).to.equal(`${f.sha256}  release_changes.parquet\n`);
    const all = await request(real.app).get(list.body.checksums).expect(200);
    expect(all.text.trim().split('\n')).to.have.length(names.length);
    await request(real.app).get('/api/v1/bulk/files/nothing.parquet').expect(404);
  });

  it('serves the data dictionary', async () => {
    const res = await request(real.app).get('/api/v1/bulk/dictionary').expect(200);
    const species = res.body.tables.find((t: { name: string }) => t.name === 'species');
    expect(species.columns.map((c: { name: string }) => c.name)).to.include.members(['ictv_id', 'ictv_id_source', 'sort', 'source', 'attr_match']);
  });
  it('sends a download asked for behind another on one connection whole (pipelined: no socket of its own yet)', async () => {
    const server = createServer(real.app);
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    try {
      const paths = ['/api/v1/bulk/species/latest?format=json', '/api/v1/bulk/species/latest?format=csv&family=coronaviridae',
        '/api/v1/bulk/taxa/latest?format=tsv'];
      const raw = await new Promise<Buffer>((resolve, reject) => {
        const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
        const chunks: Buffer[] = [];
        socket.on('data', (c: Buffer) => chunks.push(c));
        socket.on('end', () => resolve(Buffer.concat(chunks)));
        socket.on('error', reject);
        // all three at once: the second and third wait for the first's answer to be written
        socket.write(paths.map((p, i) => `GET ${p} HTTP/1.1\r\nHost: x\r\n${i === paths.length - 1 ? 'Connection: close\r\n' : ''}\r\n`).join(''));
      });
      // each answer: its head, then exactly Content-Length bytes, the same as asked alone
      let at = 0;
      for (const path of paths) {
        const headEnd = raw.indexOf('\r\n\r\n', at);
        const head = raw.subarray(at, headEnd).toString('latin1');
        expect(head, path).to.match(/^HTTP\/1\.1 200 /);
        const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)![1]);
        const body = raw.subarray(headEnd + 4, headEnd + 4 + length);
        const alone = await request(real.app).get(path).buffer(true).parse(binary).expect(200);
        expect(body.length, path).to.equal((alone.body as Buffer).length);
        expect(body.equals(alone.body as Buffer), path).to.equal(true);
        at = headEnd + 4 + length;
      }
      expect(at).to.equal(raw.length);
    } finally {
      server.close();
    }
  });
});

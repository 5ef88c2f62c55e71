// The held-out questions of test/ai-eval stay unseen by the parser: none may appear (normalised) in any file of
// src/ai/ or in the parser's tests. The failure names the file and the question's index only, so that the test
// itself shows no held-out question. Then, per category of question, /ai/query on the real data with questions
// written for this test (not from either evaluation set): the facts of the source tables, a yes or a no with
// the evidence, both items and the arithmetic, declines, and never a default release or part of a question.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { onRealApp } from './support/http.js';

const ROOT = process.cwd();
const norm = (s: string) => s.toLowerCase().normalize('NFKC').replace(/[^a-z0-9]+/g, ' ').trim();

function parserFiles(): string[] {
  const ai = join(ROOT, 'src', 'ai');
  const tests = join(ROOT, 'test');
  return [
    // the parser, its answers, its vocabularies and group names (answers/ and group-names.yaml included)
    ...readdirSync(ai, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(ts|ya?ml|json)$/.test(f)).map((f) => join(ai, f)),
    ...readdirSync(tests).filter((f) => /^ai-.*\.ts$/.test(f) && f !== 'ai-eval.test.ts').map((f) => join(tests, f)),
    join(tests, 'ai-eval', 'dev.json'),
  ];
}

/** Every held-out set: each written blind, none ever tuned on. */
const HELD_OUT = readdirSync(join(ROOT, 'test', 'ai-eval')).filter((f) => /^heldout.*\.json$/.test(f));

describe('the held-out questions of test/ai-eval', () => {
  it('appear in no file of the parser, its vocabulary, examples, development set or tests', () => {
    expect(HELD_OUT).to.include.members(['heldout.json', 'heldout-forms.json']);
    const held = HELD_OUT.flatMap((f) => (JSON.parse(readFileSync(join(ROOT, 'test', 'ai-eval', f), 'utf8')) as Array<{ question: string }>).map((q) => norm(q.question)));
    expect(held.length).to.be.at.least(150 + 200);
    const found: string[] = [];
    for (const file of parserFiles()) {
      const text = norm(readFileSync(file, 'utf8'));
      held.forEach((q, i) => {
        if (q.length > 0 && text.includes(q)) found.push(`${file.slice(ROOT.length + 1)}: held-out question #${i}`);
      });
    }
    expect(found, found.join('\n')).to.deep.equal([]);
  });
});

describe('POST /ai/query, per category', () => {
  const real = onRealApp();
  const ask = async (query: string) => {
    const res = await request(real.app).post('/ai/query').send({ query, use_cache: false });
    expect(res.status, query).to.equal(200);
    expect(res.body).to.include.keys('status', 'understood', 'confidence');
    return res.body as { status: string; response: string; intent: string; understood: { entities: Array<{ resolved: string; kind: string }>; releases: string[] }; confidence: number };
  };
  const has = (text: string, n: number | string) => (typeof n === 'number' ? text.replace(/,/g, '').match(new RegExp(`(^|\\D)${n}(\\D|$)`)) !== null : text.toLowerCase().includes(n.toLowerCase()));

  it('type species: names the species a release marks for a genus', async () => {
    const rows = await real.db.all<{ species: string }>("SELECT species FROM src.species WHERE msl = 30 AND genus = 'Potexvirus' AND type_species");
    expect(rows).to.have.length(1);
    const a = await ask('Which species was the type species of the genus Potexvirus in MSL30?');
    expect(a.status).to.equal('answered');
    expect(a.response).to.include(rows[0]!.species);
  });

  it('type species: a release that marks none is not answered with another release', async () => {
    const a = await ask(`type species of the genus Potexvirus in MSL${real.latest.msl}`);
    expect(a.status).to.equal('not_understood');
    expect(a.response).to.include('does not mark type species');
  });

  it('yes/no: two species in the same genus or not, with the evidence', async () => {
    const rows = await real.db.all<{ species: string; genus: string }>(
      "SELECT species, genus FROM src.species WHERE msl = $1 AND species IN ('Tobamovirus tabaci', 'Tobamovirus tomatotessellati')", [real.latest.msl]);
    expect(rows).to.have.length(2);
    const a = await ask('Are Tobamovirus tabaci and Tobamovirus tomatotessellati in the same genus?');
    expect(a.status).to.equal('answered');
    expect(a.response.startsWith(rows[0]!.genus === rows[1]!.genus ? 'Yes' : 'No')).to.equal(true);
    for (const r of rows) expect(a.response).to.include(r.genus);
  });

  it('short names: "phage T4" is read through the VMR virus names and says so', async () => {
    const a = await ask('what genome type does phage T4 have');
    expect(a.status).to.equal('answered');
    expect(a.response).to.include('T4');
    expect(a.understood.entities[0]!.resolved).to.equal('short_name');
    expect(a.confidence).to.be.above(0).and.below(1);
  });

  it('two releases: both counts and the difference', async () => {
    const [x, y] = [await real.db.count("SELECT count(*) AS n FROM src.taxa WHERE msl = 33 AND rank = 'genus'"), await real.db.count("SELECT count(*) AS n FROM src.taxa WHERE msl = 36 AND rank = 'genus'")];
    const a = await ask('how many more genera were there in MSL36 than in MSL33?');
    expect(a.status).to.equal('answered');
    for (const n of [x, y, Math.abs(y - x)]) expect(has(a.response, n), `${n} in ${a.response}`).to.equal(true);
  });

  it('two taxa: both counts, never the first alone', async () => {
    const rows = await real.db.all<{ family: string; n: number }>(
      "SELECT family, count(*)::INTEGER AS n FROM src.species WHERE msl = 35 AND family IN ('Potyviridae', 'Geminiviridae') GROUP BY family");
    const a = await ask('In MSL35, which had more species: Potyviridae or Geminiviridae?');
    expect(a.status).to.equal('answered');
    for (const r of rows) {
      expect(a.response).to.include(r.family);
      expect(has(a.response, r.n)).to.equal(true);
    }
  });

  it('which changed: names the realms a release added', async () => {
    const rows = await real.db.all<{ name: string }>("SELECT name FROM src.taxa WHERE msl = 36 AND rank = 'realm' AND name NOT IN (SELECT name FROM src.taxa WHERE msl = 35 AND rank = 'realm')");
    expect(rows.length).to.be.above(0);
    const a = await ask('list the new realms of MSL36');
    expect(a.status).to.equal('answered');
    for (const r of rows) expect(a.response).to.include(r.name);
  });

  it('declines questions outside taxonomy, and releases that do not exist, without substituting one', async () => {
    for (const q of ['what is the mortality rate of rabies?', 'which drugs work against hepatitis C virus', `how many families were there in MSL${real.latest.msl + 30}?`]) {
      const a = await ask(q);
      expect(a.status, q).to.equal('declined');
    }
    const years = await real.db.all<{ year: number }>('SELECT DISTINCT year FROM src.releases');
    const missing = [...Array(20).keys()].map((i) => real.first.year + i).find((y) => !years.some((r) => Number(r.year) === y))!;
    const a = await ask(`how many species were there in ${missing}?`);
    expect(a.status).to.equal('declined');
    expect(a.understood.releases).to.deep.equal([]);
    expect(a.response).to.not.match(/\d,?\d{3} species/);
  });

  it('two taxa and two releases: both changes and their difference, never the first item alone', async () => {
    const rows = await real.db.all<{ family: string; a: number; b: number }>(
      `SELECT family, count(*) FILTER (msl = 31)::INTEGER AS a, count(*) FILTER (msl = 35)::INTEGER AS b
       FROM src.species WHERE msl IN (31, 35) AND family IN ('Potyviridae', 'Geminiviridae') GROUP BY family`);
    expect(rows).to.have.length(2);
    const a = await ask('which grew more between MSL31 and MSL35, Potyviridae or Geminiviridae?');
    expect(a.status).to.equal('answered');
    for (const r of rows) for (const n of [r.a, r.b, r.b - r.a]) expect(has(a.response, n), `${n} in ${a.response}`).to.equal(true);
    const [x, y] = rows as [typeof rows[0], typeof rows[0]];
    expect(has(a.response, Math.abs((x.b - x.a) - (y.b - y.a)))).to.equal(true);
  });

  it('does not answer part of a question: a decade it does not read is not understood', async () => {
    const a = await ask('how many species were added in the 1990s?');
    expect(a.status).to.equal('not_understood');
    expect(a.response).to.include('1990s');
    expect(a.confidence).to.equal(0);
  });
});

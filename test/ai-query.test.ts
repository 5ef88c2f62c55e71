// POST /ai/query and the other read operations of /ai, on the real data set with response validation on. The
// question set (ai-questions.ts) is scored against expectations computed from the raw source tables (questions about
// today against the latest release, whichever it is): at least 95% of the questions must be answered with every
// expected fact.
import { expect } from 'chai';
import request from 'supertest';
import { AnswerCache } from '../src/ai/cache.js';
import { QUESTIONS, type QuestionCase } from './ai-questions.js';
import { realDb, type Db } from './support/data.js';
import { onRealApp, testApp } from './support/http.js';

const PASS_RATE = 0.95;

/** A fact appears in a response: numbers with or without thousands separators, names in any letter case. */
export function mentions(response: string, value: unknown): boolean {
  const text = String(value);
  const haystack = response.toLowerCase();
  if (/^-?\d+$/.test(text)) {
    const n = Number(text);
    return new RegExp(`(^|[^\\d,.])(${text}|${n.toLocaleString('en-US').replaceAll(',', '\\,')})(?![\\d]|,\\d)`).test(response);
  }
  return haystack.includes(text.toLowerCase());
}

async function expectedFacts(db: Db, c: QuestionCase): Promise<string[]> {
  if (c.text) return c.text;
  const rows = await db.all<Record<string, unknown>>(c.sql!);
  if (rows.length === 0) throw new Error(`expectation of '${c.question}' returned no rows: ${c.sql}`);
  return rows.flatMap((r) => Object.values(r).map(String));
}

describe('POST /ai/query', () => {
  const real = onRealApp();

  const ask = (query: string, extra: Record<string, unknown> = {}) =>
    request(real.app).post('/ai/query').send({ query, use_cache: false, ...extra });

  describe('the question set', () => {
    it(`answers at least ${PASS_RATE * 100}% of ${QUESTIONS.length} questions with the facts of the source tables`, async function () {
      expect(QUESTIONS.length).to.be.at.least(150);
      const failures: string[] = [];
      const byKind = new Map<string, { asked: number; passed: number }>();
      for (const c of QUESTIONS) {
        const facts = await expectedFacts(real.db, c);
        const res = await ask(c.question);
        expect(res.status, c.question).to.equal(200);
        const response = res.body.response as string;
        const missing = facts.filter((f) => !mentions(response, f));
        const k = byKind.get(c.kind) ?? { asked: 0, passed: 0 };
        k.asked += 1;
        if (missing.length === 0) k.passed += 1;
        else failures.push(`  [${c.kind} -> ${res.body.intent}] ${c.question}\n      missing ${missing.join(', ')}\n      got: ${response}`);
        byKind.set(c.kind, k);
      }
      const passed = QUESTIONS.length - failures.length;
      const rate = passed / QUESTIONS.length;
      console.log(`      question set: ${passed}/${QUESTIONS.length} answered correctly (${(rate * 100).toFixed(1)}%)`);
      console.log(`      by kind: ${[...byKind].map(([k, v]) => `${k} ${v.passed}/${v.asked}`).join(', ')}`);
      if (failures.length) console.log(`      failed:\n${failures.join('\n')}`);
      expect(rate).to.be.at.least(PASS_RATE);
    });
  });

  describe('with a species known by a virus name', () => {
    it('names its family, species and sources, and the entities it resolved', async () => {
      const [row] = await real.db.all<{ family: string; species: string }>(`SELECT s.family, s.species FROM src.isolates i
        JOIN src.species s ON s.msl = i.msl AND s.species = i.species WHERE i.msl = $1 AND i.exemplar = 'E' AND i.abbreviations = 'ZIKV'`, [real.latest.msl]);
      const res = await ask('What family does Zika virus belong to?');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.match(/application\/json/);
      expect(res.body.intent).to.equal('classification');
      expect(res.body.response).to.contain(row!.family).and.to.contain(row!.species);
      expect(res.body.entities.species[0]).to.include({ text: 'Zika virus', matched_name: 'Zika virus', current_name: row!.species });
      expect(res.body.data).to.include({ species: row!.species, version: real.latest.version });
      expect(res.body.sources).to.deep.include({ model: 'species_doc', version: real.latest.version });
      expect(res.body.cached).to.equal(false);
    });
  });

  describe('with a name that stands for several species', () => {
    // abbreviations of the latest VMR (as written, no other name) whose isolates are of several species now;
    // the species from species_identity, not from the resolver
    const several = () => real.db.all<{ name: string; species: string[] }>(`
      SELECT n.name, list(DISTINCT s.species ORDER BY s.species) AS species
      FROM main.name_index n JOIN main.species_identity s ON s.lineage_id = n.lineage_id AND s.msl = $1
      WHERE n.kind = 'abbreviation' AND n.last_msl = $1 AND regexp_matches(n.name, '^[A-Z]{3,5}$')
        AND NOT EXISTS (SELECT 1 FROM main.name_index x WHERE x.name_norm = n.name_norm AND x.kind <> 'abbreviation')
      GROUP BY n.name HAVING count(DISTINCT s.species) > 1 ORDER BY n.name LIMIT 12`, [real.latest.msl]);

    it('answers no question about one of them as if it were the one meant, and names them all', async () => {
      const rows = await several();
      expect(rows.length).to.be.at.least(5);
      for (const { name, species } of rows) {
        for (const q of [`What family does ${name} belong to?`, `what kind of genome does ${name} have?`]) {
          const res = (await ask(q).expect(200)).body;
          expect(res.status, `${q}: ${res.response}`).to.equal('not_understood');
          for (const s of species) expect(res.response, q).to.contain(s);
        }
      }
    });

    it('says what it is called now for all of them, and reads an abbreviation listed only with a type as all of those', async () => {
      // (not those that also begin typed abbreviations, "ABV" of ABV1, ABV2, ...: asked back, as the next group says)
      const typed = new Set((await real.db.all<{ stem: string }>(`SELECT DISTINCT regexp_extract(name, '^([A-Z]{3,5})[-_ ]?[0-9]+[a-z]?$', 1) AS stem
        FROM main.name_index WHERE kind = 'abbreviation' AND regexp_matches(name, '^[A-Z]{3,5}[-_ ]?[0-9]+[a-z]?$')`)).map((r) => r.stem));
      const rows = (await several()).filter((r) => !typed.has(r.name));
      expect(rows.length).to.be.at.least(5);
      for (const { name, species } of rows) {
        const res = (await ask(`what is ${name} called now?`).expect(200)).body;
        expect(res.status, res.response).to.equal('answered');
        expect([...res.data.current_names].sort(), name).to.deep.equal(species);
      }
      // PRRSV-1 and PRRSV-2 are the VMR's; "PRRSV" matches privet ringspot virus's "PrRSV" only by its case
      const [prrsv] = await real.db.all<{ species: string[] }>(`SELECT list(DISTINCT s.species ORDER BY s.species) AS species
        FROM main.name_index n JOIN main.species_identity s ON s.lineage_id = n.lineage_id AND s.msl = $1
        WHERE n.kind = 'abbreviation' AND n.name IN ('PRRSV-1', 'PRRSV-2')`, [real.latest.msl]);
      expect(prrsv!.species).to.have.length(2);
      const res = (await ask('what is PRRSV called now?').expect(200)).body;
      expect([...res.data.current_names].sort()).to.deep.equal(prrsv!.species);
      expect((await ask('what family does PRRSV belong to?').expect(200)).body.status).to.equal('not_understood');
    });
  });

  describe('with an abbreviation that also begins typed ones of other species (HPV: Hart Park virus; HPV1, HPV16, ...)', () => {
    it('asks back, naming the one the whole abbreviation is and what else it begins: the reader may mean those', async () => {
      // one species each as written, and typed abbreviations of other lineages beginning with it (name_index);
      // the typed ones' letters are taken once and joined on, not matched by a pattern per pair
      const rows = await real.db.all<{ name: string; species: string }>(`
        WITH typed AS (SELECT regexp_extract(name, '^([A-Z]{3,5})-?[0-9]+$', 1) AS stem, lineage_id FROM main.name_index
                       WHERE kind = 'abbreviation' AND regexp_matches(name, '^[A-Z]{3,5}-?[0-9]+$'))
        SELECT n.name, any_value(s.species) AS species
        FROM main.name_index n JOIN main.species_identity s ON s.lineage_id = n.lineage_id AND s.msl = $1
        WHERE n.kind = 'abbreviation' AND n.last_msl = $1 AND regexp_matches(n.name, '^[A-Z]{3,5}$')
          AND NOT EXISTS (SELECT 1 FROM main.name_index x WHERE x.name_norm = n.name_norm AND (x.kind <> 'abbreviation' OR x.last_msl <> $1))
          AND EXISTS (SELECT 1 FROM typed t WHERE t.stem = n.name
                        AND t.lineage_id NOT IN (SELECT y.lineage_id FROM main.name_index y WHERE y.name = n.name))
        GROUP BY n.name HAVING count(DISTINCT s.species) = 1 ORDER BY n.name <> 'HPV', n.name LIMIT 8`, [real.latest.msl]);
      expect(rows.map((r) => r.name)).to.include('HPV');
      for (const { name, species } of rows) {
        const res = (await ask(`what family does ${name} belong to?`).expect(200)).body;
        expect(res.status, res.response).to.equal('not_understood');
        expect(res.response, name).to.contain(species).and.to.contain(`'${name}' also begins the VMR's abbreviations`).and.to.contain('naming the virus you mean');
      }
      const plain = (await ask('what family does TMV belong to?').expect(200)).body;
      expect(plain.response).to.not.contain('also begins');
    });
  });

  describe('with releases written in different ways', () => {
    it('resolves MSL39, 39, 2023 and msl-39 to the same release', async () => {
      for (const q of ['How many species in MSL39?', 'how many species in 39', 'How many species in 2023?', 'species count of msl-39']) {
        const res = await ask(q);
        expect(res.body.entities.releases.map((r: { version: string }) => r.version), q).to.deep.equal(['MSL39']);
      }
    });

    it('knows the releases before 2005: MSL1, 1971, a label such as 1999a, and a year without a release', async () => {
      const count = async (msl: number) => real.db.count('SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = $1', [msl]);
      for (const [q, version, msl] of [['How many species were in MSL1?', 'MSL1', 1], ['How many species were there in 1971?', 'MSL1', 1],
        ['How many species were in 1999a?', 'MSL18', 18], ['how many species in release 5', 'MSL5', 5]] as const) {
        const res = await ask(q);
        expect(res.body.entities.releases.map((r: { version: string }) => r.version), q).to.deep.equal([version]);
        expect(res.body.response, q).to.contain((await count(msl)).toLocaleString('en-US'));
      }
      // no list was published in 1980: declined, never answered with the one in force (1979's)
      const gap = await ask('How many species were there in 1980?');
      expect(gap.body.status).to.equal('declined');
      expect(gap.body.entities.releases).to.deep.equal([]);
      expect(gap.body.response).to.match(/no release was published in 1980/i);
    });

    it('asks back for a year of two releases, naming both, and answers both when asked of both', async () => {
      const rows = await real.db.all<{ label: string; version: string; n: number }>(`SELECT r.label, r.version, count(*)::INTEGER AS n
        FROM src.species s JOIN src.releases r ON r.msl = s.msl WHERE r.year = 2018 GROUP BY r.label, r.version ORDER BY r.label`);
      expect(rows).to.have.length(2);
      const res = await ask('How many species were there in 2018?');
      expect(res.body.status).to.equal('clarify');
      for (const r of rows) expect(res.body.response).to.contain(r.label).and.to.contain(r.version).and.to.not.contain(r.n.toLocaleString('en-US'));
      const both = await ask('How many species were there in both 2018 releases?');
      expect(both.body.status).to.equal('answered');
      for (const r of rows) expect(both.body.response).to.contain(r.label).and.to.contain(r.n.toLocaleString('en-US'));
    });
  });

  describe('with something it does not know', () => {
    it('reads a clear misspelling as the name and says so in understood', async () => {
      const res = await ask('What family does Zika viruss belong to?');
      expect(res.body.status).to.equal('answered');
      expect(res.body.understood.entities[0]).to.include({ text: 'Zika viruss', resolved: 'typo' });
      expect(res.body.confidence).to.be.below(1);
    });

    it('says so, suggests close names and offers at least 3 example questions', async () => {
      const res = await ask('What family does Zorblax virus belong to?');
      expect(res.status).to.equal(200);
      expect(res.body.intent).to.equal('unknown');
      expect(res.body.status).to.equal('not_understood');
      expect(res.body.response).to.contain('do not know').and.to.contain('Zorblax virus');
      expect(res.body.data.examples).to.have.length.of.at.least(3);
      expect((res.body.response as string).match(/\?"/g)).to.have.length.of.at.least(3);
    });

    it('does not answer a question about an unknown release with another release', async () => {
      const res = await ask('How many species were in MSL99?');
      expect(res.body.status).to.equal('declined');
      expect(res.body.response).to.match(/^MSL99 is not a release/);
      expect(res.body.entities.unknown[0]).to.match(/MSL99/);
    });
  });

  describe('with use_cache', () => {
    it('answers a repeated question, in other letter case and punctuation, from the cache', async () => {
      const first = await request(real.app).post('/ai/query').send({ query: 'How many genera were in MSL31?' });
      const second = await request(real.app).post('/ai/query').send({ query: 'how many genera were in msl31' });
      expect(first.body.cached).to.equal(false);
      expect(second.body.cached).to.equal(true);
      expect(second.body.response).to.equal(first.body.response);
      expect(second.body.query).to.equal('how many genera were in msl31');
      const fresh = await request(real.app).post('/ai/query').send({ query: 'How many genera were in MSL31?', use_cache: false });
      expect(fresh.body.cached).to.equal(false);
    });
  });

  // Questions written for these tests (neither evaluation set's), one group per kind of question the issue names:
  // every expected fact from the source tables, the whole question answered or "not understood" naming the part.
  describe('per category: differences, changes, releases', () => {
    const body = async (query: string) => {
      const res = await ask(query);
      expect(res.status, query).to.equal(200);
      expect(res.body, query).to.include.keys('status', 'understood', 'confidence');
      return res.body as { status: string; response: string; intent: string; confidence: number; data: Record<string, unknown> };
    };
    const releases = () => real.db.all<{ version: string; msl: number; year: number }>('SELECT version, msl::INTEGER AS msl, year::INTEGER AS year FROM src.releases ORDER BY msl');
    const familySpecies = (family: string, msl: number) => real.db.count('SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = $1 AND family = $2', [msl, family]);

    it('difference: two taxa between two releases gives each change and the difference of the changes', async () => {
      const [pa, pb, ra, rb] = await Promise.all([familySpecies('Picornaviridae', 28), familySpecies('Picornaviridae', 38), familySpecies('Caliciviridae', 28), familySpecies('Caliciviridae', 38)]);
      const a = await body('did Picornaviridae or Caliciviridae add more species from 2013 to 2022?');
      expect(a.status).to.equal('answered');
      for (const n of [pa, pb, pb - pa, ra, rb, rb - ra, Math.abs((pb - pa) - (rb - ra))]) expect(mentions(a.response, n), `${n}: ${a.response}`).to.equal(true);
      expect(a.response).to.not.match(/^(?:Yes|No)\b/);   // "A or B" asks which, not yes or no
    });

    it('difference: a taxon not in a release is said to be absent, not counted as empty', async () => {
      const [last] = await real.db.all<{ msl: number }>("SELECT max(msl)::INTEGER AS msl FROM src.taxa WHERE rank = 'family' AND name = 'Siphoviridae'");
      const after = (await releases()).find((r) => r.msl > last!.msl)!;
      const a = await body(`which had more species in ${after.version}, Siphoviridae or Podoviridae?`);
      expect(a.status).to.equal('answered');
      expect(a.response).to.include(`Siphoviridae is not in ${after.version}`);
      expect(a.response).to.not.match(/both have 0/);
    });

    it('difference: between two releases, the official totals and, where they differ, the taxa the lists name', async () => {
      const listed = await Promise.all([19, 20].map((m) => real.db.count("SELECT count(*)::INTEGER AS n FROM src.taxa WHERE msl = $1 AND rank = 'genus'", [m])));
      const official = await Promise.all([19, 20].map((m) => real.db.count("SELECT count::INTEGER AS n FROM src.official_counts WHERE msl = $1 AND rank = 'genus'", [m])));
      const a = await body('genera in 1999b against 2002a, and the change?');
      expect(a.status).to.equal('answered');
      for (const n of [...listed, ...official, official[1]! - official[0]!]) expect(mentions(a.response, n), `${n}: ${a.response}`).to.equal(true);
    });

    it('which changed: the species a release list marks merged, each named', async () => {
      const rows = await real.db.all<{ species: string }>("SELECT species FROM src.species WHERE msl = 36 AND msl_of_last_change = 36 AND last_change LIKE 'Merged%'");
      expect(rows.length).to.be.above(1);
      const a = await body('species merged in the 2020 list?');
      expect(a.status).to.equal('answered');
      for (const r of rows) expect(a.response).to.include(r.species);
    });

    it('which changed: a family renamed into an order is a rename, not an abolition', async () => {
      const moved = await real.db.all<{ old: string; new: string }>(
        "SELECT split_part(old_name, ';', -1) AS old, split_part(new_name, ';', -1) AS new FROM src.renames WHERE msl = 40 AND rank = 'family>order'");
      expect(moved.length).to.be.above(0);
      const gone = await body('families abolished in MSL40?');
      expect(gone.status).to.equal('answered');
      // named only as a rename, beside the abolitions
      for (const m of moved) {
        expect(gone.response.split('(besides, renamed:')[0]).to.not.include(m.old);
        expect(gone.response).to.include(`${m.old} -> ${m.new}`);
      }
      const renamed = await body('families renamed in MSL40?');
      for (const m of moved) expect(renamed.response).to.include(`${m.old} -> ${m.new}`);
    });

    it('which changed: orders added between two releases are orders, never the species changes', async () => {
      const [row] = await real.db.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM src.taxa WHERE msl = 35 AND rank = 'order'
        AND name NOT IN (SELECT name FROM src.taxa WHERE msl = 34 AND rank = 'order')`);
      const a = await body('number of orders added from MSL34 to MSL35');
      expect(a.status).to.equal('answered');
      expect(a.response).to.include(`${row!.n} orders were new`).and.to.not.include('species');
    });

    it('which changed: a rename before the change lists begin (MSL38) is a rename, as ICTV\'s ids of the taxa trace it', async () => {
      // the genera renamed in MSL28, by the ids (the change lists start later)
      const renamed = await real.db.all<{ old: string; new: string }>(`SELECT r.old_name AS old, r.new_name AS new FROM main.taxon_rename r
        JOIN src.taxa t ON t.msl = 27 AND t.rank = 'genus' AND t.name = r.old_name WHERE r.msl = 28 ORDER BY 1`);
      expect(renamed.length).to.be.above(1);
      const a = await body('Which genera were renamed in MSL28?');
      expect(a.status).to.equal('answered');
      for (const r of renamed) expect(a.response).to.include(`${r.old} -> ${r.new}`);
      // neither new nor abolished, and the former name of the later one
      const added = await body('Which genera were new in MSL28?');
      expect(added.response.split('(besides, renamed:')[0]).to.not.include(`${renamed[0]!.new},`);
      const before = await body(`What was ${renamed[0]!.new} called before?`);
      expect(before.status, before.response).to.equal('answered');
      expect(before.response).to.include(renamed[0]!.old).and.to.include('MSL28');
      const fate = await body(`Was the genus ${renamed[0]!.old} renamed?`);
      expect(fate.response).to.match(/^Yes/).and.to.include(renamed[0]!.new);
    });

    it('which changed: every taxon of the first release was first listed in it, named and counted', async () => {
      const genera = await real.db.all<{ name: string }>("SELECT name FROM src.taxa WHERE msl = (SELECT min(msl) FROM src.releases) AND rank = 'genus' ORDER BY 1");
      const [first] = await real.db.all<{ year: number }>('SELECT year::INTEGER AS year FROM src.releases ORDER BY msl LIMIT 1');
      expect(genera.length).to.be.above(10);
      for (const q of [`Which genera were first listed in ${first!.year}?`, 'What were the first genera listed?']) {
        const a = await body(q);
        expect(a.status, q).to.equal('answered');
        expect(mentions(a.response, genera.length), `${q}: ${a.response}`).to.equal(true);
        for (const g of genera) expect(a.response, q).to.include(g.name);
      }
    });

    it('release: the taxa of a rank in one release are named, all of them, with their count', async () => {
      for (const [q, msl, rank] of [['Which families existed in 1971?', 1, 'family'], ['Which orders existed in 1995?', 14, 'order'], ['Which genera were in the first release?', 1, 'genus']] as const) {
        const names = await real.db.all<{ name: string }>('SELECT name FROM src.taxa WHERE msl = $1 AND rank = $2 ORDER BY 1', [msl, rank]);
        const a = await body(q);
        expect(a.status, q).to.equal('answered');
        expect(mentions(a.response, names.length), `${q}: ${a.response}`).to.equal(true);
        for (const n of names) expect(a.response, q).to.include(n.name);
      }
      // the first release with a rank is the one that introduced it, never the latest
      const [first] = await real.db.all<{ msl: number }>("SELECT min(msl)::INTEGER AS msl FROM src.taxa WHERE rank = 'order'");
      const a = await body('How many orders did the first release with orders have?');
      expect(a.response).to.include(`MSL${first!.msl}`).and.to.not.include(real.latest.version);
    });

    it('which changed: how many taxa of a rank a release added quotes ICTV\'s own figure for the rank', async () => {
      const [row] = await real.db.all<{ msl: number; n: number }>("SELECT msl::INTEGER AS msl, abs(count)::INTEGER AS n FROM src.official_changes WHERE rank = 'genus' AND change = 'New' ORDER BY msl DESC LIMIT 1");
      const a = await body(`How many new genera were created in MSL${row!.msl}?`);
      expect(a.status).to.equal('answered');
      expect(mentions(a.response, row!.n), a.response).to.equal(true);
      expect(a.response).to.include("ICTV's Taxon Counts sheet");
    });

    it('group: a genus no longer listed asked within another is answered by where its species went', async () => {
      const [row] = await real.db.all<{ family: string }>("SELECT family FROM src.taxa WHERE msl = $1 AND rank = 'genus' AND name = 'Enterovirus'", [real.latest.msl]);
      const [gone] = await real.db.all<{ last: number }>("SELECT max(msl)::INTEGER AS last FROM src.taxa WHERE rank = 'genus' AND name = 'Rhinovirus'");
      expect(gone!.last).to.be.below(real.latest.msl);
      const a = await body('Is human rhinovirus an enterovirus?');
      expect(a.status).to.equal('answered');
      expect(a.response).to.match(/^Yes/).and.to.include('Enterovirus').and.to.include(`MSL${gone!.last}`);
      const b = await body('Is rhinovirus a picornavirus?');
      expect(b.response).to.match(row!.family === 'Picornaviridae' ? /^Yes/ : /^No/);
    });

    it('current name: "known as today", "called these days", "what\'s ... called nowadays" ask for the name now', async () => {
      const [row] = await real.db.all<{ now: string }>(`SELECT n.species AS now FROM src.species o JOIN src.species n ON n.ictv_id = o.ictv_id
        AND n.msl = (SELECT max(msl) FROM src.releases) WHERE o.msl = 30 AND o.species = 'Cowpox virus'`);
      for (const q of ['What is Cowpox virus known as today?', 'what is Cowpox virus called these days', "what's Cowpox virus called nowadays", 'What is Cowpox virus known as?', 'By what name is Cowpox virus known now?']) {
        const a = await body(q);
        expect(a.status, q).to.equal('answered');
        expect(a.intent, `${q}: ${a.response}`).to.equal('current_name');
        expect(a.response, q).to.include(row!.now);
      }
    });

    it('release: a decade lists its releases, an ordinal names one, and no release named is not the latest', async () => {
      const all = await releases();
      const eighties = all.filter((r) => r.year >= 1980 && r.year <= 1989);
      expect(eighties.length).to.be.above(1);
      const decade = await body('what releases were published during the 1980s');
      expect(decade.status).to.equal('answered');
      for (const r of eighties) expect(decade.response).to.include(`${r.version} (`);
      const ordinal = await body('what year was the 12th MSL');
      expect(ordinal.status).to.equal('answered');
      expect(ordinal.response).to.include(String(all.find((r) => r.msl === 12)!.year));
      const none = await body('when was that release published?');
      expect(none.status).to.equal('not_understood');
      expect(none.response).to.not.include(real.latest.version);
    });

    it('release: a label no release has ("2005b") is declined, never read as the year', async () => {
      const a = await body('how many species were in 2005b?');
      expect(a.status).to.equal('declined');
      expect(a.response).to.include('2005b');
    });
  });

  describe('with a bad body', () => {
    it('answers 422 {error, detail, type} without query', async () => {
      const res = await request(real.app).post('/ai/query').send({ use_cache: true });
      expect(res.status).to.equal(422);
      expect(res.body).to.have.keys('error', 'detail', 'type');
      expect(res.body.type).to.equal('ValidationError');
      expect(res.body.detail).to.contain('query');
    });

    it('answers 422 for a query that is not a string', async () => {
      const res = await request(real.app).post('/ai/query').send({ query: 42 });
      expect(res.status).to.equal(422);
      expect(res.body.type).to.equal('ValidationError');
    });

    it('answers 422 for use_cache that is not a boolean', async () => {
      const res = await request(real.app).post('/ai/query').send({ query: 'help', use_cache: 'sometimes' });
      expect(res.status).to.equal(422);
    });
  });
});

describe('GET /ai/examples', () => {
  it('lists example questions whose answers contain their snippets', async () => {
    const { app } = await testApp();
    const res = await request(app).get('/ai/examples');
    expect(res.status).to.equal(200);
    expect(res.body.count).to.be.at.least(10);
    for (const e of res.body.examples as Array<{ question: string; intent: string; expect: string }>) {
      const a = await request(app).post('/ai/query').send({ query: e.question, use_cache: false });
      expect(a.body.intent, e.question).to.equal(e.intent);
      expect(a.body.response, e.question).to.contain(e.expect);
    }
  });
});

describe('GET /ai/health', () => {
  it('reports the build, the releases, the intents and the cache', async () => {
    const { app, store } = await testApp();
    await request(app).post('/ai/query').send({ query: 'What is the latest release?' });
    const res = await request(app).get('/ai/health');
    expect(res.status).to.equal(200);
    const db = await realDb();
    const [span] = await db.all<{ n: number; first: string; latest: string }>("SELECT count(*)::INTEGER AS n, 'MSL' || min(msl) AS first, 'MSL' || max(msl) AS latest FROM src.releases");
    db.close();
    expect(res.body).to.include({ status: 'ok', build_id: store.buildId, releases_loaded: span!.n, first_release: span!.first, latest_release: span!.latest });
    expect(res.body.intents).to.include('classification').and.to.include('unknown');
    expect(res.body.cache.size).to.be.at.least(1);
    expect(res.body.taxon_names_loaded).to.be.greaterThan(1000);
  });
});

describe('GET /ai/features', () => {
  it('describes every intent and the classifier with its leave-one-out accuracy', async () => {
    const { app } = await testApp();
    const res = await request(app).get('/ai/features');
    expect(res.status).to.equal(200);
    expect(res.body.query.intents.map((i: { intent: string }) => i.intent)).to.include('compare_releases');
    expect(res.body.classify.leave_one_out.top5_accuracy).to.be.within(0, 1);
    expect(res.body.endpoints).to.include('POST /ai/classify');
  });
});

describe('GET /ai/stability/:family_name', () => {
  let db: Db;
  before(async () => { db = await realDb(); });
  after(() => db.close());

  it('scores Coronaviridae in [0,1] against the median, with its span from the source tables', async () => {
    const { app } = await testApp();
    const [span] = await db.all<{ first: string; last: string }>(
      "SELECT 'MSL' || min(msl) AS first, 'MSL' || max(msl) AS last FROM src.taxa WHERE rank = 'family' AND name = 'Coronaviridae'");
    const res = await request(app).get('/ai/stability/coronaviridae');
    expect(res.status).to.equal(200);
    expect(res.headers.etag).to.be.a('string');
    expect(res.body).to.include({ family: 'Coronaviridae', status: 'current', first_version: span!.first, last_version: span!.last });
    expect(res.body.stability).to.be.within(0, 1);
    expect(res.body.compared_to_median).to.equal(res.body.stability > res.body.median_stability ? 'above' : res.body.stability < res.body.median_stability ? 'below' : 'equal');
    expect(res.body.formula).to.contain('species_steps');
    // the first step of its churn is the one into the release after its first
    expect(res.body.churn[0].msl_version).to.equal(`MSL${Number(span!.first.slice(3)) + 1}`);
  });

  it('analyses an abolished family, Myoviridae, with its MSL37 abolition', async () => {
    const { app } = await testApp();
    const res = await request(app).get('/ai/stability/Myoviridae');
    expect(res.status).to.equal(200);
    expect(res.body.status).to.equal('abolished');
    expect(res.body.last_version).to.equal('MSL36');
    expect(res.body.events.map((e: { kind: string; msl_version: string }) => `${e.kind} ${e.msl_version}`)).to.include('abolished MSL37');
  });

  it('gives no score, and says why, for a family new in the latest release', async () => {
    const { app } = await testApp();
    const [row] = await db.all<{ name: string }>(`SELECT name FROM src.taxa WHERE rank = 'family' GROUP BY name
      HAVING min(msl) = (SELECT max(msl) FROM src.releases) ORDER BY name LIMIT 1`);
    const res = await request(app).get(`/ai/stability/${row!.name}`);
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ family: row!.name, stability: null, stability_rank: null, compared_to_median: null, species_steps: 0 });
    expect(res.body.summary).to.contain('no stability score');
  });

  it('answers 404 {error, detail, type, suggestions} for an unknown family', async () => {
    const { app } = await testApp();
    const res = await request(app).get('/ai/stability/Coronaviridea');
    expect(res.status).to.equal(404);
    expect(res.body).to.include({ error: 'Not found', type: 'NotFound' });
    expect(res.body.detail).to.contain("'Coronaviridea'");
    expect(res.body.suggestions).to.include('Coronaviridae');
  });
});

describe('AnswerCache', () => {
  it('evicts the least recently used answer, and keys answers by build', () => {
    const cache = new AnswerCache<string>(2);
    cache.set('b1', 'q1', 'a1');
    cache.set('b1', 'q2', 'a2');
    expect(cache.get('b1', 'q1')).to.equal('a1'); // q1 is now the most recently used
    cache.set('b1', 'q3', 'a3');
    expect(cache.get('b1', 'q2')).to.equal(undefined);
    expect(cache.get('b1', 'q1')).to.equal('a1');
    expect(cache.get('b2', 'q1')).to.equal(undefined);
    expect(cache.stats()).to.deep.equal({ size: 2, max: 2, hits: 2, misses: 2, hit_rate: 0.5 });
  });
});

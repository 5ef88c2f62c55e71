// POST /ai/classify on the real data set with response validation on: a known name gives its species' current
// classification; metadata ranks families with the model fitted on family_profile, whose leave-one-out accuracy
// must stay at what was measured when it was tuned.
import { expect } from 'chai';
import request from 'supertest';
import { evaluationOf } from '../src/ai/classify.js';
import { parseGenomeSize, parseGenomeType, parseHost } from '../src/ai/vocabulary.js';
import { onRealApp, testApp } from './support/http.js';

// measured with DEFAULT_PARAMS on the build whose latest release is MSL41: 6,961 species of 427 families, top-1
// 0.608, top-5 0.918 (on MSL40, before MSL41 added 59 families: 6,806 species, 0.635 and 0.932)
const MEASURED_TOP1 = 0.608;
const MEASURED_TOP5 = 0.918;
const MARGIN = 0.02;

describe('POST /ai/classify', () => {
  const real = onRealApp();

  const classify = (body: unknown) => request(real.app).post('/ai/classify').send(body as object);

  describe('with a known name', () => {
    it('gives the species of a VMR virus name and its full classification in the latest release', async () => {
      const [row] = await real.db.all<{ species: string; realm: string; family: string; genus: string }>(`SELECT s.species, s.realm, s.family, s.genus
        FROM src.isolates i JOIN src.species s ON s.msl = i.msl AND s.species = i.species
        WHERE i.msl = $1 AND i.exemplar = 'E' AND i.virus_names = 'Zika virus'`, [real.latest.msl]);
      const res = await classify({ organism_name: 'zika virus' });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ method: 'name', organism_name: 'zika virus', species: row!.species, version: real.latest.version });
      expect(res.body.classification).to.include({ realm: row!.realm, family: row!.family, genus: row!.genus });
      expect(res.body.match).to.include({ matched_name: 'Zika virus', exact_spelling: false });
      expect(res.body.metadata_check).to.equal(null);
    });

    it('follows an old species name to its current species', async () => {
      const [row] = await real.db.all<{ species: string }>(`SELECT n.species FROM src.species o JOIN src.species n ON n.ictv_id = o.ictv_id AND n.msl = $1
        WHERE o.species = 'Tobacco mosaic virus' AND o.msl = 38`, [real.latest.msl]);
      const res = await classify({ organism_name: 'Tobacco mosaic virus' });
      expect(res.body).to.include({ method: 'name', species: row!.species, status: 'renamed' });
      expect(res.body.match.kind).to.equal('species');
    });

    it('knows an abbreviation, and checks metadata given with it against the species record', async () => {
      const [row] = await real.db.all<{ family: string; genome_composition: string }>(`SELECT s.family, s.genome_composition
        FROM src.isolates i JOIN src.species s ON s.msl = i.msl AND s.species = i.species WHERE i.msl = 40 AND i.abbreviations = 'SARS-CoV-2'`);
      const res = await classify({ organism_name: 'SARS-CoV-2', metadata: { genome_type: 'dsDNA', host: 'human' } });
      expect(res.body.method).to.equal('name');
      expect(res.body.classification.family).to.equal(row!.family);
      expect(res.body.metadata_check.genome_type).to.deep.equal({ given: 'dsDNA', species: row!.genome_composition, agrees: false });
      expect(res.body.metadata_check.host.agrees).to.equal(true);
    });
  });

  describe('with metadata only', () => {
    it('ranks 5 families with scores and evidence, and says metadata cannot identify a species', async () => {
      const res = await classify({ metadata: { genome_type: 'ssRNA(+)', genome_size: '29.9 kb', host: 'vertebrates' } });
      expect(res.status).to.equal(200);
      expect(res.body.method).to.equal('metadata');
      expect(res.body.candidates).to.have.length(5);
      expect(res.body.candidates.map((c: { family: string }) => c.family)).to.include('Coronaviridae');
      const scores = res.body.candidates.map((c: { score: number }) => c.score);
      expect(scores).to.deep.equal([...scores].sort((a: number, b: number) => b - a));
      const corona = res.body.candidates.find((c: { family: string }) => c.family === 'Coronaviridae');
      expect(corona.evidence.genome_type.match).to.equal('exact');
      expect(corona.evidence.host.match).to.equal('exact');
      expect(corona.evidence.genome_size.match).to.equal('in_range');
      expect(res.body.note).to.contain('cannot identify a species');
    });

    it('puts a family first whose genomes match all three values, an unknown name notwithstanding', async () => {
      const res = await classify({ organism_name: 'my isolate 7', metadata: { genome_type: 'circular ssDNA', genome_size: '2.7 kb', host: 'tomato plants' } });
      expect(res.body.method).to.equal('metadata');
      expect(res.body.name_note).to.contain('my isolate 7');
      expect(res.body.candidates[0].family).to.equal('Geminiviridae');
      expect(res.body.features.host.categories).to.deep.equal(['plants']);
    });

    it('accepts a genome type of the same Baltimore group at a lower weight', async () => {
      const res = await classify({ metadata: { genome_type: 'ssDNA' } });
      expect(res.body.candidates.some((c: { evidence: { genome_type: { match: string } } }) => c.evidence.genome_type.match !== 'none')).to.equal(true);
    });
  });

  describe('with a bad body', () => {
    it('classifies nothing (404) when a metadata value cannot be read, naming it', async () => {
      const res = await classify({ metadata: { genome_size: '12 parsecs', host: 'plants' } });
      expect(res.status).to.equal(404);
      expect(res.body).to.include({ error: 'Not found', type: 'NotFound' });
      expect(res.body.detail).to.contain("'12 parsecs'");
    });

    it('answers 422 with neither a name nor metadata, saying what the body needs', async () => {
      for (const body of [{}, { metadata: {} }, { organism_name: '   ' }]) {
        const res = await classify(body);
        expect(res.status, JSON.stringify(body)).to.equal(422);
        expect(res.body).to.have.keys('error', 'detail', 'type');
      }
      expect((await classify({})).body.detail).to.equal('the body must have organism_name, or metadata with at least one of genome_type, genome_size and host');
    });

    it('answers 422 for a field of the wrong type', async () => {
      const res = await classify({ organism_name: 7 });
      expect(res.status).to.equal(422);
    });

    it('answers 404 with suggestions for an unknown name without metadata', async () => {
      const res = await classify({ organism_name: 'Tobacco mosaik virus' });
      expect(res.status).to.equal(404);
      expect(res.body.type).to.equal('NotFound');
      expect(res.body.suggestions).to.include('Tobacco mosaic virus');
    });
  });
});

describe('metadata values', () => {
  it('reads genome sizes as "48.5 kb", "48500", "48,500 bp" and "1.2 Mb"', () => {
    expect(parseGenomeSize('48.5 kb')).to.equal(48500);
    expect(parseGenomeSize('48500')).to.equal(48500);
    expect(parseGenomeSize('48,500 bp')).to.equal(48500);
    expect(parseGenomeSize('1.2 Mb')).to.equal(1200000);
    expect(parseGenomeSize('12 parsecs')).to.equal(null);
  });

  it('reads genome types and hosts in words', () => {
    expect(parseGenomeType('positive-sense single-stranded RNA')).to.deep.equal(['ssRNA(+)']);
    expect(parseGenomeType('ssRNA(-)')).to.deep.equal(['ssRNA(-)']);
    expect(parseGenomeType('double stranded DNA')).to.deep.equal(['dsDNA']);
    // an unspecified strand is any sense; "single-stranded" must not read as "-stranded", i.e. negative-sense
    expect(parseGenomeType('single-stranded RNA')).to.deep.equal(['ssRNA', 'ssRNA(+)', 'ssRNA(-)', 'ssRNA(+/-)']);
    expect(parseHost('Homo sapiens (human)')).to.deep.equal(['vertebrates']);
    expect(parseHost('Aedes mosquito')).to.deep.equal(['invertebrates']);
  });
});

describe('the metadata classifier, left one species out at a time', () => {
  it(`keeps top-5 family accuracy at ${MEASURED_TOP5} - ${MARGIN} or better`, async function () {
    const { store } = await testApp();
    const t = Date.now();
    const e = await evaluationOf(store);
    console.log(`      leave-one-out over ${e.evaluated} species of the latest release with all three values, ${e.families} families: top-1 ${e.top1.toFixed(4)}, top-5 ${e.top5.toFixed(4)} (${Date.now() - t} ms)`);
    expect(e.evaluated).to.be.greaterThan(5000);
    expect(e.top5).to.be.at.least(MEASURED_TOP5 - MARGIN);
    expect(e.top1).to.be.at.least(MEASURED_TOP1 - MARGIN);
  });
});

// /ai/query on the ways people name releases and ask across time, on the real data: every release by number,
// year, label, its place in words, and two of these at once (agreeing: answered; disagreeing: declined naming both;
// a year of several releases: asked back naming each); the year a release was published; the current name of a
// species by the name it had in a release; the first taxa of each rank; ICTV's own tallies of each step it
// counted; and questions outside the data, declined. Every expectation is read from the data (the source tables),
// whichever release is the latest.
import { expect } from 'chai';
import request from 'supertest';
import { onRealApp } from './support/http.js';

interface Body { status: string; response: string; intent: string; understood: { releases: string[] }; data: Record<string, unknown> }

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth', 'eleventh', 'twelfth',
  'thirteenth', 'fourteenth', 'fifteenth', 'sixteenth', 'seventeenth', 'eighteenth', 'nineteenth', 'twentieth'];

describe('POST /ai/query, releases named every way and questions across time', () => {
  const real = onRealApp();
  const ask = async (query: string): Promise<Body> => (await request(real.app).post('/ai/query').send({ query, use_cache: false }).expect(200)).body as Body;
  const grouped = (n: number) => n.toLocaleString('en-US');
  const releases = () => real.db.all<{ msl: number; year: number; label: string; species: number; genera: number }>(`
    SELECT r.msl::INTEGER AS msl, r.year::INTEGER AS year, r.label,
           (SELECT count(*) FROM src.species s WHERE s.msl = r.msl)::INTEGER AS species,
           (SELECT count(*) FROM src.taxa t WHERE t.msl = r.msl AND t.rank = 'genus')::INTEGER AS genera
    FROM src.releases r ORDER BY r.msl`);

  it('answers a release named by number and year or label at once, when the two agree', async () => {
    const all = await releases();
    const single = (y: number) => all.filter((r) => r.year === y).length === 1;
    for (const r of all) {
      const other = single(r.year) ? String(r.year) : r.label;
      for (const q of [`How many species were in MSL${r.msl} (${other})?`, `How many species does the ${other} release (MSL${r.msl}) contain?`,
        `How many species were in MSL${r.msl}/${other}?`, `how many species in MSL${r.msl} aka ${other}`, `How many species were in MSL${r.msl}, the ${other} list?`,
        `How many species were in MSL${r.msl} - the ${other} one?`, `how many species were in ${other}'s MSL${r.msl}?`, `How many species were recognised in MSL${r.msl}?`,
        `How many species did the ${other} release, MSL${r.msl}, have?`, `How many species were listed in MSL${r.msl}, released in ${other}?`, `How many species were in MSL${r.msl} of ${other}?`]) {
        const a = await ask(q);
        expect(a.status, `${q}: ${a.response}`).to.equal('answered');
        expect(a.understood.releases, q).to.deep.equal([`MSL${r.msl}`]);
        expect(a.response, q).to.include(grouped(r.species));
      }
    }
  });

  it('answers a release named by its place in words', async () => {
    const all = await releases();
    for (const r of all.filter((x) => x.msl <= ORDINALS.length)) {
      const a = await ask(`How many genera were listed in the ${ORDINALS[r.msl - 1]} release?`);
      expect(a.understood.releases, a.response).to.deep.equal([`MSL${r.msl}`]);
      expect(a.response).to.include(grouped(r.genera));
    }
    const latest = all[all.length - 1]!;
    for (const q of ['How many species are in the current release?', 'how many species are there now', 'How many species does the latest list have?']) {
      expect((await ask(q)).response, q).to.include(grouped(latest.species));
    }
  });

  it('declines a release named two ways that disagree, naming both and what each names', async () => {
    const all = await releases();
    const single = all.filter((r) => all.filter((x) => x.year === r.year).length === 1);
    for (let i = 0; i + 5 < single.length; i += 3) {
      const [a, b] = [single[i + 5]!, single[i]!];
      for (const q of [`How many species were in MSL${a.msl} (${b.year})?`, `How many species were in MSL${a.msl}/${b.year}?`, `how many species in MSL${a.msl} - the ${b.year} one`,
        `How many species were in ${b.year}'s MSL${a.msl}?`, `How many species were in MSL${a.msl} aka ${b.year}?`, `How many species did the ${b.year} release, MSL${a.msl}, have?`,
        `How many species were listed in MSL${a.msl}, released in ${b.year}?`, `How many species were in MSL${a.msl} published in ${b.year}?`]) {
        const res = await ask(q);
        expect(res.status, `${q}: ${res.response}`).to.equal('declined');
        expect(res.response).to.include(`MSL${a.msl}`).and.to.include(String(b.year)).and.to.include(`MSL${b.msl}`).and.to.include(String(a.year));
        expect(res.response).to.not.include(grouped(a.species));
      }
    }
  });

  it('reads two numbers or two years side by side as two releases, never as one named twice', async () => {
    const all = await releases();
    const [a, b] = [all[all.length - 3]!, all[all.length - 2]!];
    const res = await ask(`Compare MSL${a.msl}, MSL${b.msl}`);
    expect(res.status, res.response).to.equal('answered');
    expect(res.understood.releases).to.deep.equal([`MSL${a.msl}`, `MSL${b.msl}`]);
  });

  it('asks back for a year of several releases, naming each, and answers the two when asked together', async () => {
    const years = await real.db.all<{ year: number; labels: string[]; versions: string[] }>(`SELECT year::INTEGER AS year, list(label ORDER BY msl) AS labels,
      list('MSL' || msl ORDER BY msl) AS versions FROM src.releases GROUP BY year HAVING count(*) > 1 ORDER BY year`);
    expect(years.length).to.be.at.least(3);
    for (const y of years) {
      for (const q of [`How many species were there in ${y.year}?`, `What family was Tobacco mosaic virus in in ${y.year}?`, `compare ${y.year} and 2020`]) {
        const a = await ask(q);
        expect(a.status, `${q}: ${a.response}`).to.equal('clarify');
        for (const s of [...y.labels, ...y.versions]) expect(a.response, q).to.include(s);
      }
      const both = await ask(`How many species did the two ${y.year} releases have?`);
      expect(both.status).to.equal('answered');
      for (const s of y.labels) expect(both.response).to.include(s);
      expect((await ask(`which releases were published in ${y.year}?`)).status).to.equal('answered');
    }
  });

  it('gives the year a release was published, beside its label', async () => {
    for (const r of await releases()) {
      const a = await ask(`In what year was MSL${r.msl} released?`);
      expect(a.status).to.equal('answered');
      expect(a.response, a.response).to.match(new RegExp(`\\b${r.year}\\b`)).and.to.include(r.label);
    }
  });

  it('gives the current name of a species by the name it had in a release, from its identity chain', async () => {
    // species of the first release whose ICTV id reaches the latest release under another name
    const rows = await real.db.all<{ old: string; year: number; now: string }>(`SELECT o.species AS old, r.year::INTEGER AS year, any_value(n.species) AS now
      FROM src.species o JOIN src.releases r ON r.msl = o.msl JOIN src.species n ON n.ictv_id = o.ictv_id AND n.msl = $1
      WHERE o.msl = 1 AND n.species <> o.species AND NOT EXISTS (SELECT 1 FROM src.species x WHERE x.species = o.species AND x.ictv_id IS DISTINCT FROM o.ictv_id)
      GROUP BY ALL HAVING count(DISTINCT n.species) = 1 ORDER BY old LIMIT 12`, [real.latest.msl]);
    expect(rows.length).to.be.at.least(8);
    for (const r of rows) {
      for (const q of [`What is the current name of the species listed in ${r.year} as ${r.old}?`, `The species ${r.old} was listed in ${r.year}; what is it now?`,
        `${r.old} was in the ${r.year} list. What is it today?`]) {
        const a = await ask(q);
        expect(a.status, `${q}: ${a.response}`).to.equal('answered');
        expect(a.response, q).to.include(r.now);
      }
    }
  });

  it('gives the current name of a species asked in the words people use for now (modern, up-to-date, known as now, replaced)', async () => {
    // species of a recent release whose name the latest release changed, and only one species had
    const rows = await real.db.all<{ old: string; now: string }>(`SELECT o.species AS old, any_value(n.species) AS now FROM src.species o
      JOIN src.species n ON n.ictv_id = o.ictv_id AND n.msl = $1 WHERE o.msl = $1 - 4 AND n.species <> o.species
      AND NOT EXISTS (SELECT 1 FROM src.species x WHERE x.species = o.species AND x.ictv_id IS DISTINCT FROM o.ictv_id)
      GROUP BY ALL HAVING count(DISTINCT n.species) = 1 ORDER BY old LIMIT 4`, [real.latest.msl]);
    expect(rows.length).to.equal(4);
    for (const r of rows) {
      for (const q of [`What is the up-to-date name of ${r.old}?`, `What is the modern name of ${r.old}?`, `What is ${r.old} known as now?`,
        `Which name replaced ${r.old}?`, `What species name does ${r.old} go by today?`]) {
        const a = await ask(q);
        expect(a.status, `${q}: ${a.response}`).to.equal('answered');
        expect(a.response, q).to.include(r.now);
      }
    }
  });

  it('gives the name a renamed taxon had in a release before its rename, from the change lists', async () => {
    // renames the change lists record (ICTV's, from MSL38 on), of a taxon listed in the latest release under its new name
    const rows = await real.db.all<{ rank: string; old: string; now: string; msl: number }>(`SELECT t.rank, r.old_name AS old, r.new_name AS now, r.msl::INTEGER AS msl
      FROM main.taxon_change_list r JOIN src.taxa t ON t.name = r.new_name AND t.msl = $1 WHERE t.rank IN ('family', 'genus')
      AND (r.change = 'Renamed' OR r.change LIKE 'Renamed,%')
      AND EXISTS (SELECT 1 FROM src.taxa o WHERE o.name = r.old_name AND o.msl = r.msl - 2)
      AND NOT EXISTS (SELECT 1 FROM src.taxa x WHERE x.name = r.new_name AND x.msl < r.msl)
      AND (SELECT count(*) FROM main.taxon_change_list y WHERE y.new_name = r.new_name AND y.change LIKE 'Renamed%') = 1 ORDER BY r.new_name LIMIT 5`, [real.latest.msl]);
    expect(rows.length).to.equal(5);
    for (const r of rows) {
      const q = `What was the ${r.rank} ${r.now} called in MSL${r.msl - 2}?`;
      const a = await ask(q);
      expect(a.status, `${q}: ${a.response}`).to.equal('answered');
      expect(a.response, q).to.include(`In MSL${r.msl - 2}`).and.to.include(`the ${r.rank} ${r.old}.`);
    }
  });

  it('answers whether a species or a taxon was renamed or abolished with a yes or a no first, from the record', async () => {
    const renamed = await real.db.all<{ rank: string; old: string }>(`SELECT t.rank, r.old_name AS old FROM main.taxon_change_list r JOIN src.taxa t ON t.name = r.old_name
      AND t.msl = r.msl - 1 WHERE t.rank IN ('family', 'genus') AND r.change = 'Renamed' AND NOT EXISTS (SELECT 1 FROM src.taxa x WHERE x.name = r.old_name AND x.msl >= r.msl)
      ORDER BY r.old_name LIMIT 3`);
    const current = await real.db.all<{ rank: string; name: string }>(`SELECT rank, name FROM src.taxa WHERE msl = $1 AND rank IN ('family', 'genus')
      AND name IN (SELECT name FROM src.taxa WHERE msl = $1 - 6) ORDER BY name LIMIT 3`, [real.latest.msl]);
    const species = await real.db.all<{ old: string; kept: string }>(`SELECT o.species AS old, (SELECT k.species FROM src.species k WHERE k.msl = $1 - 8
        AND (SELECT count(DISTINCT y.species) FROM src.species y WHERE y.ictv_id = k.ictv_id) = 1 ORDER BY k.species LIMIT 1) AS kept
      FROM src.species o JOIN src.species n ON n.ictv_id = o.ictv_id AND n.msl = $1 WHERE o.msl = $1 - 1 AND n.species <> o.species
      AND NOT EXISTS (SELECT 1 FROM src.species x WHERE x.species = o.species AND x.ictv_id IS DISTINCT FROM o.ictv_id) ORDER BY o.species LIMIT 1`, [real.latest.msl]);
    expect(renamed.length).to.equal(3);
    expect(current.length).to.equal(3);
    const cases: Array<[string, 'Yes' | 'No']> = [
      ...renamed.map((r) => [`Has the ${r.rank} ${r.old} been renamed?`, 'Yes'] as [string, 'Yes']),
      ...current.map((r) => [`Was the ${r.rank} ${r.name} abolished?`, 'No'] as [string, 'No']),
      [`Was ${species[0]!.old} ever renamed?`, 'Yes'], [`Was ${species[0]!.kept} ever renamed?`, 'No'],
    ];
    for (const [q, yn] of cases) {
      const a = await ask(q);
      expect(a.status, `${q}: ${a.response}`).to.equal('answered');
      expect(a.response.split(':')[0], `${q}: ${a.response}`).to.equal(yn);
    }
  });

  it('says whether a species name was listed in a release, yes or no, from the release\'s list', async () => {
    const rows = await real.db.all<{ species: string; first: number }>(`SELECT species, min(msl)::INTEGER AS first FROM src.species GROUP BY species
      HAVING min(msl) > 5 AND max(msl) - min(msl) > 3 AND count(DISTINCT ictv_id) = 1 ORDER BY species LIMIT 4`);
    expect(rows.length).to.equal(4);
    for (const r of rows) {
      for (const [q, yn] of [[`Was ${r.species} listed in MSL${r.first}?`, 'Yes'], [`Did the species ${r.species} exist in MSL${r.first - 1}?`, 'No']] as const) {
        const a = await ask(q);
        expect(a.status, `${q}: ${a.response}`).to.equal('answered');
        expect(a.response.split(':')[0], `${q}: ${a.response}`).to.equal(yn);
      }
    }
  });

  it('answers whether a release is the latest or the first, yes or no, never declining the two names as a conflict', async () => {
    const all = await releases();
    const [first, last, other] = [all[0]!, all[all.length - 1]!, all[all.length - 2]!];
    for (const [q, yn, says] of [[`Is MSL${last.msl} the latest release?`, 'Yes', `MSL${last.msl}`], [`Is MSL${other.msl} the latest release?`, 'No', `MSL${last.msl}`],
      [`Was MSL${first.msl} the first list?`, 'Yes', `MSL${first.msl}`], [`Is MSL${first.msl + 1} the first release?`, 'No', `MSL${first.msl}`]] as const) {
      const a = await ask(q);
      expect(a.status, `${q}: ${a.response}`).to.equal('answered');
      expect(a.response.split(':')[0], q).to.equal(yn);
      expect(a.response, q).to.include(says);
    }
  });

  it('answers whether a release had more or fewer species than a number, yes or no, by its count', async () => {
    for (const r of (await releases()).filter((x) => x.msl % 7 === 3)) {
      for (const [q, yes] of [[`Were there more than ${r.species - 1} species in MSL${r.msl}?`, true], [`Did MSL${r.msl} have fewer than ${r.species} species?`, false]] as const) {
        const a = await ask(q);
        expect(a.status, `${q}: ${a.response}`).to.equal('answered');
        expect(a.response, q).to.match(yes ? /^Yes: / : /^No: /).and.to.include(grouped(r.species));
      }
    }
  });

  it('names the first taxa of each rank as the record first used it', async () => {
    const ranks = await real.db.all<{ rank: string; msl: number; names: string[] }>(`WITH f AS (SELECT rank, min(msl) AS msl FROM src.taxa WHERE rank IN ('order', 'realm', 'class', 'phylum', 'kingdom') GROUP BY rank)
      SELECT f.rank, f.msl::INTEGER AS msl, list(DISTINCT t.name) AS names FROM f JOIN src.taxa t ON t.msl = f.msl AND t.rank = f.rank GROUP BY ALL`);
    for (const r of ranks) {
      const a = await ask(`Which was the first ${r.rank} recognised by ICTV?`);
      expect(a.status, a.response).to.equal('answered');
      expect(a.response).to.include(`MSL${r.msl}`);
      for (const n of r.names.slice(0, 10)) expect(a.response, r.rank).to.include(n);
    }
  });
});

describe('ICTV\'s own tallies of a release step', () => {
  const real = onRealApp();
  const ask = async (query: string): Promise<Body> => (await request(real.app).post('/ai/query').send({ query, use_cache: false }).expect(200)).body as Body;
  const steps = () => real.db.all<{ msl: number; prev: number; counts: Record<string, number> }>(`
    SELECT c.msl::INTEGER AS msl, (SELECT max(msl) FROM src.releases r WHERE r.msl < c.msl)::INTEGER AS prev,
           to_json(map_from_entries(list((c.change, abs(c.count)::INTEGER))))::VARCHAR AS counts
    FROM src.official_changes c WHERE c.rank = 'species' GROUP BY c.msl ORDER BY c.msl`).then((rows) => rows.map((r) => ({ ...r, counts: JSON.parse(r.counts as unknown as string) as Record<string, number> })));

  it('are in GET /api/v1/compare of each step ICTV counted, every difference from the data\'s own counts explained', async () => {
    const all = await steps();
    expect(all.length).to.be.at.least(4);
    for (const s of all) {
      const res = await request(real.app).get(`/api/v1/compare/MSL${s.prev}/MSL${s.msl}`).expect(200);
      const official = res.body.official as { tallies: Array<{ change: string; ictv: number; ours: number; differences: unknown[]; note: string | null }> };
      expect(Object.fromEntries(official.tallies.map((t) => [t.change, t.ictv]))).to.deep.equal(s.counts);
      for (const t of official.tallies) {
        if (t.ictv !== t.ours) expect(t.differences.length > 0 || (t.note ?? '').length > 0, `MSL${s.msl} ${t.change}`).to.equal(true);
      }
      // the summary's own counts are the lineages', as before
      const [diff] = await real.db.all<{ added: number; renamed: number }>('SELECT species_added::INTEGER AS added, species_renamed::INTEGER AS renamed FROM main.release_diff WHERE from_msl = $1 AND to_msl = $2', [s.prev, s.msl]);
      expect(res.body.species_added).to.equal(diff!.added);
      expect(official.tallies.find((t) => t.change === 'Renamed')!.ours).to.equal(diff!.renamed);
    }
    // only for the step read forwards
    expect((await request(real.app).get(`/api/v1/compare/MSL${all[0]!.msl}/MSL${all[0]!.prev}`).expect(200)).body).to.not.have.property('official');
    expect((await request(real.app).get(`/api/v1/compare/MSL${all[0]!.prev - 1}/MSL${all[0]!.msl}`).expect(200)).body).to.not.have.property('official');
  });

  it('are given beside the list when asked which species were new, renamed or abolished', async () => {
    for (const s of await steps()) {
      for (const [q, change] of [[`Which species were abolished in MSL${s.msl}?`, 'Abolished'], [`Which species were renamed in MSL${s.msl}?`, 'Renamed']] as const) {
        const a = await ask(q);
        expect(a.status, q).to.equal('answered');
        expect(a.response, q).to.include(`${s.counts[change]!.toLocaleString('en-US')} species`);
      }
    }
  });

  it('are quoted by /ai/query when asked how many species were new, renamed (or changed name) or abolished', async () => {
    for (const s of await steps()) {
      const counts = s.counts;
      for (const [q, change] of [[`How many new species were added in MSL${s.msl}?`, 'New'], [`How many species were renamed in MSL${s.msl}?`, 'Renamed'],
        [`How many species were abolished in MSL${s.msl}?`, 'Abolished'], [`How many new species were added in MSL${s.msl} compared with MSL${s.prev}?`, 'New'],
        [`How many species changed name in MSL${s.msl}?`, 'Renamed'], [`How many species names changed from MSL${s.prev} to MSL${s.msl}?`, 'Renamed']] as const) {
        const a = await ask(q);
        expect(a.status, q).to.equal('answered');
        expect(a.response, q).to.include(`ICTV's Taxon Counts sheet counts ${counts[change]!.toLocaleString('en-US')} species`);
      }
    }
  });

  it('are never given for one kind of change when two are asked at once, but a change of size still is', async () => {
    const [s] = (await steps()).slice(-1);
    for (const q of [`How many species were abolished or merged in MSL${s!.msl}?`, `How many species were renamed or moved in MSL${s!.msl}?`,
      `How many species were added and removed in MSL${s!.msl}?`, `What's new and what was removed in MSL${s!.msl}?`]) {
      const a = await ask(q);
      expect(a.status, `${q}: ${a.response}`).to.equal('not_understood');
      expect(a.response, q).to.include('two kinds of change at once');
    }
    const size = await ask(`Did MSL${s!.msl} gain or lose species against MSL${s!.prev}?`);
    expect(size.status, size.response).to.equal('answered');
  });
});

// Questions about what the data does not hold (mechanisms, disease, treatment, epidemiology, origins, tests):
// declined, saying what the service answers instead, never answered with a classification of the virus named.
const OUT_OF_SCOPE = [
  'how does SARS-CoV-2 get into human cells', 'How does HIV-1 enter T cells?', 'What receptor does influenza A virus use?',
  'How does measles virus replicate?', 'How does rabies virus travel to the brain?', 'What does the spike protein of SARS-CoV-2 do?',
  'How do bacteriophages inject their DNA?', 'How does hepatitis B virus integrate into the host genome?', 'Why do RNA viruses mutate so fast?',
  'How does Zika virus cross the placenta?', 'How does Epstein-Barr virus stay latent?', 'What is the mechanism of reverse transcription in HIV?',
  'Is hepatitis C curable?', 'What are the symptoms of dengue?', 'Does Zika virus cause microcephaly?', 'How dangerous is Nipah virus?',
  'What disease does variola virus cause?', 'Can HPV cause cervical cancer?', 'How long does measles last?', 'Is Ebola virus fatal?',
  'What is the incubation period of rabies?', 'Can you die from monkeypox?', 'Does Epstein-Barr virus cause mononucleosis?',
  'What organ does hepatitis B virus damage?', 'Is there a vaccine for chikungunya virus?', 'How is influenza treated?',
  'Which antiviral works against herpes simplex virus?', 'Can antibiotics kill viruses?', 'How effective is the measles vaccine?',
  'What drugs treat HIV-1?', 'How do I protect myself from West Nile virus?', 'Is there a cure for rabies after symptoms start?',
  'Should I get vaccinated against yellow fever before travelling?', 'How do I disinfect surfaces contaminated with norovirus?',
  'Which countries have eradicated rabies?', 'How many people die of influenza each year?', 'Where is Lassa virus endemic?',
  'How many people are infected with hepatitis B virus worldwide?', 'When did the COVID-19 pandemic start?', 'How fast does SARS-CoV-2 spread?',
  'What is the R0 of measles?', 'Which countries reported Marburg virus outbreaks?', 'Is dengue increasing in Europe?',
  'How many cases of polio were there last year?', 'Which continent has the most Ebola outbreaks?', 'What was the death toll of the 1918 influenza pandemic?',
  'Where did SARS-CoV-2 come from?', 'Did HIV originate in chimpanzees?', 'Who first described tobacco mosaic virus?', 'Will there be a new pandemic soon?',
  'How big is a poliovirus particle in nanometres?', 'What does Ebola virus look like under the microscope?', 'How long can norovirus survive on surfaces?',
  'Can mosquitoes transmit HIV?', 'How is Zika virus transmitted?', 'Can dogs catch SARS-CoV-2 from humans?', 'What is the mutation rate of influenza A virus?',
  'How many proteins does HIV-1 encode?', 'What is the structure of the SARS-CoV-2 spike?', 'How do I test for hepatitis C?',
  'Is it safe to eat meat from animals infected with foot-and-mouth disease virus?', 'What temperature kills avian influenza virus?',
  'Why is the Ebola virus so deadly?', 'How do bats carry so many viruses without getting sick?', 'What is the best PCR primer for detecting norovirus?',
  'How long is a person with measles contagious?', 'Which mosquito species spreads dengue virus?', 'What percentage of people infected with polio get paralysed?',
  'How does the immune system fight influenza?', 'Is SARS-CoV-2 airborne?', 'What is the survival rate of rabies?', 'How do I know if I have hepatitis B?',
  'Which vaccine schedule is recommended for HPV?', 'How did smallpox get eradicated?', 'What is the treatment for Lassa fever?', 'Does hand sanitizer kill norovirus?',
  'How does influenza virus enter a cell?', 'What receptor does SARS-CoV-2 use?', 'Is measles more contagious than flu?',
  'How many people die of rabies each year?', 'What is the mortality rate of Ebola?', 'Can dengue be treated?',
  'Is there a vaccine for Zika virus?', 'Why do cold viruses cause a runny nose?', 'Which animals carry hantavirus?',
  'What is the incubation period of smallpox?', 'How does HIV hide from the immune system?', 'Where did HIV originate?',
  'Who discovered the tobacco mosaic virus?', 'How is hepatitis B diagnosed?', 'What does a bacteriophage look like?',
  'How does herpes simplex virus become latent?', 'Is monkeypox a sexually transmitted infection?', 'How fast does influenza mutate?',
  'What is the best treatment for shingles?', 'How is polio spread?', 'What percentage of people have Epstein-Barr virus?',
  'Why is there no vaccine for HIV?', 'How dangerous is Marburg virus?', 'Can phages be used to treat bacterial infections?',
  'What is the genome sequence of SARS-CoV-2?', 'How big is a poxvirus particle?', 'What is the structure of the HIV capsid?',
  'How many people were infected by Zika in 2016?', 'What disease does varicella-zoster virus cause?',
  'What are the symptoms of dengue fever?', 'How long does immunity to measles last?', 'Can you get chickenpox twice?',
  'How do I protect myself from tick-borne encephalitis?', 'How does SARS-CoV-2 get into human cells?', 'How does HPV cause cancer?',
  'Can Ebola spread through the air?', 'Why do some viruses have envelopes?', 'How long does it take for rabies symptoms to appear?',
  'Do antibiotics work against viruses?', 'What temperature kills influenza virus?', 'Is norovirus airborne?',
  'How do retroviruses integrate into the host genome?', 'Which mosquito transmits yellow fever virus?',
  'What does the spike protein of coronavirus do?', 'Is it safe to eat chicken during bird flu?', 'How many deaths did the 1918 flu cause?',
  'When will the next pandemic happen?', 'How is HPV prevented?', 'How does a phage kill a bacterium?', 'Can pets catch SARS-CoV-2?',
  'Why is rhinovirus so common in winter?', 'What makes Nipah virus so deadly?', 'Is hepatitis E a zoonosis?',
  'What are the effects of dengue virus on the body?', 'Is rotavirus seasonal?', 'Where does Lassa virus occur?',
  'How do ticks pass Powassan virus on to people?', 'What is the risk of getting rabies from a bat bite?',
  'How are mosquito-borne viruses controlled in cities?', 'Is herpes linked to Alzheimer\'s disease?', 'Why does HIV mutate so quickly?',
  'How does hepatitis B virus damage the liver?', 'Can you catch norovirus twice?', 'What is the case fatality rate of MERS?',
  'How many people have HPV?', 'Does cooking kill hepatitis A virus?', 'Are phages harmful to humans?', 'Why do viruses make us sick?',
  'How does measles suppress the immune system?', 'What kills the tobacco mosaic virus?', 'How much does a rabies shot cost?',
  'Why is Ebola so hard to contain?', 'What is herd immunity for measles?',
  'how contagious is chickenpox', 'norovirus how long contagious', 'Does the flu shot protect against all influenza viruses?',
  'What is the host range of rabies virus in the wild, and which species spread it most?', 'What is the size of the HIV epidemic in Africa?',
  'Is Zika virus dangerous for pregnant women?', 'Is herpes zoster caused by varicella-zoster virus?', 'Can HPV cause throat cancer?',
  'What causes warts?', 'Which virus causes the common cold?', 'What virus causes hand, foot and mouth disease?', 'Is monkeypox deadly?',
  'Is chikungunya fatal?', 'What is the mechanism of action of oseltamivir?', 'How fast does SARS-CoV-2 replicate?',
  'How many virions does a cell release?', 'Why did the 2009 swine flu spread so quickly?', 'How many people get dengue each year?',
  'How is rabies diagnosed in animals?', 'What\'s the survival rate for Ebola?', 'Can you get HIV from kissing?',
  'Can mosquitoes spread HIV?', 'Are bats immune to rabies?', 'How long do antibodies against SARS-CoV-2 last?',
  'How do oncolytic viruses kill tumours?', 'What is gene therapy with AAV?', 'Is adenovirus used in vaccines?',
  'Where was Zika virus first isolated?', 'How old is the herpesvirus family?', 'When did HIV diverge from SIV?',
  'What is the closest relative of SARS-CoV-2?', 'What is the ancestor of smallpox virus?', 'Should I be worried about bird flu?',
  'How do you pronounce Orthoflavivirus?', 'What is the phylogeny of coronaviruses?', 'How much does an HPV vaccine cost?',
  'What is the etymology of Ebola?',
  'How stable is SARS-CoV-2 in air?', 'How many strains of influenza are there?', 'How many serotypes of dengue exist?',
  'Which flu strain is circulating this year?', 'How big is the influenza virus?', 'What does hantavirus do to the body?',
  "What's the difference between a virus and a bacterium?", 'How fast does influenza evolve?', 'Is polio still around?',
];

describe('POST /ai/query outside the data', () => {
  const real = onRealApp();

  it(`declines all ${OUT_OF_SCOPE.length} questions about mechanisms, disease, treatment and epidemiology, saying what it answers`, async () => {
    expect(OUT_OF_SCOPE.length).to.be.at.least(60);
    const answered: string[] = [];
    for (const q of OUT_OF_SCOPE) {
      const a = (await request(real.app).post('/ai/query').send({ query: q, use_cache: false }).expect(200)).body as Body;
      if (a.status !== 'declined') answered.push(`${q} -> ${a.status}: ${a.response.slice(0, 120)}`);
      else expect(a.response, q).to.include('This service answers questions about the ICTV virus taxonomy');
    }
    expect(answered).to.deep.equal([]);
  });

  it('still answers taxonomy questions whose words are near those of the topics declined (found in, most, infect)', async () => {
    const [top] = await real.db.all<{ family: string; msl: number }>(`SELECT family, msl FROM src.species WHERE msl = (SELECT max(msl) FROM src.species)
      AND family IS NOT NULL GROUP BY family, msl ORDER BY count(*) DESC LIMIT 1`);
    for (const [q, fact] of [[`Which family has the most species in MSL${top!.msl}?`, top!.family], ['Is West Nile virus found in invertebrates?', 'Yes'],
      ['Which families of viruses infect plants?', 'plants'], ['What is the host of tobacco mosaic virus?', 'plants']] as const) {
      const a = (await request(real.app).post('/ai/query').send({ query: q, use_cache: false }).expect(200)).body as Body;
      expect(a.status, `${q}: ${a.response}`).to.equal('answered');
      expect(a.response, q).to.include(fact);
    }
  });

  it('still answers taxonomy questions whose names hold such words (a name is not a topic)', async () => {
    // names of a release before binomial names, holding words of the topics declined
    const rows = await real.db.all<{ species: string; family: string }>(`SELECT species, family FROM src.species WHERE msl = 30 AND family IS NOT NULL
      AND regexp_matches(lower(species), '(lethal|death|necrosis|disease|syndrome|cancer|tumou?r|immunodeficiency|mortality)') ORDER BY species LIMIT 10`);
    expect(rows.length).to.be.at.least(6);
    for (const r of rows) {
      const a = (await request(real.app).post('/ai/query').send({ query: `What family was ${r.species} in in MSL30?`, use_cache: false }).expect(200)).body as Body;
      expect(a.status, `${r.species}: ${a.response}`).to.equal('answered');
      expect(a.response).to.include(r.family);
    }
  });
});

// One resolution behind every endpoint: each kind of input (names in every spelling, former names, merged
// names, VMR virus names and abbreviations, accessions, taxids, ICTV and taxnode ids, higher taxa), drawn from
// the real data, leads to the same taxon on every endpoint that answers for a name; the expected taxon comes from
// the read models (lineage_summary, identifier_index), not from the resolver. And 200 former names of every rank
// and era get the same current taxon from /api/v1/history, /api/v1/resolve and /taxonomy/species.
import { expect } from 'chai';
import request from 'supertest';
import { misspell, random } from './support/misspellings.js';
import { onRealApp } from './support/http.js';

interface Case { kind: string; input: string; expected: string; rank: string }

/**
 * The stem of an abbreviation in name_index (column name) as SQL: the rule of src/read/abbreviation-stems.ts
 * spelt again, so that what the stem tests expect comes from the data, not from the resolver's code.
 */
const STEM = "regexp_extract(name, '^(.*[A-Za-z])(?:[-_ ]?[0-9]+[a-z]?|-[A-Z])$', 1)";

describe('one resolution on every endpoint (real data)', () => {
  const real = onRealApp();
  const cases: Case[] = [];

  before(async () => {
    const one = async (kind: string, sql: string, rank = 'species') => {
      const [row] = await real.db.all<{ input: string; expected: string }>(sql, sql.includes('$1') ? [real.latest.msl] : []);
      if (!row) throw new Error(`no ${kind} case in the data`);
      cases.push({ kind, input: row.input, expected: row.expected, rank });
    };
    // names whose normal form leads to one lineage only, so the expected taxon is not a choice between several
    const single = `(SELECT count(*) FROM main.name_index x WHERE x.name_norm = n.name_norm) = 1`;
    const current = `(SELECT current_name FROM main.lineage_summary l WHERE l.lineage_id = i.lineage_id)`;
    await one('exact', 'SELECT species AS input, species AS expected FROM src.species WHERE msl = $1 ORDER BY hash(species) LIMIT 1');
    await one('case_diacritics', 'SELECT upper(species) AS input, species AS expected FROM src.species WHERE msl = $1 ORDER BY hash(species) LIMIT 1');
    await one('normalised', "SELECT replace(species, ' ', '-') AS input, species AS expected FROM src.species WHERE msl = $1 AND species LIKE '% %' ORDER BY hash(species) LIMIT 1");
    await one('former_name', `SELECT n.name AS input, n.current_name AS expected FROM main.name_index n
      WHERE n.kind = 'species' AND n.current_name IS NOT NULL AND name_norm(n.current_name) <> n.name_norm AND ${single}
        AND list_max(n.species_msls) < $1 ORDER BY hash(n.name) LIMIT 1`);
    await one('merged', `SELECT l.names[-1] AS input, t.current_name AS expected
      FROM main.lineage_summary l
      JOIN main.species_identity si ON si.msl = l.last_msl + 1 AND si.species = l.merged_into[1]
      JOIN main.lineage_summary t ON t.lineage_id = si.lineage_id
      JOIN main.name_index n ON n.name_norm = name_norm(l.names[-1])
      WHERE l.ended = 'merged' AND t.current_name IS NOT NULL AND ${single} ORDER BY hash(l.lineage_id) LIMIT 1`);
    for (const kind of ['virus_name', 'abbreviation']) {
      await one(kind, `SELECT n.name AS input, n.current_name AS expected FROM main.name_index n
        WHERE n.kind = '${kind}' AND n.current_name IS NOT NULL AND n.last_msl = $1 AND ${single}
          AND name_norm(n.current_name) <> n.name_norm ORDER BY hash(n.name) LIMIT 1`);
    }
    for (const [kind, prefix] of [['accession', ''], ['taxid', 'txid'], ['ictv_id', 'ICTV'], ['taxnode_id', '']] as const) {
      await one(kind, `SELECT '${prefix}' || i.id_key AS input, ${current} AS expected FROM main.identifier_index i
        WHERE i.kind = '${kind}' AND i.rank = 'species' AND ${current} IS NOT NULL
          AND (SELECT count(DISTINCT (x.rank = 'species', x.lineage_id)) FROM main.identifier_index x WHERE x.id_key = i.id_key) = 1
          AND (SELECT count(*) FROM main.name_index x WHERE x.name_norm = name_norm('${prefix}' || i.id_key)) = 0
          ${kind === 'taxnode_id' ? 'AND i.first_msl < $1 - 5' : 'AND i.last_msl = $1'}
        ORDER BY hash(i.id_key) LIMIT 1`);
    }
    await one('genus', `SELECT name AS input, name AS expected FROM main.taxon_lineage WHERE msl = $1 AND rank = 'genus' ORDER BY hash(name) LIMIT 1`, 'genus');
    const [renamed] = await real.db.all<{ input: string; expected: string; rank: string }>(`
      SELECT f.name AS input, l.name AS expected, l.rank
      FROM main.taxon_lineage l
      JOIN main.taxon_lineage f ON f.taxon_id = l.taxon_id AND f.name <> l.name AND f.rank = l.rank
      JOIN main.name_index n ON n.name_norm = name_norm(f.name)
      WHERE l.msl = $1 AND l.rank = 'family' AND ${single}
      ORDER BY hash(f.name) LIMIT 1`, [real.latest.msl]);
    cases.push({ kind: 'former family', ...renamed! });
  });

  /** POST /api/v1/resolve of any number of names, in batches of the most one request takes; the results in order. */
  async function resolveAll(names: string[], options: Record<string, string> = {}): Promise<Array<{ name: string; status: string; results: string[]; note: string | null }>> {
    const out = [];
    for (let i = 0; i < names.length; i += 10_000) {
      const res = (await request(real.app).post('/api/v1/resolve').send({ names: names.slice(i, i + 10_000), ...options }).expect(200)).body;
      out.push(...(res.results as Array<{ name: string; status: string; results: string[]; note: string | null }>));
    }
    return out;
  }

  it('draws a case of every kind of input from the data', () => {
    expect(cases.map((c) => c.kind)).to.deep.equal(['exact', 'case_diacritics', 'normalised', 'former_name', 'merged', 'virus_name',
      'abbreviation', 'accession', 'taxid', 'ictv_id', 'taxnode_id', 'genus', 'former family']);
  });

  it('resolves each to the expected taxon on /api/v1/resolve, /history, /species, /taxonomy, /taxonomy/species and /ai', async () => {
    const app = real.app;
    for (const c of cases) {
      const what = `${c.kind} '${c.input}'`;
      const path = encodeURIComponent(c.input);
      const resolved = (await request(app).get('/api/v1/resolve').query({ name: c.input }).expect(200)).body;
      expect(resolved.results, `${what}: /api/v1/resolve`).to.deep.equal([c.expected]);
      expect(resolved.rank, what).to.equal(c.rank);
      if (!['former_name', 'merged', 'former family'].includes(c.kind)) {
        expect(resolved.match_type, what).to.equal(c.kind === 'genus' ? 'exact' : c.kind);
      }
      const history = (await request(app).get(`/api/v1/history/${path}`).expect(200)).body;
      expect(history.current_names, `${what}: /api/v1/history`).to.deep.equal([c.expected]);
      expect(history.current_name, `${what}: /api/v1/history current_name`).to.equal(c.expected);
      const taxonomy = await request(app).get(`/taxonomy/species/${path}`);
      if (c.rank === 'species') {
        expect(taxonomy.status, what).to.equal(200);
        expect(taxonomy.body.scientific_name, `${what}: /taxonomy/species`).to.equal(c.expected);
        const v1 = (await request(app).get(`/api/v1/species/${real.latest.version}/${path}`).expect(200)).body;
        expect(v1.scientific_name, `${what}: /api/v1/species`).to.equal(c.expected);
        const ai = (await request(app).post('/ai/classify').send({ organism_name: c.input }).expect(200)).body;
        expect(ai.species, `${what}: /ai/classify`).to.equal(c.expected);
        // a bare number in a question is a release, a year or a count: an id is asked for with its kind
        const word = c.kind === 'taxnode_id' ? `taxnode:${c.input}` : c.input;
        const asked = (await request(app).post('/ai/query').send({ query: `What is ${word} called now?`, use_cache: false }).expect(200)).body;
        expect(asked.intent, `${what}: /ai/query`).to.equal('current_name');
        expect(asked.data.current_names, `${what}: /ai/query`).to.deep.equal([c.expected]);
      } else {
        expect(taxonomy.status, what).to.equal(404);
        expect(taxonomy.body.fate.current_names, `${what}: /taxonomy/species`).to.deep.equal([c.expected]);
        const listing = (await request(app).get(`/api/v1/taxonomy/${real.latest.version}/${c.rank}/${path}`).expect(200)).body;
        expect(listing.name, `${what}: /api/v1/taxonomy`).to.equal(c.expected);
      }
    }
  });

  it('gives 200+ former names of every rank and era the same current taxon on /history, /resolve and /taxonomy/species', async () => {
    // former names: official names of a taxon that are not its name in the latest release; by era of first
    // use and by rank (species, or any higher rank), up to 26 species and 9 higher taxa per era
    const names = await real.db.all<{ name: string; era: number; higher: boolean }>(`
      SELECT name, era, higher FROM (
        SELECT n.name, n.kind = 'taxon' AS higher,
               CASE WHEN n.first_msl <= 17 THEN 1 WHEN n.first_msl <= 22 THEN 2 WHEN n.first_msl <= 28 THEN 3
                    WHEN n.first_msl <= 34 THEN 4 WHEN n.first_msl <= 38 THEN 5 ELSE 6 END AS era,
               row_number() OVER (PARTITION BY era, higher ORDER BY hash(n.name)) AS pick
        FROM main.name_index n
        WHERE n.kind IN ('species', 'taxon') AND (n.current_name IS NULL OR name_norm(n.current_name) <> n.name_norm))
      WHERE pick <= CASE WHEN higher THEN 9 ELSE 26 END
      ORDER BY era, higher, name`);
    expect(names.length).to.be.at.least(200);
    expect(names.filter((n) => n.higher).length).to.be.at.least(40);
    expect(new Set(names.map((n) => n.era)).size).to.equal(6);
    let merged = 0;
    for (const { name } of names) {
      const path = encodeURIComponent(name);
      const resolved = (await request(real.app).get('/api/v1/resolve').query({ name }).expect(200)).body;
      const history = (await request(real.app).get(`/api/v1/history/${path}`).expect(200)).body;
      const taxonomy = await request(real.app).get(`/taxonomy/species/${path}`);
      const shown = taxonomy.status === 200 ? [taxonomy.body.scientific_name, ...taxonomy.body.also_matches] : taxonomy.body.fate.current_names;
      expect(history.current_names, `${name}: /history vs /resolve`).to.deep.equal(resolved.results);
      expect([...shown].sort(), `${name}: /taxonomy/species vs /resolve`).to.deep.equal([...resolved.results].sort());
      if (resolved.status === 'merged' && resolved.results.length === 1) {
        merged += 1;
        expect(history.current_name, `${name}: merged, current_name`).to.equal(resolved.results[0]);
      }
    }
    expect(merged).to.be.greaterThan(0);
  });

  it('resolves every renamed, merged, split and removed species of a step as compare details list it', async () => {
    for (const [from, to] of [['MSL38', 'MSL39'], ['MSL24', 'MSL25'], ['MSL17', 'MSL18']]) {
      const rows: Array<{ change_type: string; old_name: string; new_name: string | null }> = [];
      for (const type of ['renamed', 'merged', 'split', 'removed']) {
        const page = (await request(real.app).get(`/api/v1/compare/${from}/${to}/details`).query({ change_type: type, limit: 1000 }).expect(200)).body;
        rows.push(...page.changes);
      }
      expect(rows.length, `${from}->${to}`).to.be.greaterThan(20);
      const olds = [...new Set(rows.map((r) => r.old_name))];
      const res = (await request(real.app).post('/api/v1/resolve').send({ names: olds, from_version: from, to_version: to }).expect(200)).body;
      const byName = new Map((res.results as Array<{ name: string; status: string; results: string[] }>).map((r) => [r.name, r]));
      let ambiguous = 0;
      for (const row of rows) {
        const r = byName.get(row.old_name)!;
        if (r.status === 'ambiguous' && (ambiguous += 1)) continue; // a name of two species of that release
        if (row.change_type === 'removed') expect(r.status, `${from}->${to} ${row.old_name}`).to.equal('abolished');
        else expect(r.results, `${from}->${to} ${row.change_type} ${row.old_name}`).to.include(row.new_name);
      }
      expect(ambiguous, `${from}->${to}`).to.be.at.most(rows.length / 100);
    }
  });

  it('says where a merged species lives now, as compare details do (Canine coronavirus)', async () => {
    const [row] = await real.db.all<{ into: string; msl: number }>(`
      SELECT merged_into[1] AS into, (last_msl + 1)::INTEGER AS msl FROM main.lineage_summary WHERE 'Canine coronavirus' = ANY(names)`);
    const detail = (await request(real.app).get(`/api/v1/compare/MSL${row!.msl - 1}/MSL${row!.msl}/details`).query({ change_type: 'merged', limit: 1000 }).expect(200)).body;
    expect(detail.changes.find((c: { old_name: string }) => c.old_name === 'Canine coronavirus').new_name).to.equal(row!.into);
    const history = (await request(real.app).get('/api/v1/history/Canine%20coronavirus').expect(200)).body;
    const resolved = (await request(real.app).get('/api/v1/resolve?name=Canine%20coronavirus').expect(200)).body;
    expect(resolved.status).to.equal('merged');
    expect(resolved.chain[0]).to.include({ change: 'merged', to_name: row!.into, version: `MSL${row!.msl}` });
    expect(history.current_name).to.equal(resolved.results[0]).and.to.be.a('string');
  });

  it('shows every lineage a name stood for in its history, and where its latest meaning is now (Zika virus)', async () => {
    const lineages = await real.db.all<{ lineage_id: string; current_name: string | null }>(`
      SELECT DISTINCT l.lineage_id, l.current_name FROM main.species_identity si JOIN main.lineage_summary l USING (lineage_id)
      WHERE si.species = 'Zika virus' ORDER BY l.lineage_id`);
    expect(lineages.length).to.equal(2);
    const history = (await request(real.app).get('/api/v1/history/Zika%20virus').expect(200)).body;
    expect(history.lineages.map((l: { lineage_id: number }) => String(l.lineage_id)).sort()).to.deep.equal(lineages.map((l) => l.lineage_id).sort());
    const now = lineages.find((l) => l.current_name)!.current_name;
    expect(history.current_name).to.equal(now);
    const resolved = (await request(real.app).get('/api/v1/resolve?name=Zika%20virus').expect(200)).body;
    expect(resolved.results).to.deep.equal([now]);
  });

  it('lets an exact spelling win over one that only normalises the same (Shigella virus SHBML-50-1)', async () => {
    const variants = await real.db.all<{ species: string }>(`
      SELECT DISTINCT species FROM src.species WHERE name_norm(species) = name_norm('Shigella virus SHBML-50-1') ORDER BY species`);
    expect(variants.map((v) => v.species)).to.include.members(['Shigella virus SHBML-50-1', 'Shigella virus SHBML501']);
    for (const name of variants.map((v) => v.species)) {
      const history = (await request(real.app).get(`/api/v1/history/${encodeURIComponent(name)}`).expect(200)).body;
      expect(history.matched_name).to.equal(name);
      expect(history.lineages).to.have.length(1);
      expect(history.lineages[0].names).to.include(name);
      const resolved = (await request(real.app).get('/api/v1/resolve').query({ name }).expect(200)).body;
      expect(resolved.status).to.not.equal('ambiguous');
      expect(resolved.matched_name).to.equal(name);
    }
  });

  it('follows a species split off a lineage that carried on, as compare details list it (Amdoparvovirus carnivoran1 from MSL38)', async () => {
    const detail = (await request(real.app).get('/api/v1/compare/MSL38/MSL39/details').query({ change_type: 'split', limit: 1000 }).expect(200)).body;
    const offs = detail.changes.filter((c: { old_name: string }) => c.old_name === 'Amdoparvovirus carnivoran1').map((c: { new_name: string }) => c.new_name);
    expect(offs.length).to.be.greaterThan(0);
    const resolved = (await request(real.app).get('/api/v1/resolve').query({ name: 'Amdoparvovirus carnivoran1', from_version: 'MSL38', to_version: 'MSL39' }).expect(200)).body;
    expect(resolved.status).to.equal('split');
    expect(resolved.results[0]).to.equal('Amdoparvovirus carnivoran1');
    expect(resolved.results.slice(1).sort()).to.deep.equal([...offs].sort());
    expect(resolved.chain.filter((c: { change: string }) => c.change === 'split').map((c: { to_name: string }) => c.to_name).sort()).to.deep.equal([...offs].sort());
  });

  it('answers an abolished order with where its species and families went (Caudovirales from MSL36)', async () => {
    const resolved = (await request(real.app).get('/api/v1/resolve').query({ name: 'Caudovirales', from_version: 'MSL36' }).expect(200)).body;
    const families = await real.db.all<{ name: string }>("SELECT name FROM src.taxa WHERE msl = 36 AND rank = 'family' AND \"order\" = 'Caudovirales' ORDER BY name");
    expect(resolved).to.include({ status: 'abolished', rank: 'order', match_type: 'exact' });
    expect(resolved.chain).to.deep.equal([{ version: 'MSL37', change: 'abolished', from_name: 'Caudovirales', to_name: null, proposal: null }]);
    expect(resolved.members.filter((m: { rank: string }) => m.rank === 'family').map((m: { name: string }) => m.name)).to.deep.equal(families.map((f) => f.name));
    const myo = resolved.members.find((m: { name: string }) => m.name === 'Myoviridae');
    expect(myo).to.include({ status: 'abolished' });
    const species36 = await real.db.count("SELECT count(*)::INTEGER AS n FROM src.species WHERE msl = 36 AND \"order\" = 'Caudovirales'");
    const went = resolved.destinations.reduce((n: number, d: { species: number }) => n + d.species, 0);
    const abolished = await real.db.count(`SELECT count(*)::INTEGER AS n FROM main.species_transition t JOIN src.species s ON s.taxnode_id = t.from_taxnode
      WHERE t.to_msl = 37 AND s.msl = 36 AND s."order" = 'Caudovirales' AND t.change = 'abolished'`);
    expect(went + abolished).to.equal(species36);
    expect(resolved.destinations[0]).to.include({ rank: 'class', name: 'Caudoviricetes' });
  });

  it('gives the same 404 text and suggestions for an unknown name on every endpoint that takes a name', async () => {
    const name = 'Tobamovirus tabacci';
    const paths = [`/api/v1/species/${real.latest.version}/`, '/api/v1/history/', `/api/v1/taxonomy/${real.latest.version}/genus/`,
      '/taxonomy/species/', '/taxonomy/family/', '/historical/family/{}/evolution', '/historical/species/{}/history',
      '/search/family/{}/summary', '/ai/stability/'];
    const bodies = [];
    for (const p of paths) {
      const url = p.includes('{}') ? p.replace('{}', encodeURIComponent(name)) : p + encodeURIComponent(name);
      bodies.push((await request(real.app).get(url).expect(404)).body as { detail: string; suggestions: string[] });
    }
    const resolved = (await request(real.app).get('/api/v1/resolve').query({ name }).expect(200)).body;
    expect(resolved).to.include({ status: 'unknown', match_type: 'fuzzy', confidence: 0 });
    expect(resolved.suggestions[0]).to.equal('Tobamovirus tabaci');
    for (const b of bodies) {
      expect(b.detail).to.equal(bodies[0]!.detail);
      expect(b.suggestions).to.deep.equal(resolved.suggestions);
    }
    expect(bodies[0]!.detail).to.contain("did you mean 'Tobamovirus tabaci'");
  });

  it('suggests the name meant first for >= 90% of 300 misspelt real names, and answers none of them as a known name', async () => {
    const names = (await real.db.all<{ name: string }>(`
      SELECT name FROM main.name_index WHERE kind IN ('species', 'taxon', 'virus_name') AND name_len >= 6 ORDER BY name, lineage_id`)).map((r) => r.name);
    const rnd = random(14);
    const typos: Array<{ text: string; meant: string }> = [];
    while (typos.length < 300) {
      const meant = names[Math.floor(rnd() * names.length)]!;
      const text = misspell(meant, 1 + Math.floor(rnd() * 2), rnd);
      const known = await real.db.count('SELECT count(*)::INTEGER AS n FROM main.name_index WHERE name_norm = name_norm($1)', [text]);
      if (known === 0 && /[a-z0-9]{3}/i.test(text)) typos.push({ text, meant });
    }
    const res = (await request(real.app).post('/api/v1/resolve').send({ names: typos.map((t) => t.text) }).expect(200)).body;
    const results = res.results as Array<{ status: string; suggestions: string[]; match_type: string | null }>;
    expect(results.filter((r) => r.status !== 'unknown')).to.deep.equal([]);
    // the first suggestion is right when it is a name of the same taxon as the name meant
    let right = 0;
    for (const [i, r] of results.entries()) {
      if (r.suggestions.length === 0) continue;
      right += await real.db.count(`SELECT count(*)::INTEGER AS n FROM main.name_index a JOIN main.name_index b
        ON a.lineage_id = b.lineage_id AND (a.kind = 'taxon') = (b.kind = 'taxon')
        WHERE a.name_norm = name_norm($1) AND b.name_norm = name_norm($2)`, [r.suggestions[0]!, typos[i]!.meant]) > 0 ? 1 : 0;
    }
    expect(right / typos.length).to.be.at.least(0.9);
    expect(results.every((r) => r.match_type === (r.suggestions.length > 0 ? 'fuzzy' : null))).to.equal(true);
  });

  it("answers every virus name and abbreviation of the latest release that leads to one lineage with that lineage's species there", async () => {
    // the expected species from species_identity (the lineage's species in the release), not from the resolver
    const rows = await real.db.all<{ name: string; species: string }>(`
      SELECT n.name, s.species
      FROM main.name_index n JOIN main.species_identity s ON s.lineage_id = n.lineage_id AND s.msl = $1
      WHERE n.kind IN ('virus_name', 'abbreviation') AND n.last_msl = $1
        AND (SELECT count(*) FROM main.name_index x WHERE x.name_norm = n.name_norm) = 1
      ORDER BY n.name`, [real.latest.msl]);
    expect(rows.length).to.be.greaterThan(1000);
    const resolved = await resolveAll(rows.map((r) => r.name), { to_version: 'latest' });
    const wrong = rows.flatMap(({ species }, k) => {
      const r = resolved[k]!;
      return r.status === 'unchanged' && r.results.length === 1 && r.results[0] === species ? [] : [`${r.name}: ${r.status} ${r.results.join(', ')}, not ${species}`];
    });
    expect(wrong.slice(0, 5), `${wrong.length} of ${rows.length}`).to.deep.equal([]);
  });

  it('reads an abbreviation no list holds as the beginning of those the VMR lists with a type (DENV of DENV-1..4), and says so', async () => {
    // the stems and the species of their abbreviations from name_index and species_identity, not the resolver:
    // every stem of the latest release's typed abbreviations whose normal form is no name of any kind; a stem
    // spelt two ways ("AAV" of AAV1, "AaV" of AaV1) means, written one way, the abbreviations spelt so
    const groups = await real.db.all<{ stem: string; species: string[] }>(`
      WITH a AS (SELECT name, lineage_id, last_msl, ${STEM} AS stem
                 FROM main.name_index WHERE kind = 'abbreviation'),
      g AS (SELECT name_norm(stem) AS norm, min(stem) AS stem FROM a WHERE length(stem) >= 2 GROUP BY 1
            HAVING bool_and(last_msl = $1) AND NOT EXISTS (SELECT 1 FROM main.name_index x WHERE x.name_norm = name_norm(min(stem))))
      SELECT g.stem, list(DISTINCT s.species ORDER BY s.species) AS species
      FROM g JOIN a ON name_norm(a.stem) = g.norm AND a.stem = g.stem
      JOIN main.species_identity s ON s.lineage_id = a.lineage_id AND s.msl = $1
      GROUP BY g.stem
      ORDER BY g.stem`, [real.latest.msl]);
    expect(groups.length).to.be.greaterThan(1000);
    expect(groups.map((g) => g.stem)).to.include.members(['DENV', 'HCV', 'HIV']);
    const resolved = await resolveAll(groups.map((g) => g.stem), { to_version: 'latest' });
    const wrong = groups.flatMap(({ stem, species }, k) => {
      const r = resolved[k]!;
      const status = species.length === 1 ? 'unchanged' : 'ambiguous';
      return r.status === status && [...r.results].sort().join('|') === species.join('|') && r.note?.startsWith(`'${stem}' is no abbreviation in ICTV's lists`)
        ? [] : [`${stem}: ${r.status} ${r.results.join(', ')} (${r.note}), not ${species.join(', ')}`];
    });
    expect(wrong.slice(0, 5), `${wrong.length} of ${groups.length}`).to.deep.equal([]);
    // from the release before: a stem whose abbreviations all denote one lineage is followed as they are, and
    // is "not used" there only when they were not
    const before = `MSL${real.latest.msl - 1}`;
    const members = await real.db.all<{ norm: string; member: string }>(`
      SELECT name_norm(${STEM}) AS norm, min(name) AS member
      FROM main.name_index WHERE kind = 'abbreviation' GROUP BY norm HAVING count(DISTINCT lineage_id) = 1`);
    const memberOf = new Map(members.map((m) => [m.norm, m.member]));
    const normOf = (stem: string) => stem.toLowerCase().replace(/[^a-z0-9]+/g, '');
    const one = groups.filter((g) => memberOf.has(normOf(g.stem)));
    expect(one.length).to.be.greaterThan(1000);
    const [stems, typed] = await Promise.all([
      resolveAll(one.map((g) => g.stem), { from_version: before }), resolveAll(one.map((g) => memberOf.get(normOf(g.stem))!), { from_version: before })]);
    const unused = (note: string | null) => note?.includes('was not used in') ?? false;
    const differ = one.flatMap(({ stem }, k) => (stems[k]!.status === typed[k]!.status && stems[k]!.results.join('|') === typed[k]!.results.join('|')
      && unused(stems[k]!.note) === unused(typed[k]!.note) ? [] : [`${stem}: ${stems[k]!.status} ${stems[k]!.results}; ${typed[k]!.name}: ${typed[k]!.status} ${typed[k]!.results}`]));
    expect(differ.slice(0, 5), `${differ.length} of ${one.length}`).to.deep.equal([]);
  });

  it('reads a stem written as the VMR writes it before an abbreviation that differs only in case (PRRSV, not PrRSV), and both for another case', async () => {
    const groups = await real.db.all<{ stem: string; species: string[]; other: string[] }>(`
      WITH a AS (SELECT name, lineage_id, last_msl, ${STEM} AS stem
                 FROM main.name_index WHERE kind = 'abbreviation')
      SELECT a.stem, list(DISTINCT s.species ORDER BY s.species) AS species,
             (SELECT list(DISTINCT o.species ORDER BY o.species) FROM main.name_index x
                JOIN main.species_identity o ON o.lineage_id = x.lineage_id AND o.msl = $1 WHERE x.name_norm = name_norm(a.stem)) AS other
      FROM a JOIN main.species_identity s ON s.lineage_id = a.lineage_id AND s.msl = $1
      WHERE length(a.stem) >= 2
      GROUP BY a.stem
      HAVING bool_and(a.last_msl = $1)
        AND (SELECT count(DISTINCT b.stem) FROM a b WHERE name_norm(b.stem) = name_norm(a.stem)) = 1
        AND EXISTS (SELECT 1 FROM main.name_index x WHERE x.name_norm = name_norm(a.stem))
        AND NOT EXISTS (SELECT 1 FROM main.name_index x WHERE x.name_norm = name_norm(a.stem) AND (x.kind <> 'abbreviation' OR x.name = a.stem OR x.last_msl <> $1))
        AND lower(a.stem) <> a.stem
        AND NOT EXISTS (SELECT 1 FROM main.name_index x WHERE x.name_norm = name_norm(a.stem) AND x.name = lower(a.stem))
      ORDER BY a.stem`, [real.latest.msl]);
    expect(groups.length).to.be.greaterThan(50);
    expect(groups.map((g) => g.stem)).to.include('PRRSV');
    const asWritten = await resolveAll(groups.map((g) => g.stem), { to_version: 'latest' });
    const lower = await resolveAll(groups.map((g) => g.stem.toLowerCase()), { to_version: 'latest' });
    const wrong = groups.flatMap(({ stem, species, other }, k) => {
      const both = [...new Set([...species, ...other])].sort();
      const [w, l] = [asWritten[k]!, lower[k]!];
      return [...w.results].sort().join('|') === species.join('|') && [...l.results].sort().join('|') === both.join('|')
        && l.status === (both.length === 1 ? 'unchanged' : 'ambiguous')
        ? [] : [`${stem}: ${w.results.join(', ')}; ${stem.toLowerCase()}: ${l.results.join(', ')}; not ${species.join(', ')} / ${both.join(', ')}`];
    });
    expect(wrong.slice(0, 5), `${wrong.length} of ${groups.length}`).to.deep.equal([]);
  });

  it('keeps an abbreviation matched as written (HPV: Hart Park virus), naming the typed ones of other taxa it begins (HPV1, HPV16, ...)', async () => {
    // abbreviations of the latest release, no other kind of name, that begin typed abbreviations of other lineages
    const rows = await real.db.all<{ name: string; species: string[] }>(`
      WITH a AS (SELECT name, lineage_id, name_norm(${STEM}) AS stem
                 FROM main.name_index WHERE kind = 'abbreviation')
      SELECT n.name, list(DISTINCT s.species ORDER BY s.species) AS species
      FROM main.name_index n JOIN main.species_identity s ON s.lineage_id = n.lineage_id AND s.msl = $1
      WHERE n.kind = 'abbreviation' AND n.last_msl = $1
        AND NOT EXISTS (SELECT 1 FROM main.name_index x WHERE x.name_norm = n.name_norm AND (x.kind <> 'abbreviation' OR x.last_msl <> $1))
        AND EXISTS (SELECT 1 FROM a WHERE a.stem = n.name_norm AND a.lineage_id NOT IN (SELECT y.lineage_id FROM main.name_index y WHERE y.name = n.name))
      GROUP BY n.name ORDER BY n.name`, [real.latest.msl]);
    expect(rows.map((r) => r.name)).to.include.members(['HPV', 'SINV']);
    const resolved = await resolveAll(rows.map((r) => r.name), { to_version: 'latest' });
    const wrong = rows.flatMap(({ name, species }, k) => {
      const r = resolved[k]!;
      return [...r.results].sort().join('|') === species.join('|') && r.note?.startsWith(`'${name}' also begins the VMR's abbreviations`)
        ? [] : [`${name}: ${r.status} ${r.results.join(', ')} (${r.note}), not ${species.join(', ')}`];
    });
    expect(wrong.slice(0, 5), `${wrong.length} of ${rows.length}`).to.deep.equal([]);
  });

  it("resolves the accessions, taxids, virus names and abbreviations of >= 99% of the latest VMR's rows to their species", async () => {
    // every 6th isolate row of the latest VMR, with each of its values as the read models split its cells
    const rows = await real.db.all<{ species: string; kind: string; value: string }>(`
      SELECT species, v.kind, v.value FROM (
        SELECT g.species, i.row,
               list_transform(regexp_extract_all(upper(coalesce(i.genbank, '') || ';' || coalesce(i.refseq, '')), '\\b[A-Z]{1,6}_?[0-9]{5,9}\\b'),
                              x -> {'kind': 'accession', 'value': x})
               || list_transform(regexp_extract_all(coalesce(i.refseq_taxids, ''), '[0-9]+'), x -> {'kind': 'taxid', 'value': 'txid' || x})
               || list_transform(string_split(coalesce(i.virus_names, ''), ';'), x -> {'kind': 'virus_name', 'value': trim(x)})
               || list_transform(string_split_regex(coalesce(i.abbreviations, ''), '[;,]'), x -> {'kind': 'abbreviation', 'value': trim(x)}) AS vs
        FROM src.isolates i JOIN main.species_genome g ON g.msl = i.msl AND g.vmr_species = i.species
        WHERE i.msl = $1 AND i.row % 6 = 0), unnest(vs) AS u(v)
      WHERE v.value <> '' AND v.value NOT LIKE 'MAG:%'`, [real.latest.msl]);
    const values = [...new Set(rows.map((r) => r.value))];
    const results = new Map((await resolveAll(values)).map((r) => [r.name, r.results]));
    for (const kind of ['accession', 'taxid', 'virus_name', 'abbreviation']) {
      const of = rows.filter((r) => r.kind === kind);
      const found = of.filter((r) => results.get(r.value)!.includes(r.species)).length;
      expect(of.length, kind).to.be.greaterThan(200);
      expect(found / of.length, kind).to.be.at.least(0.99);
    }
  });
});

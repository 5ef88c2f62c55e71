// The everyday group names of /ai/query (src/ai/group-names.yaml) held to the data: every taxon the table names is
// a taxon of the latest release at that rank, every former name is one the rename history records, every word of
// a host is read as that host; and on the real app, "Is X a coronavirus?" answered Yes or No as the species'
// classification in the latest release says, in the word's own sense, and words that name no taxon declined as such.
import { expect } from 'chai';
import request from 'supertest';
import { groupEntries } from '../src/ai/groups.js';
import { findHosts } from '../src/ai/vocabulary.js';
import { onRealApp } from './support/http.js';

describe('the group names table (src/ai/group-names.yaml)', () => {
  const real = onRealApp();
  const entries = groupEntries();

  it('says where each reading comes from, and gives each word once', () => {
    expect(entries.length).to.be.at.least(30);
    for (const e of entries) expect(e.source, e.words[0]).to.be.a('string').and.have.length.above(20);
    const words = entries.flatMap((e) => e.words);
    expect(new Set(words).size).to.equal(words.length);
  });

  it('names taxa of the latest release, at the rank it gives', async () => {
    const named = entries.filter((e) => !e.ended).flatMap((e) => [e.taxon, e.wider].filter((t) => t !== undefined));
    expect(named.length).to.be.at.least(25);
    const missing: string[] = [];
    for (const t of named) {
      const n = await real.db.count('SELECT count(*)::INTEGER AS n FROM src.taxa WHERE msl = $1 AND rank = $2 AND name = $3', [real.latest.msl, t.rank, t.name]);
      if (n === 0) missing.push(`${t.rank} ${t.name}`);
    }
    expect(missing).to.deep.equal([]);
  });

  it('says of a taxon no longer listed the release that ended it, and how, as the data\'s change tables record it', async () => {
    const ended = entries.filter((e) => e.ended);
    expect(ended.map((e) => e.taxon!.name)).to.include.members(['Myoviridae', 'Papovaviridae']);
    for (const e of ended) {
      const rows = await real.db.all<{ to_msl: number; change: string }>(`SELECT to_msl::INTEGER AS to_msl, change FROM main.release_changes
        WHERE lineage_kind = 'taxon' AND rank = $1 AND from_name = $2 AND change NOT IN ('unchanged', 'moved')`, [e.taxon!.rank, e.taxon!.name]);
      expect(rows.map((r) => [`MSL${r.to_msl}`, r.change]), e.taxon!.name).to.deep.equal([[e.ended!.in, e.ended!.how]]);
      const last = await real.db.count('SELECT max(msl)::INTEGER AS n FROM src.taxa WHERE rank = $1 AND name = $2', [e.taxon!.rank, e.taxon!.name]);
      expect(`MSL${last + 1}`, e.taxon!.name).to.equal(e.ended!.in);
    }
  });

  it('gives former names the data\'s rename history records, in the release it records them', async () => {
    const former = entries.flatMap((e) => (e.former ?? []).map((f) => ({ ...f, now: e.taxon!.name })));
    expect(former.map((f) => f.name)).to.include('Flavivirus');
    for (const f of former) {
      const rows = await real.db.all<{ msl: number }>('SELECT msl::INTEGER AS msl FROM main.taxon_rename WHERE old_name = $1 AND new_name = $2', [f.name, f.now]);
      expect(rows.map((r) => `MSL${r.msl}`), `${f.name} -> ${f.now}`).to.deep.equal([f.renamed_in]);
    }
  });

  it('leaves the words of a host to the host vocabulary, which reads them as that host', () => {
    const hosts = entries.filter((e) => e.host);
    expect(hosts.length).to.be.at.least(1);
    for (const e of hosts) for (const w of e.words) expect(findHosts(w).flatMap((m) => m.values), w).to.deep.equal([e.host]);
  });

  it('explains every word that names no taxon', () => {
    const none = entries.filter((e) => e.not_a_taxon);
    expect(none.map((e) => e.words[0])).to.include('arbovirus');
    for (const e of none) expect(e.taxon, e.words[0]).to.equal(undefined);
  });
});

describe('POST /ai/query with an everyday group name', () => {
  const real = onRealApp();
  const ask = async (query: string) => (await request(real.app).post('/ai/query').send({ query, use_cache: false }).expect(200)).body as
    { status: string; response: string; intent: string };

  // a virus by a VMR name or abbreviation, or a species name it had, and the taxon of each rank it is in now (the
  // exemplar's species in the latest release; an old species name followed by its ICTV id)
  const classification = async (virus: string) => {
    const [row] = await real.db.all<Record<string, string | null>>(`SELECT s.* FROM src.species s WHERE s.msl = $1 AND s.species = coalesce(
        (SELECT i.species FROM src.isolates i WHERE i.msl = $1 AND (list_contains(list_transform(string_split(i.virus_names, ';'), x -> lower(trim(x))), lower($2))
           OR list_contains(list_transform(string_split(coalesce(i.abbreviations, ''), ';'), x -> lower(trim(x))), lower($2))) ORDER BY i.exemplar = 'E' DESC LIMIT 1),
        (SELECT n.species FROM src.species o JOIN src.species n ON n.ictv_id = o.ictv_id AND n.msl = $1 WHERE lower(o.species) = lower($2) LIMIT 1))`, [real.latest.msl, virus]);
    expect(row, virus).to.not.equal(undefined);
    return row!;
  };

  const cases: Array<[string, string]> = [
    ['severe acute respiratory syndrome coronavirus 2', 'coronavirus'], ['measles virus', 'paramyxovirus'], ['variola virus', 'poxvirus'],
    ['Epstein-Barr virus', 'herpesvirus'], ['West Nile virus', 'flavivirus'], ['Nipah virus', 'paramyxovirus'],
    ['hepatitis B virus', 'retrovirus'], ['Zika virus', 'flavivirus'], ['rabies virus', 'rhabdovirus'], ['Marburg virus', 'filovirus'],
    ['Rift Valley fever virus', 'bunyavirus'], ['human immunodeficiency virus 1', 'retrovirus'], ['poliovirus 1', 'picornavirus'],
    ['hepatitis C virus', 'flavivirus'], ['DENV-2', 'coronavirus'], ['Lassa virus', 'arenavirus'], ['Epstein-Barr virus', 'gammaherpesvirus'],
    ['rubella virus', 'togavirus'], ['human metapneumovirus', 'paramyxovirus'],
  ];

  it('answers Yes or No as the species\' classification in the latest release says, naming the taxon the word names', async () => {
    const groups = groupEntries();
    for (const [virus, word] of cases) {
      const e = groups.find((g) => g.words.includes(word))!;
      const c = await classification(virus);
      const strict = c[e.taxon!.rank] === e.taxon!.name;
      const wider = e.wider ? c[e.wider.rank] === e.wider.name : false;
      const a = await ask(`Is ${virus} a ${word}?`);
      expect(a.status, a.response).to.equal('answered');
      expect(a.intent).to.equal('group_membership');
      expect(a.response.split(':')[0], `${virus} / ${word}: ${a.response}`).to.equal(strict ? 'Yes' : wider ? 'Yes, in the wider sense' : 'No');
      expect(a.response).to.include(e.taxon!.name).and.to.include(c.species!);
    }
  });

  it('says when a species left the group, from its lineage', async () => {
    // a species of the latest release outside the family Flaviviridae that was in it in an earlier release
    const [row] = await real.db.all<{ species: string; last: number }>(`SELECT n.species, max(o.msl)::INTEGER AS last FROM src.species n
      JOIN src.species o ON o.ictv_id = n.ictv_id AND o.family = 'Flaviviridae'
      WHERE n.msl = $1 AND n.family <> 'Flaviviridae' GROUP BY n.species ORDER BY n.species LIMIT 1`, [real.latest.msl]);
    expect(row).to.not.equal(undefined);
    const a = await ask(`Is ${row!.species} a flavivirus?`);
    expect(a.response).to.match(/^No:/).and.to.include(`until MSL${row!.last}`);
  });

  it('answers a group word of a family no longer listed from the record: in it until when, and where now', async () => {
    // for each ended family of the table, a phage or virus of the latest release whose lineage was in it, and one
    // that never was
    for (const [virus, word] of [['Escherichia phage T4', 'myovirus'], ['Escherichia phage lambda', 'siphovirus'], ['Escherichia phage T4', 'siphovirus'], ['simian virus 40', 'papovavirus']] as const) {
      const e = groupEntries().find((g) => g.words.includes(word))!;
      const c = await classification(virus);
      const [row] = await real.db.all<{ was: boolean }>(`SELECT bool_or(o.family = $3) AS was FROM src.species o JOIN src.species n ON n.ictv_id = o.ictv_id
        WHERE n.msl = $1 AND n.species = $2 AND o.msl <= (SELECT max(msl) FROM src.taxa WHERE rank = 'family' AND name = $3)`, [real.latest.msl, c.species, e.taxon!.name]);
      const a = await ask(`Is ${virus} a ${word}?`);
      expect(a.status, `${virus} / ${word}: ${a.response}`).to.equal('answered');
      expect(a.response, `${virus} / ${word}`).to.match(row?.was ? /^Yes, by a former family/ : /^No/).and.to.include(e.taxon!.name).and.to.include(e.ended!.in)
        .and.to.include(c.species!).and.to.include(c.family ?? c.class!);
    }
  });

  it('reads a former genus written as an everyday word as the genus it was renamed, for a species that came in after', async () => {
    const [row] = await real.db.all<{ old: string; new: string; msl: number }>("SELECT old_name AS old, new_name AS new, msl::INTEGER AS msl FROM main.taxon_rename WHERE old_name = 'Dependovirus'");
    const c = await classification('AAV2');
    expect(c.genus).to.equal(row!.new);
    const a = await ask('Is AAV2 a dependovirus?');
    expect(a.response).to.match(/^Yes/).and.to.include(`MSL${row!.msl}`).and.to.include(row!.new);
  });

  it('answers for every species of a stem when each is in the taxon asked ("HDV": hepatitis D viruses 1-8)', async () => {
    const rows = await real.db.all<{ species: string; genus: string }>(`SELECT DISTINCT s.species, s.genus FROM src.isolates i JOIN src.species s ON s.msl = i.msl AND s.species = i.species,
        unnest(string_split(coalesce(i.abbreviations, ''), ';')) AS u(a) WHERE i.msl = $1 AND regexp_matches(trim(a), '^HDV[-_ ]?[0-9]+$')`, [real.latest.msl]);
    expect(rows.length).to.be.above(3);
    const genera = [...new Set(rows.map((r) => r.genus))];
    const a = await ask(`Is HDV in the genus ${genera[0]}?`);
    if (genera.length === 1) expect(a.response).to.match(/^Yes/).and.to.include(`${rows.length} species`);
    else expect(a.status).to.equal('not_understood');
  });

  it('answers whether two groups are related by the lowest taxon they share, and reads "gamma herpesvirus" written in two words', async () => {
    const [row] = await real.db.all<{ a: string; b: string }>(`SELECT (SELECT any_value("order") FROM src.species WHERE msl = $1 AND family = 'Coronaviridae') AS a,
      (SELECT any_value("order") FROM src.species WHERE msl = $1 AND family = 'Arteriviridae') AS b`, [real.latest.msl]);
    const a = await ask('Are coronaviruses and arteriviruses related?');
    if (row!.a === row!.b) expect(a.response).to.match(/^Yes/).and.to.include(`order ${row!.a}`);
    else expect(a.response).to.not.match(/^Yes/);
    const c = await classification('Epstein-Barr virus');
    const g = await ask('Is Epstein-Barr virus a gamma herpesvirus?');
    expect(g.response).to.match(c.subfamily === 'Gammaherpesvirinae' ? /^Yes/ : /^No/).and.to.include('Gammaherpesvirinae');
  });

  it('reads a group word asked of an earlier release as the taxon then: the genus Flavivirus before its rename', async () => {
    const [row] = await real.db.all<{ species: string }>("SELECT species FROM src.species WHERE msl = 30 AND genus = 'Flavivirus' AND species = 'Zika virus'");
    expect(row).to.not.equal(undefined);
    const a = await ask('Was Zika virus a flavivirus in MSL30?');
    expect(a.response).to.match(/^Yes/).and.to.include('genus Flavivirus');
  });

  it('reads a group word of one taxon within another: "Is norovirus a calicivirus?" by the genus\'s place', async () => {
    const [row] = await real.db.all<{ family: string }>("SELECT family FROM src.taxa WHERE msl = $1 AND rank = 'genus' AND name = 'Norovirus'", [real.latest.msl]);
    const a = await ask('Is norovirus a calicivirus?');
    expect(a.status).to.equal('answered');
    expect(a.response.startsWith(row!.family === 'Caliciviridae' ? 'Yes' : 'No'), a.response).to.equal(true);
  });

  it('gives a taxon\'s genome type as its species\' compositions say', async () => {
    const rows = await real.db.all<{ c: string; n: number }>("SELECT genome_composition AS c, count(*)::INTEGER AS n FROM src.species WHERE msl = $1 AND family = 'Coronaviridae' AND genome_composition IS NOT NULL GROUP BY ALL", [real.latest.msl]);
    const a = await ask('Is a coronavirus a positive-strand RNA virus?');
    expect(a.response.split(':')[0]).to.equal(rows.every((r) => r.c === 'ssRNA(+)') ? 'Yes' : rows.some((r) => r.c === 'ssRNA(+)') ? 'Partly' : 'No');
  });

  it('answers a yes or no of an abbreviation that also begins those of other taxa ("HPV") when every reading of those gives it, and asks back otherwise', async () => {
    // the families of the species of HPV1, HPV16, ...: the typed abbreviations of one species each
    const families = await real.db.all<{ family: string }>(`WITH t AS (SELECT trim(a) AS ab, count(DISTINCT i.species) AS n, any_value(s.family) AS family
        FROM src.isolates i JOIN src.species s ON s.msl = i.msl AND s.species = i.species, unnest(string_split(coalesce(i.abbreviations, ''), ';')) AS u(a)
        WHERE i.msl = $1 AND regexp_matches(trim(a), '^HPV[-_ ]?[0-9]+[a-z]?$') GROUP BY 1)
      SELECT DISTINCT family FROM t WHERE n = 1`, [real.latest.msl]);
    const a = await ask('Is HPV a papillomavirus?');
    if (families.length === 1 && families[0]!.family === 'Papillomaviridae') {
      expect(a.status, a.response).to.equal('answered');
      expect(a.response).to.match(/^Yes/).and.to.include('Papillomaviridae').and.to.include('HPV1');
    } else expect(a.status, a.response).to.equal('not_understood');
    // the whole abbreviation's own species (Hart Park virus) is not one, and is said
    const [own] = await real.db.all<{ species: string }>(`SELECT DISTINCT species FROM src.isolates WHERE msl = $1
      AND list_contains(list_transform(string_split(coalesce(abbreviations, ''), ';'), x -> trim(x)), 'HPV')`, [real.latest.msl]);
    if (a.status === 'answered') expect(a.response).to.include(own!.species);
  });

  it('answers words that name no taxon by saying so, with the classification of the virus or the place of the taxon', async () => {
    const c = await classification('Zika virus');
    for (const q of ['Is Zika virus an arbovirus?', 'Which families are arboviruses?', 'Is HPV 18 an oncovirus?', 'Are hepatitis viruses related?', 'would you call mimivirus a giant virus',
      'is yellow fever virus a mosquito-borne virus?', 'Is Lassa virus a haemorrhagic fever virus?']) {
      const a = await ask(q);
      expect(a.status, q).to.equal('answered');
      expect(a.intent, q).to.equal('not_a_taxon');
      expect(a.response, q).to.include('not a taxon');
    }
    expect((await ask('Is Zika virus an arbovirus?')).response).to.include(c.family!).and.to.include('arbovirus');
    const [mimi] = await real.db.all<{ family: string }>("SELECT family FROM src.taxa WHERE msl = $1 AND rank = 'genus' AND name = 'Mimivirus'", [real.latest.msl]);
    expect((await ask('would you call mimivirus a giant virus')).response).to.include(mimi!.family);
  });

  it('does not answer a yes or no about a group it does not know with a classification', async () => {
    for (const q of ['Is Ebola virus a spooky virus?', 'Is Zika virus a tropical virus?']) {
      const a = await ask(q);
      expect(a.status, q).to.equal('not_understood');
    }
  });

  it('reads the forms people write around a group word: tags, dashes, colons, "=", no verb, "belongs to", two words', async () => {
    const groups = groupEntries();
    const forms: Array<[string, string, string]> = [
      ['measles virus', 'paramyxovirus', 'measles virus is a paramyxovirus, right?'], ['mumps virus', 'paramyxovirus', 'Mumps virus is a paramyxovirus, isn\'t it?'],
      ['rubella virus', 'togavirus', 'rubella virus - a togavirus?'], ['Ebola virus', 'filovirus', 'Ebola virus: filovirus, yes or no?'],
      ['Hantaan virus', 'hantavirus', 'Hantaan virus = hantavirus?'], ['West Nile virus', 'flavivirus', 'West Nile virus a flavivirus?'],
      ['Lassa virus', 'arenavirus', 'Lassa virus belongs to the arenaviruses?'], ['vaccinia virus', 'poxvirus', 'is vaccinia virus a pox virus'],
      ['Epstein-Barr virus', 'herpesvirus', 'Is Epstein-Barr virus a herpes virus?'], ['human immunodeficiency virus 1', 'retrovirus', 'would you say HIV-1 is a retro virus?'],
      ['Nipah virus', 'paramyxovirus', 'is it true that Nipah virus is a paramyxovirus?'],
    ];
    for (const [virus, word, q] of forms) {
      const e = groups.find((g) => g.words.includes(word))!;
      const c = await classification(virus);
      const a = await ask(q);
      expect(a.status, `${q}: ${a.response}`).to.equal('answered');
      expect(a.intent, q).to.equal('group_membership');
      expect(a.response.split(':')[0], `${q}: ${a.response}`).to.equal(c[e.taxon!.rank] === e.taxon!.name ? 'Yes' : e.wider && c[e.wider.rank] === e.wider.name ? 'Yes, in the wider sense' : 'No');
      expect(a.response).to.include(c.species!);
    }
  });

  it('reads a qualifier or a name in brackets beside an abbreviation of several species as the one meant', async () => {
    // RSV is the VMR's abbreviation of other viruses (rice stripe virus, ...); HRSV is the human one
    const rsv = await real.db.all<{ species: string }>("SELECT DISTINCT species FROM src.isolates WHERE msl = $1 AND list_contains(string_split(coalesce(abbreviations, ''), ';'), 'RSV')", [real.latest.msl]);
    expect(rsv.length).to.be.above(1);
    const h = await classification('HRSV');
    expect(rsv.map((r) => r.species)).to.not.include(h.species);
    for (const q of ['Is human RSV a pneumovirus?', 'Is RSV (respiratory syncytial virus) a pneumovirus?', 'is respiratory syncytial virus (RSV) a pneumovirus']) {
      const a = await ask(q);
      expect(a.status, `${q}: ${a.response}`).to.equal('answered');
      expect(a.response, q).to.include(h.species!).and.to.include(h.family!);
    }
    expect((await ask('Is RSV a pneumovirus?')).status).to.equal('not_understood');
  });

  it('reads an abbreviation no list holds by the initials of a name the species had, and a phage by its bare code', async () => {
    for (const [abbreviation, former] of [['HHV-5', 'Human herpesvirus 5'], ['VSV', 'Vesicular stomatitis virus'], ['HTLV-1', 'Human T-lymphotropic virus 1']]) {
      const listed = await real.db.count("SELECT count(*)::INTEGER AS n FROM src.isolates WHERE list_contains(string_split(coalesce(abbreviations, ''), ';'), $1)", [abbreviation!]);
      expect(listed, abbreviation).to.equal(0);
      const c = await classification(former!);
      const a = await ask(`What family is ${abbreviation} in?`);
      expect(a.status, a.response).to.equal('answered');
      expect(a.response, abbreviation).to.include(c.family!).and.to.include(c.species!);
    }
    for (const phage of ['T4', 'T7']) {
      const c = await classification(`Escherichia phage ${phage}`);
      const a = await ask(`Is ${phage} a tailed phage?`);
      expect(a.response, phage).to.match(c.class === 'Caudoviricetes' ? /^Yes/ : /^No/).and.to.include(c.species!);
    }
  });

  it('says which taxon a species is in now when asked whether it is still in a former one', async () => {
    const [row] = await real.db.all<{ genus: string; last: number }>(`SELECT n.genus, max(o.msl)::INTEGER AS last FROM src.species o JOIN src.species n ON n.ictv_id = o.ictv_id AND n.msl = $1
      WHERE o.genus = 'Flavivirus' AND o.species = 'West Nile virus' GROUP BY n.genus`, [real.latest.msl]);
    const a = await ask('Which genus is West Nile virus in now, still Flavivirus?');
    expect(a.status).to.equal('answered');
    expect(a.response).to.match(row!.genus === 'Flavivirus' ? /^Yes/ : /^No/).and.to.include(row!.genus).and.to.include(`until MSL${row!.last}`);
  });

  it('reads a former genus written as an everyday word ("Is mumps virus a rubulavirus?") as its members, saying the genus now; a genus renamed, also named with its rank', async () => {
    // genera no longer listed, each with a species of its last release that reaches the latest release under one name
    const words = new Set(groupEntries().flatMap((e) => e.words));
    const rows = (await real.db.all<{ genus: string; last: number; old: string; now: string }>(`WITH g AS (SELECT genus, max(msl) AS last FROM src.species
        WHERE genus LIKE '%virus' GROUP BY genus HAVING max(msl) < $1 AND max(msl) >= 20)
      SELECT g.genus, g.last::INTEGER AS last, o.species AS old, any_value(n.genus) AS now FROM g JOIN src.species o ON o.genus = g.genus AND o.msl = g.last
      JOIN src.species n ON n.ictv_id = o.ictv_id AND n.msl = $1
      WHERE o.species LIKE '% virus' AND NOT EXISTS (SELECT 1 FROM src.species x WHERE x.species = o.species AND x.ictv_id IS DISTINCT FROM o.ictv_id)
        AND NOT EXISTS (SELECT 1 FROM src.taxa t WHERE lower(t.name) = lower(g.genus) AND t.msl = $1)
      GROUP BY ALL HAVING count(DISTINCT n.genus) = 1 ORDER BY g.genus, o.species`, [real.latest.msl]))
      .filter((r, i, all) => !words.has(r.genus.toLowerCase()) && all.findIndex((x) => x.genus === r.genus) === i).slice(0, 6);
    expect(rows.length).to.equal(6);
    // a genus renamed, one step or several, into the species' genus now is that genus under its later name
    const renames = await real.db.all<{ old: string; new: string }>("SELECT old_name AS old, new_name AS new FROM main.taxon_rename");
    const renamedInto = (genus: string, now: string) => {
      for (let name: string | undefined = genus, k = 0; name !== undefined && k < 10; k++) {
        if (name === now) return true;
        name = renames.find((x) => x.old === name)?.new;
      }
      return false;
    };
    const kinds = new Set<boolean>();
    for (const r of rows) {
      const renamed = renamedInto(r.genus, r.now);
      kinds.add(renamed);
      const a = await ask(`Is ${r.old} a ${r.genus.toLowerCase()}?`);
      expect(a.status, `${r.old} / ${r.genus}: ${a.response}`).to.equal('answered');
      const strict = await ask(`Is ${r.old} in the genus ${r.genus}?`);
      if (renamed) {
        // renamed: a Yes by the former name, written as a word or named with its rank
        for (const x of [a, strict]) expect(x.response, r.old).to.match(/^Yes, by the genus's former name/).and.to.include(`genus ${r.now}`);
      } else {
        expect(a.response, r.old).to.match(/^Yes, by a former genus/).and.to.include(`until MSL${r.last}`).and.to.include(`genus ${r.now}`);
        // named with its rank, it is that genus, which no longer holds the species
        expect(strict.response, r.old).to.match(/^No/);
      }
    }
    expect([...kinds].sort()).to.deep.equal([false, true]);
  });

  it('reads the plural of a genus spelt -virus as the genus, as it reads a family\'s', async () => {
    const rows = await real.db.all<{ genus: string; family: string }>(`SELECT genus, any_value(family) AS family FROM src.species WHERE msl = $1
      AND genus IN ('Norovirus', 'Lentivirus', 'Rotavirus') GROUP BY genus ORDER BY genus`, [real.latest.msl]);
    expect(rows.length).to.equal(3);
    for (const r of rows) {
      const a = await ask(`Which family do ${r.genus.toLowerCase()}es belong to?`);
      expect(a.status, `${r.genus}: ${a.response}`).to.equal('answered');
      expect(a.response, r.genus).to.include(`family ${r.family}`);
    }
  });

  it('answers a membership asked of an abbreviation of a few species when it holds for each', async () => {
    // abbreviations the latest VMR gives to two species of one family, and to no other (the parser may know more species by
    // one, from the VMRs of earlier releases: each is answered for)
    const rows = await real.db.all<{ abbreviation: string; family: string }>(`WITH a AS (SELECT trim(x) AS abbreviation, i.species FROM src.isolates i,
        unnest(string_split(coalesce(i.abbreviations, ''), ';')) AS u(x) WHERE i.msl = $1 AND trim(x) <> '')
      SELECT a.abbreviation, any_value(s.family) AS family FROM a JOIN src.species s ON s.msl = $1 AND s.species = a.species
      WHERE regexp_matches(a.abbreviation, '^[A-Z]{4,6}$') GROUP BY a.abbreviation
      HAVING count(DISTINCT a.species) = 2 AND count(DISTINCT s.family) = 1 AND any_value(s.family) IS NOT NULL ORDER BY a.abbreviation LIMIT 3`, [real.latest.msl]);
    expect(rows.length).to.equal(3);
    for (const r of rows) {
      const a = await ask(`Is ${r.abbreviation} in the family ${r.family}?`);
      expect(a.status, `${r.abbreviation}: ${a.response}`).to.equal('answered');
      expect(a.response, r.abbreviation).to.match(/^Yes, for each of the \d species/).and.to.include(`family ${r.family}`);
    }
  });

  it('takes a taxon\'s own name as that taxon, not the group: the genus Flavivirus of MSL27', async () => {
    const [row] = await real.db.all<{ species: string }>("SELECT species FROM src.species WHERE msl = 27 AND genus = 'Flavivirus' AND type_species");
    const a = await ask('What was the type species of Flavivirus in MSL27?');
    expect(a.response).to.include('genus Flavivirus').and.to.include(row!.species);
  });
});

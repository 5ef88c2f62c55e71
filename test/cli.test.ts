// The command line (src/cli/vtqs.ts) on the real data set: every example of the README's command-line section,
// run as a user runs it (bash, in a folder of its own), answers what the API answers to the same question (the
// same JSON, the same CSV bytes, the same file); failures exit with the statuses the README promises.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { projectRoot } from '../src/shared/project-root.js';
import { onRealApp } from './support/http.js';

const root = projectRoot();
const CLI = join(root, 'dist', 'src', 'cli', 'vtqs.js');

/** The README's command-line examples, in order (the lines of the first sh block after its heading). */
function readmeExamples(): string[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## The command line, offline'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
  return block.split('\n').filter((l) => l.trim() !== '');
}

interface Run {
  status: number | null;
  stdout: Buffer;
  stderr: string;
}

/** A command line as a user types it, in `dir`, with `npx vtqs` standing for the compiled CLI of this project. */
function sh(line: string, dir: string): Run {
  const r = spawnSync('bash', ['-c', line.replaceAll('npx vtqs', `node ${CLI}`)], { cwd: dir, env: { ...process.env, DATA_DIR: join(root, 'data') } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.toString() };
}

const vtqs = (args: string, dir = tmpdir()) => sh(`npx vtqs ${args}`, dir);

/** What the API answers: a JSON body, a text (CSV) or the bytes of a file. */
type Answer = { json: unknown } | { text: string } | { bytes: Buffer };

/**
 * Each README example that asks a question, and the same question asked of the API; `out` is the file the
 * example writes (else its standard output is the answer); unknown: a name of it is unknown (exit status 1).
 */
/** An API page without its link to the next page: a URL of the server, which the command line has not got. */
function offline(page: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(page).filter(([key]) => key !== 'next'));
}

const API: Record<string, { ask: (app: import('express').Express, dir: string) => Promise<Answer>; out?: string; unknown?: true }> = {
  "npx vtqs history 'Coliphage lambda'": {
    ask: async (app) => ({ json: (await request(app).get('/api/v1/history/Coliphage%20lambda').expect(200)).body }),
  },
  "npx vtqs resolve 'Tobacco mosaic virus' 'Zika virus' --from MSL36": {
    ask: async (app) => ({
      json: (await request(app).post('/api/v1/resolve').send({ names: ['Tobacco mosaic virus', 'Zika virus'], from_version: 'MSL36' }).expect(200)).body,
    }),
  },
  'npx vtqs resolve names.csv --to MSL41 > resolved.csv': {
    out: 'resolved.csv',
    unknown: true, // a misspelt name, with its suggestions
    ask: async (app, dir) => ({
      text: (await request(app).post('/api/v1/resolve?to_version=MSL41').type('text/csv').send(readFileSync(join(dir, 'names.csv'), 'utf8')).expect(200)).text,
    }),
  },
  'npx vtqs resolve names.csv --to MSL41 --format json': {
    unknown: true,
    ask: async (app, dir) => {
      const names = readFileSync(join(dir, 'names.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(',')[0]!);
      return { json: (await request(app).post('/api/v1/resolve').send({ names, to_version: 'MSL41' }).expect(200)).body };
    },
  },
  'npx vtqs compare MSL17 MSL18': {
    ask: async (app) => ({ json: (await request(app).get('/api/v1/compare/MSL17/MSL18').expect(200)).body }),
  },
  'npx vtqs compare MSL36 MSL37 --details --change-type reclassified --limit 10': {
    ask: async (app) => ({ json: offline((await request(app).get('/api/v1/compare/MSL36/MSL37/details?change_type=reclassified&limit=10').expect(200)).body) }),
  },
  'npx vtqs compare MSL40 MSL41 --all --change-type merged': {
    ask: async (app) => {
      // every page of the API, joined: the CLI's one answer is a page as long as the list
      const pages: Array<{ total: number; changes: unknown[] }> = [];
      for (let offset = 0; offset === 0 || offset < pages[0]!.total; offset += 1000) {
        pages.push((await request(app).get(`/api/v1/compare/MSL40/MSL41/details?change_type=merged&limit=1000&offset=${offset}`).expect(200)).body);
      }
      const total = pages[0]!.total;
      return { json: offline({ ...pages[0], limit: Math.max(1, total), changes: pages.flatMap((p) => p.changes) }) };
    },
  },
  'npx vtqs export latest --family Coronaviridae > coronaviridae.csv': {
    out: 'coronaviridae.csv',
    ask: async (app) => ({ text: (await request(app).get('/api/v1/bulk/species/latest?format=csv&family=Coronaviridae').expect(200)).text }),
  },
  'npx vtqs export MSL41 --format parquet --output msl41.parquet': {
    out: 'msl41.parquet',
    ask: async (app) => ({
      bytes: (await request(app).get('/api/v1/bulk/species/MSL41?format=parquet').buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c)).on('end', () => done(null, Buffer.concat(chunks)));
        }).expect(200)).body as Buffer,
    }),
  },
};

describe('the command line (vtqs)', function () {
  const real = onRealApp();
  let dir: string;
  before(() => { dir = mkdtempSync(join(tmpdir(), 'vtqs-cli-')); });
  after(() => rmSync(dir, { recursive: true, force: true }));

  describe("the README's examples", () => {
    const examples = readmeExamples();

    it('are the questions this test asks the API, and the lines that make their input', () => {
      const asked = examples.filter((l) => l.startsWith('npx vtqs'));
      expect(asked).to.deep.equal(Object.keys(API));
      expect(examples.filter((l) => !l.startsWith('npx vtqs'))).to.have.length(1);
    });

    // Each in the README's order, in one folder: an example may read what one before it wrote (names.csv).
    for (const line of readmeExamples()) {
      const api = API[line];
      it(api ? `${line.slice(4)}: answers as the API does` : `${line.split(' ')[0]}: makes the examples' input`, async () => {
        const run = sh(line, dir);
        expect(run.status, run.stderr).to.equal(api?.unknown ? 1 : 0);
        if (!api) return;
        const cli = api.out ? readFileSync(join(dir, api.out)) : run.stdout;
        const expected = await api.ask(real.app, dir);
        if ('json' in expected) expect(JSON.parse(cli.toString())).to.deep.equal(expected.json);
        else if ('text' in expected) expect(cli.toString()).to.equal(expected.text);
        else expect(cli.equals(expected.bytes), 'the same Parquet bytes').to.equal(true);
      });
    }
  });

  describe('exit statuses', () => {
    it('0 when every name of a batch is found, 1 when one is not (the answer still written)', async () => {
      const found = vtqs("resolve 'Tobacco mosaic virus' NC_001367");
      expect(found.status, found.stderr).to.equal(0);
      expect(JSON.parse(found.stdout.toString())).to.include({ count: 2 });
      const missed = vtqs("resolve 'Tobacco mosaic virus' 'Tobaco mosaik virus' --format csv");
      expect(missed.status, missed.stderr).to.equal(1);
      const api = await request(real.app).post('/api/v1/resolve').type('text/csv').send("name\nTobacco mosaic virus\nTobaco mosaik virus\n").expect(200);
      expect(missed.stdout.toString()).to.equal(api.text);
    });

    it('1 for an unknown name, with the API\'s 404 message and its suggestions on standard error', async () => {
      const run = vtqs("history 'Tobaco mosaik virus'");
      expect(run.status).to.equal(1);
      expect(run.stdout.toString()).to.equal('');
      const api = await request(real.app).get('/api/v1/history/Tobaco%20mosaik%20virus').expect(404);
      expect(run.stderr).to.equal(`vtqs: ${api.body.detail}\n`);
      expect(api.body.detail).to.match(/did you mean 'Tobacco mosaic virus'/);
    });

    it('1 for a release the data set does not hold, as the API\'s 404', async () => {
      const beyond = `MSL${real.latest.msl + 1}`;
      const run = vtqs(`compare ${real.first.version} ${beyond}`);
      expect(run.status).to.equal(1);
      const api = await request(real.app).get(`/api/v1/compare/${real.first.version}/${beyond}`).expect(404);
      expect(run.stderr).to.equal(`vtqs: ${api.body.detail}\n`);
    });

    const usage: Array<[string, RegExp]> = [
      ['frobnicate', /unknown command 'frobnicate'/],
      ['', /vtqs resolve/],
      ['compare MSL17', /give two releases, got 1/],
      ['compare MSL17 18', /invalid version '18'; expected MSL<number>/],
      ['compare MSL17 MSL18 --limit 5', /go with --details/],
      ['compare MSL17 MSL18 --details --limit 0', /--limit must be an integer of at least 1/],
      ['compare MSL17 MSL18 --details --change-type moved', /--change-type must be one of added, removed/],
      ['resolve', /give at least one name/],
      ["resolve 'Zika virus' --bogus", /Unknown option '--bogus'/],
      ['resolve missing.csv', /cannot read missing\.csv/],
      ['export latest --format xlsx', /--format must be one of/],
    ];
    for (const [args, message] of usage) {
      it(`2 for a usage error: vtqs ${args}`, () => {
        const run = vtqs(args);
        expect(run.status, run.stderr).to.equal(2);
        expect(run.stderr).to.match(message);
        expect(run.stdout.toString()).to.equal('');
      });
    }

    it('2 for a CSV without a name column, as the API\'s 422', () => {
      const run = sh("printf 'species\\nZika virus\\n' | npx vtqs resolve -", dir);
      expect(run.status).to.equal(2);
      expect(run.stderr).to.match(/needs a header row with a 'name' column/);
    });

    it('3 when there is no data set to read', () => {
      const run = spawnSync(process.execPath, [CLI, 'history', 'Zika virus'], { env: { ...process.env, DATA_DIR: join(dir, 'none') } });
      expect(run.status).to.equal(3);
      expect(run.stderr.toString()).to.match(/cannot read the data set .*npm run build/);
    });

    it('0 for --help, with the command\'s usage on standard output', () => {
      for (const command of ['resolve', 'history', 'compare', 'export']) {
        const run = vtqs(`${command} --help`);
        expect(run.status).to.equal(0);
        expect(run.stdout.toString()).to.match(new RegExp(`^vtqs ${command} `));
      }
    });
  });
});

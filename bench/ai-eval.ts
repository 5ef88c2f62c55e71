// npm run ai-eval: POST /ai/query's answering code (src/ai/query.ts, as served) over the development and the
// held-out question sets of test/ai-eval, on the real data. Each answer is graded mechanically against its
// human text (`response`): every value returned by the question's `expect.all_of_sql` (DuckDB over views of
// data/parquet/) and every `all_of` string must appear in it (numbers with or without thousands separators,
// any letter case), a yes/no question's answer must open with that word, and an answer too long for the facts
// asked (a list of everything) fails. Out-of-scope questions must be declined, and a decline must mention each
// `all_of` string a question lists (both names of a release named two ways that disagree). A question with
// `expect.clarify` must be asked back (status "clarify": a year of several releases), never answered with a
// fact, and the ask-back must mention each `all_of` string (the releases it could mean); an ask-back counts as
// an answer given where one is expected, and as none given elsewhere.
//
// Prints per-category tables: the development set's with its failing questions, the held-out set's as
// aggregates only (never a question, an answer or an expectation of it), and rewrites the marked section of
// test/ai-eval/README.md with both tables. `--dev` runs the development set alone and writes nothing.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { DB_FILE, DOC_SNAPSHOT_FILE } from '../src/store/files.js';
import { defaultPaths } from '../build/paths.js';
import { openStore } from '../src/read/documents.js';
import { askQuestion } from '../src/ai/query.js';
import { parseQuestion, storeLexicon } from '../src/ai/parse.js';
import { virusAliases } from '../src/read/virus-aliases.js';
import type { Store } from '../src/store/store.js';

interface EvalQuestion {
  question: string;
  author: string;
  category: string;
  in_scope: boolean;
  expect: { all_of_sql: string; all_of: string[]; yes_no: 'yes' | 'no' | null; decline: boolean; clarify?: boolean };
}

interface Graded {
  q: EvalQuestion;
  answered: boolean;
  correct: boolean;
  why: string;
  response: string;
}

const EVAL_DIR = join(process.cwd(), 'test', 'ai-eval');
const PARTITIONED = ['species', 'taxa', 'isolates', 'renames', 'taxon_nodes'];
const FLAT = ['releases', 'official_counts', 'official_changes', 'merge_split', 'genome_lengths'];
/** An answer may spend this many characters on its own, and this many more per fact asked: longer is a dump. */
const BASE_LENGTH = 600;
const PER_FACT = 80;

/** A fact appears in a response: numbers with or without thousands separators, names in any letter case. */
export function mentions(response: string, value: string): boolean {
  if (/^-?\d+$/.test(value)) {
    const n = Math.abs(Number(value));
    const plain = String(n);
    const grouped = n.toLocaleString('en-US').replaceAll(',', '\\,');
    return new RegExp(`(^|[^\\d,.])(${plain}|${grouped})(?![\\d]|,\\d)`).test(response);
  }
  return response.toLowerCase().includes(value.toLowerCase());
}

async function views(parquetDir: string): Promise<DuckDBConnection> {
  const conn = await (await DuckDBInstance.create(':memory:')).connect();
  for (const t of PARTITIONED) {
    await conn.run(`CREATE VIEW ${t} AS SELECT * FROM read_parquet('${join(parquetDir, t)}/*/*.parquet', hive_partitioning = true)`);
  }
  for (const t of FLAT) await conn.run(`CREATE VIEW ${t} AS SELECT * FROM read_parquet('${join(parquetDir, `${t}.parquet`)}')`);
  return conn;
}

async function expectedValues(conn: DuckDBConnection, sql: string): Promise<string[]> {
  if (!sql.trim()) return [];
  const rows = (await conn.runAndReadAll(sql)).getRows();
  return rows.flatMap((r) => r.filter((v) => v !== null && v !== undefined).map((v) => String(v)));
}

const firstWord = (s: string) => /^\W*([a-z]+)/i.exec(s)?.[1]?.toLowerCase() ?? '';

async function grade(store: Store, conn: DuckDBConnection, q: EvalQuestion, timing: { us: number }): Promise<Graded> {
  const t0 = process.hrtime.bigint();
  const r = await askQuestion(store, q.question);
  timing.us += Number(process.hrtime.bigint() - t0) / 1000;
  // an ask-back is the answer to a question that expects one; elsewhere it gives no fact, as a decline does not
  const answered = r.status === 'answered' || (r.status === 'clarify' && q.expect.clarify === true);
  const out = (correct: boolean, why: string): Graded => ({ q, answered, correct, why, response: r.response });
  const unsaid = async () => [...new Set([...await expectedValues(conn, q.expect.all_of_sql), ...q.expect.all_of])].filter((f) => !mentions(r.response, f));
  if (q.expect.decline || !q.in_scope) {
    if (r.status === 'answered' || r.status === 'clarify') return out(false, `${r.status === 'clarify' ? 'asked back' : `answered (${r.intent})`} instead of declining`);
    const missing = await unsaid();
    return out(missing.length === 0, missing.length ? `declined without mentioning ${missing.map((m) => JSON.stringify(m)).join(', ')}` : '');
  }
  if (q.expect.clarify) {
    if (r.status !== 'clarify') return out(false, r.status === 'answered' ? `answered (${r.intent}) instead of asking back` : `not asked back (${r.status})`);
    const missing = await unsaid();
    return out(missing.length === 0, missing.length ? `asked back without mentioning ${missing.map((m) => JSON.stringify(m)).join(', ')}` : '');
  }
  if (r.status === 'clarify') return out(false, 'asked back instead of answering');
  if (!answered) return out(false, `not answered (${r.status})`);
  const facts = [...await expectedValues(conn, q.expect.all_of_sql), ...q.expect.all_of];
  const missing = [...new Set(facts)].filter((f) => !mentions(r.response, f));
  if (missing.length) return out(false, `missing ${missing.slice(0, 6).map((m) => JSON.stringify(m)).join(', ')}${missing.length > 6 ? ` and ${missing.length - 6} more` : ''}`);
  if (q.expect.yes_no && firstWord(r.response) !== q.expect.yes_no) return out(false, `does not open with "${q.expect.yes_no}"`);
  if (r.response.length > BASE_LENGTH + PER_FACT * facts.length) return out(false, `too long (${r.response.length} characters) for ${facts.length} facts`);
  return out(true, '');
}

interface Row { category: string; n: number; inScope: number; answered: number; correct: number; outOfScope: number; declined: number }

function table(graded: Graded[]): Row[] {
  const rows = new Map<string, Row>();
  const add = (key: string, g: Graded) => {
    const row = rows.get(key) ?? { category: key, n: 0, inScope: 0, answered: 0, correct: 0, outOfScope: 0, declined: 0 };
    row.n++;
    // a question to decline is out of scope whatever it is about (a release that does not exist, two names of a release that disagree)
    if (g.q.in_scope && !g.q.expect.decline) {
      row.inScope++;
      if (g.answered) row.answered++;
      if (g.correct) row.correct++;
    } else {
      row.outOfScope++;
      if (g.correct) row.declined++;
    }
    rows.set(key, row);
  };
  for (const g of [...graded].sort((a, b) => a.q.category.localeCompare(b.q.category))) add(g.q.category, g);
  for (const g of graded) add('all', g);
  return [...rows.values()];
}

const pct = (a: number, b: number) => (b === 0 ? '-' : `${(100 * a / b).toFixed(1)}%`);

function markdown(rows: Row[]): string {
  const lines = [
    '| category | questions | in scope | answered | correct | precision | coverage | right of in scope | out of scope | declined |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const name = r.category === 'all' ? '**all**' : r.category;
    lines.push(`| ${name} | ${r.n} | ${r.inScope} | ${r.answered} | ${r.correct} | ${pct(r.correct, r.answered)} | ${pct(r.answered, r.inScope)} | ${pct(r.correct, r.inScope)} | ${r.outOfScope} | ${r.outOfScope ? `${r.declined} (${pct(r.declined, r.outOfScope)})` : '-'} |`);
  }
  return lines.join('\n');
}

interface Run { graded: Graded[]; usPerQuestion: number; usWarm: number; usParse: number }

async function run(store: Store, conn: DuckDBConnection, file: string): Promise<Run> {
  const questions = JSON.parse(readFileSync(resolve(EVAL_DIR, file), 'utf8')) as EvalQuestion[];
  // one untimed pass first: the first questions would otherwise carry the cost of warming the documents up
  for (const q of questions.slice(0, 5)) await askQuestion(store, q.question);
  const timing = { us: 0 };
  const graded: Graded[] = [];
  for (const q of questions) graded.push(await grade(store, conn, q, timing));
  // again, every table loaded: what a question costs a running server (cache off), and the parser's share
  // CPU time, not wall time: the machine is shared, and a wait for a core is not the parser's cost
  const rounds = 3;
  const cpu = (c: NodeJS.CpuUsage) => c.user + c.system;
  let c0 = process.cpuUsage();
  for (let i = 0; i < rounds; i++) for (const q of questions) await askQuestion(store, q.question);
  const usWarm = cpu(process.cpuUsage(c0)) / rounds / questions.length;
  const lex = storeLexicon(store, undefined, await virusAliases(store));
  c0 = process.cpuUsage();
  for (let i = 0; i < rounds; i++) for (const q of questions) parseQuestion(q.question, lex);
  const usParse = cpu(process.cpuUsage(c0)) / rounds / questions.length;
  return { graded, usPerQuestion: timing.us / questions.length, usWarm, usParse };
}

const cost = (r: Run) => `${Math.round(r.usWarm)} µs of CPU per question answered warm (cache off), of which ${Math.round(r.usParse)} µs parsing; ${Math.round(r.usPerQuestion)} µs wall time on the first pass`;

async function main(): Promise<void> {
  const devOnly = process.argv.includes('--dev');
  // --heldout=<file>: grade that held-out set alone, in place of every test/ai-eval/heldout*.json
  const heldArg = process.argv.find((a) => a.startsWith('--heldout='))?.slice('--heldout='.length);
  const heldFiles = heldArg ? [heldArg] : readdirSync(EVAL_DIR).filter((f) => /^heldout.*\.json$/.test(f)).sort();
  const { dataDir } = defaultPaths();
  const store = await openStore(join(dataDir, DB_FILE), 2, join(dataDir, DOC_SNAPSHOT_FILE));
  const conn = await views(join(dataDir, 'parquet'));
  try {
    const dev = await run(store, conn, 'dev.json');
    console.log(`development set (${dev.graded.length} questions; ${cost(dev)})\n`);
    console.log(markdown(table(dev.graded)));
    const failing = dev.graded.filter((g) => !g.correct);
    if (failing.length) console.log(`\nfailing development questions (${failing.length}):`);
    for (const g of failing) console.log(`- [${g.q.category}] ${g.q.question}\n    ${g.why}\n    answer: ${g.response.slice(0, 300)}`);
    if (devOnly) return;

    const heldTables: string[] = [];
    for (const file of heldFiles) {
      const held = await run(store, conn, file);
      const heldTable = markdown(table(held.graded));
      console.log(`\nheld-out set ${file} (${held.graded.length} questions; ${cost(held)}; aggregates only)\n`);
      console.log(heldTable);
      heldTables.push(`Held-out set \`${file}\` (${held.graded.length} questions, never tuned on; ${cost(held)}):`, '', heldTable, '');
    }

    const readme = join(EVAL_DIR, 'README.md');
    const start = '<!-- ai-eval:start -->';
    const end = '<!-- ai-eval:end -->';
    const section = [start, '',
      `Measured by \`npm run ai-eval\` on build ${store.buildId}. *answered*: an answer given (not a decline, not "not understood");`,
      '*precision*: correct / answered; *coverage*: answered / in scope; *right of in scope*: correct / in scope (answered and right);',
      '*declined*: out-of-scope questions declined (with the words a question asks its decline to mention).', '',
      `Development set (${dev.graded.length} questions, tuned on; ${cost(dev)}):`, '', markdown(table(dev.graded)), '',
      ...heldTables, end].join('\n');
    const text = readFileSync(readme, 'utf8');
    const i = text.indexOf(start);
    const j = text.indexOf(end);
    writeFileSync(readme, i >= 0 && j > i ? text.slice(0, i) + section + text.slice(j + end.length) : `${text.trimEnd()}\n\n## Figures\n\n${section}\n`);
    console.log(`\nwrote the tables into ${readme}`);
  } finally {
    await store.close();
  }
}

await main();

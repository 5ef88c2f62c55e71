#!/usr/bin/env node
// `vtqs`: the API's questions asked of the local data set, without a server (offline use, scripts, pipelines).
// Every answer is the read layer's, the one the API gives: the same JSON as the matching endpoint, the same
// CSV bytes for a CSV of names. Options are read with Node's own util.parseArgs: four commands of a few
// options each need no dependency, and its strict mode makes every unknown or malformed option an error,
// which a script must be able to tell (exit status 2) from a name that is not found (1).
import { spawn } from 'node:child_process';
import { createReadStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyFile } from 'node:fs/promises';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { HttpError } from '../read/errors.js';
import { loadConfig } from '../config/env.js';
import { openApiDocument } from '../contract/openapi.js';
import { BULK_FORMATS, bulkRows, type BulkFormat } from '../read/bulk.js';
import { assertPair, CHANGE_TYPES, changesAnswer, type ChangeType } from '../read/compare.js';
import { compareSummary } from '../read/official-tallies.js';
import { openStore } from '../read/documents.js';
import { historyOf } from '../read/history.js';
import { asWritten } from '../read/names.js';
import { resolveVersion } from '../read/releases.js';
import { resolveMany, shownResolution } from '../read/resolve.js';
import { projectRoot } from '../shared/project-root.js';
import { batchHead, csvAnswer, namesTable, readNamesCsv } from '../read/resolve-batch.js';
import type { Store } from '../store/store.js';

/** Exit statuses scripts can rely on (3: the data set cannot be read, or the command failed otherwise). */
const EXIT = { found: 0, notFound: 1, usage: 2, failed: 3 } as const;

/** A mistake in the command line itself: exit status 2, with the command's usage. */
class UsageError extends Error {}
/** No data set where DATA_DIR says: exit status 3. */
class NoDataSet extends Error {}

interface Command {
  usage: string;
  options: NonNullable<ParseArgsConfig['options']>;
  /** Checks the arguments first, then opens the data set (`open`): a usage error needs no data set. */
  run(open: () => Promise<Store>, values: Record<string, string | boolean | undefined>, positionals: string[]): Promise<number>;
}

const FORMATS = Object.keys(BULK_FORMATS) as BulkFormat[];

const COMMANDS: Record<string, Command> = {
  resolve: {
    usage: `vtqs resolve <name>... [--from <release>] [--to <release>] [--format json|csv]
vtqs resolve <file.csv | -> [--from <release>] [--to <release>] [--format csv|json]

Resolves names of any rank and release, former names, VMR virus names and abbreviations, accessions,
taxids and ICTV ids, and follows each to a release (the latest unless --to names one), as POST
/api/v1/resolve answers. Names given as arguments are answered in JSON; a CSV file with a 'name'
column ('-' reads it from standard input) is answered in CSV: its rows as given with the answer's
columns added. --format chooses the other.

  --from <release>   the release the names were used in (MSL<n>); without it, each name's latest use
  --to <release>     the release to follow them to (MSL<n> or latest; default latest)
  --format <f>       json or csv

Exit status 0 when every name was found, 1 when at least one is unknown.`,
    options: { from: { type: 'string' }, to: { type: 'string' }, format: { type: 'string' } },
    async run(open, values, positionals) {
      if (positionals.length === 0) throw new UsageError('give at least one name, or a CSV file of names');
      const csvIn = positionals.length === 1 && (positionals[0] === '-' || /\.csv$/i.test(positionals[0]!));
      const format = values.format ?? (csvIn ? 'csv' : 'json');
      if (format !== 'json' && format !== 'csv') throw new UsageError(`--format must be json or csv, not '${String(format)}'`);
      const table = csvIn ? await readNamesCsv(readInput(positionals[0]!)) : namesTable(positionals);
      const store = await open();
      const from = typeof values.from === 'string' ? resolveVersion(store, values.from) : null;
      const to = resolveVersion(store, values.to as string | undefined);
      const results = await resolveMany(store, table.names, from, to);
      if (format === 'csv') {
        for await (const piece of csvAnswer(table, [results])) await write(piece);
      } else {
        await writeJson({ ...batchHead(from, to, results), results: results.map(shownResolution) });
      }
      return results.some((r) => r.status === 'unknown') ? EXIT.notFound : EXIT.found;
    },
  },

  history: {
    usage: `vtqs history <name>

The history of what a name or identifier denotes (a species or a taxon of any rank, any release): every
lineage the name has stood for, release by release, and where it is now, as GET /api/v1/history/<name>
answers it (JSON). Exit status 1 when the name is no known name (with suggestions on standard error).`,
    options: {},
    async run(open, _values, positionals) {
      if (positionals.length === 0) throw new UsageError('give a name');
      // A name left unquoted arrives as several arguments: they are its words.
      const name = asWritten(positionals.join(' '));
      await writeJson(await historyOf(await open(), name));
      return EXIT.found;
    },
  },

  compare: {
    usage: `vtqs compare <from> <to> [--details [--change-type <type>] [--limit <n>] [--offset <n>] | --all]

Two releases compared (MSL<n> or latest, in either order): the number of species of each kind of change,
as GET /api/v1/compare/<from>/<to> answers it; with --details a page of the changes themselves, as
GET /api/v1/compare/<from>/<to>/details answers it; with --all every change in one answer (JSON).

  --details            a page of the species changes
  --change-type <t>    only changes of one type: ${CHANGE_TYPES.join(', ')}
  --limit <n>          changes per page (default ${pageDefault('Limit')})
  --offset <n>         changes to skip (default ${pageDefault('Offset')})
  --all                every change (of --change-type, if given), not a page`,
    options: {
      details: { type: 'boolean' }, all: { type: 'boolean' }, 'change-type': { type: 'string' },
      limit: { type: 'string' }, offset: { type: 'string' },
    },
    async run(open, values, positionals) {
      if (positionals.length !== 2) throw new UsageError(`give two releases, got ${positionals.length}`);
      const type = values['change-type'] as string | undefined;
      if (type !== undefined && !(CHANGE_TYPES as readonly string[]).includes(type)) {
        throw new UsageError(`--change-type must be one of ${CHANGE_TYPES.join(', ')}, not '${type}'`);
      }
      const paged = values.limit !== undefined || values.offset !== undefined;
      if (values.all && paged) throw new UsageError('--all gives every change: it takes no --limit or --offset');
      const details = values.details || values.all;
      if (!details && (type !== undefined || paged)) throw new UsageError('--change-type, --limit and --offset go with --details');
      const offset = count('--offset', values.offset as string | undefined, pageDefault('Offset'), 0);
      const pageLimit = count('--limit', values.limit as string | undefined, pageDefault('Limit'), 1);
      const store = await open();
      const [from, to] = [resolveVersion(store, positionals[0]), resolveVersion(store, positionals[1])];
      assertPair(from, to);
      if (!details) {
        await writeJson(compareSummary(store, from, to));
        return EXIT.found;
      }
      const change_type = (type ?? null) as ChangeType | null;
      // --all: a page as long as the whole list, whose length an empty page gives
      const limit = values.all ? Math.max(1, changesAnswer(store, from, to, { change_type, limit: 0, offset: 0 }).total) : pageLimit;
      await writeJson(changesAnswer(store, from, to, { change_type, limit, offset }));
      return EXIT.found;
    },
  },

  export: {
    usage: `vtqs export <release> [--format ${FORMATS.join('|')}] [--family <name>] [--realm <name>] [--output <file>]

Every species of a release (MSL<n> or latest), optionally of one family or realm, in a bulk format, as
GET /api/v1/bulk/species/<release> sends it: the same columns and bytes.

  --format <f>       ${FORMATS.join(', ')} (default csv)
  --family <name>    only the species of this family (any letter case)
  --realm <name>     only the species of this realm (any letter case)
  --output <file>    write to this file instead of standard output (needed for parquet on a terminal)`,
    options: { format: { type: 'string' }, family: { type: 'string' }, realm: { type: 'string' }, output: { type: 'string', short: 'o' } },
    async run(open, values, positionals) {
      if (positionals.length !== 1) throw new UsageError(`give one release, got ${positionals.length}`);
      const format = (values.format ?? 'csv') as BulkFormat;
      if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, not '${format}'`);
      const output = values.output as string | undefined;
      if ((format === 'parquet' || format === 'arrow') && !output && process.stdout.isTTY) throw new UsageError(`${format === 'parquet' ? 'Parquet' : 'An Arrow stream'} is binary: give --output <file>, or redirect standard output`);
      const store = await open();
      const v = resolveVersion(store, positionals[0]);
      const { file } = await bulkRows(store, 'species', v, format, values.family as string | undefined, values.realm as string | undefined, false);
      if (output) await copyFile(file.path, output);
      else for await (const chunk of createReadStream(file.path)) await write(chunk as Buffer);
      return EXIT.found;
    },
  },
};

const MAIN_USAGE = `vtqs: the ICTV Master Species List data set, every release, asked offline (no server)

  vtqs resolve <name>... | <file.csv>   names of any release followed to a release (JSON; CSV in, CSV out)
  vtqs history <name>                   what a name denotes, release by release
  vtqs compare <from> <to> [--details]  two releases compared: counts of each change, or the changes
  vtqs export <release> [--format f]    a release's species as ${FORMATS.join(', ')}
  vtqs update --source URL [--publish DEST]
                                        a new ICTV release built from its spreadsheet, checked, published
                                        (the update job: npm run update; 'vtqs update --help')

'vtqs <command> --help' says more. The data set is read from DATA_DIR (default: data/ of this project;
'npm run build' makes it).

Exit status: 0 found, 1 not found (an unknown name or release), 2 a usage error, 3 no data set
to read (or another failure).`;

/** A non-negative integer option, at least `min`. */
function count(option: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw new UsageError(`${option} must be an integer of at least ${min}, not '${raw}'`);
  return Number(raw);
}

/** The API's default for a paging parameter (limit, offset), from the contract. */
function pageDefault(parameter: 'Limit' | 'Offset'): number {
  const doc = openApiDocument() as { components: { parameters: Record<string, { schema: { default: number } }> } };
  return doc.components.parameters[parameter]!.schema.default;
}

function readInput(path: string): string {
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${path === '-' ? 'standard input' : path}: ${(err as Error).message}`);
  }
}

/** Writes to standard output, waiting when the reader is slower (a pipe into another program). */
function write(chunk: string | Buffer): Promise<void> {
  return new Promise((resolve) => {
    if (process.stdout.write(chunk)) resolve();
    else process.stdout.once('drain', resolve);
  });
}

const writeJson = (body: unknown) => write(`${JSON.stringify(body, null, 2)}\n`);

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? process.stderr : process.stdout).write(`${MAIN_USAGE}\n`);
    return name === undefined ? EXIT.usage : EXIT.found;
  }
  // The update job is the offline build's (build/update.ts), run as its own process: the server's code
  // never imports the build.
  if (name === 'update') return runProcess(join(projectRoot(), 'dist', 'build', 'update.js'), rest);
  const command = COMMANDS[name];
  if (!command) return usageError(`unknown command '${name}'; the commands are ${Object.keys(COMMANDS).join(', ')}`, 'vtqs --help');
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: rest, allowPositionals: true, strict: true, options: { ...command.options, help: { type: 'boolean', short: 'h' } },
    }) as { values: Record<string, string | boolean | undefined>; positionals: string[] });
  } catch (err) {
    return usageError((err as Error).message, `vtqs ${name} --help`);
  }
  if (values.help) {
    process.stdout.write(`${command.usage}\n`);
    return EXIT.found;
  }
  const config = loadConfig();
  let store: Store | undefined;
  const open = async () => {
    try {
      store = await openStore(config.dbFile, 1, config.snapshotFile);
    } catch (err) {
      throw new NoDataSet(`cannot read the data set ${config.dbFile} (${(err as Error).message.split('\n')[0]}); 'npm run build' makes it, DATA_DIR says where it is`);
    }
    return store;
  };
  try {
    return await command.run(open, values, positionals);
  } catch (err) {
    if (err instanceof UsageError) return usageError(err.message, `vtqs ${name} --help`);
    if (!(err instanceof HttpError || err instanceof NoDataSet)) throw err;
    process.stderr.write(`vtqs: ${err.message}\n`);
    if (err instanceof NoDataSet) return EXIT.failed;
    // The API's own refusals: 404 is something not found; any other is a malformed release or input.
    return err.status === 404 ? EXIT.notFound : EXIT.usage;
  } finally {
    await store?.close();
  }
}

/** Runs a script of the project with the arguments given, its output passed through; resolves to its exit status. */
function runProcess(script: string, args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: 'inherit' });
    child.once('error', (err) => {
      process.stderr.write(`vtqs: ${err.message}\n`);
      resolve(EXIT.failed);
    });
    child.once('exit', (code) => resolve(code ?? EXIT.failed));
  });
}

function usageError(message: string, help: string): number {
  process.stderr.write(`vtqs: ${message}\n(see '${help}')\n`);
  return EXIT.usage;
}

// A reader that stops early (`vtqs export latest | head`) is no error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(EXIT.found);
  throw err;
});

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err: Error) => {
    process.stderr.write(`vtqs: ${err.stack ?? err.message}\n`);
    process.exitCode = EXIT.failed;
  },
);

// The read side: one opened build of data/taxonomy.duckdb. Point lookups are answered from pre-rendered
// JSON documents held in memory (a Map read is ~100x cheaper than a DuckDB point query, which re-plans
// on every execution); searches, filters and bulk downloads go to a small pool of read-only connections.
// This is the only module that imports @duckdb/node-api.
import { availableParallelism } from 'node:os';
import {
  DuckDBBlobVector, DuckDBConnection, DuckDBInstance, listValue,
  type DuckDBPreparedStatement, type DuckDBValue,
} from '@duckdb/node-api';
import { LRUCache } from 'lru-cache';
import { ConnPool } from './connection-pool.js';
import { DerivedFiles, type DerivedFile } from './derived-files.js';
import { definitionsKey, readSnapshot, writeSnapshot } from './snapshot-file.js';
import { dictionaryOf, PackedDocs, type DocTable } from './documents-in-memory.js';
import type { OpenFile } from './documents-from-snapshot.js';

export type Row = Record<string, unknown>;

/** A document table: key columns joined with '|' (lower-cased by the projection) -> JSON text. */
export interface DocSpec {
  table: string;
  key: string[];
  /** SQL for the document over the table aliased t: a JSON text column, or e.g. to_json(t) for a whole row. */
  doc: string;
  /** Hold the documents deflated (PackedDocs): for large tables that few requests read. */
  compressed?: boolean;
}

/**
 * Which connections a query runs on. Light queries (a search, a filter) have the pool (DB_POOL) to
 * themselves; bulk downloads have a lane of their own (mostly JS work converting rows, holding their
 * connection while the client reads), so that a few downloads together never hold every connection.
 */
export type Lane = 'light' | 'bulk';

/**
 * The bulk lane leaves a core to the event loop: a download's rows are turned into text on the main
 * thread, so downloads beyond that only take turns with lookups (and each holds its query's memory).
 */
const BULK_LANE = Math.max(1, Math.min(2, availableParallelism() - 1));

/**
 * Lowering DuckDB's limit for a moment evicts the blocks it caches; searches re-read what they need. A limit
 * below what results not yet collected by V8 hold is refused: then nothing is evicted, and `restore` stands.
 */
async function evictCache(conn: DuckDBConnection, restore: string): Promise<void> {
  try {
    await conn.run("SET memory_limit = '16MB'");
  } finally {
    await conn.run(`SET memory_limit = '${restore}'`);
  }
}

/** DuckDB could not have the memory a query needed within its limit (its errors carry no code to test). */
const outOfMemory = (err: unknown): boolean => err instanceof Error && err.message.startsWith('Out of Memory Error');

/** A value bound to a query parameter; arrays become DuckDB lists. */
export type Param = DuckDBValue | readonly string[] | readonly number[];

/**
 * Disk for files derived from a build (bulk downloads) in the system's temporary directory; the least
 * recently used go beyond it. Every release in every format takes less.
 */
const DERIVED_FILE_BYTES = 1 << 30;

/**
 * DuckDB's buffer pool while a store loads (documents and indexes aggregated in SQL when there is no
 * snapshot: less fails), then while it serves bulk files and the few queries left (searches are answered
 * from memory; documents are held outside it).
 */
const LOADING_MEMORY_LIMIT = '256MB';
const MEMORY_LIMIT = '128MB';

/** How long after writing a download the store waits before dropping DuckDB's cached blocks (dropCacheSoon). */
const DROP_CACHE_AFTER_MS = 1000;

/**
 * Prepared statements kept per connection. Planning a query costs about as much as running one of the small
 * filtered reads the API makes; the SQL texts are a small fixed set, and the cap bounds the rare texts built
 * per request (a bulk COPY).
 */
const PREPARED_PER_CONNECTION = 64;

const bind = (values: readonly Param[]): DuckDBValue[] =>
  values.map((v) => (Array.isArray(v) ? listValue(v as DuckDBValue[]) : (v as DuckDBValue)));

export class Store {
  private readonly prepared = new WeakMap<DuckDBConnection, LRUCache<string, DuckDBPreparedStatement>>();
  private inFlight = 0;
  private closing: (() => void) | null = null;
  private closed = false;
  /** Set from when dropping DuckDB's cached blocks is scheduled until it is done (dropCacheSoon). */
  private dropping: NodeJS.Timeout | null = null;

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly lanes: Record<Lane, ConnPool<DuckDBConnection>>,
    readonly file: string,
    readonly buildId: string,
    private readonly docs: Map<string, DocTable>,
    private readonly lists: Map<string, Row[]>,
    private readonly definitions: string,
    /** Where the documents came from: the snapshot, or the database and why not the snapshot. */
    readonly docsSource: string,
    /** Bytes of documents taken over from the store this one replaced. */
    readonly docsReused: number,
    private readonly files: DerivedFiles,
    /** Images of the in-memory indexes, read from the snapshot (empty when it was not used). */
    private readonly images: ReadonlyMap<string, Buffer>,
    /** The snapshot file the documents are read from (null: they are held in memory); released on close. */
    private readonly snapshotFile: OpenFile | null,
  ) {}

  /** How to make the image of each index loaded with this store, for its snapshot. */
  private readonly imageMakers = new Map<string, () => Buffer>();

  /**
   * docs: keyed documents; lists: small query results every request may need (the releases); snapshot: a
   * file of this build's documents (doc-snapshot.ts), used when it matches (documents are then read from it
   * as they are asked for), else they are read from DuckDB and held in memory; previous: the store this one
   * replaces, whose documents are taken over when it is the same build, so that a swap reads nothing again.
   * imageLayout: the version of the index images' fields (savedImage), part of the snapshot's fingerprint.
   */
  static async open(dbFile: string, opts: {
    pool: number; docs: DocSpec[]; lists?: Record<string, string>; snapshot?: string; previous?: Store; imageLayout?: string;
  }): Promise<Store> {
    // threads=1: requests run side by side on the pool, so one query never takes both cores from the rest.
    // A bulk deallocation (a download's buffers, the blocks a cache drop evicts) larger than a few MB is
    // handed back to the system at once rather than kept by the allocator for reuse (its default: 512 MB).
    const instance = await DuckDBInstance.create(dbFile, {
      access_mode: 'READ_ONLY', threads: '1', memory_limit: LOADING_MEMORY_LIMIT, allocator_bulk_deallocation_flush_threshold: '4MB',
    });
    const connections: DuckDBConnection[] = [];
    let file: OpenFile | null = null;
    try {
      for (let i = 0; i < opts.pool + BULK_LANE; i++) connections.push(await instance.connect());
      const conn = connections[0]!;
      const build = String((await conn.runAndReadAll('SELECT build_id FROM src.build_info')).getRows()[0]?.[0]);
      const definitions = definitionsKey(opts.docs, opts.imageLayout);
      const previous = opts.previous;
      let docs: Map<string, DocTable>;
      let images: ReadonlyMap<string, Buffer> = new Map();
      let source: string;
      let reused = 0;
      if (previous && previous.buildId === build && previous.definitions === definitions) {
        // The same build (a rebuild of unchanged inputs, or SIGHUP): the same documents, from the same file.
        docs = previous.docs;
        images = previous.images;
        file = previous.snapshotFile?.retain() ?? null;
        source = previous.docsSource;
        reused = previous.docBytes();
      } else {
        const snapshot = opts.snapshot ? await readSnapshot(opts.snapshot, build, definitions) : { reason: 'no snapshot given' };
        if ('docs' in snapshot) {
          docs = snapshot.docs;
          images = snapshot.images;
          file = snapshot.file;
          source = 'snapshot';
        } else {
          docs = await loadDocs(connections.slice(0, opts.pool), opts.docs);
          // Loading read every document table once; DuckDB would keep those blocks cached although no
          // request reads them again.
          await evictCache(conn, LOADING_MEMORY_LIMIT);
          source = `database (${snapshot.reason})`;
        }
      }
      const lists = new Map<string, Row[]>();
      for (const [name, sql] of Object.entries(opts.lists ?? {})) lists.set(name, (await conn.runAndReadAll(sql)).getRowObjectsJson() as Row[]);
      const lanes = {
        light: new ConnPool(connections.slice(0, opts.pool)),
        bulk: new ConnPool(connections.slice(opts.pool)),
      };
      return new Store(instance, lanes, dbFile, build, docs, lists, definitions, source, reused, new DerivedFiles(DERIVED_FILE_BYTES), images, file);
    } catch (err) {
      file?.release();
      for (const c of connections) c.closeSync();
      instance.closeSync();
      throw err;
    }
  }

  /** Bytes of documents served (shared with another store or not). */
  docBytes(): number {
    let n = 0;
    for (const d of this.docs.values()) n += d.bytes;
    return n;
  }

  /** Of those, the bytes held in memory (the rest are read from the snapshot file). */
  docHeldBytes(): number {
    let n = 0;
    for (const d of this.docs.values()) n += d.heldBytes;
    return n;
  }

  /** A pre-rendered document as JSON bytes, ready to send. Keys are the DocSpec key values joined with '|'. */
  doc(table: string, ...key: Array<string | number>): Buffer | undefined {
    return this.docs.get(table)?.get(key.join('|'));
  }

  /** A pre-rendered document parsed, for handlers that read fields of it. */
  docJson<T>(table: string, ...key: Array<string | number>): T | undefined {
    const bytes = this.doc(table, ...key);
    return bytes === undefined ? undefined : (JSON.parse(bytes.toString('utf8')) as T);
  }

  list<T = Row>(name: string): T[] {
    return (this.lists.get(name) ?? []) as T[];
  }

  /** Saves this store's documents and index images as a snapshot for the next start (the build does this). */
  writeSnapshot(file: string): void {
    // by name: the indexes register as they load, in an order that depends on where each came from
    const images = [...this.imageMakers].sort(([a], [b]) => (a < b ? -1 : 1));
    writeSnapshot(file, this.buildId, this.definitions, this.docs, new Map(images.map(([name, make]) => [name, make()])));
  }

  /** The image of index `name` (index-image.ts) when the store's documents came from a snapshot holding it. */
  savedImage(name: string): Buffer | undefined {
    return this.images.get(name);
  }

  /** Says how to make index `name`'s image, for the store's snapshot: called by whatever loads the index. */
  keepImage(name: string, make: () => Buffer): void {
    this.imageMakers.set(name, make);
  }

  docCount(table: string): number {
    return this.docs.get(table)?.size ?? 0;
  }

  /** Runs a read query with bound values; rows come back JSON-ready (BIGINT as string, dates as ISO). */
  query<T = Row>(sql: string, values: readonly Param[] = [], lane: Lane = 'light'): Promise<T[]> {
    return this.withConnection(lane, async (conn) => {
      const statement = await this.statement(conn, sql);
      statement.bind(bind(values));
      return (await statement.runAndReadAll()).getRowObjectsJson() as T[];
    });
  }

  /**
   * Runs a read query and gives its result by column, each with its type as DuckDB's SQL writes it (VARCHAR,
   * INTEGER, VARCHAR[] ...) and its values as JavaScript holds them (BIGINT as bigint, lists as arrays).
   */
  columns(sql: string, values: readonly Param[] = [], lane: Lane = 'light'): Promise<Array<{ name: string; type: string; values: unknown[] }>> {
    return this.withConnection(lane, async (conn) => {
      const statement = await this.statement(conn, sql);
      statement.bind(bind(values));
      const reader = await statement.runAndReadAll();
      const types = reader.columnTypes();
      // a result of no rows has no columns of values
      const columns = reader.getColumnsJS();
      return reader.columnNames().map((name, i) => ({ name, type: types[i]!.toString(), values: columns[i] ?? [] }));
    });
  }

  /**
   * Work on a connection of a lane, counted as a use of the store as a request is: a query can outlive the
   * request that asked for it (its client gone, its response closed), and a connection closed while its
   * query runs leaves DuckDB's thread waiting on a lock it holds itself, for ever (a libuv thread lost, and
   * process.exit() never returns: it joins that thread).
   */
  private async withConnection<T>(lane: Lane, work: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    this.retain();
    try {
      const conn = await this.lanes[lane].acquire();
      try {
        return await work(conn);
      } catch (err) {
        if (!outOfMemory(err)) throw err;
      } finally {
        this.lanes[lane].release(conn);
      }
      return await this.alone(work);
    } finally {
      this.release();
    }
  }

  /** The last work run alone (alone()); the next waits for it. */
  private lastAlone: Promise<unknown> = Promise.resolve();

  /**
   * Runs work alone: every connection of both lanes held, one such run at a time. For work that ran out of
   * DuckDB's memory, with the cached statements dropped too: the limit is shared by every connection, so a query
   * that fits on its own fails when others hold the rest at that moment (a few large searches at once), and a
   * plan with a top-N (ORDER BY ... LIMIT) keeps its last run's heap until its statement goes; work that fails
   * alone too needs more than the limit, and its error is the caller's. And for a cache drop (no query may run
   * at the lowered limit), the statements kept: dropped and prepared again after every drop, a second apart
   * through a burst of downloads, the soak's second heavy phase peaked higher than its first (npm run soak).
   */
  private alone<T>(work: (conn: DuckDBConnection) => Promise<T>, dropStatements = true): Promise<T> {
    const run = this.lastAlone.then(async () => {
      const held: Array<[ConnPool<DuckDBConnection>, DuckDBConnection]> = [];
      try {
        // the bulk lane first: a download's COPY may take a second, and lookups' queries must not wait behind it
        for (const lane of [this.lanes.bulk, this.lanes.light]) {
          for (let i = 0; i < lane.all.length; i++) held.push([lane, await lane.acquire()]);
        }
        if (dropStatements) {
          for (const [, conn] of held) {
            this.prepared.get(conn)?.clear();
          }
        }
        return await work(held[0]![1]);
      } finally {
        for (const [lane, conn] of held) lane.release(conn);
      }
    });
    this.lastAlone = run.catch(() => undefined);
    return run;
  }

  /**
   * The first row of a query's result as bytes, a value per column (BLOBs, e.g. encode(string_agg(...))): a
   * large text read without making it a JS string first. The result's native memory goes only when V8
   * collects it: keep each such result to a few MB.
   */
  bytes(sql: string, values: readonly Param[] = []): Promise<Buffer[]> {
    return this.withConnection('light', async (conn) => {
      const chunk = await (await conn.run(sql, bind(values))).fetchChunk();
      const out: Buffer[] = [];
      for (let c = 0; c < (chunk?.columnCount ?? 0); c++) {
        const bytes = (chunk!.getColumnVector(c) as DuckDBBlobVector).getItemBytes(0);
        out.push(bytes ? Buffer.from(bytes) : Buffer.alloc(0));  // copies
      }
      return out;
    });
  }

  /**
   * The store is loaded: DuckDB drops the blocks it cached for the loading reads, and is held to the serving
   * limit from now on. Results of those reads not yet collected by V8 are still DuckDB's: when they hold
   * more than a limit, that limit is not set (and nothing is dropped).
   */
  loaded(): Promise<void> {
    return this.withConnection('light', async (conn) => {
      for (const limit of ['64MB', MEMORY_LIMIT]) {
        try {
          await conn.run(`SET memory_limit = '${limit}'`);
        } catch {
          await conn.run(`SET memory_limit = '${LOADING_MEMORY_LIMIT}'`);
        }
      }
    });
  }


  /**
   * The connection's prepared statement for `sql`, prepared on first use; past the cap the least recently used
   * is destroyed (as is every one when its cache is cleared), which frees what DuckDB holds for it.
   */
  private async statement(conn: DuckDBConnection, sql: string): Promise<DuckDBPreparedStatement> {
    let cache = this.prepared.get(conn);
    if (!cache) this.prepared.set(conn, (cache = new LRUCache({ max: PREPARED_PER_CONNECTION, dispose: (s) => s.destroySync() })));
    const known = cache.get(sql);
    if (known) return known;
    const statement = await conn.prepare(sql);
    cache.set(sql, statement);
    return statement;
  }

  /**
   * A query's result written by DuckDB as a file (COPY ... TO ... (options)) in the bulk lane, once per key
   * for this build: bulk downloads are then served from disk. DuckDB writes the file without handing rows
   * to JS, which both saves the conversion and keeps the rows' native memory out of V8's reach.
   */
  exported(key: string, sql: string, values: readonly Param[], options: string): Promise<DerivedFile> {
    return this.files.get(key, (path) => this.withConnection('bulk', async (conn) => {
      // Not kept with the prepared statements: the text names a file written once.
      const statement = await conn.prepare(`COPY (${sql}) TO '${path.replaceAll("'", "''")}' (${options})`);
      try {
        statement.bind(bind(values));
        await statement.run();
      } finally {
        statement.destroySync();
        this.dropCacheSoon();
      }
    }));
  }

  /**
   * Downloads leave DuckDB holding memory beyond what its limit counts (the blocks it caches count, and are a
   * few MB): a few hundred distinct downloads left the process ~100 MB larger, which lowering the limit for a
   * moment gives back (npm run soak). So a second after a download (one drop pending at a time) it is done,
   * alone, after the download then running; queries asked meanwhile wait the few milliseconds it takes.
   */
  private dropCacheSoon(): void {
    if (this.dropping || this.closing || this.closed) return;
    this.dropping = setTimeout(() => {
      if (this.closing || this.closed) return;  // going: its DuckDB goes with it
      this.retain();
      this.alone((conn) => evictCache(conn, MEMORY_LIMIT), false)
        // refused (results not yet collected hold more than the lowered limit): the blocks stay until next time
        .catch(() => undefined)
        .finally(() => {
          this.dropping = null;
          this.release();
        });
    }, DROP_CACHE_AFTER_MS).unref();
  }

  /** A file derived from this build, written by `write` on first use (DerivedFiles.get). */
  derived(key: string, write: (path: string) => Promise<void>): Promise<DerivedFile> {
    return this.files.get(key, write);
  }

  /** Marks a use of this store (a request, or a query: withConnection); a store being replaced closes only after all have finished. */
  retain(): void {
    this.inFlight += 1;
  }

  release(): void {
    this.inFlight -= 1;
    if (this.inFlight === 0 && this.closing) this.closing();
  }

  /** Closes once nothing uses the store any more. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      const finish = () => {
        if (this.closed) return resolve();
        this.closed = true;
        for (const c of Object.values(this.lanes).flatMap((lane) => lane.all)) {
          this.prepared.get(c)?.clear();
          c.closeSync();
        }
        this.instance.closeSync();
        this.snapshotFile?.release();
        this.files.clear();
        resolve();
      };
      if (this.inFlight === 0) finish();
      else this.closing = finish;
    });
  }
}

/**
 * A batch is at most one DuckDB vector of rows, and about this many bytes of documents. Its query holds
 * several copies of the batch at once (string_agg's growing buffer, the encoded BLOB, the result): cut by
 * rows alone, a table of large documents (a release pair's changes) came back as one query of tens of MB,
 * and a few such queries at once on the pool took the loading buffer pool past its limit.
 */
const BATCH_ROWS = 2048;
const BATCH_BYTES = 2 << 20;

/**
 * Loads every document table, cut into batches by rowid that the pool's connections take from one queue:
 * each query runs on its own libuv thread, so DuckDB's scans overlap with the indexing done here, and the
 * large tables are spread over all connections. A batch comes back as one BLOB in PackedDocs' layout.
 */
async function loadDocs(connections: DuckDBConnection[], specs: DocSpec[]): Promise<Map<string, DocTable>> {
  const tables = new Map<string, { docs: PackedDocs; rows: number; loaded: number }>();
  const queue: Array<{ spec: DocSpec; from: number; to: number }> = [];
  // Batches run up to max(rowid), not count(*): rowids of a table written once run 0..n-1, but a gap must
  // not lose rows. One query for all tables: each round trip waits for a turn of the busy main thread.
  const sizes = new Map((await connections[0]!.runAndReadAll(specs.map((spec) =>
    `SELECT '${spec.table}', count(*)::DOUBLE, coalesce(max(rowid) + 1, 0)::DOUBLE,
       coalesce(sum(strlen(CAST(${spec.doc} AS VARCHAR))), 0)::DOUBLE FROM main."${spec.table}" AS t`).join(' UNION ALL ')))
    .getRows().map(([table, rows, end, bytes]) => [table as string, [rows as number, end as number, bytes as number]]));
  for (const spec of specs) {
    const [rows, end, bytes] = sizes.get(spec.table)!;
    tables.set(spec.table, { docs: new PackedDocs(spec.compressed ? await dictionarySample(connections[0]!, spec, end) : null), rows, loaded: 0 });
    const perRow = rows > 0 ? bytes / rows : 0;
    const step = perRow > 0 ? Math.max(1, Math.min(BATCH_ROWS, Math.floor(BATCH_BYTES / perRow))) : BATCH_ROWS;
    for (let from = 0; from < end; from += step) queue.push({ spec, from, to: from + step });
  }
  // On a failure the queue is emptied and the other connections finish the query they are running before
  // the caller closes them (closing a connection while its query runs can hang).
  const settled = await Promise.allSettled(connections.map(async (conn) => {
    for (let task = queue.shift(); task; task = queue.shift()) {
      const { spec, from, to } = task;
      const key = spec.key.map((k) => `CAST(t."${k}" AS VARCHAR)`).join(" || '|' || ");
      const doc = `CAST(${spec.doc} AS VARCHAR)`;
      const result = await conn.run(`
        SELECT encode(string_agg(${key} || chr(0) || strlen(${doc})::VARCHAR || chr(0) || ${doc}, ''))
        FROM main."${spec.table}" AS t WHERE rowid >= ${from} AND rowid < ${to}`).catch((err: unknown) => {
        queue.length = 0;
        throw err;
      });
      const bytes = ((await result.fetchChunk())?.getColumnVector(0) as DuckDBBlobVector | undefined)?.getItemBytes(0);
      const table = tables.get(spec.table)!;
      if (!bytes) continue;
      table.loaded += table.docs.addBatch(table.docs.compressBatch(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
    }
  }));
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  const docs = new Map<string, DocTable>();
  for (const [name, table] of tables) {
    if (table.loaded !== table.rows) throw new Error(`read model ${name}: loaded ${table.loaded} of ${table.rows} documents`);
    docs.set(name, table.docs.seal());
  }
  return docs;
}

/** A compressed table's dictionary: documents spread evenly over the table (rowid order), so always the same. */
async function dictionarySample(conn: DuckDBConnection, spec: DocSpec, end: number): Promise<Buffer> {
  const step = Math.max(1, Math.floor(end / 64));
  const rows = (await conn.runAndReadAll(`SELECT CAST(${spec.doc} AS VARCHAR) FROM main."${spec.table}" AS t WHERE rowid % ${step} = 0 ORDER BY rowid LIMIT 64`)).getRows();
  return dictionaryOf(rows.map(([doc]) => Buffer.from(String(doc))));
}

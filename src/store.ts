// The read side: one opened build of data/taxonomy.duckdb. Point lookups are answered from pre-rendered
// JSON documents held in memory (a Map read is ~100x cheaper than a DuckDB point query, which re-plans
// on every execution); searches, filters and bulk downloads go to a small pool of read-only connections.
// This is the only module that imports @duckdb/node-api.
import { DuckDBBlobVector, DuckDBConnection, DuckDBInstance, listValue, type DuckDBValue } from '@duckdb/node-api';
import { PackedDocs } from './packed-docs.js';

export type Row = Record<string, unknown>;

/** A document table: key columns joined with '|' (lower-cased by the projection) -> JSON text. */
export interface DocSpec {
  table: string;
  key: string[];
  /** SQL for the document over the table aliased t: a JSON text column, or e.g. to_json(t) for a whole row. */
  doc: string;
}

/** A value bound to a query parameter; arrays become DuckDB lists. */
export type Param = DuckDBValue | readonly string[] | readonly number[];

/** DuckDB's buffer pool for searches and bulk downloads; documents are held outside it. */
const MEMORY_LIMIT = '256MB';

const bind = (values: readonly Param[]): DuckDBValue[] =>
  values.map((v) => (Array.isArray(v) ? listValue(v as DuckDBValue[]) : (v as DuckDBValue)));

export class Store {
  private readonly idle: DuckDBConnection[] = [];
  private readonly waiting: Array<(c: DuckDBConnection) => void> = [];
  private inFlight = 0;
  private closing: (() => void) | null = null;
  private closed = false;

  private constructor(
    private readonly instance: DuckDBInstance,
    connections: DuckDBConnection[],
    readonly file: string,
    readonly buildId: string,
    private readonly docs: Map<string, PackedDocs>,
    private readonly lists: Map<string, Row[]>,
  ) {
    this.idle.push(...connections);
  }

  /** docs: keyed documents; lists: small query results every request may need (the releases). */
  static async open(file: string, opts: { pool: number; docs: DocSpec[]; lists?: Record<string, string> }): Promise<Store> {
    // threads=1: requests run side by side on the pool, so one query never takes both cores from the rest.
    const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY', threads: '1', memory_limit: MEMORY_LIMIT });
    const connections: DuckDBConnection[] = [];
    try {
      for (let i = 0; i < opts.pool; i++) connections.push(await instance.connect());
      const conn = connections[0]!;
      const build = (await conn.runAndReadAll('SELECT build_id FROM src.build_info')).getRows()[0]?.[0];
      // Each query runs on its own libuv thread, so loading tables on every connection at once overlaps
      // DuckDB's scanning with the copying done here.
      const docs = new Map<string, PackedDocs>();
      const queue = [...opts.docs];
      await Promise.all(connections.map(async (c) => {
        for (let spec = queue.shift(); spec; spec = queue.shift()) docs.set(spec.table, await loadDocs(c, spec));
      }));
      const lists = new Map<string, Row[]>();
      for (const [name, sql] of Object.entries(opts.lists ?? {})) lists.set(name, (await conn.runAndReadAll(sql)).getRowObjectsJson() as Row[]);
      // Loading read every document table once; DuckDB keeps those blocks cached (~160 MB) although no
      // request reads them again. Lowering the limit for a moment evicts them; searches re-read what they need.
      await conn.run("SET memory_limit = '16MB'");
      await conn.run(`SET memory_limit = '${MEMORY_LIMIT}'`);
      return new Store(instance, connections, file, String(build), docs, lists);
    } catch (err) {
      for (const c of connections) c.closeSync();
      instance.closeSync();
      throw err;
    }
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

  docCount(table: string): number {
    return this.docs.get(table)?.size ?? 0;
  }

  /** Runs a read query with bound values; rows come back JSON-ready (BIGINT as string, dates as ISO). */
  async query<T = Row>(sql: string, values: readonly Param[] = []): Promise<T[]> {
    const conn = await this.acquire();
    try {
      const reader = await conn.runAndReadAll(sql, bind(values));
      return reader.getRowObjectsJson() as T[];
    } finally {
      this.releaseConnection(conn);
    }
  }

  /** Streams a large result chunk by chunk (bulk downloads) without holding it all in memory. */
  async *stream(sql: string, values: readonly Param[] = []): AsyncGenerator<Row[]> {
    const conn = await this.acquire();
    try {
      const result = await conn.stream(sql, bind(values));
      for await (const rows of result.yieldRowObjectJson()) yield rows;
    } finally {
      this.releaseConnection(conn);
    }
  }

  /** Marks a request as using this store; a store being replaced closes only after all have finished. */
  retain(): void {
    this.inFlight += 1;
  }

  release(): void {
    this.inFlight -= 1;
    if (this.inFlight === 0 && this.closing) this.closing();
  }

  /** Closes once no request uses the store any more. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      const finish = () => {
        if (this.closed) return resolve();
        this.closed = true;
        for (const c of this.idle) c.closeSync();
        this.instance.closeSync();
        resolve();
      };
      if (this.inFlight === 0) finish();
      else this.closing = finish;
    });
  }

  private acquire(): Promise<DuckDBConnection> {
    const conn = this.idle.pop();
    if (conn) return Promise.resolve(conn);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private releaseConnection(conn: DuckDBConnection): void {
    const next = this.waiting.shift();
    if (next) next(conn);
    else this.idle.push(conn);
  }
}

async function loadDocs(conn: DuckDBConnection, spec: DocSpec): Promise<PackedDocs> {
  const docs = new PackedDocs();
  const key = spec.key.map((k) => `CAST(t."${k}" AS VARCHAR)`).join(" || '|' || ");
  // Key and document come as one BLOB of UTF-8 bytes, "key NUL document": reading a value out of DuckDB
  // costs a native call each, and this halves them (~270k documents). The document part is copied
  // straight into the packed buffers, never decoded into a JS string.
  const result = await conn.stream(`SELECT encode(${key} || chr(0) || CAST(${spec.doc} AS VARCHAR)) FROM main."${spec.table}" AS t`);
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const column = chunk.getColumnVector(0) as DuckDBBlobVector;
    for (let i = 0; i < chunk.rowCount; i++) {
      const bytes = column.getItemBytes(i)!;
      const end = bytes.indexOf(0);
      docs.add(decoder.decode(bytes.subarray(0, end)), bytes.subarray(end + 1));
    }
  }
  return docs.seal();
}

const decoder = new TextDecoder();

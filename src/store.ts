// The read side: one opened build of data/taxonomy.duckdb. Point lookups are answered from pre-rendered
// JSON documents held in memory (a Map read is ~100x cheaper than a DuckDB point query, which re-plans
// on every execution); searches, filters and bulk downloads go to a small pool of read-only connections.
// This is the only module that imports @duckdb/node-api.
import { DuckDBConnection, DuckDBInstance, listValue, type DuckDBValue } from '@duckdb/node-api';

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
    private readonly docs: Map<string, Map<string, string>>,
    private readonly lists: Map<string, Row[]>,
  ) {
    this.idle.push(...connections);
  }

  /** docs: keyed documents; lists: small query results every request may need (the releases). */
  static async open(file: string, opts: { pool: number; docs: DocSpec[]; lists?: Record<string, string> }): Promise<Store> {
    // threads=1: requests run side by side on the pool, so one query never takes both cores from the rest.
    const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY', threads: '1', memory_limit: '256MB' });
    const connections: DuckDBConnection[] = [];
    try {
      for (let i = 0; i < opts.pool; i++) connections.push(await instance.connect());
      const conn = connections[0]!;
      const build = (await conn.runAndReadAll('SELECT build_id FROM src.build_info')).getRows()[0]?.[0];
      const docs = new Map<string, Map<string, string>>();
      for (const spec of opts.docs) docs.set(spec.table, await loadDocs(conn, spec));
      const lists = new Map<string, Row[]>();
      for (const [name, sql] of Object.entries(opts.lists ?? {})) lists.set(name, (await conn.runAndReadAll(sql)).getRowObjectsJson() as Row[]);
      return new Store(instance, connections, file, String(build), docs, lists);
    } catch (err) {
      for (const c of connections) c.closeSync();
      instance.closeSync();
      throw err;
    }
  }

  /** A pre-rendered document, or undefined. Keys are the DocSpec key values joined with '|'. */
  doc(table: string, ...key: Array<string | number>): string | undefined {
    return this.docs.get(table)?.get(key.join('|'));
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

async function loadDocs(conn: DuckDBConnection, spec: DocSpec): Promise<Map<string, string>> {
  const map = new Map<string, string>();
  const key = spec.key.map((k) => `CAST(t."${k}" AS VARCHAR)`).join(" || '|' || ");
  const result = await conn.stream(`SELECT ${key} AS k, CAST(${spec.doc} AS VARCHAR) AS d FROM main."${spec.table}" AS t`);
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const keys = chunk.getColumnVector(0);
    const docs = chunk.getColumnVector(1);
    for (let i = 0; i < chunk.rowCount; i++) map.set(String(keys.getItem(i)), String(docs.getItem(i)));
  }
  return map;
}

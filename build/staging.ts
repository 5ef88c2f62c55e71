// The build's scratch database: readers' rows are appended into raw_* tables, the SQL under build/sql turns
// them into the published tables, and those are copied out as Parquet. In memory: nothing here is kept.
import { readFileSync } from 'node:fs';
import {
  BIGINT, DuckDBConnection, DuckDBInstance, LIST, VARCHAR, type DuckDBAppender,
} from '@duckdb/node-api';

export type ColumnType = 'VARCHAR' | 'INTEGER' | 'BIGINT' | 'BOOLEAN' | 'DOUBLE' | 'VARCHAR[]' | 'BIGINT[]';
export type Columns<T> = ReadonlyArray<readonly [name: string, type: ColumnType, get: (row: T) => unknown]>;

const VARCHAR_LIST = LIST(VARCHAR);
const BIGINT_LIST = LIST(BIGINT);

export class Staging {
  private constructor(readonly instance: DuckDBInstance, readonly conn: DuckDBConnection) {}

  static async open(path = ':memory:'): Promise<Staging> {
    const instance = await DuckDBInstance.create(path);
    return new Staging(instance, await instance.connect());
  }

  /** Creates `table` and appends `rows`, taking each column's value with its getter. */
  async load<T>(table: string, columns: Columns<T>, rows: Iterable<T>): Promise<void> {
    const ddl = columns.map(([name, type]) => `"${name}" ${type}`).join(', ');
    await this.conn.run(`CREATE OR REPLACE TABLE "${table}" (${ddl})`);
    const appender = await this.conn.createAppender(table);
    try {
      for (const row of rows) {
        for (const [name, type, get] of columns) append(appender, type, get(row), `${table}.${name}`);
        appender.endRow();
      }
      appender.flushSync();
    } finally {
      appender.closeSync();
    }
  }

  /** Runs a SQL file (several statements allowed). */
  async runFile(path: string, params: Record<string, string> = {}): Promise<void> {
    let sql = readFileSync(path, 'utf8');
    // Only build-controlled paths are substituted (never user input): COPY targets cannot be bound.
    for (const [k, v] of Object.entries(params)) sql = sql.replaceAll(`{{${k}}}`, v.replaceAll("'", "''"));
    await this.conn.run(sql);
  }

  async all<T = Record<string, unknown>>(sql: string, values: unknown[] = []): Promise<T[]> {
    const reader = await this.conn.runAndReadAll(sql, values as never);
    return reader.getRowObjectsJson() as T[];
  }

  close(): void {
    this.conn.closeSync();
    this.instance.closeSync();
  }
}

function append(a: DuckDBAppender, type: ColumnType, v: unknown, column: string): void {
  if (v === null || v === undefined) return a.appendNull();
  switch (type) {
    case 'VARCHAR': return a.appendVarchar(String(v));
    case 'INTEGER': return a.appendInteger(asNumber(v, column));
    case 'BIGINT': return a.appendBigInt(BigInt(asNumber(v, column)));
    case 'DOUBLE': return a.appendDouble(asNumber(v, column));
    case 'BOOLEAN': return a.appendBoolean(Boolean(v));
    case 'VARCHAR[]': return a.appendList((v as unknown[]).map(String), VARCHAR_LIST);
    case 'BIGINT[]': return a.appendList((v as unknown[]).map((x) => BigInt(asNumber(x, column))), BIGINT_LIST);
  }
}

function asNumber(v: unknown, column: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`staging ${column}: expected a number, got ${JSON.stringify(v)}`);
  return v;
}

// Answers as Apache Arrow IPC streams (application/vnd.apache.arrow.stream): columns with their types, read
// by pyarrow, polars, R's arrow or DuckDB itself without parsing text. A bulk download's columns come from
// DuckDB with their SQL types; a page of a comparison's changes from the documents it is made of.
import {
  Bool, Field, Int16, Int32, Int64, List, makeBuilder, Schema, Table, tableToIPC, Utf8, vectorFromArray, Float64, type DataType, type Vector,
} from 'apache-arrow';

/** The IANA-registered media type of the Arrow IPC stream format, and the extension Apache gives its files. */
export const ARROW_STREAM = { type: 'application/vnd.apache.arrow.stream', ext: 'arrows' } as const;

/** A column to write: its name, its type as DuckDB's SQL writes it (VARCHAR, INTEGER, VARCHAR[] ...), its values. */
export interface Column {
  name: string;
  type: string;
  values: readonly unknown[];
}

const SCALARS: Record<string, () => DataType> = {
  VARCHAR: () => new Utf8(), INTEGER: () => new Int32(), SMALLINT: () => new Int16(), BIGINT: () => new Int64(),
  BOOLEAN: () => new Bool(), DOUBLE: () => new Float64(),
};

/** The Arrow type of a SQL type; a type no answer has yet is an error, so that a new one is mapped on purpose. */
function arrowType(sql: string): DataType {
  const list = /^(.*)\[\]$/.exec(sql);
  if (list) return new List(new Field('item', arrowType(list[1]!), true));
  const scalar = SCALARS[sql];
  if (!scalar) throw new Error(`arrow: no Arrow type for the SQL type ${sql}`);
  return scalar();
}

/** The columns as one Arrow IPC stream; `metadata` goes in its schema (what a JSON answer says around its rows). */
export function arrowStream(columns: readonly Column[], metadata: Record<string, string> = {}): Uint8Array {
  const vectors: Record<string, Vector> = {};
  for (const c of columns) {
    const type = arrowType(c.type);
    // vectorFromArray of no values fails (it builds no chunk to return): a column of no rows is built empty
    vectors[c.name] = c.values.length > 0 ? vectorFromArray(c.values as unknown[], type) : makeBuilder({ type, nullValues: [null] }).finish().toVector();
  }
  const table = new Table(vectors);
  const schema = new Schema(table.schema.fields, new Map(Object.entries(metadata)));
  return tableToIPC(new Table(schema, table.batches), 'stream');
}

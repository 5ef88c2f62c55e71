// The data dictionary of the published Parquet tables (data/dictionary.yaml): every column of every table with
// its type, meaning and provenance. Read once; test/data-dictionary.test.ts holds it to the real Parquet files.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { projectRoot } from '../shared/project-root.js';

export interface DictionaryColumn {
  name: string;
  type: string;
  meaning: string;
  provenance: string;
}

export interface DictionaryTable {
  name: string;
  description: string;
  provenance: string;
  columns: DictionaryColumn[];
}

interface DictionaryFile {
  tables: Record<string, { description: string; provenance: string; columns: Record<string, Omit<DictionaryColumn, 'name'>> }>;
}

export const DICTIONARY_FILE = join(projectRoot(), 'data', 'dictionary.yaml');

let cached: { tables: DictionaryTable[] } | null = null;

/** The dictionary as served: tables and their columns in the file's order. */
export function dataDictionary(): { tables: DictionaryTable[] } {
  if (!cached) {
    // The file shares definitions between columns with YAML anchors (every rank column means the same).
    const file = parse(readFileSync(DICTIONARY_FILE, 'utf8'), { maxAliasCount: -1 }) as DictionaryFile;
    cached = {
      tables: Object.entries(file.tables).map(([name, t]) => ({
        name, description: t.description, provenance: t.provenance,
        columns: Object.entries(t.columns).map(([column, c]) => ({ name: column, type: c.type, meaning: c.meaning, provenance: c.provenance })),
      })),
    };
  }
  return cached;
}

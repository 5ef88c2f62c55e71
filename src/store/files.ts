// The files of one built data set, by the names the build writes them under and the store reads them by.
// The build (build/) and the server both take the names from here.

/** The database of read models. */
export const DB_FILE = 'taxonomy.duckdb';
/** Beside the database: `{ build_id, bytes, crc32 }` of the file as its build wrote it (checksum.ts). */
export const DB_CHECKSUM_FILE = 'taxonomy.duckdb.sum';
/** The build's snapshot of the server's documents and in-memory indexes (snapshot-file.ts). */
export const DOC_SNAPSHOT_FILE = 'documents.bin';
/** The build's report: counts, checks, quality figures. */
export const REPORT_FILE = 'build-report.json';
/** The build's printed summary of its report. */
export const SUMMARY_FILE = 'build-report.txt';
/** The generation before the published one: what the server opens when the published database is damaged. */
export const PREVIOUS_DIR = 'previous';

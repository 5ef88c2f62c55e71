// A synthetic next ICTV release, made from the latest real one as ICTV would ship it: the latest release's
// spreadsheet with its Version sheet naming the next release and year, every taxon's taxnode id moved to the
// next release's, and four changes, each recorded as ICTV records it: a species renamed (Last Change
// "Renamed," and a row of "Taxa Renamed or Abolished"), a new species in a new genus ("New,"), two species of
// one genus merged into the first ("Merged,", the second gone), and a species abolished (gone, with its
// "Abolished" row). Its Taxon Counts sheet totals the result. `broken` leaves a column out, as a layout
// change the readers do not know would.
import * as XLSX from '@e965/xlsx';

export interface NextRelease {
  bytes: Buffer;
  msl: number;
  year: number;
  renamed: { from: string; to: string };
  added: { species: string; genus: string; family: string };
  merged: { into: string; gone: string };
  abolished: string;
  /** Species of the new release. */
  species: number;
  /** Distinct taxa by rank column (Realm .. Species), as its Taxon Counts sheet totals them. */
  totals: Record<string, number>;
}

type Row = Array<XLSX.CellObject | undefined>;

const RANKS = ['Realm', 'Subrealm', 'Kingdom', 'Subkingdom', 'Phylum', 'Subphylum', 'Class', 'Subclass', 'Order', 'Suborder',
  'Family', 'Subfamily', 'Genus', 'Subgenus', 'Species'];

const text = (c: XLSX.CellObject | undefined) => (c?.v === undefined || c.v === null ? null : String(c.v));
const str = (v: string): XLSX.CellObject => ({ t: 's', v });
const num = (v: number): XLSX.CellObject => ({ t: 'n', v });

function rowsOf(ws: XLSX.WorkSheet): Row[] {
  const range = XLSX.utils.decode_range(ws['!ref']!);
  const rows: Row[] = [];
  for (let r = range.s.r; r <= range.e.r; r++) {
    const row: Row = [];
    for (let c = 0; c <= range.e.c; c++) row.push(ws[XLSX.utils.encode_cell({ r, c })] as XLSX.CellObject | undefined);
    rows.push(row);
  }
  return rows;
}

function sheetOf(rows: Row[]): XLSX.WorkSheet {
  const ws: XLSX.WorkSheet = {};
  let maxC = 0;
  rows.forEach((row, r) => row.forEach((cell, c) => {
    if (!cell) return;
    ws[XLSX.utils.encode_cell({ r, c })] = { ...cell };
    maxC = Math.max(maxC, c);
  }));
  ws['!ref'] = XLSX.utils.encode_range({ s: { r: 0, c: 0 }, e: { r: rows.length - 1, c: maxC } });
  return ws;
}

/** The next release after the one whose spreadsheet is `latest` (MSL<msl>, of `year`). */
export function nextRelease(latest: Buffer, msl: number, year: number, opts: { broken?: boolean } = {}): NextRelease {
  const next = msl + 1;
  const nextYear = year + 1;
  const wb = XLSX.read(latest, { type: 'buffer', cellFormula: true });

  const version = wb.Sheets.Version!;
  for (const key of Object.keys(version)) {
    const cell = version[key] as XLSX.CellObject;
    if (key.startsWith('!') || typeof cell.v !== 'string') continue;
    if (/Master Species List \(MSL\d+\)/.test(cell.v)) version[key] = str(`ICTV ${nextYear} Master Species List (MSL${next})`);
  }

  const rows = rowsOf(wb.Sheets.MSL!);
  const header = rows[0]!.map((c) => text(c) ?? '');
  const col = (name: string) => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`the MSL sheet has no column ${name}`);
    return i;
  };
  const [species, genus, family, ictvId, lastChange, mslOfChange, proposal] =
    ['Species', 'Genus', 'Family', 'ICTV_ID', 'Last Change', 'MSL of Last Change', 'Proposal for Last Change '].map(col) as number[];
  const lineage = (row: Row, name = text(row[species!])) => [...RANKS.slice(0, -1).map((r) => text(row[col(r)])), name].filter((x) => x !== null).join(';');
  const changed = (row: Row, change: string, file: string) => {
    row[lastChange!] = str(change);
    row[mslOfChange!] = num(next);
    row[proposal!] = str(file);
  };
  // Every taxnode id of the release moves to the next release's (ICTV numbers them by year).
  for (const row of rows.slice(1)) {
    const cell = row[ictvId!];
    if (cell?.f) row[ictvId!] = { ...cell, f: cell.f.replace(/taxnode_id=(\d{4})/, `taxnode_id=${nextYear}`) };
  }
  const body = rows.slice(1).filter((r) => text(r[species!]) !== null);
  const renames: unknown[][] = [['ICVD_ID', 'Rank', 'Change', 'Old Name', 'New Name', 'proposal']];

  // A species renamed, in a genus of several species so that the genus stays: its epithet changes.
  const byGenus = new Map<string, Row[]>();
  for (const r of body) byGenus.set(text(r[genus!]) ?? '', [...(byGenus.get(text(r[genus!]) ?? '') ?? []), r]);
  const bigGenera = [...byGenus.entries()].filter(([g, rs]) => g !== '' && rs.length >= 4).map(([, rs]) => rs);
  const [r1, mergeInto, mergeGone, r4] = [bigGenera[0]![0]!, bigGenera[1]![0]!, bigGenera[1]![1]!, bigGenera[2]![0]!];
  const from = text(r1[species!])!;
  const to = `${from.split(' ')[0]} synthetica`;
  renames.push([text(r1[ictvId!]), 'species', 'Renamed', lineage(r1), lineage(r1, to), `${nextYear}.001S.rename.zip`]);
  r1[species!] = str(to);
  changed(r1, 'Renamed,', `${nextYear}.001S.rename.zip`);

  // Two species of one genus merged into the first, which keeps its ICTV id; the second is gone.
  changed(mergeInto, 'Merged,', `${nextYear}.002S.merge.zip`);
  // A species abolished: gone, with its row in the change list.
  renames.push([text(r4[ictvId!]), 'species', 'Abolished', lineage(r4), null, `${nextYear}.003S.abolish.zip`]);
  const gone = new Set([mergeGone, r4]);

  // A new species in a new genus of the renamed species' family, with its creation taxnode as ICTV id.
  const template = r1;
  const taxnode = nextYear * 100_000 + 99_001;
  const added: Row = template.map((c) => (c ? { ...c } : undefined));
  const newGenus = 'Novagenvirus';
  added[genus!] = str(newGenus);
  const subgenus = col('Subgenus');
  added[subgenus] = undefined;
  added[species!] = str(`${newGenus} primus`);
  added[ictvId!] = { t: 's', v: `ICTV${taxnode}`, f: `HYPERLINK("https://ictv.global/taxonomy/taxondetails?taxnode_id=${taxnode}&ictv_id=ICTV${taxnode}","ICTV${taxnode}")` };
  changed(added, 'New,', `${nextYear}.004S.newgenus.zip`);

  const kept = [...body.filter((r) => !gone.has(r)), added];
  kept.forEach((r, i) => { r[col('Sort')] = num(i + 1); });
  let out = [rows[0]!, ...kept];
  if (opts.broken) {
    // a layout the readers do not know: the Genus column is gone
    out = out.map((r) => r.filter((_, c) => c !== genus));
  }
  wb.Sheets.MSL = sheetOf(out);

  const totals: Record<string, number> = {};
  for (const rank of RANKS) totals[rank] = new Set(kept.map((r) => text(r[col(rank)])).filter((x) => x !== null)).size;
  const before: Record<string, number> = {};
  for (const rank of RANKS) before[rank] = new Set(body.map((r) => text(r[col(rank)])).filter((x) => x !== null)).size;
  const changes: Record<string, [number, number, number, number]> = { Genus: [1, 0, 0, 0], Species: [1, -1, -1, 1] };
  wb.Sheets['Taxon Counts'] = XLSX.utils.aoa_to_sheet([
    [null, `MSL${next}v1`],
    [null, 'Rank', `MSL${msl} Total`, 'New', 'Abolished', 'Merged', 'Renamed', `MSL.${next} Total`],
    ...RANKS.map((rank) => [null, rank, before[rank], ...(changes[rank] ?? [0, 0, 0, 0]), totals[rank]]),
  ]);
  wb.Sheets['Taxa Renamed or Abolished'] = XLSX.utils.aoa_to_sheet(renames);

  return {
    bytes: XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer,
    msl: next, year: nextYear,
    renamed: { from, to },
    added: { species: `${newGenus} primus`, genus: newGenus, family: text(template[family!]) ?? '' },
    merged: { into: text(mergeInto[species!])!, gone: text(mergeGone[species!])! },
    abolished: text(r4[species!])!,
    species: kept.length,
    totals,
  };
}

// The species lineages the resolver walks (src/read/species-walks.ts), held compactly, against the documents
// they stand in for (history_doc): for every lineage of the real build, the same entries, names, changes,
// proposals, species split off, beginning and ending as the walk reads them from the document; and the history
// documents such that an answer can splice them in as they are.
import { expect } from 'chai';
import { join } from 'node:path';
import { DB_FILE } from '../src/store/files.js';
import { defaultPaths } from '../build/paths.js';
import { openStore } from '../src/read/documents.js';
import { lineageDoc, mslOf } from '../src/read/lineages.js';
import { lineageOutline, renamesIn, speciesWalksLoaded } from '../src/read/species-walks.js';
import type { Store } from '../src/store/store.js';
import { realBuild } from './support/data.js';

describe('species walks (compact lineages) against history_doc, and the documents as sent', function () {
  let store: Store;
  before(async function () {
    await realBuild();
    store = await openStore(join(defaultPaths().dataDir, DB_FILE), 2);
  });
  after(async () => store?.close());

  it('outlines every lineage for /ai as its document does: span, names, beginning, ending, names and lineages by release', async function () {
    await speciesWalksLoaded(store);
    const ids = (await store.query<{ id: number }>('SELECT lineage_id::INTEGER AS id FROM main.history_doc ORDER BY lineage_id')).map((r) => r.id);
    const differ: number[] = [];
    for (const id of ids) {
      const { timeline, lineage_id, first_appearance, last_appearance, current_name, names, began, ended, split_from, merged_from, merged_into, split_into, abolished_in } = lineageDoc(store, id);
      const fromDoc = { lineage_id, first_appearance, last_appearance, current_name, names, began, ended, split_from, merged_from, merged_into, split_into, abolished_in,
        timeline: timeline.map((t) => ({ version: t.version, name: t.name, lineage: t.lineage })) };
      if (JSON.stringify(lineageOutline(store, id)) !== JSON.stringify(fromDoc)) differ.push(id);
    }
    expect(differ.slice(0, 5)).to.deep.equal([]);
  });

  it('holds every lineage of history_doc, each as its document gives it', async function () {
    const walks = (await speciesWalksLoaded(store))!;
    expect(walks, 'the walks loaded').to.not.equal(null);
    const ids = (await store.query<{ id: number }>('SELECT lineage_id::INTEGER AS id FROM main.history_doc ORDER BY lineage_id')).map((r) => r.id);
    expect(walks.size).to.equal(ids.length);
    const above = (lineage: string) => lineage.split(';').slice(0, -1).join(';');
    let splits = 0, renames = 0;
    for (const id of ids) {
      const d = lineageDoc(store, id);
      const w = walks.get(id);
      const fromDoc = {
        entries: d.timeline.map((t) => ({
          msl: mslOf(t.version), version: t.version, name: t.name, parent: above(t.lineage), change: t.change, proposal: t.proposal, split_off: t.split_off ?? [],
        })),
        first: mslOf(d.first_appearance), last: mslOf(d.last_appearance),
        began: d.began, began_from: d.began === 'split' ? d.split_from : d.began === 'merged' ? d.merged_from : [],
        ended: d.ended,
        ended_in: d.ended === 'current' ? null : d.abolished_in ?? `MSL${mslOf(d.last_appearance) + 1}`,
        into: d.ended === 'merged' ? d.merged_into : d.ended === 'split' ? d.split_into : [],
      };
      expect(w, `lineage ${id}`).to.deep.equal(fromDoc);
      expect(walks.summary(id), `lineage ${id}`).to.deep.equal({ first: fromDoc.first, last: fromDoc.last, names: d.names, current_name: d.current_name });
      // the light reads, without the entries: renames, and the name in a release listed, one before and one after
      expect(walks.renames(id), `lineage ${id}`).to.deep.equal(renamesIn(d.timeline));
      renames += walks.renames(id)!.length;
      const listed = fromDoc.entries.map((e) => e.msl);
      const span = { first: listed[0], last: listed[listed.length - 1] };
      for (const msl of [listed[Math.floor(listed.length / 2)]!, span.first! - 1, span.last! + 1]) {
        expect(walks.placeOf(id, msl), `lineage ${id} in MSL${msl}`).to.deep.equal({ ...span, name: fromDoc.entries.find((e) => e.msl === msl)?.name ?? null });
      }
      splits += fromDoc.entries.filter((e) => e.split_off.length > 0).length;
    }
    // the comparison covered the rarer fields and cases too
    expect(splits).to.be.greaterThan(0);
    expect(renames).to.be.greaterThan(0);
    expect(walks.get(-1)).to.equal(undefined);
    expect(walks.placeOf(-1, 1)).to.equal(undefined);
    expect(walks.renames(-1)).to.equal(undefined);
  });

  // GET /api/v1/history sends the lineage documents as they are held (history.ts): the same bytes res.json
  // gave only if every document is what JSON.stringify writes for it
  it('holds history documents that JSON.stringify writes back byte for byte', async function () {
    for (const [table, key] of [['history_doc', 'lineage_id'], ['taxon_history_doc', 'taxon_id']] as const) {
      const ids = (await store.query<{ id: number }>(`SELECT ${key}::INTEGER AS id FROM main.${table}`)).map((r) => r.id);
      expect(ids.length, table).to.be.greaterThan(0);
      const changed = ids.filter((id) => {
        const text = store.doc(table, id)!.toString('utf8');
        return JSON.stringify(JSON.parse(text)) !== text;
      });
      expect(changed, `${table} documents that JSON.stringify writes otherwise`).to.deep.equal([]);
    }
  });
});

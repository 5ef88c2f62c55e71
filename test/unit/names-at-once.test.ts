import { expect } from 'chai';
import { NamesAtOnce } from '../../src/read/names-at-once.js';

/** Lets the promises settled so far run their continuations. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('names at once: the names the resolve batches hold between them', () => {
  it('starts batches while their names fit, the rest in order of arrival as room is freed', async () => {
    const gate = new NamesAtOnce(10);
    const started: string[] = [];
    const leave = new Map<string, () => void>();
    const enter = (name: string, names: number) => void gate.enter(names).then((l) => { started.push(name); leave.set(name, l); });
    enter('a', 6);
    enter('b', 4);
    enter('c', 5);
    // d would fit beside a and b's remainder, but waits behind c: a large batch is not passed over
    enter('d', 1);
    await settle();
    expect(started).to.deep.equal(['a', 'b']);
    expect(gate.queued).to.equal(2);
    leave.get('b')!();
    await settle();
    expect(started, 'c needs 5, 4 are free').to.deep.equal(['a', 'b']);
    leave.get('a')!();
    await settle();
    expect(started).to.deep.equal(['a', 'b', 'c', 'd']);
    expect(gate.queued).to.equal(0);
  });

  it('runs a batch larger than the room when it is alone, and frees its room once however often it leaves', async () => {
    const gate = new NamesAtOnce(10);
    const big = await gate.enter(25);
    let small = false;
    void gate.enter(1).then(() => { small = true; });
    await settle();
    expect(small).to.equal(false);
    big();
    big();
    await settle();
    expect(small).to.equal(true);
    const other = await gate.enter(9);
    other();
  });
});

import { expect } from 'chai';
import { Recent } from '../src/read/recent.js';

describe('Recent: the answers last computed, kept by weight', () => {
  it('keeps the last half to all of its capacity, and a value used again outlives those that were not', () => {
    const recent = new Recent<number>(10);
    for (let i = 0; i < 5; i++) recent.set(`k${i}`, i);
    // the young half is full: k5 turns it over, and k0..k4 are still kept (the old half)
    recent.set('k5', 5);
    expect([0, 1, 2, 3, 4, 5].map((i) => recent.get(`k${i}`))).to.deep.equal([0, 1, 2, 3, 4, 5]);
    const again = new Recent<number>(10);
    for (let i = 0; i < 6; i++) again.set(`k${i}`, i);
    expect(again.get('k0'), 'k0, from the old half').to.equal(0);
    for (let i = 6; i < 10; i++) again.set(`k${i}`, i);
    // k5, k0 (used again), k6..k8 filled the young half; k9 turns it over and the old half (k1..k4) goes
    expect(again.get('k1'), 'k1, not used again').to.equal(undefined);
    expect(again.get('k4')).to.equal(undefined);
    expect(again.get('k0'), 'k0, used again').to.equal(0);
    expect(again.get('k9')).to.equal(9);
  });

  it('weighs values: a heavy one turns the young half over by itself', () => {
    const recent = new Recent<string>(4, (s) => s.length);
    recent.set('a', 'xxxxxxxx');
    expect(recent.get('a')).to.equal('xxxxxxxx');
    recent.set('b', 'y');
    recent.set('c', 'z');
    recent.set('d', 'w');
    expect(recent.get('a'), 'two turnovers ago').to.equal(undefined);
    expect(recent.get('b')).to.equal('y');
    expect(recent.get('d')).to.equal('w');
  });
});

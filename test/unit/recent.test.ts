import { expect } from 'chai';
import { ENTRY_BYTES, recentAnswers } from '../../src/read/recent.js';

describe('recent answers: the answers last computed, kept by weight', () => {
  it('weighs each answer by its bytes and its entry, so that many small answers are bounded too', () => {
    const recent = recentAnswers<Uint8Array>(10 * ENTRY_BYTES, (a) => a.byteLength);
    for (let i = 0; i < 100; i++) recent.set(`k${i}`, new Uint8Array(0));
    expect(recent.size).to.equal(10);
    expect(recent.calculatedSize).to.equal(10 * ENTRY_BYTES);
    // a heavy answer takes the room of several light ones, the least recently used first
    recent.get('k90');
    recent.set('heavy', new Uint8Array(3 * ENTRY_BYTES));
    expect(recent.has('k90'), 'used again').to.equal(true);
    expect([...recent.keys()].filter((k) => k !== 'heavy')).to.have.length(6);
    expect(recent.has('k91'), 'the least recently used').to.equal(false);
  });
});

import * as assert from 'node:assert/strict';
import { PollSpread, spreadDueAt } from '../../../src/lists/pollSpread';

describe('spreadDueAt', () => {
  const I = 5_000;

  it('the first time at its place in the interval at least half an interval after the answer', () => {
    assert.equal(spreadDueAt(100_000, I, 0), 105_000);
    assert.equal(spreadDueAt(100_000, I, 0.5), 102_500, 'exactly half an interval later is allowed');
    assert.equal(spreadDueAt(100_001, I, 0.5), 107_500);
    assert.equal(spreadDueAt(100_000, I, 0.95), 104_750);
    assert.equal(spreadDueAt(103_000, I, 0.1), 105_500);
    assert.equal(spreadDueAt(103_001, I, 0.1), 110_500);
  });

  it('a list answered within half an interval polls exactly once per interval, at the same point of it', () => {
    let at = spreadDueAt(1_234_567, I, 0.35);
    for (let i = 0; i < 100; i++) {
      const latency = (i * 397) % 2_400; // under half the interval
      const next = spreadDueAt(at + latency, I, 0.35);
      assert.equal(next - at, I);
      assert.equal(next % I, 1_750);
      at = next;
    }
  });

  it('never sooner than half an interval, never later than one and a half after the answer', () => {
    for (let loadedAt = 0; loadedAt < 3 * I; loadedAt += 37) {
      for (const fraction of [0, 0.05, 0.5, 0.95]) {
        const gap = spreadDueAt(loadedAt, I, fraction) - loadedAt;
        assert.ok(gap >= I / 2 && gap < 1.5 * I, `${loadedAt} ${fraction}: ${gap}`);
      }
    }
  });
});

describe('PollSpread', () => {
  it('service i of n polls i/n of the way into the interval; a service alone keeps polling one interval after each answer', () => {
    const spread = new PollSpread();
    assert.equal(spread.fraction('a'), undefined);
    assert.equal(spread.order(['a']), true);
    assert.equal(spread.fraction('a'), undefined, 'alone: as before there were several');
    assert.equal(spread.order(['a', 'b', 'c', 'd']), true);
    assert.deepEqual(
      ['a', 'b', 'c', 'd', 'x'].map((id) => spread.fraction(id)),
      [0, 0.25, 0.5, 0.75, undefined],
    );
    assert.equal(spread.order(['a', 'b', 'c', 'd']), false, 'the same order: nothing to re-plan');
    assert.equal(spread.order(['a', 'c', 'd']), true);
    assert.deepEqual(
      ['a', 'b', 'c', 'd'].map((id) => spread.fraction(id)),
      [0, undefined, 1 / 3, 2 / 3],
    );
  });
});

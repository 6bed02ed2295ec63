import * as assert from 'node:assert/strict';
import { MAX_TIMER_MS, clampDelay, systemClock } from '../../../src/base/clock';

describe('clock', () => {
  it('clamps every timer delay to what a timer can hold (Node fires a longer one after 1 ms)', () => {
    const real = globalThis.setTimeout;
    const asked: number[] = [];
    globalThis.setTimeout = ((callback: () => void, ms: number) => {
      asked.push(ms);
      return real(callback, 0);
    }) as typeof setTimeout;
    try {
      const handle = systemClock.setTimeout(() => assert.fail('must not fire'), 3_000_000_000);
      systemClock.clearTimeout(handle);
    } finally {
      globalThis.setTimeout = real;
    }
    assert.deepEqual(asked, [MAX_TIMER_MS]);
    assert.equal(MAX_TIMER_MS, 2 ** 31 - 1);
    assert.equal(clampDelay(-5), 0);
    assert.equal(clampDelay(Number.NaN), 0);
    assert.equal(clampDelay(Infinity), MAX_TIMER_MS);
    assert.equal(clampDelay(1234), 1234);
  });
});

import * as assert from 'node:assert/strict';
import { MAX_TIMER_MS, clampDelay, hurryClock, systemClock } from '../../../src/base/clock';
import { FakeClock } from '../helpers/fakeClock';

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

  it('hurryClock: a test runs the timers due at a moment now, once, and no other; cleared ones never', async () => {
    const base = new FakeClock(1_000);
    const clock = hurryClock(base);
    const ran: string[] = [];
    clock.setTimeout(() => ran.push('retry'), 5_000);
    clock.setTimeout(() => ran.push('poll'), 60_000);
    const cleared = clock.setTimeout(() => ran.push('cleared'), 5_000);
    clock.clearTimeout(cleared);
    assert.equal(clock.now(), 1_000);
    assert.equal(clock.runTimersDueAt(6_030), 1, 'the timer due at 6 000 (within 50 ms)');
    assert.deepEqual(ran, ['retry']);
    assert.equal(clock.now(), 1_000, 'the time did not move');
    assert.equal(clock.runTimersDueAt(6_000), 0, 'a timer runs once');
    await base.advance(60_000);
    assert.deepEqual(ran, ['retry', 'poll'], 'the others run at their time, the hurried one not again');
    assert.equal(clock.runTimersDueAt(61_000), 0, 'a timer that ran is no longer pending');
  });
});

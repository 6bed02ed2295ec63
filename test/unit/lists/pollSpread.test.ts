import * as assert from 'node:assert/strict';
import * as spreadModule from '../../../src/lists/pollSpread';
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
  it("service i of n polls i/n of the way into the interval from its window's place; a service alone polls at that place", () => {
    const spread = new PollSpread(0);
    assert.equal(spread.fraction('a'), undefined);
    assert.equal(spread.order(['a']), true);
    assert.equal(spread.fraction('a'), 0, "alone: at its window's place (issue #38)");
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

  it("a window's place is its own and stable: the services sit at that place plus i/n, wrapped into the interval (issue #38)", () => {
    const spread = new PollSpread(0.7);
    spread.order(['a', 'b']);
    const first = ['a', 'b'].map((id) => spread.fraction(id)!);
    assert.ok(Math.abs(first[0] - 0.7) < 1e-12, `a at the window's place: ${first[0]}`);
    assert.ok(Math.abs(first[1] - 0.2) < 1e-12, `b half an interval on, wrapped: ${first[1]}`);
    for (let k = 0; k < 100; k++) {
      assert.deepEqual(
        ['a', 'b'].map((id) => spread.fraction(id)),
        first,
        'the same place on every ask',
      );
    }
    spread.order(['a', 'b']);
    assert.deepEqual(
      ['a', 'b'].map((id) => spread.fraction(id)),
      first,
      'the same place after the same order',
    );
    const alone = new PollSpread(0.7);
    alone.order(['a']);
    assert.ok(Math.abs(alone.fraction('a')! - 0.7) < 1e-12, "a service alone polls at its window's place too");
    for (const bad of [-0.1, 1, Number.NaN, Infinity]) {
      const spreadOfBad = new PollSpread(bad);
      spreadOfBad.order(['a']);
      assert.equal(spreadOfBad.fraction('a'), 0, `a place out of [0, 1) (${bad}) counts as 0`);
    }
  });
});

describe('pollDueAt (issue #38)', () => {
  const I = 30_000;
  const pollDueAt = (spreadModule as { pollDueAt?: typeof spreadModule.pollDueAt }).pollDueAt;

  it('moves each poll by a jitter of at most ±5 % of the interval around its place, and the jitter does not add up', () => {
    assert.equal(typeof pollDueAt, 'function', 'pollDueAt exists');
    assert.equal(
      pollDueAt!(100_000, I, 0.25, () => 0.5),
      spreadDueAt(100_000, I, 0.25),
      '0.5: no jitter',
    );
    assert.equal(
      pollDueAt!(100_000, I, 0.25, () => 0),
      spreadDueAt(100_000, I, 0.25) - 1_500,
    );
    assert.equal(
      pollDueAt!(100_000, I, 0.25, () => 0.999_999_9),
      spreadDueAt(100_000, I, 0.25) + 1_500,
    );
    let seed = 1;
    const random = () => ((seed = (seed * 48_271) % 2_147_483_647) - 1) / 2_147_483_646;
    const seen = new Set<number>();
    let at = pollDueAt!(1_234_567, I, 0.6, random);
    for (let i = 0; i < 1_000; i++) {
      const offset = (((at - 0.6 * I) % I) + I) % I;
      const drift = Math.min(offset, I - offset);
      assert.ok(drift <= 1_500, `poll ${i} is ${drift} ms from its place: the jitter adds up`);
      seen.add(Math.round(drift / 100));
      const latency = (i * 397) % 9_000;
      const next = pollDueAt!(at + latency, I, 0.6, random);
      assert.ok(next - at >= 0.9 * I && next - at <= 1.1 * I, `one poll per interval: ${next - at}`);
      at = next;
    }
    assert.ok(seen.size > 10, `the jitter varies from poll to poll (${seen.size} distinct)`);
  });

  it('never sooner than 0.45 of an interval, never later than 1.55 after the answer', () => {
    for (let loadedAt = 0; loadedAt < 3 * I; loadedAt += 37) {
      for (const fraction of [0, 0.05, 0.5, 0.95]) {
        for (const r of [0, 0.5, 0.999_999]) {
          const gap = pollDueAt!(loadedAt, I, fraction, () => r) - loadedAt;
          assert.ok(gap >= 0.45 * I && gap <= 1.55 * I, `${loadedAt} ${fraction} ${r}: ${gap}`);
        }
      }
    }
  });
});

describe('placeAfter: where a list comes back after a wait the service asked for (issue #49)', () => {
  const I = 30_000;
  let seed = 7;
  const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;

  it('at its own place in the interval, never before the moment asked, at most one interval and its jitter after', () => {
    const notBefore = 1_000_000;
    for (let i = 0; i < 2_000; i++) {
      const fraction = random();
      const at = spreadModule.placeAfter(notBefore, I, fraction, random);
      assert.ok(at >= notBefore, `not before the moment asked: ${at}`);
      assert.ok(at <= notBefore + 1.05 * I, `within an interval and its jitter: ${at - notBefore}`);
      const fromPlace = (((at - Math.round(fraction * I)) % I) + I) % I;
      assert.ok(Math.min(fromPlace, I - fromPlace) <= 0.05 * I, `at its place, moved by the jitter: ${fromPlace}`);
    }
    assert.equal(
      spreadModule.placeAfter(notBefore, I, 0.5, () => 0.5),
      1_005_000,
      'the next time at its place',
    );
    assert.equal(
      spreadModule.placeAfter(notBefore, I, 0, () => 0.5),
      1_020_000,
    );
    assert.equal(
      spreadModule.placeAfter(1_020_000, I, 0, () => 0),
      1_048_500,
      'its place minus the jitter would be sooner than asked: the next one',
    );
  });

  it('10,000 windows told one moment come back spread over the interval after it, each at its own place', () => {
    const perSecond = new Array<number>(32).fill(0); // a jitter may land up to 5 % past the interval
    for (let w = 0; w < 10_000; w++) {
      const at = spreadModule.placeAfter(60_000, I, random(), random);
      perSecond[Math.floor((at - 60_000) / 1_000)]++;
    }
    const mean = 10_000 / 30;
    assert.ok(Math.max(...perSecond) <= 1.5 * mean, `busiest second ${Math.max(...perSecond)}, mean ${mean}`);
  });
});

import * as assert from 'node:assert/strict';
import {
  STUCK_FLOOR_MS,
  STUCK_MIN_RUNS,
  STUCK_P95_FACTOR,
  flowStats,
  isStuck,
  makeEntry,
  median,
  percentile,
  processingAgeMs,
  stuckThresholdMs,
  type HistoryEntry,
} from '../../../src/core/history';
import { FakeClock } from '../helpers/fakeClock';

const MIN = 60_000;

/** An entry of `flowId` that ran `minutes` (exactly: no gap between last seen and left). */
function run(id: number, flowId: number, minutes: number, leftAt = Date.UTC(2026, 10, 22, 12)): HistoryEntry {
  const start = leftAt - minutes * MIN;
  return makeEntry({ id, flowId, flowName: `F${flowId}`, createdAt: new Date(start).toISOString(), firstSeen: start, lastSeen: leftAt, leftAt });
}

describe('history statistics', () => {
  it('percentiles by nearest rank, medians of even counts in between', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    assert.equal(percentile(sorted, 95), 95);
    assert.equal(percentile(sorted, 50), 50);
    assert.equal(percentile(sorted, 100), 100);
    assert.equal(percentile(sorted, 0), 1);
    assert.equal(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95), 10, 'fewer than 20 values: the longest');
    assert.equal(percentile([7], 95), 7);
    assert.ok(Number.isNaN(percentile([], 95)));
    assert.equal(median([1, 2, 3, 10]), 2.5);
    assert.equal(median([1, 2, 10]), 2);
    assert.ok(Number.isNaN(median([])));
  });

  it('flowStats: runs, median and p95 per flow', () => {
    const entries = [...[4, 5, 3, 12, 4].map((m, i) => run(i, 1, m)), run(10, 2, 30)];
    const stats = flowStats(entries);
    assert.deepEqual(stats.get(1), { runs: 5, medianMs: 4 * MIN, p95Ms: 12 * MIN });
    assert.deepEqual(stats.get(2), { runs: 1, medianMs: 30 * MIN, p95Ms: 30 * MIN });
    assert.equal(stats.get(3), undefined);
  });

  it('stuck threshold: the setting when positive; else learned from 5 runs as 3 × p95, at least 10 min', () => {
    assert.deepEqual([STUCK_MIN_RUNS, STUCK_P95_FACTOR, STUCK_FLOOR_MS], [5, 3, 10 * MIN]);
    const many = { runs: 37, medianMs: 4 * MIN, p95Ms: 12 * MIN };
    assert.equal(stuckThresholdMs(many, 45), 45 * MIN, 'the setting wins over what was learned');
    assert.equal(stuckThresholdMs(undefined, 45), 45 * MIN);
    assert.equal(stuckThresholdMs(many, 0), 36 * MIN);
    assert.equal(stuckThresholdMs({ runs: 5, medianMs: MIN, p95Ms: 2 * MIN }, 0), 10 * MIN, 'never below the floor');
    assert.equal(stuckThresholdMs({ runs: 4, medianMs: MIN, p95Ms: 60 * MIN }, 0), undefined, 'too few runs: not stuck');
    assert.equal(stuckThresholdMs(undefined, 0), undefined);
    assert.equal(stuckThresholdMs(many, -5), 36 * MIN, 'a negative setting counts as 0');
    assert.equal(stuckThresholdMs(many, Number.NaN), 36 * MIN);
  });

  it('isStuck: by the age from created_at (from first seen when created_at is not a time)', () => {
    const clock = new FakeClock();
    const now = clock.now();
    const sync = { created_at: new Date(now - 40 * MIN).toISOString() };
    assert.equal(processingAgeMs(sync, now), 40 * MIN);
    assert.equal(isStuck(sync, now, 36 * MIN), true);
    assert.equal(isStuck(sync, now, 40 * MIN), false, 'over, not at');
    assert.equal(isStuck(sync, now, undefined), false);
    const invalid = { created_at: 'yesterday' };
    assert.equal(processingAgeMs(invalid, now), undefined);
    assert.equal(isStuck(invalid, now, MIN), false);
    assert.equal(isStuck(invalid, now, MIN, now - 2 * MIN), true, 'first seen two minutes ago: at least that old');
    assert.equal(processingAgeMs({ created_at: new Date(now + MIN).toISOString() }, now), 0);
  });
});

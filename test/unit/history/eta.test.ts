import * as assert from 'node:assert/strict';
import {
  ETA_MIN_RUNS,
  eta,
  flowStats,
  isStuck,
  makeEntry,
  processingAgeMs,
  stuckThresholdMs,
  type HistoryEntry,
} from '../../../src/history/index';
import { FakeClock } from '../helpers/fakeClock';

const MIN = 60_000;

/** An entry of flow 7 that ran `minutes`. */
function run(id: number, minutes: number, leftAt = Date.UTC(2026, 10, 1, 12)): HistoryEntry {
  const start = leftAt - minutes * MIN;
  return makeEntry({
    id,
    flowId: 7,
    flowName: 'Invoices',
    createdAt: new Date(start).toISOString(),
    firstSeen: start,
    lastSeen: leftAt,
    leftAt,
  });
}

/** 37 runs: half at most 6 min, the 95th percentile 12 min. */
const RUNS = [
  ...Array.from({ length: 19 }, (_, i) => run(i, 4 + (i % 3))),
  ...Array.from({ length: 16 }, (_, i) => run(100 + i, 7 + (i % 5))),
  run(200, 12),
  run(201, 30),
];

describe('history: when will it be done (eta)', () => {
  const stats = flowStats(RUNS).get(7)!;

  it('the test flow: 37 runs, median 6 min, 95th percentile 12 min', () => {
    assert.deepEqual(
      { runs: stats.runs, median: stats.medianMs / MIN, p95: stats.p95Ms / MIN },
      { runs: 37, median: 6, p95: 12 },
    );
  });

  it('follows a sync through its run on a fake clock: usually done, then within the range, then longer than usual, then stuck', async () => {
    const clock = new FakeClock();
    const sync = { created_at: new Date(clock.now()).toISOString() };
    const threshold = stuckThresholdMs(stats, 0)!; // learned: 3 × p95 = 36 min
    const at = async (minutes: number) => {
      await clock.advance(minutes * MIN - (clock.now() - Date.parse(sync.created_at)));
      const now = clock.now();
      return eta(stats, processingAgeMs(sync, now), isStuck(sync, now, threshold));
    };
    assert.deepEqual(await at(2), {
      phase: 'usual',
      short: 'usually done after about 6 min',
      detail: 'Usually done after about 6 min (6–12 min, 37 runs).',
    });
    assert.equal((await at(6))?.short, 'usually done within 12 min');
    assert.equal((await at(12))?.short, 'usually done within 12 min');
    const longer = await at(13);
    assert.equal(longer?.short, 'running longer than usual');
    assert.equal(longer?.detail, 'Running longer than usual. Usually done after about 6 min (6–12 min, 37 runs).');
    assert.equal((await at(36))?.phase, 'longer', 'not stuck at the threshold itself');
    assert.equal(await at(37), undefined, 'stuck says more: no eta');
  });

  it('says nothing without enough History, without an age, or for impossible numbers', () => {
    const few = flowStats(RUNS.slice(0, ETA_MIN_RUNS - 1)).get(7);
    assert.equal(eta(few, 1 * MIN, false), undefined);
    assert.ok(eta(flowStats(RUNS.slice(0, ETA_MIN_RUNS)).get(7), 1 * MIN, false));
    assert.equal(eta(undefined, 1 * MIN, false), undefined);
    assert.equal(eta(stats, undefined, false), undefined);
    assert.equal(eta(stats, NaN, false), undefined);
    assert.equal(eta(stats, -1, false), undefined);
    assert.equal(eta({ runs: 9, medianMs: NaN, p95Ms: NaN }, MIN, false), undefined);
  });

  it('a sync whose start cannot be true has no age from created_at: no eta', () => {
    const now = Date.UTC(2026, 10, 22, 12);
    assert.equal(eta(stats, processingAgeMs({ created_at: '1970-01-01T00:00:00Z' }, now), false), undefined);
  });
});

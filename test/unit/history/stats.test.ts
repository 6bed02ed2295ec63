import * as assert from 'node:assert/strict';
import type { FlowSync, Item } from '../../../src/api/types';
import {
  ProcessingObserver,
  STUCK_CEILING_MS,
  STUCK_FLOOR_MS,
  STUCK_MIN_RUNS,
  STUCK_P95_FACTOR,
  flowStats,
  isStuck,
  makeEntry,
  median,
  percentile,
  processingAgeMs,
  processingAnswer,
  stuckThresholdMs,
  type HistoryEntry,
} from '../../../src/history/index';
import { FakeClock } from '../helpers/fakeClock';

const MIN = 60_000;

/** An entry of `flowId` that ran `minutes` (exactly: no gap between last seen and left). */
function run(id: number, flowId: number, minutes: number, leftAt = Date.UTC(2026, 10, 22, 12)): HistoryEntry {
  const start = leftAt - minutes * MIN;
  return makeEntry({
    id,
    flowId,
    flowName: `F${flowId}`,
    createdAt: new Date(start).toISOString(),
    firstSeen: start,
    lastSeen: leftAt,
    leftAt,
  });
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
    assert.equal(
      stuckThresholdMs({ runs: 4, medianMs: MIN, p95Ms: 60 * MIN }, 0),
      undefined,
      'too few runs: not stuck',
    );
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

describe("history statistics: teammates' runs cannot move what this window learned (issue #51, a hostile team table)", () => {
  /** A run only teammates saw (team History: its merged entry says so). */
  const theirs = (id: number, flowId: number, minutes: number): HistoryEntry => ({
    ...run(id, flowId, minutes),
    seenHere: false,
  });
  const DAY = 24 * 60 * MIN;

  it('a flow this window learned itself (5 runs seen here) keeps its figures, whatever teammates sent', () => {
    const mine = [4, 5, 3, 12, 4].map((m, i) => run(i, 1, m));
    const hostile = Array.from({ length: 20 }, (_, i) => theirs(100 + i, 1, 7 * 24 * 60)); // runs of 7 days
    const stats = flowStats([...mine, ...hostile]);
    assert.deepEqual(stats.get(1), { runs: 5, medianMs: 4 * MIN, p95Ms: 12 * MIN });
    assert.equal(stuckThresholdMs(stats.get(1), 0), 36 * MIN, 'stuck as before');
  });

  it("a flow this window has not learned learns from teammates' runs, and its threshold stays within 7 days", () => {
    const stats = flowStats([run(1, 2, 10), ...Array.from({ length: 6 }, (_, i) => theirs(10 + i, 2, 7 * 24 * 60))]);
    assert.equal(stats.get(2)?.runs, 7, "their runs count where this window's do not suffice");
    assert.equal(stuckThresholdMs(stats.get(2), 0), STUCK_CEILING_MS, "never past the setting's own ceiling");
    assert.equal(STUCK_CEILING_MS, 7 * DAY);
  });
});

describe('times from the service that cannot be true', () => {
  const CONTEXT = 'https://flowsync.example.com|team:';
  const POLL = 15_000;
  const DAY = 24 * 60 * MIN;
  const sync = (id: number, flowId: number, createdAt: string): Item<FlowSync> => {
    const value: FlowSync = {
      id,
      flow_id: flowId,
      status: 'pending',
      created_at: createdAt,
      updated_at: createdAt,
      errors: null,
      webhook: false,
      flow: { id: flowId, name: `F${flowId}` },
    };
    return { value, raw: { ...value } };
  };

  /** Observes, one poll apart, each sync processing for `minutes` then leaving; returns every entry written. */
  async function observeRuns(
    clock: FakeClock,
    runs: Array<{ id: number; flowId: number; createdAt: (now: number) => string; minutes: number }>,
  ): Promise<HistoryEntry[]> {
    const observer = new ProcessingObserver();
    const entries: HistoryEntry[] = [];
    for (const r of runs) {
      const item = sync(r.id, r.flowId, r.createdAt(clock.now()));
      for (let seen = 0; seen <= r.minutes * MIN; seen += POLL) {
        entries.push(...observer.observe(CONTEXT, clock.now(), processingAnswer({ items: [item], dropped: 0 })).left);
        await clock.advance(POLL);
      }
      entries.push(...observer.observe(CONTEXT, clock.now(), processingAnswer({ items: [], dropped: 0 })).left);
    }
    return entries;
  }

  const normal = (id: number, minutes: number) => ({
    id,
    flowId: 1,
    minutes,
    createdAt: (now: number) => new Date(now - MIN).toISOString(),
  });

  it('a created_at in 1970, before 2000, or long before the sync was first seen does not change the learned threshold', async () => {
    const usual = [normal(1, 4), normal(2, 5), normal(3, 3), normal(4, 6), normal(5, 4)];
    const learned = stuckThresholdMs(flowStats(await observeRuns(new FakeClock(), usual)).get(1), 0);
    assert.equal(
      learned,
      3 * (7 * MIN + POLL / 2),
      '3 × the longest of five runs (6 min seen, the minute before, half a poll)',
    );
    for (const createdAt of [
      '1970-01-01T00:00:00.000Z',
      '1999-12-31T23:59:59.999Z',
      '2015-06-01T00:00:00.000Z',
      (now: number) => new Date(now - 8 * DAY).toISOString(),
    ]) {
      const odd = {
        id: 9,
        flowId: 1,
        minutes: 2,
        createdAt: typeof createdAt === 'string' ? () => createdAt : createdAt,
      };
      const entries = await observeRuns(new FakeClock(), [...usual, odd]);
      const stats = flowStats(entries).get(1);
      assert.equal(
        stuckThresholdMs(stats, 0),
        learned,
        `created_at ${String(createdAt)}: the threshold is still ${learned}`,
      );
      assert.equal(stats?.runs, 5, 'the run with an impossible start is not learned from');
      const e = entries.find((x) => x.id === 9)!;
      assert.equal(e.duration.from, 'firstSeen');
      assert.ok(e.duration.ms <= 2 * MIN + POLL, `measured from when it was first seen: ${e.duration.ms}`);
    }
  });

  it('a created_at in the future: stuck once the threshold has passed since it was first seen', async () => {
    const clock = new FakeClock();
    const observer = new ProcessingObserver();
    const threshold = 30 * MIN;
    for (const ahead of [10 * 60 * MIN, 365 * DAY]) {
      const item = sync(7, 1, new Date(clock.now() + ahead).toISOString());
      observer.restart(CONTEXT);
      observer.observe(CONTEXT, clock.now(), processingAnswer({ items: [item], dropped: 0 }));
      const firstSeen = observer.tracked.get(7)!.firstSeen;
      await clock.advance(threshold);
      assert.equal(isStuck(item.value, clock.now(), threshold, firstSeen), false, 'at the threshold: not yet');
      await clock.advance(POLL);
      assert.equal(
        isStuck(item.value, clock.now(), threshold, firstSeen),
        true,
        `created_at ${ahead / MIN} min ahead: stuck after the threshold from first seen`,
      );
      assert.equal(processingAgeMs(item.value, clock.now(), firstSeen), threshold + POLL);
      await clock.advance(10 * 60 * MIN);
      assert.equal(isStuck(item.value, clock.now(), threshold, firstSeen), true, 'and still stuck 10 hours later');
    }
  });

  it('a created_at in 1970 is not an age of 56 years: from first seen, or none without it', () => {
    const now = new FakeClock().now();
    const epoch = { created_at: '1970-01-01T00:00:00.000Z' };
    assert.equal(processingAgeMs(epoch, now, now - 2 * MIN), 2 * MIN);
    assert.equal(processingAgeMs(epoch, now), undefined);
    assert.equal(isStuck(epoch, now, 10 * MIN), false);
  });
});

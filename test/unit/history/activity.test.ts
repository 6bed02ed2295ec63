import * as assert from 'node:assert/strict';
import {
  ACTIVITY_RANGES,
  ProcessingObserver,
  activitySeries,
  activitySparkline,
  makeEntry,
  processingNow,
  sparkline,
  type HistoryEntry,
} from '../../../src/history/index';
import { FakeClock } from '../helpers/fakeClock';

const MIN = 60_000;
const HOUR = 60 * MIN;

/** An entry of a flow processing exactly from `start` to `end` (no gap between last seen and left). */
function ran(id: number, flowId: number, start: number, end: number, flowName = `Flow ${flowId}`): HistoryEntry {
  return makeEntry({
    id,
    flowId,
    flowName,
    createdAt: new Date(start).toISOString(),
    firstSeen: start,
    lastSeen: end,
    leftAt: end,
  });
}

describe('history activity', () => {
  const now = new FakeClock().now(); // on a whole hour

  it('buckets of 1 min / 15 min / 1 h for the last hour / day / week, aligned, the last one holding now', () => {
    for (const [range, count] of [
      ['hour', 60],
      ['day', 96],
      ['week', 168],
    ] as const) {
      const s = activitySeries([], [], now + 1, range);
      assert.equal(s.times.length, count);
      assert.equal(s.bucketMs, ACTIVITY_RANGES[range].bucketMs);
      assert.equal(s.times.at(-1), now, range);
      assert.ok(s.times.every((t) => t % s.bucketMs === 0));
      assert.deepEqual(s.bands, []);
      assert.ok(s.total.every((v) => v === 0));
    }
  });

  it('averages the processing count per bucket, stacked by flow; syncs processing now count up to now', () => {
    const t = now + 30 * MIN; // the last bucket of "hour" is [now + 29 min, now + 30 min)
    const entries = [
      ran(1, 1, t - 10 * MIN, t - 5 * MIN, 'Invoices'), // 5 whole minutes
      ran(2, 1, t - 90 * MIN, t - 59.5 * MIN, 'Invoices'), // only its last half minute is in the hour
      ran(3, 2, t - 7 * MIN - 30_000, t - 6 * MIN, 'Payroll'), // half of one minute, then a whole one
      ran(4, 3, t - 3 * HOUR, t - 2 * HOUR), // before the hour
    ];
    const s = activitySeries(
      entries,
      [{ flowId: 2, flowName: 'Payroll', createdAt: new Date(t - 2 * MIN).toISOString(), firstSeen: t - MIN }],
      t,
      'hour',
    );
    const at = (minutesAgo: number) => s.times.indexOf(t - minutesAgo * MIN);
    const band = (key: number) => s.bands.find((b) => b.key === key)!;
    assert.deepEqual(
      s.bands.map((b) => [b.key, b.label]),
      [
        [1, 'Invoices'],
        [2, 'Payroll'],
      ],
    );
    assert.equal(band(1).values[at(10)], 1);
    assert.equal(band(1).values[at(6)], 1);
    assert.equal(band(1).values[at(5)], 0);
    assert.equal(band(1).values[at(60)], 0.5);
    assert.equal(band(2).values[at(8)], 0.5);
    assert.equal(band(2).values[at(7)], 1);
    assert.equal(band(2).values[at(2)], 1, 'processing now, from its created_at');
    assert.equal(band(2).values[at(1)], 1);
    assert.equal(s.total[at(7)], 2);
    assert.equal(
      s.total.reduce((a, b) => a + b, 0),
      5 + 0.5 + 1.5 + 2,
    );
  });

  it('the last, partial bucket is averaged over its elapsed part', () => {
    const t = now + 20 * MIN; // the last bucket of "day" is [now + 15 min, now + 30 min): 5 min elapsed
    const s = activitySeries(
      [],
      [{ flowId: 1, flowName: 'A', createdAt: new Date(t - 10 * MIN).toISOString(), firstSeen: t - MIN }],
      t,
      'day',
    );
    assert.equal(s.total.at(-1), 1);
  });

  it('names the top N flows by processing time; the rest are summed into one band', () => {
    const t = now;
    const entries = [1, 2, 3, 4].map((flowId) => ran(flowId, flowId, t - flowId * 10 * MIN, t - MIN));
    const s = activitySeries(entries, [], t, 'day', 2);
    assert.deepEqual(
      s.bands.map((b) => b.key),
      [4, 3, 'other'],
    );
    assert.equal(s.bands[2].label, '2 other flows');
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum(s.total) - sum(s.bands.flatMap((b) => b.values))) < 1e-9);
    assert.equal(
      activitySeries(entries, [], t, 'day', 3).bands[3].label,
      'Flow 1',
      'one flow beyond the top keeps its name',
    );
  });

  it('takes the syncs processing now from the observer', () => {
    const observer = new ProcessingObserver();
    const value = {
      id: 9,
      flow_id: 4,
      status: 'pending',
      created_at: 'not a time',
      updated_at: '',
      errors: null,
      webhook: false,
      flow: { id: 4, name: 'Mail' },
    };
    observer.observe('c', now - 2 * MIN, { items: [{ value, raw: {} }], complete: true });
    assert.deepEqual(processingNow(observer.tracked), [
      { flowId: 4, flowName: 'Mail', createdAt: 'not a time', firstSeen: now - 2 * MIN },
    ]);
    const s = activitySeries([], processingNow(observer.tracked), now, 'hour');
    assert.deepEqual(s.total.slice(-3), [0, 1, 1], 'from first seen when created_at is not a time');
  });

  it('a created_at that cannot be true counts from first seen (processing now and entries alike)', () => {
    for (const createdAt of ['1970-01-01T00:00:00.000Z', '2015-01-01T00:00:00.000Z']) {
      const processing = activitySeries(
        [],
        [{ flowId: 1, flowName: 'A', createdAt, firstSeen: now - 2 * MIN }],
        now,
        'hour',
      );
      assert.deepEqual(processing.total.slice(-4), [0, 0, 1, 1], createdAt);
      const entry = makeEntry({
        id: 1,
        flowId: 1,
        flowName: 'A',
        createdAt,
        firstSeen: now - 3 * MIN,
        lastSeen: now - MIN,
        leftAt: now - MIN,
      });
      assert.deepEqual(activitySeries([entry], [], now, 'hour').total.slice(-5), [0, 0, 1, 1, 0], createdAt);
    }
  });

  it('sparkline: one block per value scaled to the largest; zero is the lowest block; downsampled to a width', () => {
    assert.equal(sparkline([0, 1, 4, 7, 4, 1]), '▁▂▅█▅▂');
    assert.equal(sparkline([0, 0, 0]), '▁▁▁');
    assert.equal(sparkline([]), '');
    assert.equal(sparkline([NaN, -1, Infinity, 2]), '▁▁▁█');
    assert.equal(sparkline([1, 1, 0, 0, 2, 2], 3), '▅▁█');
    assert.equal(
      [
        ...sparkline(
          Array.from({ length: 60 }, (_, i) => i),
          30,
        ),
      ].length,
      30,
    );
    assert.equal([...activitySparkline([ran(1, 1, now - 30 * MIN, now - 10 * MIN)], [], now)].length, 30);
  });
});

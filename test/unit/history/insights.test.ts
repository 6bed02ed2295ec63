import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { DAY_MS, makeEntry, type HistoryEntry } from '../../../src/history/entry';
import {
  SLOWER_FACTOR,
  SLOWER_MIN_RUNS,
  acrossServices,
  flowInsights,
  slowerThanUsual,
} from '../../../src/history/insights';
import { median, percentile } from '../../../src/history/stats';
import { DURATION_STEPS, NO_OLDER_DAYS, summarizeDay } from '../../../src/history/summary';
import { NOW } from '../helpers/items';

const MIN = 60_000;
const HOUR = 60 * MIN;
/** A run of `flowId` that took `ms` and left `agoMs` before NOW. */
function run(
  id: number,
  flowId: number,
  ms: number,
  agoMs: number,
  flowName = `Flow ${flowId}`,
  created = true,
): HistoryEntry {
  const leftAt = NOW - agoMs;
  const start = leftAt - ms;
  return makeEntry({
    id,
    flowId,
    flowName,
    createdAt: created ? new Date(start).toISOString() : 'not a time',
    firstSeen: start,
    lastSeen: leftAt,
    leftAt,
  });
}
/** Within the histogram's precision: a factor √R of the exact value (R = 2^(1/16)), plus a little rounding. */
const TOLERANCE = Math.pow(2, 1 / (2 * DURATION_STEPS)) * 1.0001;
const near = (got: number, want: number, what: string) =>
  assert.ok(got <= want * TOLERANCE && got >= want / TOLERANCE, `${what}: ${got} vs ${want}`);

describe('Flow insights: percentiles, trend, throughput, slower than usual', () => {
  it('property: runs, median, p95 and p99 agree with a reference over random runs (within the histogram\u2019s precision)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1000, max: 6 * HOUR }), fc.integer({ min: 0, max: 6 * DAY_MS })), {
          minLength: 1,
          maxLength: 200,
        }),
        (runs) => {
          const entries = runs.map(([ms, ago], i) => run(i, 1, ms, ago));
          const [insight] = flowInsights(entries, NO_OLDER_DAYS, NOW);
          const sorted = Float64Array.from(runs.map(([ms]) => ms)).sort();
          assert.equal(insight.runs, runs.length);
          near(insight.medianMs, median(sorted), 'median');
          near(insight.p95Ms, percentile(sorted, 95), 'p95');
          near(insight.p99Ms, percentile(sorted, 99), 'p99');
          // The trend: one point a day with runs, each day's figures from that day's runs alone.
          const byDay = new Map<string, number[]>();
          for (const e of entries) {
            const day = new Date(e.leftAt).toISOString().slice(0, 10);
            byDay.set(day, [...(byDay.get(day) ?? []), e.duration.ms]);
          }
          assert.deepEqual(
            insight.days.map((d) => d.day),
            [...byDay.keys()].sort(),
          );
          for (const d of insight.days) {
            const day = Float64Array.from(byDay.get(d.day)!).sort();
            assert.equal(d.runs, day.length);
            near(d.medianMs, median(day), `median of ${d.day}`);
            near(d.p95Ms, percentile(day, 95), `p95 of ${d.day}`);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('older days come from their summaries, and runs in memory they hold are not counted twice', () => {
    const old = [run(1, 1, 10 * MIN, 5 * DAY_MS), run(2, 1, 20 * MIN, 5 * DAY_MS + HOUR)];
    const day = new Date(old[0].leftAt).toISOString().slice(0, 10);
    const older = { before: Date.parse(`${day}T00:00:00.000Z`) + DAY_MS, days: [summarizeDay(day, old)] };
    const recent = [run(3, 1, 30 * MIN, HOUR)];
    const [insight] = flowInsights([...old, ...recent], older, NOW);
    assert.equal(insight.runs, 3);
    assert.equal(insight.days.length, 2);
    near(insight.medianMs, 20 * MIN, 'median of the three');
  });

  it('runs per hour of the last 24 hours, oldest first; runs per day', () => {
    const entries = [
      run(1, 1, MIN, 10 * MIN),
      run(2, 1, MIN, 20 * MIN),
      run(3, 1, MIN, 5 * HOUR + MIN),
      run(4, 1, MIN, 30 * HOUR),
      run(5, 1, MIN, HOUR, 'Flow 1', false),
    ];
    const [insight] = flowInsights(entries, NO_OLDER_DAYS, NOW);
    assert.equal(insight.perHour.length, 24);
    assert.equal(insight.perHour[23], 2);
    assert.equal(insight.perHour[22], 1, 'the run of unknown start counts as finished');
    assert.equal(insight.perHour[18], 1);
    assert.equal(
      insight.perHour.reduce((a, b) => a + b),
      4,
      'the run of 30 h ago is not in the last 24',
    );
    assert.equal(insight.runs, 5);
    assert.equal(
      insight.days.reduce((a, d) => a + d.runs, 0),
      5,
    );
  });

  it('slower than usual: the last 24 hours\u2019 median at least 1.5\u00d7 the days before, 5 runs each', () => {
    const before = Array.from({ length: SLOWER_MIN_RUNS }, (_, i) => run(i, 1, 10 * MIN, 2 * DAY_MS + i * HOUR));
    const slow = Array.from({ length: SLOWER_MIN_RUNS }, (_, i) => run(100 + i, 1, 16 * MIN, i * HOUR));
    const [insight] = flowInsights([...before, ...slow], NO_OLDER_DAYS, NOW);
    assert.equal(insight.slower, true);
    assert.equal(insight.recent.runs, SLOWER_MIN_RUNS);
    assert.equal(insight.before.runs, SLOWER_MIN_RUNS);
    // One run fewer on either side: no verdict.
    assert.equal(flowInsights([...before.slice(1), ...slow], NO_OLDER_DAYS, NOW)[0].slower, false);
    assert.equal(flowInsights([...before, ...slow.slice(1)], NO_OLDER_DAYS, NOW)[0].slower, false);
    // Runs of unknown start are not learned from.
    assert.equal(
      flowInsights([...before, ...slow.slice(1), run(200, 1, 16 * MIN, HOUR, 'Flow 1', false)], NO_OLDER_DAYS, NOW)[0]
        .slower,
      false,
    );
  });

  it('slowerThanUsual: the edges', () => {
    assert.equal(slowerThanUsual({ runs: 5, medianMs: 150 }, { runs: 5, medianMs: 100 }), true, 'exactly 1.5\u00d7');
    assert.equal(slowerThanUsual({ runs: 5, medianMs: 149.9 }, { runs: 5, medianMs: 100 }), false);
    assert.equal(slowerThanUsual({ runs: 4, medianMs: 1000 }, { runs: 5, medianMs: 100 }), false);
    assert.equal(slowerThanUsual({ runs: 5, medianMs: 1000 }, { runs: 4, medianMs: 100 }), false);
    assert.equal(slowerThanUsual({ runs: 5, medianMs: 1000 }, { runs: 5, medianMs: 0 }), false, 'no baseline');
    assert.equal(slowerThanUsual({ runs: 5, medianMs: NaN }, { runs: 5, medianMs: 100 }), false);
    assert.equal(SLOWER_FACTOR, 1.5);
  });

  it('the same flow side by side per service, by name in any case', () => {
    const prod = flowInsights([run(1, 7, MIN, MIN, 'Invoices'), run(2, 8, MIN, MIN, 'Payroll')], NO_OLDER_DAYS, NOW);
    const staging = flowInsights([run(1, 70, 2 * MIN, MIN, 'INVOICES')], NO_OLDER_DAYS, NOW);
    const rows = acrossServices([
      { service: 'Production', flows: prod },
      { service: 'Staging', flows: staging },
    ]);
    assert.deepEqual(
      rows.map((r) => [r.label, r.services.map((s) => s.service)]),
      [
        ['Invoices', ['Production', 'Staging']],
        ['Payroll', ['Production']],
      ],
    );
  });
});

import * as assert from 'node:assert/strict';
import { ACTIVITY_RANGE_ORDER, isActivityRange, type ActivitySeries } from '../../../src/activity/activityData';
import {
  MAX_BUCKETS,
  MAX_FLOWS,
  MAX_FLOW_NAME,
  hasActivity,
  normalizeSeries,
  parsePageMessage,
} from '../../../src/activity/activityMessages';

const T = Date.UTC(2026, 10, 22, 12);
const MIN = 60_000;

describe('activity panel messages', () => {
  it('knows the three ranges', () => {
    assert.deepEqual(ACTIVITY_RANGE_ORDER, ['hour', 'day', 'week']);
    for (const r of ACTIVITY_RANGE_ORDER) assert.ok(isActivityRange(r));
    for (const r of ['month', 'Hour', '', undefined, 1, {}]) assert.equal(isActivityRange(r), false);
  });

  it('parsePageMessage accepts only the page messages, field by field', () => {
    assert.deepEqual(parsePageMessage({ type: 'ready', extra: 1 }), { type: 'ready' });
    assert.deepEqual(parsePageMessage({ type: 'range', range: 'week' }), { type: 'range', range: 'week' });
    assert.equal(parsePageMessage({ type: 'range', range: 'year' }), undefined);
    assert.equal(parsePageMessage({ type: 'range' }), undefined);
    for (const bad of [
      undefined,
      null,
      'ready',
      42,
      [],
      { type: 'init' },
      { type: 'constructor' },
      { type: '__proto__' },
    ]) {
      assert.equal(parsePageMessage(bad), undefined);
    }
    assert.deepEqual(
      parsePageMessage({
        type: 'rendered',
        range: 'day',
        flows: 3,
        buckets: 96,
        chart: true,
        violations: ['style-src inline'],
      }),
      {
        type: 'rendered',
        range: 'day',
        flows: 3,
        buckets: 96,
        chart: true,
        violations: ['style-src inline'],
      },
    );
    assert.deepEqual(
      parsePageMessage({ type: 'rendered', range: 'hour', flows: -1, buckets: 1.5, chart: 'yes', violations: 'x' }),
      {
        type: 'rendered',
        range: 'hour',
        flows: 0,
        buckets: 0,
        chart: false,
        violations: [],
      },
    );
    const many = parsePageMessage({
      type: 'rendered',
      range: 'hour',
      violations: Array.from({ length: 50 }, () => 'x'.repeat(1000)),
    });
    assert.ok(
      many?.type === 'rendered' && many.violations.length === 20 && many.violations.every((v) => v.length <= 200),
    );
  });

  it('normalizeSeries keeps a well-formed series as it is', () => {
    const series: ActivitySeries = {
      range: 'hour',
      times: [T, T + MIN, T + 2 * MIN],
      flows: [
        { name: 'Orders', counts: [1, 0, 2.5] },
        { name: '3 other flows', counts: [0, 1, 0], other: true },
      ],
    };
    assert.deepEqual(normalizeSeries(series, 'hour'), series);
    assert.equal(hasActivity(series), true);
  });

  it('normalizeSeries repairs what the page must not get: order, duplicates, odd counts, lengths, names, sizes', () => {
    const series = {
      range: 'day',
      times: [T + MIN, T, Number.NaN, T + MIN, T + 2 * MIN],
      flows: [
        { name: 'A\u202e\u0000<b>x</b>\n  [l](command:x)', counts: [1, 2, 9, 3] },
        { name: '\u200b', counts: [-1, Number.POSITIVE_INFINITY, 1, 'x', 4], other: 'yes' },
        { name: 'B'.repeat(500), counts: null },
      ],
    } as unknown as ActivitySeries;
    const out = normalizeSeries(series, 'week', '(unnamed)');
    assert.equal(out.range, 'week', 'the range asked for');
    assert.deepEqual(out.times, [T, T + MIN, T + 2 * MIN]);
    assert.deepEqual(out.flows[0].counts, [2, 1, 0], 'counts follow their bucket; the first of two equal times wins');
    assert.equal(out.flows[0].name, 'A ‹b›x‹/b› [l] (command:x)');
    assert.deepEqual(out.flows[1], { name: '(unnamed)', counts: [0, 0, 4] });
    assert.equal(out.flows[2].name.length, MAX_FLOW_NAME);
    assert.deepEqual(out.flows[2].counts, [0, 0, 0]);
    for (const f of out.flows) assert.equal(f.counts.length, out.times.length);
  });

  it('normalizeSeries bounds the flows and buckets (the newest buckets stay) and takes nothing for an empty series', () => {
    const times = Array.from({ length: MAX_BUCKETS + 10 }, (_, i) => T + i * MIN);
    const flows = Array.from({ length: MAX_FLOWS + 5 }, (_, f) => ({ name: `F${f}`, counts: times.map(() => 1) }));
    const out = normalizeSeries({ range: 'week', times, flows }, 'week');
    assert.equal(out.times.length, MAX_BUCKETS);
    assert.equal(out.times[0], T + 10 * MIN);
    assert.equal(out.flows.length, MAX_FLOWS);
    assert.deepEqual(normalizeSeries(undefined, 'hour'), { range: 'hour', times: [], flows: [] });
    assert.deepEqual(normalizeSeries({} as ActivitySeries, 'day'), { range: 'day', times: [], flows: [] });
    assert.equal(hasActivity({ range: 'hour', times: [T], flows: [{ name: 'A', counts: [0] }] }), false);
    assert.equal(hasActivity({ range: 'hour', times: [], flows: [] }), false);
  });
});

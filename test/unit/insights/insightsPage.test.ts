import * as assert from 'node:assert/strict';
import { NO_OLDER_DAYS } from '../../../src/history/index';
import { flowInsights } from '../../../src/history/insights';
import { insightsPage, parseInsightsMessage, usualText } from '../../../src/insights/insightsPage';
import { leftRun as run } from '../helpers/historyRuns';
import { NOW } from '../helpers/items';

const MIN = 60_000;

describe('Flow Insights page', () => {
  const production = [
    ...Array.from({ length: 6 }, (_, i) => run(100 + i, 7, 'Invoices', 30 + i * 10, 4)),
    ...Array.from({ length: 6 }, (_, i) => run(200 + i, 7, 'Invoices', 1 + i, 10)),
  ];
  const staging = [run(1, 3, 'INVOICES', 2, 5), run(2, 4, 'Payroll\u202e<b>x</b>', 3, 1)];

  it('one service: a group per flow, its numbers as text, slower than usual in words, the trend and the last 24 hours', () => {
    const page = insightsPage(
      [{ service: 'Production', flows: flowInsights(production, NO_OLDER_DAYS, NOW) }],
      false,
      7,
      NOW,
    );
    assert.equal(page.groups.length, 1);
    const [row] = page.groups[0].rows;
    assert.equal(row.service, undefined);
    assert.deepEqual([row.flow, row.runs, row.p95, row.last24, row.slower], ['Invoices', '12', '10 min', '6', true]);
    assert.match(row.usual, /^Slower than usual: median 10 min in the last 24 hours, 4 min before$/);
    assert.equal(row.perHour.length, 24);
    assert.equal(row.perHour[23][0], '12:00');
    assert.ok(row.days.length >= 2);
    assert.equal(page.slower, 1);
    assert.ok(page.strings.intro.includes('1.5'));
  });

  it('several services: the same flow side by side by name (any case); names made inert', () => {
    const page = insightsPage(
      [
        { service: 'Production', flows: flowInsights(production, NO_OLDER_DAYS, NOW) },
        { service: 'Staging', flows: flowInsights(staging, NO_OLDER_DAYS, NOW) },
      ],
      true,
      7,
      NOW,
    );
    assert.deepEqual(
      page.groups.map((g) => g.rows.map((r) => r.service)),
      [['Production', 'Staging'], ['Staging']],
    );
    assert.equal(page.groups[0].flow, 'Invoices');
    const payroll = page.groups[1].flow;
    assert.ok(!/[\u202e<>]/.test(payroll), `inert: ${payroll}`);
    assert.equal(page.groups[0].rows[1].usual, 'Too few runs to compare');
  });

  it('"as usual" with enough runs on both sides; the page\u2019s messages are checked field by field', () => {
    assert.equal(
      usualText({ slower: false, recent: { runs: 5, medianMs: MIN }, before: { runs: 5, medianMs: MIN } }),
      'As usual',
    );
    assert.deepEqual(parseInsightsMessage({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(parseInsightsMessage({ type: 'rendered', rows: -1, violations: ['a\nb'] }), {
      type: 'rendered',
      rows: 0,
      violations: ['a b'],
    });
    assert.equal(parseInsightsMessage({ type: 'eval' }), undefined);
    assert.equal(parseInsightsMessage(null), undefined);
  });
});

import * as assert from 'node:assert/strict';
import { NO_OLDER_DAYS } from '../../../src/history/summary';
import { flowInsights } from '../../../src/history/insights';
import { hourLabels, insightsPart, insightsStrings, partRow } from '../../../src/insights/insightsPage';
import { applyInsights, rowChange, type InsightsUpdate } from '../../../src/insights/insightsState';
import { leftRun } from '../helpers/historyRuns';
import { NOW } from '../helpers/items';

describe('Flow Insights page state (#49 item 10): the page merges what changed', () => {
  const labels = hourLabels(NOW);
  const runs = Array.from({ length: 40 }, (_, i) => leftRun(i, i % 2, `Flow ${i % 2}`, i * 5, 3 + (i % 4)));
  const part = insightsPart(flowInsights(runs, NO_OLDER_DAYS, NOW), undefined, (f) => partRow(f, labels));
  const whole: InsightsUpdate = {
    type: 'insights',
    seq: 1,
    strings: insightsStrings(90),
    several: false,
    services: ['0'],
    parts: { '0': part },
  };
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

  it('a row changed in its last day and its numbers: only those travel, and merge into the new row', () => {
    const old = part.rows['0'];
    const row = {
      ...old,
      runs: String(Number(old.runs) + 1),
      days: [...old.days.slice(0, -1), { ...old.days.at(-1)!, runs: '99' }],
    };
    const change = rowChange(old, row, same);
    assert.deepEqual(change, { runs: row.runs, days: [row.days.at(-1)], daysFrom: old.days.length - 1 });
    assert.equal(rowChange(old, { ...old }, same), undefined, 'the same row: nothing');
    const state = applyInsights(undefined, whole);
    const next = applyInsights(state, {
      type: 'insights',
      seq: 2,
      base: 1,
      parts: { '0': { rows: { '0': change! } } },
    });
    assert.deepEqual(next?.parts['0'].rows['0'], row);
    assert.equal(next?.parts['0'].rows['1'], state?.parts['0'].rows['1'], 'the other row: the one it held');
    assert.deepEqual(state?.parts['0'].rows['0'], old, 'the state before is left as it was');
  });

  it('what it cannot merge is refused (the page then asks for the whole page)', () => {
    const state = applyInsights(undefined, whole)!;
    const update = (parts: InsightsUpdate['parts'], more: Partial<InsightsUpdate> = {}): InsightsUpdate => ({
      type: 'insights',
      seq: 2,
      base: 1,
      parts,
      ...more,
    });
    assert.equal(applyInsights(undefined, update({})), undefined, 'a change without the page');
    assert.equal(applyInsights(state, update({}, { base: 7 })), undefined, 'a change of another update');
    assert.equal(applyInsights(state, update({}, { services: ['0', '1'] })), undefined, 'a service it never had');
    assert.equal(
      applyInsights(state, update({ '0': { flows: ['0', '1', '9'], rows: { '9': { runs: '1' } } } })),
      undefined,
      'a new row not whole',
    );
    assert.equal(
      applyInsights(state, update({ '0': { rows: { '0': { days: [], daysFrom: 999 } } } })),
      undefined,
      'days from a day it does not have',
    );
    assert.ok(applyInsights(state, update({})), 'nothing changed: applies');
  });
});

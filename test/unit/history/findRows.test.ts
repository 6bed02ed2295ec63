import * as assert from 'node:assert/strict';
import { FilterSubjects } from '../../../src/filter/filterMatch';
import { parseFilter } from '../../../src/filter/filterQuery';
import { historyFilterLive, historyFilterSubject } from '../../../src/history/findRows';
import { makeEntry, type HistoryEntry } from '../../../src/history/index';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const MIN = 60_000;
const entry = (id: number, flowName: string, ranMin: number, raw?: Record<string, unknown>) =>
  makeEntry({
    id,
    flowId: 3,
    flowName,
    createdAt: new Date(NOW - ranMin * MIN).toISOString(),
    firstSeen: NOW - ranMin * MIN,
    lastSeen: NOW,
    leftAt: NOW,
    raw,
  });

describe('History findRows: what a filter sees of a History run', () => {
  const runs = [
    entry(1, 'Invoices', 5, { status: 'pending', errors: null, webhook: true }),
    entry(2, 'Payroll', 120, { status: 'retrying', errors: ['x'] }),
  ];
  const watched = new Set([2]);
  const subjects = new FilterSubjects<HistoryEntry>(
    (e) => historyFilterSubject(e, 'Production'),
    (e) => historyFilterLive(e, watched.has(e.id)),
  );
  const ids = (input: string) => {
    const parsed = parseFilter(input, 'history');
    assert.ok(parsed.filter, parsed.problem);
    return subjects.filter(parsed.filter, runs).map((e) => e.id);
  };

  it('words, fields, flags and how long it ran', () => {
    assert.deepEqual(ids('payroll'), [2]);
    assert.deepEqual(ids('flow:3'), [1, 2]);
    assert.deepEqual(ids('status:retrying'), [2]);
    assert.deepEqual(ids('service:prod'), [1, 2]);
    assert.deepEqual(ids('has:errors'), [2]);
    assert.deepEqual(ids('has:webhook'), [1]);
    assert.deepEqual(ids('is:watched'), [2]);
    assert.deepEqual(ids('ran>1h'), [2]);
    assert.deepEqual(ids('-ran>1h'), [1]);
  });
});

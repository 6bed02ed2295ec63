import * as assert from 'node:assert/strict';
import { makeEntry } from '../../../src/history/entry';
import { historyEntryFilter } from '../../../src/history/historyFilter';
import { NOW } from '../helpers/items';

const MIN = 60_000;
const run = (id: number, flowId: number, flowName: string, minutes: number, raw?: Record<string, unknown>) =>
  makeEntry({
    id,
    flowId,
    flowName,
    createdAt: new Date(NOW - minutes * MIN).toISOString(),
    firstSeen: NOW - minutes * MIN,
    lastSeen: NOW - MIN / 4,
    leftAt: NOW,
    raw,
  });

describe('History filter as text (Export History\u2019s argument)', () => {
  const runs = [
    run(1, 7, 'Invoices EU', 3, { status: 'pending', errors: null }),
    run(2, 8, 'Payroll', 30, { status: 'running', errors: 'boom', webhook: true }),
    run(3, 7, 'Invoices EU', 12),
  ];
  const watched = new Set<number>();
  const ids = (text: string, service = 'Production') => {
    const f = historyEntryFilter(text, service, (id) => watched.has(id));
    assert.ok('test' in f, `parsed: ${text}`);
    return runs.filter(f.test).map((e) => e.id);
  };

  it('words, fields, ids, flags and durations select runs; an empty filter keeps every run', () => {
    assert.deepEqual(ids(''), [1, 2, 3]);
    assert.deepEqual(ids('invoices'), [1, 3]);
    assert.deepEqual(ids('flow:8'), [2]);
    assert.deepEqual(ids('status:running'), [2]);
    assert.deepEqual(ids('has:errors'), [2]);
    assert.deepEqual(ids('-has:errors'), [1, 3]);
    assert.deepEqual(ids('has:webhook'), [2]);
    assert.deepEqual(ids('ran>10m'), [2, 3]);
    assert.deepEqual(ids('id:3'), [3]);
    assert.deepEqual(ids('service:staging', 'Staging'), [1, 2, 3]);
    assert.deepEqual(ids('service:staging', 'Production'), []);
  });

  it('is:watched keeps the runs History watches, as the History view does (an export with is:watched kept none)', () => {
    watched.add(2);
    try {
      assert.deepEqual(ids('is:watched'), [2]);
      assert.deepEqual(ids('-is:watched'), [1, 3]);
      assert.deepEqual(ids('is:watched flow:8'), [2]);
    } finally {
      watched.clear();
    }
    assert.deepEqual(ids('is:watched'), []);
  });

  it('words search when the run was created too, and status: reads a status of at most 64 characters, as the view does', () => {
    const day = new Date(NOW - 30 * MIN).toISOString().slice(0, 10);
    assert.deepEqual(ids(day), [1, 2, 3]);
    const minute = new Date(NOW - 30 * MIN).toISOString().slice(11, 16);
    assert.deepEqual(ids(`"${minute}"`), [2]);
    const long = [
      run(4, 9, 'Long', 1, { status: `waiting ${'x'.repeat(60)}` }),
      run(5, 9, 'Short', 1, { status: 'waiting' }),
    ];
    const f = historyEntryFilter('status:waiting', 'P', () => false);
    assert.ok('test' in f);
    assert.deepEqual(
      long.filter(f.test).map((e) => e.id),
      [5],
    );
  });

  it('a malformed filter is a problem, not a test', () => {
    const f = historyEntryFilter('"unclosed', 'P', () => false);
    assert.ok('problem' in f && f.problem.length > 0);
  });
});

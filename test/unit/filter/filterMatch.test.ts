import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { FilterSubjects, type FilterLive, type FilterSubject } from '../../../src/filter/filterMatch';
import { parseFilter, type Filter, type FilterView } from '../../../src/filter/filterQuery';

interface Row {
  id: number;
  flow: string;
  flowId: number;
  status: string;
  service: string;
  error?: string;
  stuck?: boolean;
  ageSeconds?: number;
}

const describe_ = (row: Row): FilterSubject => ({
  fields: { flow: [row.flow], status: [row.status], service: [row.service] },
  ids: { id: [row.id], flow: [row.flowId] },
  more: row.error ? [row.error] : [],
});
const live = (row: Row): FilterLive => ({
  flags: { stuck: row.stuck === true, errors: row.error !== undefined },
  seconds: { age: row.ageSeconds },
});

const filterOf = (input: string, view: FilterView = 'processing'): Filter => {
  const parsed = parseFilter(input, view);
  assert.ok(parsed.filter, parsed.problem);
  return parsed.filter;
};

const rows: Row[] = [
  { id: 1003, flow: 'Invoices EU', flowId: 7, status: 'pending', service: 'Production', ageSeconds: 120 },
  {
    id: 1004,
    flow: 'Receipts Café',
    flowId: 8,
    status: 'pending',
    service: 'Staging',
    error: 'Timeout talking to ERP',
    stuck: true,
    ageSeconds: 7200,
  },
  { id: 2001, flow: 'Payroll', flowId: 12, status: 'retrying', service: 'Production', ageSeconds: 4000 },
];

describe('FilterSubjects: matching rows', () => {
  const subjects = new FilterSubjects(describe_, live);
  const ids = (input: string) => subjects.filter(filterOf(input), rows).map((r) => r.id);

  it('words in any field, every word, case and accents folded', () => {
    assert.deepEqual(ids('cafe'), [1004]);
    assert.deepEqual(ids('RECEIPTS café'), [1004]);
    assert.deepEqual(ids('erp'), [1004], 'error text');
    assert.deepEqual(ids('production'), [1003, 2001], 'service name');
    assert.deepEqual(ids('1003'), [1003], 'an id');
    assert.deepEqual(ids('invoices payroll'), [], 'all words must match');
    assert.deepEqual(ids('"invoices eu"'), [1003]);
    assert.deepEqual(ids('"eu invoices"'), [], 'a phrase keeps its order');
  });

  it('field terms look in their field only; an id term compares the number', () => {
    assert.deepEqual(ids('status:retry'), [2001]);
    assert.deepEqual(ids('flow:12'), [2001], 'the flow id');
    assert.deepEqual(ids('flow:1'), [], 'an id is a number, not a substring');
    assert.deepEqual(ids('flow:invoices'), [1003]);
    assert.deepEqual(ids('id:100'), []);
    assert.deepEqual(ids('id:1004'), [1004]);
    assert.deepEqual(ids('service:staging'), [1004]);
    assert.deepEqual(ids('status:production'), [], 'not another field');
  });

  it('flags and durations are read live', () => {
    assert.deepEqual(ids('is:stuck'), [1004]);
    assert.deepEqual(ids('has:errors'), [1004]);
    assert.deepEqual(ids('-has:errors'), [1003, 2001]);
    assert.deepEqual(ids('age>1h'), [1004, 2001]);
    assert.deepEqual(ids('age<1h'), [1003]);
    const row = { ...rows[0] };
    const s = new FilterSubjects(describe_, live);
    assert.equal(s.matches(filterOf('is:stuck'), row), false);
    row.stuck = true; // the same row object, stuck a poll later
    assert.equal(s.matches(filterOf('is:stuck'), row), true);
  });

  it('negation, and count says what filter gives', () => {
    assert.deepEqual(ids('-production'), [1004]);
    assert.deepEqual(ids('pending -cafe'), [1003]);
    assert.equal(subjects.count(filterOf('pending'), rows), 2);
    assert.equal(subjects.count(filterOf(''), rows), 3);
  });

  it('folds a row once however often it is matched', () => {
    let described = 0;
    const s = new FilterSubjects((row: Row) => (described++, describe_(row)), live);
    for (const input of ['a', 'ab', 'abc', 'invoices']) s.count(filterOf(input), rows);
    assert.equal(described, rows.length);
  });

  it('property: a term and its negation split the rows in two', () => {
    const word = fc.stringMatching(/^[a-zA-Zé0-9]{1,6}$/);
    const term = fc.oneof(
      word,
      word.map((w) => `flow:${w}`),
      word.map((w) => `status:${w}`),
      fc.nat(3000).map((n) => `id:${n}`),
      fc.constantFrom('has:errors', 'is:stuck', 'has:webhook', 'is:watched', 'is:longer'),
      fc
        .tuple(fc.constantFrom('<', '>'), fc.nat(500), fc.constantFrom('s', 'm', 'h'))
        .map(([op, n, u]) => `age${op}${n}${u}`),
    );
    const row = fc.record({
      id: fc.nat(3000),
      flow: fc.string({ maxLength: 12 }),
      flowId: fc.nat(30),
      status: fc.constantFrom('pending', 'retrying', 'Pénding'),
      service: fc.string({ maxLength: 8 }),
      error: fc.option(fc.string({ maxLength: 12 }), { nil: undefined }),
      stuck: fc.boolean(),
      ageSeconds: fc.option(fc.nat(100_000), { nil: undefined }),
    });
    fc.assert(
      fc.property(term, fc.array(row, { maxLength: 20 }), (t, some) => {
        const s = new FilterSubjects(describe_, live);
        const yes = s.filter(filterOf(t), some);
        const no = s.filter(filterOf(`-${t}`), some);
        assert.equal(yes.length + no.length, some.length);
        for (const r of yes) assert.ok(!no.includes(r));
      }),
    );
  });
});

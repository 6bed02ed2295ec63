import * as assert from 'node:assert/strict';
import { FilterSubjects } from '../../../src/filter/filterMatch';
import { parseFilter, type FilterView } from '../../../src/filter/filterQuery';
import { connectionRows, processingRows } from '../../../src/lists/findRows';
import type { Connection, FlowSync, Item } from '../../../src/api/types';
import { NOW, conn, sync } from '../helpers/items';

const filterOf = (input: string, view: FilterView) => {
  const parsed = parseFilter(input, view);
  assert.ok(parsed.filter, parsed.problem);
  return parsed.filter;
};

describe('findRows: what a filter sees of a Processing and a Connections row', () => {
  const syncs = new FilterSubjects<Item<FlowSync>>(
    (i) => processingRows.subject(i.value, 'Production'),
    (i) => processingRows.live(i.value, NOW),
  );
  const rows = [
    sync(600, 7, 'Invoices'),
    sync(7200, 8, 'Receipts', { status: 'retrying', webhook: true, errors: { message: 'ERP timeout' } }),
  ];
  const ids = (input: string) => syncs.filter(filterOf(input, 'processing'), rows).map((r) => r.value.id);

  it('words find the id, flow, status, errors, the marks the row shows and the service', () => {
    assert.deepEqual(ids('600'), [600]);
    assert.deepEqual(ids('receipts'), [7200]);
    assert.deepEqual(ids('erp'), [7200]);
    assert.deepEqual(ids('webhook'), [7200]);
    assert.deepEqual(ids('"has errors"'), [7200]);
    assert.deepEqual(ids('production'), [600, 7200]);
    assert.deepEqual(ids('flow:8'), [7200]);
    assert.deepEqual(ids('status:retry'), [7200]);
  });

  it('flags and age', () => {
    assert.deepEqual(ids('has:errors'), [7200]);
    assert.deepEqual(ids('-has:webhook'), [600]);
    assert.deepEqual(ids('age>1h'), [7200]);
    assert.deepEqual(ids('age<1h'), [600]);
  });

  it('a connection: name, type, team name and id, user, service', () => {
    const subjects = new FilterSubjects<Item<Connection>>((i) => connectionRows.subject(i.value, 'Staging'));
    const list = [conn(5, 'Slack EU', 3, 'Sales'), conn(6, 'Invoices PDF', 4, 'Finance', 'pdf')];
    const found = (input: string) => subjects.filter(filterOf(input, 'connections'), list).map((r) => r.value.id);
    assert.deepEqual(found('slack'), [5]);
    assert.deepEqual(found('type:pdf'), [6]);
    assert.deepEqual(found('team:sales'), [5]);
    assert.deepEqual(found('team:4'), [6]);
    assert.deepEqual(found('service:staging'), [5, 6]);
    assert.deepEqual(found('"#1"'), [5, 6], 'the user the tooltip shows');
  });
});

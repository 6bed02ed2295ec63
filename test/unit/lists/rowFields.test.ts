import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Connection, FlowSync, Item } from '../../../src/api/types';
import { connectionsList } from '../../../src/lists/connections';
import { sortKey } from '../../../src/lists/grouping';
import type { ListDefinition } from '../../../src/lists/list';
import { processingList } from '../../../src/lists/processing';
import { field, placedBy, sameFields, textField } from '../../../src/lists/rowFields';
import { NOW, conn, sync } from '../helpers/items';

/** What a row shows of an item: label, description, tooltip and icon (the accessible name is made of these). */
function shown<T extends { id: number }>(list: { rows: Pick<ListDefinition<T>['rows'], 'leafLabel' | 'leafDescription' | 'leafTooltip' | 'leafIcon'> }, value: T): string {
  const rows = list.rows;
  return JSON.stringify([rows.leafLabel(value), rows.leafDescription(value, NOW), rows.leafTooltip({ value, raw: {} } as Item<T>, NOW), rows.leafIcon(value)]);
}

/** Every field of an item changed in turn (nested ones too), as an answer could change it. */
function variants<T extends object>(value: T, changes: ReadonlyArray<[string, (v: T) => T]>): Array<[string, T]> {
  return changes.map(([name, change]) => [name, change(structuredClone(value))]);
}

describe('rowFields: a row, and an order, declared by their fields once', () => {
  it('a connection row: every change of a field it shows makes looksSame say so', () => {
    const base = conn(5, 'Invoices Slack', 3, 'Billing').value;
    const changes: Array<[string, (c: Connection) => Connection]> = [
      ['id', (c) => ({ ...c, id: 6 })],
      ['name', (c) => ({ ...c, name: 'Payroll' })],
      ['type', (c) => ({ ...c, type: 'postgres' })],
      ['team_id', (c) => ({ ...c, team_id: 4 })],
      ['team.name', (c) => ({ ...c, team: { id: 3, name: 'Finance' } })],
      ['user_id', (c) => ({ ...c, user_id: 9 })],
      ['created_at', (c) => ({ ...c, created_at: '2020-01-01T00:00:00.000Z' })],
      ['updated_at', (c) => ({ ...c, updated_at: '2021-01-01T00:00:00.000Z' })],
      ['meta (a key more)', (c) => ({ ...c, meta: { ...c.meta, z: 1 } })],
    ];
    for (const [name, changed] of variants(base, changes)) {
      if (shown<Connection>(connectionsList, changed) !== shown<Connection>(connectionsList, base)) {
        assert.equal(connectionsList.rows.looksSame(base, changed), false, `the row shows ${name}, so looksSame must see it change`);
      }
    }
    assert.equal(connectionsList.rows.looksSame(base, structuredClone(base)), true);
  });

  it('a flow sync row: every change of a field it shows makes looksSame say so', () => {
    const base = sync(120, 7, 'Invoices', { errors: [{ code: 'E1' }], webhook: true }).value;
    const changes: Array<[string, (s: FlowSync) => FlowSync]> = [
      ['id', (s) => ({ ...s, id: 121 })],
      ['flow_id', (s) => ({ ...s, flow_id: 8 })],
      ['status', (s) => ({ ...s, status: 'running' })],
      ['created_at', (s) => ({ ...s, created_at: '2026-11-22T11:00:00.000Z' })],
      ['updated_at', (s) => ({ ...s, updated_at: '2026-11-22T11:30:00.000Z' })],
      ['webhook', (s) => ({ ...s, webhook: false })],
      ['flow.name', (s) => ({ ...s, flow: { id: 7, name: 'Payroll' } })],
      ['errors', (s) => ({ ...s, errors: [{ code: 'E2' }] })],
      ['errors (none)', (s) => ({ ...s, errors: null })],
    ];
    for (const [name, changed] of variants(base, changes)) {
      if (shown<FlowSync>(processingList, changed) !== shown<FlowSync>(processingList, base)) {
        assert.equal(processingList.rows.looksSame(base, changed), false, `the row shows ${name}, so looksSame must see it change`);
      }
    }
    assert.equal(processingList.rows.looksSame(base, structuredClone(base)), true, 'equal errors compare by value');
  });

  it('placements are what they were: a text by its sort key, then the id', () => {
    const c = conn(5, 'Invoices 10', 3).value;
    assert.equal(connectionsList.arrangements.sortings.name.placement(c), `${sortKey('Invoices 10')}\u00005`);
    assert.equal(connectionsList.arrangements.sortings.updated.placement(c), `${c.updated_at}\u00005`);
    const s = sync(12, 1, 'F').value;
    assert.equal(processingList.arrangements.sortings.started.placement(s), `${s.created_at}\u000012`);
    assert.equal(processingList.arrangements.sortings.id.placement(s), '12');
  });

  it('the same place means the same placement, for every order of both lists (what the tree model relies on)', () => {
    const anyConnection = fc.record({
      id: fc.integer({ min: 1, max: 5 }),
      name: fc.constantFrom('a', 'A', 'b 2', 'b 10', ''),
      updated_at: fc.constantFrom('2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z'),
    });
    fc.assert(
      fc.property(anyConnection, anyConnection, (x, y) => {
        for (const sorting of Object.values(connectionsList.arrangements.sortings)) {
          const a = { ...conn(1, 'n', 1).value, ...x };
          const b = { ...conn(1, 'n', 1).value, ...y };
          if (sorting.samePlace(a, b)) assert.equal(sorting.placement(a), sorting.placement(b));
          if (sorting.placement(a) !== sorting.placement(b)) assert.equal(sorting.samePlace(a, b), false);
        }
      }),
      { seed: 20261124, numRuns: 300 },
    );
  });

  it('the helpers: === by default, a comparison of its own, a text field placed by its sort key', () => {
    type V = { n: number; t: string; o: unknown };
    const same = sameFields<V>([field((v) => v.n), { read: (v) => v.o, same: (a, b) => JSON.stringify(a) === JSON.stringify(b) }]);
    assert.equal(same({ n: 1, t: 'x', o: [1] }, { n: 1, t: 'y', o: [1] }), true, 'a field not declared is not compared');
    assert.equal(same({ n: 1, t: 'x', o: [1] }, { n: 2, t: 'x', o: [1] }), false);
    assert.equal(same({ n: 1, t: 'x', o: [1] }, { n: 1, t: 'x', o: [2] }), false);
    const { placement, samePlace } = placedBy<V>([textField((v) => v.t), field((v) => v.n)]);
    assert.equal(placement({ n: 3, t: 'Item 2', o: null }), `${sortKey('Item 2')}\u00003`);
    assert.equal(samePlace({ n: 3, t: 'a', o: 1 }, { n: 3, t: 'a', o: 2 }), true);
  });
});

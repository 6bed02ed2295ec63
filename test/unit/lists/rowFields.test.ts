import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Connection, FlowSync, Item } from '../../../src/api/types';
import { rowAccessibleName } from '../../../src/lists/accessibleNames';
import { arrangedTree } from '../../../src/lists/arrange';
import type { RowAdapter } from '../../../src/lists/treeModel';
import { inert } from '../../../src/base/inert';
import { sameJson } from '../../../src/base/sameJson';
import { connectionsList } from '../../../src/lists/connections';
import { sortKey, textField } from '../../../src/lists/grouping';
import type { ListDefinition } from '../../../src/lists/list';
import { processingList } from '../../../src/lists/processing';
import { field, placedBy, sameFields } from '../../../src/lists/rowFields';
import { NOW, conn, sync } from '../helpers/items';

/** What a row shows of an item: label, description, tooltip and icon (the accessible name is made of these). */
function shown<T extends { id: number }>(
  list: { rows: Pick<ListDefinition<T>['rows'], 'leafLabel' | 'leafDescription' | 'leafTooltip' | 'leafIcon'> },
  value: T,
): string {
  const rows = list.rows;
  return JSON.stringify([
    rows.leafLabel(value),
    rows.leafDescription(value, NOW),
    rows.leafTooltip({ value, raw: {} } as Item<T>, NOW),
    rows.leafIcon(value),
  ]);
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
        assert.equal(
          connectionsList.rows.looksSame(base, changed),
          false,
          `the row shows ${name}, so looksSame must see it change`,
        );
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
        assert.equal(
          processingList.rows.looksSame(base, changed),
          false,
          `the row shows ${name}, so looksSame must see it change`,
        );
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
    const same = sameFields<V>([
      field((v) => v.n),
      { read: (v) => v.o, same: (a, b) => JSON.stringify(a) === JSON.stringify(b) },
    ]);
    assert.equal(
      same({ n: 1, t: 'x', o: [1] }, { n: 1, t: 'y', o: [1] }),
      true,
      'a field not declared is not compared',
    );
    assert.equal(same({ n: 1, t: 'x', o: [1] }, { n: 2, t: 'x', o: [1] }), false);
    assert.equal(same({ n: 1, t: 'x', o: [1] }, { n: 1, t: 'x', o: [2] }), false);
    const { placement, samePlace } = placedBy<V>([textField((v) => v.t), field((v) => v.n)]);
    assert.equal(placement({ n: 3, t: 'Item 2', o: null }), `${sortKey('Item 2')}\u00003`);
    assert.equal(samePlace({ n: 3, t: 'a', o: 1 }, { n: 3, t: 'a', o: 2 }), true);
  });
});

// The functions each list wrote by hand before they were derived from its declared fields (kept here, verbatim, as the
// reference: the derived ones must be exactly as strict).
const reference = {
  connections: {
    looksSame: (a: Connection, b: Connection) =>
      a.id === b.id &&
      a.name === b.name &&
      a.type === b.type &&
      a.team_id === b.team_id &&
      a.team?.name === b.team?.name &&
      a.user_id === b.user_id &&
      a.created_at === b.created_at &&
      a.updated_at === b.updated_at &&
      Object.keys(a.meta).length === Object.keys(b.meta).length,
    sortings: {
      name: {
        placement: (c: Connection) => `${sortKey(c.name)}\u0000${c.id}`,
        samePlace: (a: Connection, b: Connection) => a.name === b.name && a.id === b.id,
      },
      updated: {
        placement: (c: Connection) => `${c.updated_at}\u0000${c.id}`,
        samePlace: (a: Connection, b: Connection) => a.updated_at === b.updated_at && a.id === b.id,
      },
    },
  } as Reference<Connection>,
  processing: {
    looksSame: (a: FlowSync, b: FlowSync) =>
      a.id === b.id &&
      a.flow_id === b.flow_id &&
      a.status === b.status &&
      a.created_at === b.created_at &&
      a.updated_at === b.updated_at &&
      a.webhook === b.webhook &&
      a.flow?.name === b.flow?.name &&
      sameJson(a.errors, b.errors),
    sortings: {
      started: {
        placement: (s: FlowSync) => `${s.created_at}\u0000${s.id}`,
        samePlace: (a: FlowSync, b: FlowSync) => a.created_at === b.created_at && a.id === b.id,
      },
      id: { placement: (s: FlowSync) => String(s.id), samePlace: (a: FlowSync, b: FlowSync) => a.id === b.id },
    },
  } as Reference<FlowSync>,
};

// Small domains, so that two values drawn often agree in a field, and texts that sort alike differ in spelling.
const text = fc.constantFrom('a', 'A', 'b', ' a', 'c9', 'c10', 'é', '');
const time = fc.constantFrom('2026-11-22T11:00:00.000Z', '2026-11-22T11:30:00.000Z', '2026-11-22T11:30:00Z', 'garbage');
const connection: fc.Arbitrary<Connection> = fc.record({
  id: fc.nat(2),
  name: text,
  type: fc.constantFrom('pdf', 'PDF', 'slack', 'constructor', 'x'),
  team_id: fc.nat(1),
  team: fc.option(fc.record({ id: fc.nat(1), name: text }), { nil: undefined }),
  user_id: fc.nat(1),
  created_at: time,
  updated_at: time,
  meta: fc.dictionary(fc.constantFrom('a', 'b', 'c'), fc.constantFrom(1, 2)),
});
const flowSync: fc.Arbitrary<FlowSync> = fc.record({
  id: fc.nat(2),
  flow_id: fc.nat(1),
  status: fc.constantFrom('pending', 'Pending', 'running', 'failed', 'odd'),
  created_at: time,
  updated_at: time,
  errors: fc.oneof(
    fc.constant(null),
    fc.array(fc.constantFrom('x', 'y'), { maxLength: 2 }),
    fc.record({ message: fc.constantFrom('x', 'y') }),
  ),
  webhook: fc.boolean(),
  flow: fc.option(fc.record({ id: fc.nat(1), name: text }), { nil: undefined }),
});

/** Two values that differ in a random few of their fields (the others are copied, nested objects included). */
function pairOf<T extends object>(value: fc.Arbitrary<T>): fc.Arbitrary<[T, T]> {
  return fc.tuple(value, value, fc.func(fc.boolean())).map(([a, other, differs]) => {
    const copy = JSON.parse(JSON.stringify(a)) as Record<string, unknown>;
    for (const key of Object.keys(a)) if (differs(key)) copy[key] = (other as Record<string, unknown>)[key];
    return [a, copy as T];
  });
}

/** Everything a row shows of a value: label, description, tooltip, icon (and its words) and accessible name. */
function shownAll<T>(rows: RowAdapter<T>, value: T): unknown {
  const label = inert(rows.leafLabel(value));
  const description = inert(rows.leafDescription(value, NOW));
  const icon = rows.leafIcon(value);
  return {
    label,
    description,
    tooltip: rows.leafTooltip({ value, raw: {} }, NOW),
    icon: { id: icon.id, color: icon.color, words: icon.words?.() },
    name: rowAccessibleName({ label, icon, descriptions: [description] }),
  };
}

interface Reference<T> {
  looksSame(a: T, b: T): boolean;
  sortings: Record<string, { placement(value: T): string; samePlace(a: T, b: T): boolean }>;
}

function agreesWithReference<T extends { id: number }>(
  list: ListDefinition<T>,
  ref: Reference<T>,
  value: fc.Arbitrary<T>,
): void {
  fc.assert(
    fc.property(pairOf(value), ([a, b]) => list.rows.looksSame(a, b) === ref.looksSame(a, b)),
    { numRuns: 2000 },
  );
  assert.deepEqual(Object.keys(list.arrangements.sortings), Object.keys(ref.sortings), list.id);
  for (const [name, sorting] of Object.entries(list.arrangements.sortings)) {
    fc.assert(
      fc.property(pairOf(value), ([a, b]) => {
        assert.equal(sorting.samePlace(a, b), ref.sortings[name].samePlace(a, b), `${list.id} ${name}: samePlace`);
        assert.equal(sorting.placement(a), ref.sortings[name].placement(a), `${list.id} ${name}: placement`);
      }),
      { numRuns: 500 },
    );
    for (const groupBy of Object.keys(list.arrangements.groupings)) {
      // The tree's placement: the grouping's key and label before the sorting's (arrange.ts).
      const adapter = arrangedTree(list, { groupBy, sortBy: name });
      fc.assert(
        fc.property(
          pairOf(value),
          ([a, b]) => !adapter.samePlace(a, b) || adapter.placement(a) === adapter.placement(b),
        ),
        { numRuns: 200 },
      );
    }
  }
}

function showsNothingUndeclared<T extends { id: number }>(list: ListDefinition<T>, value: fc.Arbitrary<T>): void {
  fc.assert(
    fc.property(pairOf(value), ([a, b]) => {
      if (!list.rows.looksSame(a, b)) return;
      assert.deepEqual(
        shownAll(list.rows, b),
        shownAll(list.rows, a),
        `${list.id}: looksSame, yet shown differently: ${JSON.stringify([a, b])}`,
      );
    }),
    { numRuns: 3000 },
  );
}

describe('rowFields: the derived functions are exactly as strict as the hand-written ones they replaced', () => {
  it('property: for random pairs, the derived functions agree with the hand-written ones they replaced, in every sorting and arrangement', () => {
    agreesWithReference<Connection>(connectionsList, reference.connections, connection);
    agreesWithReference<FlowSync>(processingList, reference.processing, flowSync);
  });

  it('property: a row shows no field its declaration misses (whatever a row shows differently, looksSame tells apart)', () => {
    showsNothingUndeclared<Connection>(connectionsList, connection);
    showsNothingUndeclared<FlowSync>(processingList, flowSync);
  });
});

describe('placements never collide (text from the service may hold the separator)', () => {
  it('two items have the same placement only when every field places the same, whatever the fields hold (NUL, backslash)', () => {
    type Pair = { a: string; b: string };
    const { placement } = placedBy<Pair>([field((v) => v.a), field((v) => v.b)]);
    const text = fc.string({ unit: fc.constantFrom('a', 'b', '\u0000', '\\', '0'), maxLength: 6 });
    fc.assert(
      fc.property(text, text, text, text, (a1, b1, a2, b2) => {
        const same = a1 === a2 && b1 === b2;
        assert.equal(
          placement({ a: a1, b: b1 }) === placement({ a: a2, b: b2 }),
          same,
          JSON.stringify([a1, b1, a2, b2]),
        );
      }),
    );
    assert.notEqual(placement({ a: 'a\u0000b', b: 'c' }), placement({ a: 'a', b: 'b\u0000c' }));
  });
});

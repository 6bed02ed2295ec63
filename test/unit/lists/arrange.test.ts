import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Connection, FlowSync, Item } from '../../../src/api/types';
import { validateConnection, validateFlowSync, validateList } from '../../../src/api/validate';
import { TreeModel } from '../../../src/lists/treeModel';
import { arrangedTree, defaultArrangement, validArrangement } from '../../../src/lists/arrange';
import { connectionsList } from '../../../src/lists/connections';
import { processingList } from '../../../src/lists/processing';

const sync = (id: number, flowId: number, status: string, created: string): object => ({
  id,
  flow_id: flowId,
  status,
  created_at: created,
  updated_at: created,
  errors: null,
  webhook: false,
  flow: { id: flowId, name: `Flow ${flowId}` },
});
const connection = (id: number, teamId: number, name: string, type: string, updated: string): object => ({
  id,
  name,
  type,
  team_id: teamId,
  team: { id: teamId, name: `Team ${teamId}` },
  user_id: 1,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: updated,
  meta: {},
});
const syncs: Item<FlowSync>[] = validateList(
  [sync(3, 1, 'pending', '2026-11-22T10:00:00.000Z'), sync(1, 2, 'running', '2026-11-22T11:00:00.000Z'), sync(2, 1, 'running', '2026-11-22T12:00:00.000Z')],
  validateFlowSync,
  'x',
).items;
const connections: Item<Connection>[] = validateList(
  [connection(1, 1, 'b', 'pdf', '2026-02-01T00:00:00.000Z'), connection(2, 2, 'a', 'Slack', '2026-03-01T00:00:00.000Z'), connection(3, 1, 'c', 'slack', '2026-01-01T00:00:00.000Z')],
  validateConnection,
  'x',
).items;

function shape<T extends { id: number }>(model: TreeModel<T>): unknown {
  return model.roots().map((node) => (node.kind === 'group' ? [node.group.label, node.group.items.map((i) => i.value.id)] : node.item.value.id));
}

describe('arrangements (group by, sort by)', () => {
  it('processing: by flow (default, newest first), by status, flat; sorted by start time or id', () => {
    const tree = (groupBy: string, sortBy: string) => {
      const model = new TreeModel<FlowSync>('processing', arrangedTree<FlowSync>(processingList, { groupBy, sortBy }));
      model.update(syncs);
      return model;
    };
    assert.deepEqual(defaultArrangement<FlowSync>(processingList), { groupBy: 'flow', sortBy: 'started' });
    assert.deepEqual(shape(tree('flow', 'started')), [['Flow 1', [2, 3]], ['Flow 2', [1]]]);
    assert.deepEqual(shape(tree('flow', 'id')), [['Flow 1', [2, 3]], ['Flow 2', [1]]]);
    assert.deepEqual(shape(tree('status', 'id')), [['pending', [3]], ['running', [1, 2]]]);
    assert.deepEqual(shape(tree('none', 'started')), [2, 1, 3]);
    assert.deepEqual(shape(tree('none', 'id')), [1, 2, 3]);
    const byStatus = arrangedTree<FlowSync>(processingList, { groupBy: 'status', sortBy: 'id' });
    const model = tree('status', 'id');
    assert.equal(byStatus.groupRows?.icon(model.groups[1].group).id, 'loading~spin', 'a status group shows its status icon');
    assert.equal(byStatus.groupRows?.describe(model.groups[1].group), '2 syncs');
  });

  it('connections: by team (default, by name), by type (case-insensitive, with counts and icons), flat; by name or update', () => {
    const tree = (groupBy: string, sortBy: string) => {
      const model = new TreeModel<Connection>('connections', arrangedTree<Connection>(connectionsList, { groupBy, sortBy }));
      model.update(connections);
      return model;
    };
    assert.deepEqual(shape(tree('team', 'name')), [['Team 1', [1, 3]], ['Team 2', [2]]]);
    assert.deepEqual(shape(tree('team', 'updated')), [['Team 1', [1, 3]], ['Team 2', [2]]]);
    assert.deepEqual(shape(tree('type', 'name')), [['pdf', [1]], ['Slack', [2, 3]]]);
    assert.deepEqual(shape(tree('none', 'updated')), [2, 1, 3]);
    const byType = arrangedTree<Connection>(connectionsList, { groupBy: 'type', sortBy: 'name' });
    const model = tree('type', 'name');
    assert.equal(byType.groupRows?.icon(model.groups[0].group).id, 'file-pdf');
    assert.equal(byType.groupRows?.describe(model.groups[1].group), '2 connections');
  });

  it('unknown names from settings fall back to the defaults, each on its own; names like Object members are unknown', () => {
    assert.deepEqual(validArrangement<Connection>(connectionsList, { groupBy: 'type', sortBy: 'nonsense' }), { groupBy: 'type', sortBy: 'name' });
    assert.deepEqual(validArrangement<Connection>(connectionsList, { groupBy: 'constructor', sortBy: 'updated' }), { groupBy: 'team', sortBy: 'updated' });
    assert.deepEqual(validArrangement<FlowSync>(processingList, {}), { groupBy: 'flow', sortBy: 'started' });
  });

  it('package.json offers exactly the arrangements each list knows, with the same defaults', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const properties = require('../../../../package.json').contributes.configuration.properties;
    for (const list of [processingList, connectionsList] as const) {
      const { groupBySetting, sortBySetting, groupings, sortings, defaultGroupBy, defaultSortBy } = list.arrangements;
      assert.deepEqual(properties[`flowsync.${groupBySetting}`].enum, Object.keys(groupings));
      assert.deepEqual(properties[`flowsync.${sortBySetting}`].enum, Object.keys(sortings));
      assert.equal(properties[`flowsync.${groupBySetting}`].default, defaultGroupBy);
      assert.equal(properties[`flowsync.${sortBySetting}`].default, defaultSortBy);
    }
  });
});

describe('samePlace: tells equal placements without building them', () => {
  const small = fc.constantFrom('a', 'A', 'b', ' a', 'a ', 'c9', 'c10', 'é', '');
  const connection = fc.record({ id: fc.nat(3), name: small, team_id: fc.nat(2), team: fc.option(fc.record({ id: fc.nat(2), name: small }), { nil: undefined }), updated_at: fc.constantFrom('2026-01-01', '2026-01-02'), type: small });
  const flowSync = fc.record({ id: fc.nat(3), flow_id: fc.nat(2), status: small, created_at: fc.constantFrom('2026-01-01', '2026-01-02'), flow: fc.option(fc.record({ id: fc.nat(2), name: small }), { nil: undefined }) });

  it('property: for every arrangement of both lists, samePlace(a, b) only when placement(a) equals placement(b)', () => {
    const check = <T extends { id: number }>(list: Parameters<typeof arrangedTree<T>>[0], value: fc.Arbitrary<T>) => {
      for (const groupBy of Object.keys(list.arrangements.groupings)) {
        for (const sortBy of Object.keys(list.arrangements.sortings)) {
          const adapter = arrangedTree(list, { groupBy, sortBy });
          fc.assert(
            fc.property(value, value, (a, b) => !adapter.samePlace(a, b) || adapter.placement(a) === adapter.placement(b)),
            { numRuns: 400 },
          );
          const same = (v: T) => adapter.samePlace(v, { ...v });
          fc.assert(fc.property(value, same), { numRuns: 50 }); // and a copy is in the same place
        }
      }
    };
    check<Connection>(connectionsList, connection as unknown as fc.Arbitrary<Connection>);
    check<FlowSync>(processingList, flowSync as unknown as fc.Arbitrary<FlowSync>);
  });
});


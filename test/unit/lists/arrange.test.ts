import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Connection, FlowSync, Item } from '../../../src/api/types';
import { validateConnection, validateFlowSync } from '../../../src/api/validate';
import { validateList } from '../../../src/api/validateList';
import { TreeModel } from '../../../src/lists/treeModel';
import { arrangedTree } from '../../../src/lists/arrange';
import { defaultArrangement, validArrangement } from '../../../src/lists/arrangement';
import { connectionsList } from '../../../src/lists/connections';
import { sortKey } from '../../../src/lists/grouping';
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
  [
    sync(3, 1, 'pending', '2026-11-22T10:00:00.000Z'),
    sync(1, 2, 'running', '2026-11-22T11:00:00.000Z'),
    sync(2, 1, 'running', '2026-11-22T12:00:00.000Z'),
  ],
  validateFlowSync,
  'x',
).items;
const connections: Item<Connection>[] = validateList(
  [
    connection(1, 1, 'b', 'pdf', '2026-02-01T00:00:00.000Z'),
    connection(2, 2, 'a', 'Slack', '2026-03-01T00:00:00.000Z'),
    connection(3, 1, 'c', 'slack', '2026-01-01T00:00:00.000Z'),
  ],
  validateConnection,
  'x',
).items;

function shape<T extends { id: number }>(model: TreeModel<T>): unknown {
  return model
    .roots()
    .map((node) =>
      node.kind === 'group' ? [node.group.label, node.group.items.map((i) => i.value.id)] : node.item.value.id,
    );
}

describe('arrangements (group by, sort by)', () => {
  it('processing: by flow (default, newest first), by status, flat; sorted by start time or id', () => {
    const tree = (groupBy: string, sortBy: string) => {
      const model = new TreeModel<FlowSync>('processing', arrangedTree<FlowSync>(processingList, { groupBy, sortBy }));
      model.update(syncs);
      return model;
    };
    assert.deepEqual(defaultArrangement(processingList), { groupBy: 'flow', sortBy: 'started' });
    assert.deepEqual(shape(tree('flow', 'started')), [
      ['Flow 1', [2, 3]],
      ['Flow 2', [1]],
    ]);
    assert.deepEqual(shape(tree('flow', 'id')), [
      ['Flow 1', [2, 3]],
      ['Flow 2', [1]],
    ]);
    assert.deepEqual(shape(tree('status', 'id')), [
      ['pending', [3]],
      ['running', [1, 2]],
    ]);
    assert.deepEqual(shape(tree('none', 'started')), [2, 1, 3]);
    assert.deepEqual(shape(tree('none', 'id')), [1, 2, 3]);
    const byStatus = arrangedTree<FlowSync>(processingList, { groupBy: 'status', sortBy: 'id' });
    const model = tree('status', 'id');
    assert.equal(
      byStatus.groupRows?.icon(model.groups[1].group).id,
      'loading~spin',
      'a status group shows its status icon',
    );
    assert.equal(byStatus.groupRows?.describe(model.groups[1].group), '2 syncs');
  });

  it('connections: by team (default, by name), by type (case-insensitive, with counts and icons), flat; by name or update', () => {
    const tree = (groupBy: string, sortBy: string) => {
      const model = new TreeModel<Connection>(
        'connections',
        arrangedTree<Connection>(connectionsList, { groupBy, sortBy }),
      );
      model.update(connections);
      return model;
    };
    assert.deepEqual(shape(tree('team', 'name')), [
      ['Team 1', [1, 3]],
      ['Team 2', [2]],
    ]);
    assert.deepEqual(shape(tree('team', 'updated')), [
      ['Team 1', [1, 3]],
      ['Team 2', [2]],
    ]);
    assert.deepEqual(shape(tree('type', 'name')), [
      ['pdf', [1]],
      ['Slack', [2, 3]],
    ]);
    assert.deepEqual(shape(tree('none', 'updated')), [2, 1, 3]);
    const byType = arrangedTree<Connection>(connectionsList, { groupBy: 'type', sortBy: 'name' });
    const model = tree('type', 'name');
    assert.equal(byType.groupRows?.icon(model.groups[0].group).id, 'file-pdf');
    assert.equal(byType.groupRows?.describe(model.groups[1].group), '2 connections');
  });

  it('property: connections by team and name, answer after answer (same length, renamed, re-teamed, other lengths), give the groups and order a plain grouping and sort give', () => {
    // The reference: a Map by team id; groups by the sort key of their label, then key; members by (sort key, id, index).
    const reference = (list: readonly Item<Connection>[]) => {
      const groups = new Map<number, { key: number; label: string; ids: number[]; at: number[] }>();
      list.forEach((item, index) => {
        const c = item.value;
        let group = groups.get(c.team_id);
        if (!group) {
          groups.set(
            c.team_id,
            (group = { key: c.team_id, label: c.team?.name?.trim() || `Team ${c.team_id}`, ids: [], at: [] }),
          );
        }
        group.at.push(index);
      });
      const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
      return [...groups.values()]
        .sort((a, b) => cmp(sortKey(a.label), sortKey(b.label)) || a.key - b.key)
        .map((g) => {
          const at = g.at.sort(
            (a, b) =>
              cmp(sortKey(list[a].value.name), sortKey(list[b].value.name)) ||
              list[a].value.id - list[b].value.id ||
              a - b,
          );
          return [g.key, g.label, at.map((i) => list[i].value.id), at.map((i) => list[i].raw)];
        });
    };
    const name = fc.stringMatching(/^[aAbBéÉ1-9 ]{0,3}$/);
    const teamName = fc.constantFrom('Ops', 'ops', 'Équipe', 'équipe 2', '', ' Data 10 ', 'Data 9');
    const answer = fc.uniqueArray(fc.record({ id: fc.nat(400), name, team: fc.nat(12) }), {
      selector: (v) => v.id,
      maxLength: 70,
    });
    const edits = fc.array(fc.record({ at: fc.nat(), name, team: fc.nat(12) }), { maxLength: 6 });
    fc.assert(
      fc.property(
        fc.array(teamName, { minLength: 13, maxLength: 13 }),
        answer,
        fc.array(fc.oneof(answer, edits), { minLength: 1, maxLength: 6 }),
        (teams, first, steps) => {
          const tree = arrangedTree<Connection>(connectionsList);
          const body = (values: readonly { id: number; name: string; team: number }[]) =>
            JSON.parse(
              JSON.stringify(
                values.map((v) => ({
                  ...(connection(v.id, v.team, v.name, 'pdf', '2026-01-01T00:00:00.000Z') as object),
                  team: { id: v.team, name: teams[v.team] },
                })),
              ),
            );
          let values = first;
          for (const s of [first, ...steps]) {
            if (s !== first && s.length && 'at' in s[0]) {
              values = [...values];
              for (const e of s as { at: number; name: string; team: number }[]) {
                if (values.length) {
                  values[e.at % values.length] = { ...values[e.at % values.length], name: e.name, team: e.team };
                }
              }
            } else values = s as typeof first;
            const list = validateList(body(values), validateConnection, 'x').items;
            const got = tree
              .group(list)
              .map((g) => [g.key, g.label, g.items.map((i) => i.value.id), g.items.map((i) => i.raw)]);
            assert.deepEqual(got, reference(list));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('unknown names from settings fall back to the defaults, each on its own; names like Object members are unknown', () => {
    assert.deepEqual(validArrangement(connectionsList, { groupBy: 'type', sortBy: 'nonsense' }), {
      groupBy: 'type',
      sortBy: 'name',
    });
    assert.deepEqual(validArrangement(connectionsList, { groupBy: 'constructor', sortBy: 'updated' }), {
      groupBy: 'team',
      sortBy: 'updated',
    });
    assert.deepEqual(validArrangement(processingList, {}), { groupBy: 'flow', sortBy: 'started' });
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
  const connection = fc.record({
    id: fc.nat(3),
    name: small,
    team_id: fc.nat(2),
    team: fc.option(fc.record({ id: fc.nat(2), name: small }), { nil: undefined }),
    updated_at: fc.constantFrom('2026-01-01', '2026-01-02'),
    type: small,
  });
  const flowSync = fc.record({
    id: fc.nat(3),
    flow_id: fc.nat(2),
    status: small,
    created_at: fc.constantFrom('2026-01-01', '2026-01-02'),
    flow: fc.option(fc.record({ id: fc.nat(2), name: small }), { nil: undefined }),
  });

  it('property: for every arrangement of both lists, samePlace(a, b) only when placement(a) equals placement(b)', () => {
    const check = <T extends { id: number }>(list: Parameters<typeof arrangedTree<T>>[0], value: fc.Arbitrary<T>) => {
      for (const groupBy of Object.keys(list.arrangements.groupings)) {
        for (const sortBy of Object.keys(list.arrangements.sortings)) {
          const adapter = arrangedTree(list, { groupBy, sortBy });
          fc.assert(
            fc.property(
              value,
              value,
              (a, b) => !adapter.samePlace(a, b) || adapter.placement(a) === adapter.placement(b),
            ),
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

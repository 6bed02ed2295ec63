import * as assert from 'node:assert/strict';
import type { Connection, FlowSync, Item } from '../../../src/api/types';
import { validateConnection } from '../../../src/api/validate';
import { validateList } from '../../../src/api/validateList';
import { EXPANDED_ROWS_LIMIT, TreeModel, groupsStartExpanded, type TreeChange } from '../../../src/lists/treeModel';
import { arrangedTree } from '../../../src/lists/arrange';
import { connectionsList } from '../../../src/lists/connections';
import { processingList } from '../../../src/lists/processing';

const connection = (id: number, teamId: number, name: string, extra: Partial<Connection> = {}) => ({
  id,
  name,
  type: 'pdf',
  team_id: teamId,
  team: { id: teamId, name: `Team ${teamId}` },
  user_id: 1,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  meta: {},
  ...extra,
});

/** Fresh item objects every time, as a new answer gives. */
const answer = (raws: object[]): Item<Connection>[] =>
  validateList(JSON.parse(JSON.stringify(raws)), validateConnection, 'x').items;
const changedKeys = (change: TreeChange<Connection> | undefined) =>
  change === undefined ? 'none' : change.all ? 'all' : change.groups.map((g) => g.group.key);

describe('TreeModel', () => {
  const base = [connection(1, 1, 'a'), connection(2, 1, 'b'), connection(3, 2, 'c'), connection(4, 3, 'd')];
  let model: TreeModel<Connection>;
  beforeEach(() => {
    model = new TreeModel<Connection>('connections', arrangedTree<Connection>(connectionsList));
    model.update(answer(base));
  });

  it('groups by team, and an identical answer (new objects) changes nothing', () => {
    assert.deepEqual(
      model.groups.map((g) => [g.group.key, g.group.items.map((i) => i.value.id)]),
      [
        [1, [1, 2]],
        [2, [3]],
        [3, [4]],
      ],
    );
    assert.equal(changedKeys(model.update(answer(base))), 'none');
  });

  it('a changed field a row shows: only its group changes, and group nodes keep their identity', () => {
    const nodes = [...model.groups];
    const change = model.update(
      answer([base[0], base[1], { ...base[2], updated_at: '2026-02-01T00:00:00.000Z' }, base[3]]),
    );
    assert.deepEqual(changedKeys(change), [2]);
    assert.deepEqual([...model.groups], nodes);
    assert.equal(
      model.groups[1].group.items[0].value.updated_at,
      '2026-02-01T00:00:00.000Z',
      'the group holds the new item',
    );
  });

  it('a field no row shows (an unknown extra field) changes nothing', () => {
    assert.equal(changedKeys(model.update(answer([{ ...base[0], extra: 'x' }, base[1], base[2], base[3]]))), 'none');
  });

  it('a rename re-sorts only its group', () => {
    const change = model.update(answer([{ ...base[0], name: 'z' }, base[1], base[2], base[3]]));
    assert.deepEqual(changedKeys(change), [1]);
    assert.deepEqual(
      model.groups[0].group.items.map((i) => i.value.name),
      ['b', 'z'],
    );
    // and the next answer is compared against the new places
    assert.equal(changedKeys(model.update(answer([{ ...base[0], name: 'z' }, base[1], base[2], base[3]]))), 'none');
    assert.deepEqual(
      changedKeys(model.update(answer([{ ...base[0], name: 'z' }, { ...base[1], type: 'slack' }, base[2], base[3]]))),
      [1],
    );
  });

  it('an item that changes team: both teams change; a new team or a renamed team: everything is regrouped', () => {
    assert.deepEqual(
      changedKeys(
        model.update(answer([{ ...base[0], team_id: 2, team: { id: 2, name: 'Team 2' } }, base[1], base[2], base[3]])),
      ),
      [1, 2],
    );
    assert.deepEqual(
      model.groups.map((g) => g.group.items.map((i) => i.value.id)),
      [[2], [1, 3], [4]],
    );
    assert.equal(changedKeys(model.update(answer([...base, connection(5, 9, 'e')]))), 'all');
    assert.equal(
      changedKeys(
        model.update(
          answer(
            [...base, connection(5, 9, 'e')].map((c) =>
              c.team_id === 9 ? { ...c, team: { id: 9, name: 'Renamed' } } : c,
            ),
          ),
        ),
      ),
      'all',
    );
  });

  it('many moved items at once are regrouped as a whole, with the same result as a fresh model', () => {
    const many = Array.from({ length: 300 }, (_, i) => connection(i + 1, (i % 5) + 1, `n${i}`));
    model.update(answer(many));
    const renamed = many.map((c, i) => (i % 2 ? { ...c, name: `m${300 - i}` } : c));
    model.update(answer(renamed));
    const fresh = new TreeModel<Connection>('connections', arrangedTree<Connection>(connectionsList));
    fresh.update(answer(renamed));
    assert.deepEqual(
      model.groups.map((g) => g.group.items.map((i) => i.value.id)),
      fresh.groups.map((g) => g.group.items.map((i) => i.value.id)),
    );
  });

  it('knows which rows\u2019 "… ago" texts have aged since they were rendered', () => {
    const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
    const sync = (id: number, flowId: number, created: number) => ({
      id,
      flow_id: flowId,
      status: 'pending',
      created_at: new Date(created).toISOString(),
      updated_at: new Date(created).toISOString(),
      errors: null,
      webhook: false,
      flow: { id: flowId, name: `Flow ${flowId}` },
    });
    const tree = new TreeModel('processing', arrangedTree<FlowSync>(processingList));
    const items = validateList(
      [sync(1, 1, NOW - 5 * 60_000), sync(2, 2, NOW - 2 * 3_600_000)],
      processingList.validate,
      'x',
    ).items;
    tree.update(items);
    for (const item of items) tree.rendered(item.value, processingList.rows.leafDescription(item.value, NOW));
    assert.deepEqual(tree.agedGroups(NOW + 10_000), [], '"5 min ago" and "2 h ago" still hold');
    const aged = tree.agedGroups(NOW + 60_000).map((g) => g.group.key);
    assert.deepEqual(aged, [1], '"5 min ago" now reads "6 min ago"; "2 h ago" still holds');
  });
});

describe('many groups: groups start collapsed beyond a number of rows', () => {
  it('expanded up to EXPANDED_ROWS_LIMIT rows (group rows and item rows), collapsed beyond', () => {
    assert.equal(EXPANDED_ROWS_LIMIT, 100);
    assert.equal(groupsStartExpanded(100), true);
    assert.equal(groupsStartExpanded(101), false);
  });

  it('counts the rows of a Connections view with many teams: 40 teams of 5 connections are 240 rows, so collapsed', () => {
    const model = new TreeModel<Connection>('connections', arrangedTree<Connection>(connectionsList));
    model.update(answer(Array.from({ length: 200 }, (_, i) => connection(i + 1, 1 + (i % 40), `c${i}`))));
    assert.equal(model.rowCount(), 240);
    assert.equal(groupsStartExpanded(model.rowCount()), false);
    const few = new TreeModel<Connection>('connections', arrangedTree<Connection>(connectionsList));
    few.update(answer([connection(1, 1, 'a'), connection(2, 2, 'b')]));
    assert.equal(few.rowCount(), 4);
  });
});

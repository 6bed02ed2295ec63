import * as assert from 'node:assert/strict';
import type { Connection, Item } from '../../../src/api/types';
import fc from 'fast-check';
import { byText, flowLabel, groupBy, groupByFlow, sortKey, teamLabel } from '../../../src/lists/grouping';
import { arrangedTree } from '../../../src/lists/arrange';
import { connectionsList } from '../../../src/lists/connections';

/** The Connections view's default grouping: by team, by name within a team. */
const groupByTeam = (items: readonly Item<Connection>[]) => arrangedTree<Connection>(connectionsList).group(items);
import { conn, sync } from '../helpers/items';

describe('grouping', () => {
  it('groups syncs by flow, sorted by flow name, newest sync first, "Flow <id>" without a summary', () => {
    const groups = groupByFlow([
      sync(1, 20, 'Zeta'),
      sync(2, 10, 'alpha'),
      sync(3, 20, 'Zeta'),
      sync(4, 30, undefined),
    ]);
    assert.deepEqual(
      groups.map((g) => [g.label, g.items.map((i) => i.value.id)]),
      [
        ['alpha', [2]],
        ['Flow 30', [4]],
        ['Zeta', [1, 3]],
      ],
    );
  });

  it('groups connections by team, sorted by name, "Team <id>" without a summary', () => {
    const groups = groupByTeam([
      conn(1, 'b', 2, 'Billing'),
      conn(2, 'A', 2, 'Billing'),
      conn(3, 'x', 7),
      conn(4, 'c10', 1, 'Alpha'),
      conn(5, 'c9', 1, 'Alpha'),
    ]);
    assert.deepEqual(
      groups.map((g) => [g.label, g.items.map((i) => i.value.name)]),
      [
        ['Alpha', ['c9', 'c10']],
        ['Billing', ['A', 'b']],
        ['Team 7', ['x']],
      ],
    );
  });

  it('groups that share a label stay apart, ordered by key; a blank name falls back to the id', () => {
    const groups = groupByFlow([sync(1, 30, 'Same'), sync(2, 4, 'Same'), sync(3, 9, '  ')]);
    assert.deepEqual(
      groups.map((g) => [g.key, g.label]),
      [
        [9, 'Flow 9'],
        [4, 'Same'],
        [30, 'Same'],
      ],
    );
    assert.equal(flowLabel(sync(1, 12, ' Payroll ').value), 'Payroll');
    assert.equal(teamLabel(conn(1, 'x', 3, '   ').value), 'Team 3');
  });

  it("groupBy names a group after its first item and sorts every group's items", () => {
    const sorted: number[][] = [];
    const groups = groupBy(
      [sync(3, 1, 'a'), sync(1, 2, 'b'), sync(2, 1, 'c')],
      (s) => s.flow_id,
      (s) => `first ${s.id}`,
      (items) => {
        items.sort((x, y) => x.value.id - y.value.id);
        sorted.push(items.map((i) => i.value.id));
      },
    );
    assert.deepEqual(
      groups.map((g) => [g.label, g.items.map((i) => i.value.id)]),
      [
        ['first 1', [1]],
        ['first 3', [2, 3]],
      ],
    );
    assert.deepEqual(sorted, [[1], [2, 3]]);
  });
});

describe('sortKey', () => {
  it('orders naturally, ignoring case and accents', () => {
    const names = ['b10', 'B9', 'émile', 'Emilia', 'a', 'item 007', 'item 7x', 'Zeta', 'alpha 2', 'alpha 10'];
    const sorted = [...names].sort((x, y) => (sortKey(x) < sortKey(y) ? -1 : sortKey(x) > sortKey(y) ? 1 : 0));
    assert.deepEqual(sorted, [
      'a',
      'alpha 2',
      'alpha 10',
      'B9',
      'b10',
      'émile',
      'Emilia',
      'item 007',
      'item 7x',
      'Zeta',
    ]);
  });

  it('pads digit runs so that numbers compare by value, and keeps keys stable', () => {
    assert.ok(sortKey('c9') < sortKey('c10'));
    assert.ok(sortKey('v1.2.10') > sortKey('v1.2.9'));
    assert.equal(sortKey('Émile'), sortKey('emile'));
    assert.equal(sortKey('x'), sortKey('X'));
  });
});

describe('byText: one order for a whole answer, answer after answer', () => {
  type Named = { name: string; id: number };
  const items = (values: readonly Named[]) => values.map((value) => ({ value, raw: value }));
  /** The order it must give: by sort key (code units, as `<`), then by id. */
  const expected = (list: readonly Item<Named>[]) =>
    list
      .map((_item, i) => i)
      .sort((a, b) => {
        const [x, y] = [sortKey(list[a].value.name), sortKey(list[b].value.name)];
        return x < y ? -1 : x > y ? 1 : list[a].value.id - list[b].value.id;
      });
  /** A sort of `Named` by name, then id: a new one for each sequence of answers. */
  const newSort = () =>
    byText<Named>(
      (v) => v.name,
      (v) => v.id,
    );
  /** `sort`, which has ordered earlier answers, orders `values` as it must, and as a new sort does. */
  const assertSortedAsNew = (sort: ReturnType<typeof newSort>, values: readonly Named[]) => {
    const list = items(values);
    const got = Array.from(sort.order!(list));
    assert.deepEqual(got, expected(list));
    assert.deepEqual(got, Array.from(newSort().order!(list)), 'as a new sort gives');
  };

  it('property: every answer of a sequence is in key-then-id order, however names come, go and change between answers', () => {
    const name = fc.stringMatching(/^[aAbBé1-9 ]{0,4}$/);
    const answer = fc.uniqueArray(fc.record({ name, id: fc.nat(500) }), { selector: (v) => v.id, maxLength: 80 });
    fc.assert(
      fc.property(fc.array(answer, { minLength: 1, maxLength: 10 }), (answers) => {
        const sort = newSort();
        for (const values of answers) {
          const list = items(values);
          assert.deepEqual(Array.from(sort.order!(list)), expected(list));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('property: answers that rename, re-id or swap a few items of the last one (the incremental path) are in key-then-id order, as sorted anew', () => {
    const name = fc.stringMatching(/^[aAbBé1-9 ]{0,3}$/);
    const base = fc.array(fc.record({ name, id: fc.nat(300) }), { minLength: 1, maxLength: 150 });
    const edit = fc.oneof(
      fc.record({ kind: fc.constant('rename' as const), at: fc.nat(), name }),
      fc.record({ kind: fc.constant('id' as const), at: fc.nat(), id: fc.nat(300) }),
      fc.record({ kind: fc.constant('swap' as const), at: fc.nat(), to: fc.nat() }),
    );
    fc.assert(
      fc.property(
        base,
        fc.array(fc.array(edit, { minLength: 0, maxLength: 4 }), { minLength: 1, maxLength: 8 }),
        (first, answers) => {
          const sort = newSort();
          let values = first;
          sort.order!(items(values));
          for (const edits of answers) {
            values = [...values];
            for (const e of edits) {
              const at = e.at % values.length;
              if (e.kind === 'rename') values[at] = { ...values[at], name: e.name };
              else if (e.kind === 'id') values[at] = { ...values[at], id: e.id };
              else [values[at], values[e.to % values.length]] = [values[e.to % values.length], values[at]];
            }
            assertSortedAsNew(sort, values);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it("property: answers of the last one's length (its texts and entries updated in place) and of other lengths, renamed anywhere, are ordered as sorted anew", () => {
    // Names as new string objects each answer (as JSON.parse gives), non-ASCII among them; an answer renames any share
    // of the positions of the last one (few: the incremental path; many: a full sort) or has another length.
    const name = fc.stringMatching(/^[aAbBéÉ1-9 ]{0,3}$/);
    const fresh = (text: string) => [...text].join('');
    const step = fc.oneof(
      fc.record({
        kind: fc.constant('rename' as const),
        renames: fc.array(fc.record({ at: fc.nat(), name }), { maxLength: 40 }),
      }),
      fc.record({
        kind: fc.constant('resize' as const),
        values: fc.array(fc.record({ name, id: fc.nat(200) }), { maxLength: 60 }),
      }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.record({ name, id: fc.nat(200) }), { maxLength: 60 }),
        fc.array(step, { minLength: 1, maxLength: 8 }),
        (first, steps) => {
          const sort = newSort();
          let values = first;
          sort.order!(items(values));
          for (const s of steps) {
            if (s.kind === 'resize') values = s.values;
            else {
              values = values.map((v) => ({ name: fresh(v.name), id: v.id }));
              for (const r of s.renames) {
                if (values.length) values[r.at % values.length] = { ...values[r.at % values.length], name: r.name };
              }
            }
            assertSortedAsNew(sort, values);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('a key added again and again into the same gap: ranked between its neighbours until the gap is full, then all anew', () => {
    const sort = newSort();
    const big = Array.from({ length: 2_000 }, (_v, i) => ({ name: `m${i}`, id: 10_000 + i }));
    for (let k = 1; k <= 25; k++) {
      // "a" < "aa" < "aaa" < … < "b": each answer adds one key just before "b", halving the room there
      const values = [
        { name: 'b', id: 0 },
        ...Array.from({ length: k }, (_v, i) => ({ name: 'a'.repeat(i + 1), id: i + 1 })),
        ...big,
      ];
      const list = items(values);
      assert.deepEqual(Array.from(sort.order!(list)), expected(list), `answer ${k}`);
    }
  });

  it('a renamed item in a large answer is placed where it belongs (the incremental path), and stays there', () => {
    const sort = newSort();
    const values = Array.from({ length: 5_000 }, (_v, i) => ({ name: `Connection ${i}`, id: i }));
    sort.order!(items(values));
    for (const renamed of ['Aardvark', 'Connection 2500b', 'zzz', 'Connection 2500a', 'connection 2500']) {
      values[17] = { name: renamed, id: 17 };
      const list = items(values);
      assert.deepEqual(Array.from(sort.order!(list)), expected(list), renamed);
    }
  });
});

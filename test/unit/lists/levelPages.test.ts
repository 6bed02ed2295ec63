import * as assert from 'node:assert/strict';
import type { FlowSync, Item } from '../../../src/api/types';
import { arrangedTree } from '../../../src/lists/arrange';
import { LEVEL_PAGE, LevelPages, ROOT_LEVEL, groupLevel, moreTexts } from '../../../src/lists/levelPages';
import { isListRow, listRowKind } from '../../../src/lists/listRow';
import { processingList } from '../../../src/lists/processing';
import { TreeModel, type GroupNode, type ShownNode } from '../../../src/lists/treeModel';
import { sync } from '../helpers/items';

/** `count` syncs of flow `flowId`, ids from `first` (created one second apart: the newest, the highest id, first). */
const syncs = (count: number, flowId = 1, first = 1): Item<FlowSync>[] =>
  Array.from({ length: count }, (_, i) => sync(first + i, flowId, `Flow ${flowId}`));

const flat = (items: readonly Item<FlowSync>[]) => {
  const model = new TreeModel('processing', arrangedTree<FlowSync>(processingList, { groupBy: 'none', sortBy: 'id' }));
  model.update(items);
  return model;
};
const byFlow = (items: readonly Item<FlowSync>[]) => {
  const model = new TreeModel('processing', arrangedTree<FlowSync>(processingList, { groupBy: 'flow', sortBy: 'id' }));
  model.update(items);
  return model;
};
const leafIds = (nodes: ShownNode<FlowSync>[]) => nodes.flatMap((n) => (n.kind === 'leaf' ? [n.item.value.id] : []));
const more = (nodes: ShownNode<FlowSync>[]) => nodes.filter((n) => n.kind === 'more');
const en = (n: number) => n.toLocaleString('en-US');

describe('LevelPages: a level shows its first 1,000 rows, then a page more each time', () => {
  it('shows every row of a level of 0, 1 and exactly 1,000 rows, and no "Show more"', () => {
    const pages = new LevelPages();
    for (const total of [0, 1, LEVEL_PAGE]) {
      const rows = Array.from({ length: total }, (_, i) => i);
      const { rows: shown, cut } = pages.slice(ROOT_LEVEL, rows);
      assert.equal(shown.length, total, `${total} rows`);
      assert.equal(cut, undefined, `${total} rows: no "Show more"`);
    }
  });

  it('shows 1,000 of 1,001 rows and says where it stops; one page more shows all', () => {
    const pages = new LevelPages();
    const rows = Array.from({ length: 1_001 }, (_, i) => i);
    const { rows: shown, cut } = pages.slice(ROOT_LEVEL, rows);
    assert.equal(shown.length, 1_000);
    assert.deepEqual(cut, { level: ROOT_LEVEL, shown: 1_000, total: 1_001 });
    assert.equal(pages.more(ROOT_LEVEL, 1_001), 1_000, 'the first new row is row #1,000');
    assert.deepEqual(pages.slice(ROOT_LEVEL, rows), { rows });
    assert.equal(pages.more(ROOT_LEVEL, 1_001), 1_001, 'nothing more to show: nothing changes');
    assert.equal(pages.shown(ROOT_LEVEL, 1_001), 1_001);
  });

  it('keeps each level on its own; a level that shrank shows what it has, and grows back to its pages', () => {
    const pages = new LevelPages();
    pages.more(groupLevel(1), 2_500);
    assert.equal(pages.shown(groupLevel(1), 2_500), 2_000);
    assert.equal(pages.shown(groupLevel(2), 2_500), 1_000, 'another group still shows its first page');
    assert.equal(pages.shown(ROOT_LEVEL, 2_500), 1_000);
    assert.equal(pages.shown(groupLevel(1), 1_200), 1_200, 'shrank: all it has');
    assert.equal(pages.shown(groupLevel(1), 5_000), 2_000, 'grew again: the pages it had');
    assert.notEqual(groupLevel(1), groupLevel('1'), 'a number key and a text key are two levels');
    pages.reset();
    assert.equal(pages.shown(groupLevel(1), 2_500), 1_000, 'reset: the first page again');
  });

  it('reveal: shows the page that holds a row (and those before it), never fewer; an index outside does nothing', () => {
    const pages = new LevelPages();
    assert.equal(pages.reveal(ROOT_LEVEL, 999), false, 'row #999 is on the first page');
    assert.equal(pages.reveal(ROOT_LEVEL, 1_000), true);
    assert.equal(pages.shown(ROOT_LEVEL, 10_000), 2_000);
    assert.equal(pages.reveal(ROOT_LEVEL, 8_400), true);
    assert.equal(pages.shown(ROOT_LEVEL, 10_000), 9_000);
    assert.equal(pages.reveal(ROOT_LEVEL, 10), false, 'an earlier row: the pages stay');
    assert.equal(pages.shown(ROOT_LEVEL, 10_000), 9_000);
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.equal(pages.reveal(ROOT_LEVEL, bad), false);
    }
  });

  it('the "Show more" row says how many more, how many shown and how many in all, in words for a screen reader', () => {
    assert.deepEqual(moreTexts({ level: ROOT_LEVEL, shown: 1_000, total: 10_000 }, LEVEL_PAGE, en), {
      label: 'Show 1,000 more (1,000 of 10,000 shown)',
      accessibleName: 'Show 1,000 more rows: 1,000 of 10,000 rows are shown. Press Enter to show them.',
    });
    assert.equal(
      moreTexts({ level: ROOT_LEVEL, shown: 2_000, total: 2_500 }, LEVEL_PAGE, en).label,
      'Show 500 more (2,000 of 2,500 shown)',
      'the last page: only the rows left',
    );
  });
});

describe('TreeModel: each level pages (src/lists/levelPages.ts)', () => {
  it('a flat list of 2,500 shows 1,000 rows and "Show more", then 2,000, then all 2,500 without it', () => {
    const model = flat(syncs(2_500));
    let roots = model.shownRoots();
    assert.equal(roots.length, 1_001);
    assert.deepEqual(leafIds(roots).slice(0, 2), [1, 2], 'the first rows in their order');
    const [row] = more(roots);
    assert.deepEqual(roots[1_000], row, '"Show more" comes last');
    assert.deepEqual(row.kind === 'more' && [row.parent, row.cut], [
      undefined,
      { level: ROOT_LEVEL, shown: 1_000, total: 2_500 },
    ]);
    assert.equal(model.pages.more(ROOT_LEVEL, 2_500), 1_000);
    roots = model.shownRoots();
    assert.equal(roots.length, 2_001);
    assert.equal(leafIds(roots)[1_000], 1_001, 'the first new row');
    model.pages.more(ROOT_LEVEL, 2_500);
    roots = model.shownRoots();
    assert.equal(roots.length, 2_500);
    assert.equal(more(roots).length, 0);
  });

  it('a new answer keeps the pages shown; one that shrank below them shows what it has', () => {
    const model = flat(syncs(2_500));
    model.pages.more(ROOT_LEVEL, 2_500);
    model.update(syncs(3_000));
    assert.equal(model.shownRoots().length, 2_001);
    model.update(syncs(1_500));
    assert.equal(model.shownRoots().length, 1_500);
    model.update(syncs(0));
    assert.deepEqual(model.shownRoots(), []);
  });

  it('a group of 2,500 rows pages on its own; the root of a few groups shows them all', () => {
    const model = byFlow([...syncs(2_500, 1), ...syncs(3, 2, 5_000)]);
    const roots = model.shownRoots() as GroupNode<FlowSync>[];
    assert.equal(roots.length, 2);
    const big = roots.find((g) => g.group.key === 1)!;
    const small = roots.find((g) => g.group.key === 2)!;
    const children = model.shownChildren(big);
    assert.equal(children.length, 1_001);
    const [row] = more(children);
    assert.ok(row.kind === 'more' && row.parent === big, 'its parent is its group');
    assert.deepEqual(row.kind === 'more' && row.cut, { level: groupLevel(1), shown: 1_000, total: 2_500 });
    assert.equal(model.shownChildren(small).length, 3);
    model.pages.more(groupLevel(1), 2_500);
    assert.equal(model.shownChildren(big).length, 2_001);
    assert.equal(model.shownChildren(small).length, 3);
  });

  it('never shows more than its pages times 1,000 rows and one "Show more", at any size', () => {
    for (const total of [0, 1, 999, 1_000, 1_001, 2_500, 10_000]) {
      const model = flat(syncs(total));
      for (let pages = 1; pages <= 3; pages++) {
        const roots = model.shownRoots();
        assert.ok(roots.length <= pages * LEVEL_PAGE + 1, `${total} rows, ${pages} pages: ${roots.length}`);
        assert.equal(roots.length, Math.min(total, pages * LEVEL_PAGE) + (total > pages * LEVEL_PAGE ? 1 : 0));
        model.pages.more(ROOT_LEVEL, total);
      }
    }
  });

  it('the root pages its group rows too (more than 1,000 flows), in the order shown', () => {
    const items = Array.from({ length: 1_500 }, (_, i) => sync(i + 1, i + 1, `Flow ${i + 1}`));
    const model = byFlow(items);
    const roots = model.shownRoots((groups) => [...groups].reverse());
    assert.equal(roots.length, 1_001);
    assert.equal(roots[0].kind === 'group' && roots[0].group.key, 1_500, 'arranged first');
    assert.deepEqual(roots[1_000].kind === 'more' && roots[1_000].cut, {
      level: ROOT_LEVEL,
      shown: 1_000,
      total: 1_500,
    });
  });

  it('showPageOf: the level of a row on a later page shows that page; one on a shown page changes nothing', () => {
    const model = flat(syncs(2_500));
    assert.deepEqual(model.showPageOf(500)?.more, undefined);
    const shown = model.showPageOf(2_400);
    assert.equal(shown?.leaf.item.value.id, 2_400);
    assert.equal(shown?.more, 'root');
    assert.ok(leafIds(model.shownRoots()).includes(2_400), 'row #2,400 is shown now');
    assert.equal(model.shownRoots().length, 2_500);
    assert.equal(model.showPageOf(99_999), undefined, 'not listed');
  });

  it('showPageOf in a group: its group, or the root when the group row itself is on a later page', () => {
    const model = byFlow([...syncs(2_500, 1), ...syncs(3, 2, 5_000)]);
    const shown = model.showPageOf(1_500);
    assert.equal(
      shown?.more,
      model.groups.find((g) => g.group.key === 1),
    );
    const big = model.groups.find((g) => g.group.key === 1)!;
    assert.ok(leafIds(model.shownChildren(big)).includes(1_500));
    const many = byFlow(Array.from({ length: 1_500 }, (_, i) => sync(i + 1, i + 1, `Flow ${i + 1}`)));
    assert.equal(many.showPageOf(1_200)?.more, 'root', 'flow 1,200 is the 1,200th group row');
    assert.equal(many.shownRoots().length, 1_500);
  });

  it('the "Show more" row is no row a command acts on', () => {
    const [row] = more(flat(syncs(1_001)).shownRoots());
    assert.equal(listRowKind(row), 'other');
    assert.equal(isListRow(row), false);
  });
});

/**
 * The History view in plain Node, with a stand-in for the `vscode` module: what its filter keeps follows what it
 * reads, the runs and the watches (`is:watched`), over a real HistoryCore on the fake clock.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { Emitter } from '../../../../src/base/events';
import { parseFilter } from '../../../../src/filter/filterQuery';
import { HistoryCore } from '../../../../src/history/historyService';
import { LogStore } from '../../../../src/history/logStore';
import type { HistoryService } from '../../../../src/history/vscode/historyService';
import type { HistoryView, HistoryViewNode } from '../../../../src/history/vscode/historyView';
import { FakeClock } from '../../helpers/fakeClock';
import { FakeExplorer } from '../../helpers/historyExplorer';
import { syncAt as item } from '../../helpers/items';
import { MemoryFiles } from '../../helpers/memoryFiles';

// Compiled to out/test/unit/history/vscode/: the repository root is five levels up.
const root = path.resolve(__dirname, '..', '..', '..', '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { fakeVscode, useVscode } = require(
  path.join(root, 'test', 'unit', 'helpers', 'vscodeStandIn.js'),
) as typeof import('../../helpers/vscodeStandIn');

const MIN = 60_000;

/** The ids of the runs the view shows (one service: its days at the top, their runs beneath), or 'noMatch'. */
async function shown(view: HistoryView): Promise<number[] | 'noMatch'> {
  const top = await view.getChildren();
  if (top.length === 1 && top[0].kind === 'noMatch') return 'noMatch';
  const rows: HistoryViewNode[] = [];
  for (const day of top) rows.push(...(await view.getChildren(day)));
  return rows.flatMap((row) => (row.kind === 'historyEntry' ? [row.entry.id] : [])).sort((a, b) => a - b);
}

describe('History view (plain Node, a vscode stand-in): its filter', () => {
  let restore: () => void;
  before(() => (restore = useVscode(fakeVscode(), 'vscode-stand-in-history-view')));
  after(() => restore());

  it('is:watched follows the watches: watching or unwatching a sync, here or in another window, filters again', async () => {
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { HistoryView } =
      require('../../../../src/history/vscode/historyView') as typeof import('../../../../src/history/vscode/historyView');
    const { historyFinder } =
      require('../../../../src/find/vscode/findViews') as typeof import('../../../../src/find/vscode/findViews');
    const { lateTreeView } =
      require('../../../../src/base/vscode/lateTree') as typeof import('../../../../src/base/vscode/lateTree');
    /* eslint-enable @typescript-eslint/no-require-imports */
    const clock = new FakeClock();
    const explorer = new FakeExplorer(clock);
    const files = new MemoryFiles(() => clock.now());
    let stored: unknown;
    const watches = { read: () => stored, write: async (all: Record<string, unknown>) => void (stored = all) };
    const history = new HistoryCore({
      explorer,
      clock,
      settings: () => ({ historyDays: 30, stuckAfterMinutes: 30, notifyWhenFinished: 'off' }),
      watches,
      log: { debug: () => undefined, info: () => undefined, warn: () => undefined },
      notify: () => undefined,
      openLog: (folder) => new LogStore({ files, folder, windowId: 'a', now: () => clock.now() }),
    });
    await history.whenReady();
    explorer.answer([item(11, 1, clock.now(), 3 * MIN), item(12, 1, clock.now(), 2 * MIN)]);
    await clock.advance(15_000);
    explorer.answer([]); // #11 and #12 left: History has two runs
    const services = {
      all: [{ id: 'a', history: history as unknown as HistoryService }],
      several: false,
      byId: () => undefined,
      byName: () => undefined,
      onDidChange: new Emitter<void>().event,
    };
    const registered = lateTreeView<HistoryViewNode>('flowsync.history'); // as the start registers it
    const view = new HistoryView(registered, services, () => clock.now());
    try {
      assert.deepEqual(await shown(view), [11, 12]);
      const parsed = parseFilter('is:watched', 'history');
      assert.ok(parsed.filter);
      view.setFilter(historyFinder(view).rowFind(parsed.filter));
      assert.equal(await shown(view), 'noMatch', 'no sync watched');
      await history.watch('sync', [11], true);
      assert.deepEqual(await shown(view), [11], 'watched here: its run is kept');
      await history.watch('sync', [11], false);
      assert.equal(await shown(view), 'noMatch', 'unwatched here: no longer');
      // Another window watches #12 (the watches are one value every window shares): taken with this window's next answer.
      stored = { [explorer.historyScope!]: { syncs: [12], flows: [] } };
      await clock.advance(15_000);
      explorer.answer([]);
      assert.deepEqual(await shown(view), [12], "another window's watch");
    } finally {
      view.dispose();
      registered.dispose();
      history.dispose();
    }
  });
});

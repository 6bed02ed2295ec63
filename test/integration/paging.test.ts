/** A level of more than 1,000 rows shows them a page at a time (issue #52 item 9), in the real extension host. */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FlowSyncExplorerApi } from '../../src/extension';
import type { MockFlowSyncServer } from '../../src/mock/server';
import { revealRun } from '../../src/find/vscode/findCommands';
import { connect, setUserSetting, startMockApi, testApi, TEST_KEY, waitFor } from './helpers';

describe('A level pages: its first 1,000 rows and "Show more"', function () {
  this.timeout(90_000);
  let mock: MockFlowSyncServer;
  let x: FlowSyncExplorerApi;
  const rows = () => x.views.processing.tree.getChildren();
  const leafIds = () => rows().flatMap((n) => (n.kind === 'leaf' ? [n.item.value.id] : []));

  before(async () => {
    mock = await startMockApi({ apiKey: TEST_KEY, processing: 2_500 });
    x = await testApi();
    await setUserSetting('processing.groupBy', 'none');
    await connect(x, mock);
    await vscode.commands.executeCommand('flowsync.processing.focus');
  });

  after(async () => {
    mock.clearFaults();
    await x.history.clear();
    await setUserSetting('autoRefresh', undefined);
    await setUserSetting('processing.groupBy', undefined);
    await setUserSetting('baseUrl', undefined);
    await x.reconfigure();
    await mock.close();
  });

  it('a flat list of about 2,500 shows 1,000 and "Show more"; the row shows 2,000; Go to a later row shows its page', async () => {
    const total = x.explorer.lists.processing.state.items!.length;
    assert.ok(total > 2_000 && total <= 3_000, `about 2,500 syncs: ${total}`);
    await waitFor(() => rows().length === 1_001, { message: '1,000 rows and "Show more"' });
    const more = rows()[1_000];
    assert.equal(more.kind, 'more');
    const item = x.views.processing.tree.getTreeItem(more);
    assert.equal(item.label, `Show 1,000 more (1,000 of ${total.toLocaleString()} shown)`);
    assert.equal(
      item.accessibilityInformation?.label,
      `Show 1,000 more rows: 1,000 of ${total.toLocaleString()} rows are shown. Press Enter to show them.`,
    );
    assert.ok(item.command, 'Enter or a click runs its command');

    // What Enter or a click on the row does: its command, with its arguments
    await vscode.commands.executeCommand(item.command.command, ...(item.command.arguments ?? []));
    await waitFor(() => rows().length === 2_001, { message: '2,000 rows and "Show more"' });
    const first = rows()[1_000];
    assert.equal(first.kind, 'leaf', 'the first new row where "Show more" was');
    await waitFor(() => x.views.processing.view.selection[0] === first || selectedId() === leafIdOf(first), {
      message: 'the focus on the first new row',
    });

    // Go to (and Find, links, the timeline: ListView.revealItem) on row #2,400 shows the page that holds it
    const model = x.views.processing.firstTree!.model;
    const target = model.groups[0].group.items[2_399].value.id;
    assert.ok(!leafIds().includes(target), 'row #2,400 is not shown yet');
    assert.equal(await x.views.processing.revealItem(target), true);
    assert.ok(leafIds().includes(target), 'its page is shown');
    assert.equal(rows().length, total, 'all of them: the last page');
    await waitFor(() => selectedId() === target, { message: `#${target} selected` });
  });

  it('History: a day of about 2,500 runs shows 1,000 and "Show more"; revealing a run of its third page shows it', async () => {
    await setUserSetting('autoRefresh', false);
    const left = x.explorer.lists.processing.state.items!.length;
    // Every sync leaves at once: History's day of today holds them all
    mock.inject({ endpoint: 'processing', status: 200, body: '[]' });
    await vscode.commands.executeCommand('flowsync.refreshProcessing');
    await waitFor(() => x.history.snapshot.entries.length >= left, { message: `${left} runs in History` });
    const history = x.historyView;
    const today = (await history.getChildren()).find(
      (node) => node.kind === 'historyDay' && node.group.entries.length >= left,
    );
    assert.ok(today?.kind === 'historyDay', 'a day holds them all');
    const total = today.group.entries.length;
    let runs = await history.getChildren(today);
    assert.equal(runs.length, 1_001);
    const more = runs[1_000];
    assert.equal(more.kind, 'historyMore');
    assert.equal(await history.getParent(more), today, 'its parent is its day');
    const item = await history.getTreeItem(more);
    assert.equal(item.label, `Show 1,000 more (1,000 of ${total.toLocaleString()} shown)`);
    assert.equal(item.contextValue, undefined, 'no row menu');
    await vscode.commands.executeCommand(item.command!.command, ...(item.command!.arguments ?? []));
    runs = await history.getChildren(today);
    assert.equal(runs.length, 2_001);

    // Go to, the timeline: revealRun shows the page of the day that holds the run
    const entry = today.group.entries[2_399];
    const shown = async () =>
      (await history.getChildren(today)).some((node) => node.kind === 'historyEntry' && node.entry === entry);
    assert.equal(await shown(), false, 'run #2,400 of the day is not shown yet');
    assert.equal(await revealRun(history, { service: today.service, id: entry.id, leftAt: entry.leftAt }), true);
    assert.equal(await shown(), true, 'its page is shown');
    await waitFor(
      () => history.view.selection.some((node) => node.kind === 'historyEntry' && node.entry.id === entry.id),
      { message: 'the run selected' },
    );
  });

  function selectedId(): number | undefined {
    const [node] = x.views.processing.view.selection;
    return node && node.kind === 'leaf' ? node.item.value.id : undefined;
  }

  function leafIdOf(node: ReturnType<typeof rows>[number]): number | undefined {
    return node.kind === 'leaf' ? node.item.value.id : undefined;
  }
});

/** A level of more than 1,000 rows shows them a page at a time (issue #52 item 9), in the real extension host. */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FlowSyncExplorerApi } from '../../src/extension';
import type { MockFlowSyncServer } from '../../src/mock/server';
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

  function selectedId(): number | undefined {
    const [node] = x.views.processing.view.selection;
    return node && node.kind === 'leaf' ? node.item.value.id : undefined;
  }

  function leafIdOf(node: ReturnType<typeof rows>[number]): number | undefined {
    return node.kind === 'leaf' ? node.item.value.id : undefined;
  }
});

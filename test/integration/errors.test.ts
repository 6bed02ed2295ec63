/** Errors announced (issue #39, item 2) in the real extension host, against the mock's lifecycle. */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FlowSyncExplorerApi } from '../../src/extension';
import type { MockFlowSyncServer } from '../../src/mock/server';
import { TEST_KEY, connect, processingLeaf, setUserSetting, startMockApi, testApi, waitFor } from './helpers';

describe('Errors announced: a processing sync that reports errors', function () {
  this.timeout(60_000);
  let mock: MockFlowSyncServer;
  let x: FlowSyncExplorerApi;
  const refresh = () => vscode.commands.executeCommand('flowsync.refreshProcessing');
  const leaf = (id: number) => processingLeaf(x, id);

  before(async () => {
    mock = await startMockApi({ apiKey: TEST_KEY });
    x = await testApi();
    await setUserSetting('autoRefresh', false);
    await connect(x, mock);
  });

  after(async () => {
    for (const key of ['autoRefresh', 'notifyOnErrors', 'baseUrl']) await setUserSetting(key, undefined);
    await x.reconfigure();
    await mock.close();
  });

  it('a watched sync gets errors: one notification naming it, once; the hover names it; History keeps that it had errors', async () => {
    const flow = mock.dataset.flows[0];
    const [started] = mock.startSync(flow.id, { runMs: 30 * 60_000 });
    await refresh();
    await vscode.commands.executeCommand('flowsync.watch', leaf(started.id));
    const said = x.notifications.texts.length;
    await refresh();
    assert.equal(x.notifications.texts.length, said, 'no errors yet: nothing said');

    assert.ok(mock.reportErrors(started.id), 'the mock gives it errors');
    await refresh();
    await waitFor(() => x.notifications.texts.length > said, { message: 'the errors notification' });
    assert.deepEqual(x.notifications.texts.slice(said), [`Sync #${started.id} (${flow.name}) reports errors`]);
    assert.equal(x.notifications.shown.at(-1), 'errors');
    await refresh();
    assert.equal(x.notifications.texts.length, said + 1, 'once per run: the next poll says nothing');
    assert.match(String(x.views.processing.tree.getTreeItem(leaf(started.id)).description), /has errors/);
    await waitFor(() => /With errors/.test((x.statusBar.item!.tooltip as vscode.MarkdownString).value), {
      message: 'the status bar hover names it',
    });
    assert.match((x.statusBar.item!.tooltip as vscode.MarkdownString).value, new RegExp(`#${started.id} `));

    mock.finish(started.id);
    await refresh();
    await x.history.flushed();
    const run = x.history.snapshot.entries.find((e) => e.id === started.id);
    assert.ok(run?.hadErrors, 'History keeps that the run had errors');
  });

  it('off: a watched sync that gets errors is not announced', async () => {
    await setUserSetting('notifyOnErrors', 'off');
    const [started] = mock.startSync(mock.dataset.flows[1].id, { runMs: 30 * 60_000 });
    await refresh();
    await vscode.commands.executeCommand('flowsync.watch', leaf(started.id));
    const said = x.notifications.texts.length;
    mock.reportErrors(started.id);
    await refresh();
    await refresh();
    assert.equal(x.notifications.texts.length, said);
    await setUserSetting('notifyOnErrors', undefined);
  });
});

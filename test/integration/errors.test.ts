/** Errors announced (issue #39, item 2) in the real extension host, against the mock's lifecycle. */
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { systemClock } from '../../src/base/clock';
import type { FlowSyncExplorerApi } from '../../src/extension';
import { originFolder } from '../../src/history/store';
import type { MockFlowSyncServer } from '../../src/mock/server';
import { watchErrors, type ErrorsDeps } from '../../src/notifications/vscode/errorNotifications';
import { TEST_KEY, connect, processingLeaf, setUserSetting, startMockApi, testApi, waitFor } from './helpers';

describe('Errors announced: a processing sync that reports errors', function () {
  this.timeout(60_000);
  let mock: MockFlowSyncServer;
  let x: FlowSyncExplorerApi;
  const refresh = () => vscode.commands.executeCommand('flowsync.refreshProcessing');
  const leaf = (id: number) => processingLeaf(x, id);

  before(async () => {
    // No seeded runs (processing: 0): only the syncs these tests start are listed. The seeded lifecycle starts runs
    // with errors of its own as the wall clock goes, which a new teller says first: its quiet period (5 min) would then
    // hold the runs a test starts, and a run not said yet is not marked.
    mock = await startMockApi({ apiKey: TEST_KEY, processing: 0 });
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

  it('said once per run across a reload and another window (issue #49, #7): the runs said are remembered in global storage', async () => {
    // Windows of one profile, each a teller of its own (as a window after a reload, or another window, makes) over one
    // temporary global storage, fed by this window's Processing list. Only one of them is open at a time: the one
    // that polls (src/sharing/pollLease.ts), so none judges an answer while another's marks are on their way.
    const storage = vscode.Uri.file(path.join(os.tmpdir(), `flowsync-errors-${process.pid}-${Date.now()}`));
    const service = x.services.all[0];
    const folder = vscode.Uri.joinPath(storage, 'errors-announced', originFolder(service.explorer.scope!));
    /** The runs marked on disk (every window's files). */
    const marked = async () => {
      const files = await vscode.workspace.fs.readDirectory(folder).then(undefined, () => []);
      let text = '';
      for (const [name] of files) {
        text += new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, name)));
      }
      return new Set(text.split('\n').flatMap((line) => (line ? [(JSON.parse(line) as [number])[0]] : [])));
    };
    const withErrors = () =>
      (service.explorer.lists.processing.state.items ?? [])
        .filter((i) => i.value.errors != null)
        .map((i) => i.value.id);
    const open = (windowId: string) => {
      const texts: string[] = [];
      const deps: ErrorsDeps = {
        settings: { current: { notifyOnErrors: 'all', userHistoryDays: 7 } },
        json: { open: async () => undefined },
        clock: systemClock,
        storage,
        windowId,
      };
      const teller = watchErrors(
        service,
        deps,
        () => undefined,
        (text) => texts.push(text),
        'flowsync.processing',
      );
      return { texts, dispose: () => teller.dispose() };
    };
    const flow = mock.dataset.flows[2];
    try {
      const first = open('window-1');
      const three = mock.startSync(flow.id, { count: 3, runMs: 30 * 60_000 });
      for (const s of three) mock.reportErrors(s.id);
      await refresh();
      await waitFor(() => first.texts.length === 1, { message: 'the first window says the syncs with errors' });
      assert.deepEqual(first.texts, ['3 syncs report errors'], 'the three, in one notification');
      const said = withErrors();
      assert.deepEqual([...said].sort(), three.map((s) => s.id).sort(), 'the only runs listed with errors');
      await waitFor(
        async () => {
          const m = await marked();
          return said.every((id) => m.has(id));
        },
        { message: 'what it said is on disk' },
      );
      first.dispose(); // the window reloads

      const reloaded = open('window-2');
      await refresh(); // the same runs, still processing with errors: nothing to say
      const [fourth] = mock.startSync(flow.id, { runMs: 30 * 60_000 });
      mock.reportErrors(fourth.id);
      await refresh();
      await waitFor(() => reloaded.texts.length > 0, { message: 'the new run is said after the reload' });
      assert.deepEqual(reloaded.texts, [`Sync #${fourth.id} (${flow.name}) reports errors`], 'and only the new run');
      await waitFor(async () => (await marked()).has(fourth.id), { message: 'the new run is on disk' });
      reloaded.dispose(); // another window takes over the polling: its first answer is its own

      const other = open('window-3');
      await refresh();
      const [fifth] = mock.startSync(flow.id, { runMs: 30 * 60_000 });
      mock.reportErrors(fifth.id);
      await refresh();
      await waitFor(() => other.texts.length > 0, { message: 'the other window says the new run' });
      assert.deepEqual(other.texts, [`Sync #${fifth.id} (${flow.name}) reports errors`], 'and nothing said before');
      other.dispose();
      for (const s of [...three, fourth, fifth]) mock.finish(s.id);
      await refresh();
    } finally {
      await vscode.workspace.fs.delete(storage, { recursive: true }).then(undefined, () => undefined);
    }
  });

  it('watched: a sync that had errors before it was watched is announced once it is watched (issue #52, item 4)', async () => {
    // A teller of its own (its quiet period not taken by the tests before), over the real service and its watches.
    const texts: string[] = [];
    const deps: ErrorsDeps = {
      settings: { current: { notifyOnErrors: 'watched' } },
      json: { open: async () => undefined },
      clock: systemClock,
    };
    const teller = watchErrors(
      x.services.all[0],
      deps,
      () => undefined,
      (text) => texts.push(text),
      'flowsync.processing',
    );
    const flow = mock.dataset.flows[3];
    const [started] = mock.startSync(flow.id, { runMs: 30 * 60_000 });
    try {
      mock.reportErrors(started.id);
      await refresh();
      await refresh();
      assert.deepEqual(texts, [], 'not watched: nothing said');
      await vscode.commands.executeCommand('flowsync.watch', leaf(started.id));
      await refresh();
      await waitFor(() => texts.length > 0, { message: 'said once watched' });
      assert.deepEqual(texts, [`Sync #${started.id} (${flow.name}) reports errors`]);
      await refresh();
      assert.equal(texts.length, 1, 'once');
    } finally {
      teller.dispose();
      mock.finish(started.id);
      await refresh();
    }
  });

  it('a flow row wears the strongest tint of its syncs (errors), with its words in its description and accessible name', async () => {
    const flow = mock.dataset.flows[4];
    const [plain, failing] = mock.startSync(flow.id, { count: 2, runMs: 30 * 60_000 });
    try {
      mock.reportErrors(failing.id);
      await refresh();
      const tree = x.views.processing.tree;
      const row = tree.getChildren().find((node) => node.kind === 'group' && Number(node.group.key) === flow.id);
      assert.ok(row, 'the flow row (grouped by flow)');
      const item = tree.getTreeItem(row);
      assert.match(String(item.description), /^2 syncs · 1 with errors/);
      assert.match(String(item.accessibilityInformation?.label), /1 with errors/);
      assert.ok(item.resourceUri, 'the row is marked (its decoration URI)');
      // The Processing view's tints provider (private: made with the rows' code, in the services' chunk).
      const decorations = (x.views.processing as unknown as { tints: vscode.FileDecorationProvider }).tints;
      const tint = await waitFor(
        async () => decorations.provideFileDecoration(item.resourceUri!, new vscode.CancellationTokenSource().token),
        { message: "the row's tint" },
      );
      assert.equal(tint?.badge, 'E');
      assert.equal(tint?.tooltip, 'errors');
      assert.equal((tint?.color as vscode.ThemeColor | undefined)?.id, 'list.errorForeground');
      assert.ok(plain, 'and a sync without errors beside it');
    } finally {
      mock.finish(plain.id);
      mock.finish(failing.id);
      await refresh();
    }
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

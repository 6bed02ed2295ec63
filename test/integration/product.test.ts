import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FlowSyncExplorerApi } from '../../src/extension';
import type { MockFlowSyncServer } from '../../src/mock/server';
import { systemClock } from '../../src/base/clock';
import { Explorer } from '../../src/lists/explorer';
import { ProcessingStatusBar } from '../../src/status/vscode/statusBar';
import { explorerConfig } from '../unit/helpers/explorerConfig';
import { TEST_KEY as KEY, connect, keyChanges, startMockApi, testApi, waitFor, setUserSetting } from './helpers';

/** Shows the Connections view (which loads that list on demand) and waits for the list. */
async function showConnections(x: FlowSyncExplorerApi): Promise<void> {
  await vscode.commands.executeCommand('flowsync.connections.focus');
  await waitFor(() => x.explorer.lists.connections.state.loadedAt !== undefined, { message: 'connections loaded' });
}

describe('Flow Sync Explorer in the extension host', function () {
  this.timeout(30_000);
  let mock: MockFlowSyncServer;
  let x: FlowSyncExplorerApi;

  before(async () => {
    mock = await startMockApi({ apiKey: KEY });
    x = await testApi();
  });

  after(async () => {
    await setUserSetting('baseUrl', undefined);
    await setUserSetting('teamId', undefined);
    await x.keys.delete(new URL(mock.url).origin);
    await mock.close();
  });

  beforeEach(() => {
    mock.clearFaults();
  });

  // Each case sets up what it needs (connect(), showConnections()), so any one passes alone; one that fails half-way
  // leaves no rejected key, team filter or open editor to the next.
  afterEach(async () => {
    mock.setApiKey(KEY);
    if (vscode.workspace.getConfiguration('flowsync').inspect('teamId')?.globalValue !== undefined) {
      await setUserSetting('teamId', undefined);
      await x.reconfigure();
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('registers every command of the contract', async () => {
    const all = new Set(await vscode.commands.getCommands(true));
    for (const id of [
      'setApiKey',
      'clearApiKey',
      'setBaseUrl',
      'refresh',
      'refreshProcessing',
      'refreshConnections',
      'openJson',
      'copyId',
      'filterByTeam',
      'clearTeamFilter',
      'showLog',
    ]) {
      assert.ok(all.has(`flowsync.${id}`), `flowsync.${id}`);
    }
  });

  it('the status bar shows nothing until the settings and key have been read: never "set up" to a person who has set up', () => {
    const explorer = new Explorer(systemClock);
    let item: vscode.StatusBarItem | undefined; // the item the status bar made, as VS Code's window made it
    const bar = new ProcessingStatusBar(
      {
        all: [{ explorer, extras: () => ({ stuck: [] }) }],
        several: false,
        onDidChange: () => ({ dispose: () => undefined }),
      },
      systemClock,
      { createStatusBarItem: (...args) => (item = vscode.window.createStatusBarItem(...args)) },
    );
    try {
      assert.equal(item?.text, undefined, 'no item before the first configuration (the key is still being read)');
      explorer.configure(explorerConfig('', KEY, { autoRefresh: false }));
      assert.match(item?.text ?? '', /set up/, 'then what the configuration says');
    } finally {
      bar.dispose();
      explorer.dispose();
    }
  });

  it('without a service URL: asks for set-up and sends nothing', async () => {
    await setUserSetting('baseUrl', undefined);
    await x.reconfigure();
    assert.equal(x.explorer.status, 'noUrl');
    assert.match(x.statusBar.item!.text, /set up/);
    assert.equal(x.statusBar.item!.command, 'flowsync.setBaseUrl');
    assert.deepEqual(x.views.processing.tree.getChildren(), []);
    assert.equal(mock.requests.length, 0);
  });

  it('with a URL but no key: offers Set API Key and sends nothing', async () => {
    const origin = new URL(mock.url).origin;
    if ((await x.keys.get(origin)) !== undefined) await keyChanges(x, 1, () => x.keys.delete(origin));
    await setUserSetting('baseUrl', mock.url);
    await x.reconfigure();
    assert.equal(x.explorer.status, 'noKey');
    assert.equal(x.statusBar.item!.command, 'flowsync.setApiKey');
    assert.equal(mock.requests.length, 0);
  });

  it('loads processing flow syncs grouped by flow, with the count in the status bar and the badge', async () => {
    await connect(x, mock);
    const items = x.explorer.lists.processing.state.items!;
    const expected = mock.dataset.processingAt(Date.now());
    assert.ok(Math.abs(items.length - expected.length) <= 2, `${items.length} vs ${expected.length}`);
    const groups = x.views.processing.tree.getChildren();
    assert.ok(groups.length > 0);
    const labels = groups.map((g) => x.views.processing.tree.getTreeItem(g).label as string);
    assert.deepEqual(
      labels,
      [...labels].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base', numeric: true })),
    );
    const syncRows = x.views.processing.tree.getChildren(groups[0]);
    const row = x.views.processing.tree.getTreeItem(syncRows[0]);
    assert.match(String(row.label), /^#\d+$/);
    assert.match(String(row.description), /started/);
    assert.match(x.statusBar.item!.text, new RegExp(`${items.length} processing`));
    assert.equal(x.views.processing.view.badge?.value, items.length || undefined);
    // The connections list may load beside it (when an earlier test showed that view): look for the processing request.
    const request = mock.requests.filter((r) => r.path === '/api/public/v1/flowsyncs/processing').at(-1);
    assert.ok(request, 'a processing request was made');
    assert.equal(request.headers.authorization, `Bearer ${KEY}`);
  });

  it('loads connections grouped by team, sorted by name, when the view is shown', async () => {
    await connect(x, mock);
    await vscode.commands.executeCommand('flowsync.connections.focus');
    await waitFor(() => x.explorer.lists.connections.state.loadedAt !== undefined, { message: 'connections loaded' });
    const teams = x.views.connections.tree.getChildren();
    assert.equal(teams.length, mock.dataset.teams.length);
    for (const team of teams) {
      const names = x.views.connections.tree
        .getChildren(team)
        .map((n) => String(x.views.connections.tree.getTreeItem(n).label));
      assert.deepEqual(
        names,
        [...names].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base', numeric: true })),
      );
    }
    const pdf = teams
      .flatMap((t) => x.views.connections.tree.getChildren(t))
      .find((n) => n.kind === 'leaf' && (n.item.value as { type: string }).type === 'pdf');
    assert.ok(pdf, 'a pdf connection');
    assert.equal((x.views.connections.tree.getTreeItem(pdf).iconPath as vscode.ThemeIcon).id, 'file-pdf');
  });

  it('Open as JSON shows the raw item, read-only JSON titled by kind and id', async () => {
    await connect(x, mock);
    await showConnections(x);
    const team = x.views.connections.tree.getChildren()[0];
    const node = x.views.connections.tree.getChildren(team)[0];
    await vscode.commands.executeCommand('flowsync.openJson', node);
    const editor = (await waitFor(() =>
      vscode.window.activeTextEditor?.document.uri.scheme === 'flowsync-json'
        ? vscode.window.activeTextEditor
        : undefined,
    ))!;
    assert.equal(editor.document.languageId, 'json');
    assert.deepEqual(JSON.parse(editor.document.getText()), (node as { item: { raw: unknown } }).item.raw);
    assert.match(editor.document.uri.path, /Connection \d+\.json$/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('an identical answer fires no tree change; a changed one refreshes only the group that changed', async () => {
    await connect(x, mock);
    await showConnections(x);
    const events: Array<string | undefined> = [];
    const subscription = x.views.connections.tree.onDidChangeTreeData((node) =>
      events.push(node ? `team:${node.kind === 'group' ? node.group.key : '?'}` : undefined),
    );
    try {
      await vscode.commands.executeCommand('flowsync.refreshConnections');
      await vscode.commands.executeCommand('flowsync.refreshConnections');
      assert.deepEqual(events, [], 'no change event for the same data');
      const all = x.explorer.lists.connections.state.items!.map(
        (i) => i.raw as { id: number; team_id: number; name: string },
      );
      const changedTeam = all[0].team_id;
      const edited = all.map((c) => (c.id === all[0].id ? { ...c, name: `${c.name} (renamed)` } : c));
      mock.inject({ endpoint: 'connections', status: 200, body: JSON.stringify(edited), times: 1 });
      await vscode.commands.executeCommand('flowsync.refreshConnections');
      assert.deepEqual(events, [`team:${changedTeam}`]);
    } finally {
      subscription.dispose();
      mock.clearFaults();
    }
    await vscode.commands.executeCommand('flowsync.refreshConnections');
  });

  it('an open JSON document follows refreshes', async () => {
    await connect(x, mock);
    const flow = x.views.processing.tree.getChildren()[0];
    const node = x.views.processing.tree.getChildren(flow)[0] as {
      item: { raw: Record<string, unknown>; value: { id: number } };
    };
    await vscode.commands.executeCommand('flowsync.openJson', node);
    const doc = (await waitFor(() => vscode.window.activeTextEditor?.document))!;
    assert.match(doc.uri.path, new RegExp(`Flow sync ${node.item.value.id}\\.json$`));
    const changed = { ...node.item.raw, status: 'finishing', updated_at: new Date().toISOString() };
    const others = x.explorer.lists.processing.state
      .items!.filter((i) => i.value.id !== node.item.value.id)
      .map((i) => i.raw);
    mock.inject({ endpoint: 'processing', status: 200, body: JSON.stringify([changed, ...others]), times: 1 });
    await vscode.commands.executeCommand('flowsync.refreshProcessing');
    await waitFor(() => JSON.parse(doc.getText()).status === 'finishing', {
      message: 'the document to show the new status',
    });
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('"started … ago" texts are re-rendered as they age, without a request', async () => {
    await connect(x, mock);
    const now = Date.now();
    const sync = (id: number, msAgo: number) => ({
      id,
      flow_id: 9000 + id,
      status: 'pending',
      created_at: new Date(now - msAgo).toISOString(),
      updated_at: new Date(now).toISOString(),
      errors: null,
      webhook: false,
      flow: { id: 9000 + id, name: `Aging ${id}` },
    });
    mock.inject({
      endpoint: 'processing',
      status: 200,
      body: JSON.stringify([sync(1, 40_000), sync(2, 3 * 3600_000)]),
    });
    try {
      await vscode.commands.executeCommand('flowsync.refreshProcessing');
      const tree = x.views.processing.tree;
      const render = () =>
        tree
          .getChildren()
          .flatMap((g) => tree.getChildren(g))
          .map((leaf) => String(tree.getTreeItem(leaf).description));
      assert.match(render()[0], /started 4\d s ago/);
      assert.equal(tree.refreshAgedDescriptions(), 0, 'nothing has aged yet');
      const requests = mock.requests.length;
      const events: unknown[] = [];
      const subscription = tree.onDidChangeTreeData((node) => events.push(node));
      try {
        await new Promise((resolve) => setTimeout(resolve, 1100));
        // The view's own tick (every 30 s while it is shown) may come within the wait and re-render the aged group
        // itself (then nothing may be left to re-render here, or its text aged again since). Either way that group was
        // re-rendered, and no other.
        const refreshed = tree.refreshAgedDescriptions();
        const aged = tree
          .getChildren()
          .find((group) => tree.getChildren(group).some((leaf) => leaf.kind === 'leaf' && leaf.item.value.id === 1));
        assert.ok(aged, 'the group of the sync started 40 s ago');
        assert.ok(events.length >= 1, `the group whose text aged was re-rendered (${refreshed} of it here)`);
        assert.ok(
          events.every((node) => node === aged),
          `only the group whose text aged: ${events.length} re-render(s), ${refreshed} here`,
        );
        assert.ok(refreshed <= 1);
        render();
        assert.equal(tree.refreshAgedDescriptions(), 0);
      } finally {
        subscription.dispose();
      }
      assert.equal(mock.requests.length, requests, 'no request');
    } finally {
      mock.clearFaults();
    }
    await vscode.commands.executeCommand('flowsync.refreshProcessing');
  });

  it('Open as JSON on a group shows its items', async () => {
    await connect(x, mock);
    await showConnections(x);
    const team = x.views.connections.tree.getChildren()[0];
    await vscode.commands.executeCommand('flowsync.openJson', team);
    const doc = (await waitFor(() =>
      vscode.window.activeTextEditor?.document.uri.path.includes('connections')
        ? vscode.window.activeTextEditor.document
        : undefined,
    ))!;
    const items = JSON.parse(doc.getText()) as Array<{ team_id: number }>;
    assert.equal(items.length, x.views.connections.tree.getChildren(team).length);
    assert.ok(items.every((i) => i.team_id === (team as { group: { key: number } }).group.key));
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('Copy ID puts the id on the clipboard', async () => {
    await connect(x, mock);
    await showConnections(x);
    const team = x.views.connections.tree.getChildren()[0];
    const node = x.views.connections.tree.getChildren(team)[0];
    await vscode.commands.executeCommand('flowsync.copyId', node);
    assert.equal(
      await vscode.env.clipboard.readText(),
      String((node as { item: { value: { id: number } } }).item.value.id),
    );
  });

  it('the team filter sends team_id on both lists and shows the team in the view description', async () => {
    await connect(x, mock);
    await showConnections(x);
    const team = mock.dataset.teams[1];
    mock.clearRequests();
    await setUserSetting('teamId', String(team.id));
    await x.reconfigure();
    await waitFor(
      () =>
        x.explorer.lists.connections.state.loadedAt !== undefined &&
        x.explorer.lists.processing.state.loadedAt !== undefined,
    );
    const queries = mock.requests.map((r) => r.query.team_id);
    assert.ok(queries.length >= 2 && queries.every((q) => q === String(team.id)), JSON.stringify(queries));
    assert.equal(x.views.processing.view.description, `Team: ${team.name}`);
    assert.ok(x.explorer.teams.list().length >= mock.dataset.teams.length, 'all teams still offered');
    await vscode.commands.executeCommand('flowsync.clearTeamFilter');
    await waitFor(() => x.explorer.teamId === '' && x.explorer.lists.processing.state.loadedAt !== undefined);
    assert.equal(x.views.processing.view.description, undefined);
  });

  it('after a failure: keeps the last good data, marks it stale, warns in the status bar, then recovers', async () => {
    await connect(x, mock);
    const before = x.explorer.lists.processing.state.items!.length;
    mock.inject({
      endpoint: 'processing',
      status: 500,
      body: '{"errors":[{"message":"E_INTERNAL: Database unavailable"}]}',
      times: 1,
    });
    await vscode.commands.executeCommand('flowsync.refreshProcessing');
    assert.equal(x.explorer.lists.processing.state.error?.kind, 'http');
    assert.equal(x.explorer.lists.processing.state.items!.length, before);
    assert.match(
      x.views.processing.view.message ?? '',
      /HTTP 500: E_INTERNAL: Database unavailable.*Showing data from/,
    );
    assert.ok(x.statusBar.item!.backgroundColor, 'warning background');
    assert.match(String((x.statusBar.item!.tooltip as vscode.MarkdownString).value), /Database unavailable/);
    await vscode.commands.executeCommand('flowsync.refreshProcessing');
    assert.equal(x.explorer.lists.processing.state.error, undefined);
    assert.equal(x.statusBar.item!.backgroundColor, undefined);
  });

  it('100 refresh commands at once put one request in flight per list', async () => {
    await connect(x, mock);
    mock.clearRequests();
    mock.inject({ endpoint: 'any', delayMs: 300, times: 10 });
    await Promise.all(Array.from({ length: 100 }, () => vscode.commands.executeCommand('flowsync.refresh')));
    const processing = mock.requests.filter((r) => r.path.endsWith('/processing')).length;
    const connections = mock.requests.filter((r) => r.path.endsWith('/index')).length;
    assert.equal(processing, 1);
    assert.equal(connections, 1);
  });

  it('unauthorized stops polling and says the key was rejected', async () => {
    await connect(x, mock);
    mock.setApiKey('another-key');
    try {
      await vscode.commands.executeCommand('flowsync.refreshProcessing');
      assert.equal(x.explorer.lists.processing.state.error?.kind, 'unauthorized');
      assert.equal(x.explorer.lists.processing.state.nextAttemptAt, undefined);
      assert.equal(x.statusBar.item!.command, 'flowsync.setApiKey');
      assert.match(x.views.processing.view.message ?? '', /rejected the API key/);
    } finally {
      mock.setApiKey(KEY);
    }
    await vscode.commands.executeCommand('flowsync.refreshProcessing');
    assert.equal(x.explorer.lists.processing.state.error, undefined);
  });

  it('the key stays with its origin: a new service URL gets no request with the old key', async () => {
    await connect(x, mock);
    const other = await startMockApi({ apiKey: KEY });
    try {
      await setUserSetting('baseUrl', other.url);
      await x.reconfigure();
      assert.equal(x.explorer.status, 'noKey');
      await vscode.commands.executeCommand('flowsync.refresh');
      assert.equal(other.requests.length, 0);
    } finally {
      await setUserSetting('baseUrl', mock.url);
      await x.reconfigure();
      await other.close();
    }
    assert.equal(x.explorer.status, 'ready');
  });

  it('Remove API Key deletes it and stops requests', async () => {
    await connect(x, mock);
    await vscode.commands.executeCommand('flowsync.clearApiKey');
    await waitFor(() => x.explorer.status === 'noKey');
    mock.clearRequests();
    await vscode.commands.executeCommand('flowsync.refreshProcessing');
    assert.equal(mock.requests.length, 0);
    assert.equal(await x.keys.get(new URL(mock.url).origin), undefined);
    await connect(x, mock);
  });
});

/** Open in Browser (issue #39 item 1) in the real extension host: each kind's page, a bad template, a workspace value. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FlowSyncExplorerApi } from '../../src/extension';
import type { MockFlowSyncServer } from '../../src/mock/server';
import { TEST_KEY, connect, setUserSetting, startMockApi, testApi, waitFor } from './helpers';

describe('Open in Browser', function () {
  this.timeout(60_000);
  let mock: MockFlowSyncServer;
  let x: FlowSyncExplorerApi;
  const settingsFile = () => path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, '.vscode', 'settings.json');
  const pages = {
    sync: 'https://app.example.com/flows/{flow_id}/syncs/{id}',
    flow: 'https://app.example.com/flows/{id}',
    connection: 'https://app.example.com/teams/{team_id}/connections/{id}',
    team: 'https://app.example.com/teams/{id}',
  };
  const asked = () => x.browser.asked.at(-1);
  const open = (node: unknown) => vscode.commands.executeCommand('flowsync.openInBrowser', node);
  const processing = () => x.views.processing.tree;
  const connections = () => x.views.connections.tree;
  /** The first flow row (Processing grouped by flow) and its first sync row. */
  const flowAndSync = () => {
    const flow = processing().getChildren()[0];
    return { flow, sync: processing().getChildren(flow)[0] };
  };
  const contextOf = (tree: ReturnType<typeof processing> | ReturnType<typeof connections>, node: unknown) =>
    String(tree.getTreeItem(node as never).contextValue);

  before(async () => {
    mock = await startMockApi({ apiKey: TEST_KEY });
    x = await testApi();
    x.browser.holdBack = true; // the addresses are observed, nothing is opened
    await setUserSetting('autoRefresh', false);
    await connect(x, mock);
    await x.explorer.refresh('connections');
  });

  afterEach(() => fs.rmSync(settingsFile(), { force: true }));

  after(async () => {
    x.browser.holdBack = false;
    for (const key of ['webUrl', 'autoRefresh', 'baseUrl']) await setUserSetting(key, undefined);
    await x.reconfigure();
    await mock.close();
  });

  it('opens the page of a sync, a flow, a connection, a team and a History run, each from its row', async () => {
    await setUserSetting('webUrl', pages);
    const { flow, sync } = flowAndSync();
    await waitFor(() => contextOf(processing(), sync).endsWith('.web'), { message: 'the sync row offers it' });
    assert.match(contextOf(processing(), flow), /^flowsync\.flow(\.watched)?\.web$/);
    const value = (sync as { item: { value: { id: number; flow_id: number } } }).item.value;

    await open(sync);
    assert.equal(asked(), `https://app.example.com/flows/${value.flow_id}/syncs/${value.id}`);
    await open(flow);
    assert.equal(asked(), `https://app.example.com/flows/${(flow as { group: { key: number } }).group.key}`);

    const team = connections().getChildren()[0];
    const connection = connections().getChildren(team)[0] as { item: { value: { id: number; team_id: number } } };
    assert.match(contextOf(connections(), team), /^flowsync\.team\.web$/);
    assert.match(contextOf(connections(), connection), /^flowsync\.connection\.web$/);
    await open(connection);
    assert.equal(
      asked(),
      `https://app.example.com/teams/${connection.item.value.team_id}/connections/${connection.item.value.id}`,
    );
    await open(team);
    assert.equal(asked(), `https://app.example.com/teams/${connection.item.value.team_id}`);

    // The language model tools: each row's page inside the data block.
    const tool = await vscode.lm.invokeTool('flowsync_processing', {
      input: { limit: 100 },
      toolInvocationToken: undefined,
    });
    const answer = tool.content
      .map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : ''))
      .join('');
    assert.ok(
      answer.includes(`url "https://app.example.com/flows/${value.flow_id}/syncs/${value.id}"`),
      "the sync's url in the tool's answer",
    );

    // A History run is a sync: the notification's button gives the command the run as History's row.
    await open({ kind: 'historyEntry', entry: { id: 900_123, flowId: 7 }, service: x.services.all[0].id });
    assert.equal(asked(), 'https://app.example.com/flows/7/syncs/900123');
  });

  it('an argument that is no row of the views does nothing (#49 finding 11): no page, no error, nothing asked', async () => {
    await setUserSetting('webUrl', pages);
    const before = x.browser.asked.length;
    for (const hostile of [
      { kind: 'historyEntry', entry: null },
      null,
      { kind: 'leaf' },
      { kind: 'leaf', list: 'processing', item: { value: { id: 5, flow_id: 7 } } },
      { kind: 'historyEntry', entry: { id: '5/../../admin?x=', flowId: 7 }, service: x.services.all[0].id },
      { kind: 'historyEntry', entry: { id: 5, flowId: 7 }, service: 'no such service' },
      42,
      '../../admin',
    ]) {
      await open(hostile); // resolves: the command neither throws nor asks anything
    }
    assert.equal(x.browser.asked.length, before, 'nothing was asked to open');
  });

  it('a refused template (javascript:) is not offered, and nothing is opened', async () => {
    await setUserSetting('webUrl', { sync: 'javascript:alert({id})', flow: 'command:workbench.action.quit' });
    const { flow, sync } = flowAndSync();
    await waitFor(() => !contextOf(processing(), sync).endsWith('.web'), {
      message: 'the sync row no longer offers it',
    });
    assert.ok(!contextOf(processing(), flow).endsWith('.web'));
    const before = x.browser.asked.length;
    await open(sync);
    await open(flow);
    assert.equal(x.browser.asked.length, before, 'nothing was asked to open');
  });

  it("a workspace's flowsync.webUrl is ignored: the user's address is opened, or none", async () => {
    await setUserSetting('webUrl', undefined);
    fs.mkdirSync(path.dirname(settingsFile()), { recursive: true });
    const rulers = [Date.now() % 1000];
    fs.writeFileSync(
      settingsFile(),
      JSON.stringify({ 'flowsync.webUrl': { sync: 'https://attacker.example/{id}' }, 'editor.rulers': rulers }),
    );
    await waitFor(
      () =>
        JSON.stringify(vscode.workspace.getConfiguration('editor').inspect('rulers')?.workspaceValue) ===
        JSON.stringify(rulers),
      { timeoutMs: 15_000, message: 'VS Code read the workspace settings file' },
    );
    await x.reconfigure();
    const { sync } = flowAndSync();
    assert.ok(!contextOf(processing(), sync).endsWith('.web'), 'not offered from a workspace value');
    const before = x.browser.asked.length;
    await open(sync);
    assert.equal(x.browser.asked.length, before, 'nothing opened');

    await setUserSetting('webUrl', { sync: pages.sync });
    await waitFor(() => contextOf(processing(), flowAndSync().sync).endsWith('.web'), { message: 'offered again' });
    await open(flowAndSync().sync);
    assert.match(asked() ?? '', /^https:\/\/app\.example\.com\/flows\/\d+\/syncs\/\d+$/, "the user's own address");
  });

  it("{team_id} in a sync's address: not offered without a team filter, filled from it with one (#52 item 6)", async () => {
    // A sync of our own that runs until the test ends, on a flow of the team filtered by: the team's list has a row
    // whatever else the mock's clock has running then (a team without one lists nothing to open).
    const flow = mock.dataset.flows[0];
    const team = flow.team_id;
    const [own] = mock.startSync(flow.id, { runMs: Infinity });
    await setUserSetting('webUrl', { sync: 'https://app.example.com/flows/{flow_id}/syncs/{id}?team={team_id}' });
    await x.reconfigure();
    const before = x.browser.asked.length;
    await waitFor(() => !contextOf(processing(), flowAndSync().sync).endsWith('.web'), { message: 'not offered' });
    await open(flowAndSync().sync);
    assert.equal(x.browser.asked.length, before, 'nothing opened, nothing refused at the click');

    await setUserSetting('teamId', String(team));
    try {
      // The row read once, in the check that found it offered, and only after the team's list was answered: a row
      // read again after the check could be gone (the list redrawn for the team).
      const answered = () =>
        mock.requests.some(
          (r) => r.path.endsWith('/flowsyncs/processing') && r.query.team_id === String(team) && r.status !== 0,
        );
      const sync = await waitFor(
        () => {
          const row = answered() ? flowAndSync().sync : undefined;
          return row !== undefined && contextOf(processing(), row).endsWith('.web') ? row : undefined;
        },
        { message: 'offered with the team filter' },
      );
      const value = (sync as { item: { value: { id: number; flow_id: number } } }).item.value;
      await open(sync);
      assert.equal(asked(), `https://app.example.com/flows/${value.flow_id}/syncs/${value.id}?team=${team}`);
    } finally {
      await setUserSetting('teamId', undefined);
      mock.finish(own.id);
    }
  });
});

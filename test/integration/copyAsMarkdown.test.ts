/** Copy as Markdown (issue #52, item 7) in the real extension host: each kind of row, several rows, hostile text. */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Connection, FlowSync } from '../../src/api/types';
import type { FlowSyncExplorerApi } from '../../src/extension';
import type { MockFlowSyncServer } from '../../src/mock/server';
import { TEST_KEY, connect, processingLeaf, setUserSetting, startMockApi, testApi, waitFor } from './helpers';

describe('Copy as Markdown', function () {
  this.timeout(60_000);
  let mock: MockFlowSyncServer;
  let x: FlowSyncExplorerApi;
  const copy = async (node: unknown, nodes?: unknown[]) => {
    await vscode.env.clipboard.writeText('');
    await vscode.commands.executeCommand('flowsync.copyAsMarkdown', node, nodes);
    return vscode.env.clipboard.readText();
  };
  const pages = {
    sync: 'https://app.example.com/flows/{flow_id}/syncs/{id}',
    team: 'https://app.example.com/teams/{id}',
  };

  before(async () => {
    mock = await startMockApi({ apiKey: TEST_KEY });
    x = await testApi();
    await setUserSetting('autoRefresh', false);
    await connect(x, mock);
    await x.explorer.refresh('connections');
    await setUserSetting('webUrl', pages); // each test of the suite runs alone too (--grep)
  });

  after(async () => {
    mock.clearFaults();
    for (const key of ['webUrl', 'autoRefresh', 'baseUrl']) await setUserSetting(key, undefined);
    await x.reconfigure();
    await mock.close();
  });

  it('a sync, a flow, a connection and a team: one line each, linked where a page is set; several rows a list', async () => {
    const processing = x.views.processing.tree;
    const flow = processing.getChildren()[0];
    const sync = processing.getChildren(flow)[0];
    await waitFor(() => String(processing.getTreeItem(sync).contextValue).endsWith('.web'), { message: 'the page' });
    const s = (sync as { item: { value: FlowSync } }).item.value;
    const name = s.flow?.name ?? '';
    const syncLine = await copy(sync);
    console.log(`    ${syncLine}`);
    assert.equal(
      syncLine.split(' · ').slice(0, 2).join(' · '),
      `[#${s.id} ${name}](https://app.example.com/flows/${s.flow_id}/syncs/${s.id}) · ${s.status}`,
    );
    assert.match(syncLine, / · started (.+ ago|just now)/);
    const count = processing.getChildren(flow).length;
    assert.equal(await copy(flow), `${name} · ${count === 1 ? '1 sync' : `${count} syncs`}`, 'no page for flows: text');

    const connections = x.views.connections.tree;
    const team = connections.getChildren()[0];
    const connection = connections.getChildren(team)[0];
    const c = (connection as { item: { value: Connection } }).item.value;
    assert.equal(await copy(connection), `${c.name} · ${c.type}`);
    const teamLine = await copy(team);
    assert.ok(teamLine.startsWith(`[${c.team?.name}](https://app.example.com/teams/${c.team_id}) · `), teamLine);

    const both = await copy(sync, [sync, connection]);
    assert.deepEqual(
      both.split('\n').map((line) => line.slice(0, 2)),
      ['- ', '- '],
      both,
    );
    assert.equal(both.split('\n')[1], `- ${c.name} · ${c.type}`);
  });

  it('a History run; service text stays text (a name made of Markdown and HTML)', async () => {
    const hostile = '[x](javascript:alert(1)) <img src=x> `a` **b**';
    const now = new Date().toISOString();
    const answer = (items: object[]) => {
      mock.clearFaults();
      mock.inject({ endpoint: 'processing', status: 200, body: JSON.stringify(items) });
      return vscode.commands.executeCommand('flowsync.refreshProcessing');
    };
    const run = {
      id: 990_001,
      flow_id: 77,
      status: 'pending',
      created_at: now,
      updated_at: now,
      errors: null,
      webhook: false,
      flow: { id: 77, name: hostile },
    };
    await answer([run]);
    const title = '\\[x\\] \\(javascript\\:alert\\(1\\)\\) ‹img src\\=x› \\`a\\` \\*\\*b\\*\\*';
    const line = await copy(processingLeaf(x, run.id));
    console.log(`    ${line}`);
    assert.ok(line.startsWith(`[#990001 ${title}](https://app.example.com/flows/77/syncs/990001) · pending · `), line);

    await answer([]); // it left processing: a History run
    await x.history.flushed();
    const row = await waitFor(async () => {
      for (const day of await x.historyView.getChildren()) {
        const found = (await x.historyView.getChildren(day)).find(
          (r) => r.kind === 'historyEntry' && r.entry.id === run.id,
        );
        if (found) return found;
      }
      return undefined;
    });
    const runLine = await copy(row);
    console.log(`    ${runLine}`);
    assert.ok(runLine.startsWith(`[#990001 ${title}](https://app.example.com/flows/77/syncs/990001) · ran `), runLine);
    assert.ok(!runLine.includes('\n'));
    mock.clearFaults();
  });
});

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { MockFlowSyncServer } from '../../src/mock/server';
import { listServices, servicesLoaded, setUserSetting, startProductionAndStaging, testApi } from './helpers';

describe('Find: filter each view over two services, clear it', function () {
  this.timeout(60_000);
  let production: MockFlowSyncServer;
  let staging: MockFlowSyncServer;

  before(async () => {
    // A sync of each service's own: "service:staging" then keeps rows whatever the time of day.
    const services = await startProductionAndStaging({ ownSyncs: true });
    [production, staging] = services.map((s) => s.mock);
    const api = await testApi();
    await listServices(api, services);
    await servicesLoaded(api, 2);
  });

  after(async () => {
    const api = await testApi();
    const find = await api.find.get();
    for (const view of ['processing', 'connections', 'history'] as const) find.filters.clear(view);
    await setUserSetting('services', undefined);
    await api.reconfigure();
    await Promise.all([production?.close(), staging?.close()]);
  });

  it('Processing: only the matching rows of each service; each service row says "N of M"; the badge keeps the total; cleared', async () => {
    const api = await testApi();
    const find = await api.find.get();
    const view = api.views.processing;
    const counts = api.services.all.map((s) => s.explorer.lists.processing.state.items!.length);
    const total = counts[0] + counts[1];
    assert.deepEqual(find.filters.set('processing', 'service:staging'), {});
    const tree = view.tree;
    const roots = tree.getChildren();
    assert.deepEqual(
      roots.map((r) => tree.getTreeItem(r).label),
      ['Production', 'Staging'],
    );
    assert.match(String(tree.getTreeItem(roots[0]).description), new RegExp(`^0 of ${counts[0]} syncs?$`));
    assert.match(String(tree.getTreeItem(roots[1]).description), new RegExp(`^${counts[1]} of ${counts[1]} syncs?$`));
    const leaves = (root: (typeof roots)[number]) => tree.getChildren(root).flatMap((group) => tree.getChildren(group));
    assert.equal(leaves(roots[0]).length, 0);
    assert.equal(leaves(roots[1]).length, counts[1]);
    assert.equal(view.view.description, `filter: service:staging · ${counts[1]} of ${total}`);
    assert.equal(view.view.badge?.value, total, 'the badge keeps the unfiltered total');

    // Nothing matches: the view says so, and its one row clears the filter.
    find.filters.set('processing', 'nosuchword');
    assert.equal(view.view.message, 'Nothing matches the filter "nosuchword".');
    const [only] = tree.getChildren();
    const item = tree.getTreeItem(only);
    assert.equal(item.label, 'Clear Filter');
    await vscode.commands.executeCommand(item.command!.command, ...(item.command!.arguments ?? []));
    assert.equal(find.filters.get('processing'), undefined);
    assert.equal(view.view.message, undefined);
    assert.equal(view.view.description, undefined);
    assert.equal(leaves(tree.getChildren()[0]).length, counts[0]);
  });

  it('Connections: a filter of this view only; cleared by Clear Filter from the palette (the only filtered view)', async () => {
    const api = await testApi();
    await Promise.all(api.services.all.map((s) => s.explorer.refresh('connections')));
    const find = await api.find.get();
    const view = api.views.connections;
    const items = api.services.all.map((s) => s.explorer.lists.connections.state.items!);
    const total = items[0].length + items[1].length;
    const team = items[0][0].value.team_id;
    const expected =
      items[0].filter((i) => i.value.team_id === team).length + items[1].filter((i) => i.value.team_id === team).length;
    find.filters.set('connections', `team:${team}`);
    assert.equal(find.filters.get('processing'), undefined, 'the other views keep their own filter');
    assert.equal(view.view.description, `filter: team:${team} · ${expected} of ${total}`);
    await vscode.commands.executeCommand('flowsync.clearFilter');
    assert.equal(find.filters.get('connections'), undefined);
    assert.equal(view.view.description, undefined);
  });

  it('History: filtered and cleared; a malformed filter changes nothing', async () => {
    const api = await testApi();
    const find = await api.find.get();
    const before = find.filters.set('history', 'is:stuck');
    assert.match(before.problem ?? '', /does not apply/);
    assert.equal(find.filters.get('history'), undefined);
    find.filters.set('history', 'ran>1h');
    const entries = api.services.all.reduce((n, s) => n + s.history.snapshot.entries.length, 0);
    // inert() shows '>' as '›' (no markup can form from a filter, which may be a link's).
    assert.match(String(api.historyView.view.description), new RegExp(`^filter: ran›1h · \\d+ of ${entries}$`));
    find.filters.clear('history');
    assert.equal(api.historyView.view.description, undefined);
  });
});

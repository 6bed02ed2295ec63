/**
 * The fault matrix, grown by the untrusted inputs of issue #10: a hostile service, a hostile workspace, and the
 * checks on what a person types. Each case ran against 0.1.0 and failed there.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FlowSyncExplorerApi } from '../../src/extension';
import type { MockFlowSyncServer } from '../../src/mock/server';
import { TEST_KEY as KEY, connect, startMockApi, testApi, waitFor, setUserSetting } from './helpers';

/** VS Code's own pattern for links in notification text (vs/base/common/linkedText.ts). */
const VSCODE_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/i;
const VSCODE_ICON = /\$\(([a-z.]+\/)?([a-z0-9-]+)(~[a-z]+)?\)/i;

describe('Fault matrix: hostile service, workspace and input', function () {
  this.timeout(60_000);
  let mock: MockFlowSyncServer;
  let x: FlowSyncExplorerApi;
  let unhandled = 0;
  const countUnhandled = () => unhandled++;
  const config = () => vscode.workspace.getConfiguration('flowsync');
  const settingsFile = () => path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, '.vscode', 'settings.json');

  before(async () => {
    process.on('unhandledRejection', countUnhandled);
    mock = await startMockApi({ apiKey: KEY });
    x = await testApi();
    await setUserSetting('autoRefresh', false);
    await connect(x, mock); // the key, flowsync.baseUrl, the first load
  });

  afterEach(async () => {
    mock.clearFaults();
    // A Retry-After a test met holds a person's refresh too (issue #49): the reload a new key or URL makes forgets it.
    x.explorer.reload();
    await vscode.commands.executeCommand('flowsync.refreshProcessing');
  });

  after(async () => {
    process.off('unhandledRejection', countUnhandled);
    for (const key of ['autoRefresh', 'baseUrl', 'teamId']) await setUserSetting(key, undefined);
    await x.keys.delete(new URL(mock.url).origin);
    await x.reconfigure();
    await mock.close();
    assert.equal(unhandled, 0, 'no unhandled rejection');
  });

  it('an error whose message holds a command link: the notification, view message and status bar show no link, icon or markup', async () => {
    const planted =
      'E_MAINTENANCE: Your key expired. [Set API Key](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22x%22%7D) $(key) <img src=x>';
    mock.inject({ endpoint: 'processing', status: 500, body: JSON.stringify({ errors: [{ message: planted }] }) });
    const before = x.notifications.texts.length;
    await vscode.commands.executeCommand('flowsync.refreshProcessing');
    const shown = x.notifications.texts.slice(before);
    assert.equal(shown.length, 1, 'one notification');
    for (const text of [
      shown[0],
      x.views.processing.view.message ?? '',
      x.explorer.lists.processing.state.error!.message,
    ]) {
      assert.doesNotMatch(text, VSCODE_LINK);
      assert.doesNotMatch(text, VSCODE_ICON);
      assert.doesNotMatch(text, /[<>]/);
      assert.match(text, /Your key expired/, 'the words are still there to read');
    }
    const tooltip = (x.statusBar.item!.tooltip as vscode.MarkdownString).value;
    assert.doesNotMatch(
      tooltip.replace(/^\$\(warning\) /m, ''),
      VSCODE_ICON,
      'the status bar tooltip renders icons: none from the service',
    );
    assert.doesNotMatch(tooltip, /\[Set API Key\]\(command:/);
  });

  it('a service that echoes the key in a flow name: no row, description, tooltip or accessible name shows any piece of it', async () => {
    const now = new Date().toISOString();
    const names = [`Invoices ${KEY}`, `${'x'.repeat(290)}${KEY} tail`, `Payouts ${KEY.toUpperCase()}`];
    const body = names.map((name, i) => ({
      id: 880001 + i,
      flow_id: 990101 + i,
      status: 'pending',
      created_at: now,
      updated_at: now,
      errors: null,
      webhook: false,
      flow: { id: 990101 + i, name },
    }));
    mock.inject({ endpoint: 'processing', status: 200, body: JSON.stringify(body), times: 1 });
    await vscode.commands.executeCommand('flowsync.refreshProcessing');
    const tree = x.views.processing.tree;
    const shown: string[] = [];
    const visit = (nodes: readonly unknown[]) => {
      for (const node of nodes) {
        const item = tree.getTreeItem(node as never);
        const tooltip = item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value : String(item.tooltip ?? '');
        shown.push(
          String(typeof item.label === 'object' ? item.label?.label : item.label),
          String(item.description ?? ''),
          tooltip,
          item.accessibilityInformation?.label ?? '',
        );
        visit(tree.getChildren(node as never));
      }
    };
    visit(tree.getChildren());
    assert.ok(
      shown.some((text) => text.includes('Invoices')),
      'the rows are there',
    );
    // Markdown tooltips escape punctuation: the pieces are looked for in the text as it reads.
    const piece = (text: string) =>
      [...Array(KEY.length - 7).keys()]
        .map((i) => KEY.slice(i, i + 8).toLowerCase())
        .find((p) => text.replace(/\\/g, '').toLowerCase().includes(p));
    assert.deepEqual(
      shown.filter((text) => piece(text)),
      [],
      'no piece of the key in what the rows show',
    );
  });

  it('a repeated id: the view still renders, and says how many items were left out', async () => {
    const items = mock.dataset.processingAt(Date.now());
    mock.inject({ endpoint: 'processing', status: 200, body: JSON.stringify([...items, items[0], items[0]]) });
    await vscode.commands.executeCommand('flowsync.refreshProcessing');
    assert.equal(x.explorer.lists.processing.state.error, undefined);
    assert.equal(x.explorer.lists.processing.state.items!.length, items.length);
    assert.equal(x.explorer.lists.processing.state.dropped, 2);
    assert.match(x.views.processing.view.message ?? '', /2 item\(s\) were left out .*is listed more than once/);
    const ids = x.views.processing.tree
      .getChildren()
      .flatMap((g) => x.views.processing.tree.getChildren(g))
      .map((n) => x.views.processing.tree.getTreeItem(n).id);
    assert.equal(new Set(ids).size, ids.length, 'tree ids are unique');
    await x.views.processing.view.reveal(x.views.processing.tree.getChildren()[0], {
      select: false,
      focus: false,
      expand: true,
    });
  });

  it('an item nested 20,000 levels deep: dropped and counted; the load ends and every listener hears it', async () => {
    const items = mock.dataset.processingAt(Date.now());
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const body = `[${JSON.stringify({ ...items[0], id: 999_001 }).replace(/}$/, `,"extra":${deep}}`)},${JSON.stringify(items).slice(1)}`;
    mock.inject({ endpoint: 'processing', status: 200, body });
    await vscode.commands.executeCommand('flowsync.refreshProcessing');
    const state = x.explorer.lists.processing.state;
    assert.equal(state.loading, false, 'the load ended');
    assert.equal(state.error, undefined);
    assert.equal(state.dropped, 1);
    assert.match(x.views.processing.view.message ?? '', /nested deeper than 32 levels/);
    assert.match(
      x.statusBar.item!.text,
      new RegExp(`${items.length} processing`),
      'the status bar heard the end of the load',
    );
    await vscode.commands.executeCommand('flowsync.openJson', x.views.processing.tree.getChildren()[0]);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('more items than the cap: refused at once with a clear message, the last good data stays', async () => {
    const before = x.explorer.lists.processing.state.items;
    mock.inject({ endpoint: 'processing', status: 200, body: `[${'0,'.repeat(100_000)}0]` });
    const started = Date.now();
    await vscode.commands.executeCommand('flowsync.refreshProcessing');
    assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
    assert.match(x.explorer.lists.processing.state.error?.message ?? '', /more than 100,000 items; it was not loaded/);
    assert.equal(x.explorer.lists.processing.state.items, before);
  });

  it('an answer of 500,001 empty objects (under the byte cap): refused while it streams, in well under a second', async () => {
    mock.inject({ endpoint: 'processing', status: 200, body: `[${'{},'.repeat(500_000)}{}]` });
    const started = Date.now();
    await vscode.commands.executeCommand('flowsync.refreshProcessing');
    assert.ok(Date.now() - started < 1000, `took ${Date.now() - started} ms`);
    assert.match(x.explorer.lists.processing.state.error?.message ?? '', /too many nested objects or arrays/);
  });

  for (const header of ['1.5', '-5', '5, 6']) {
    it(`Retry-After "${header}": ordinary backoff (about 5 s), not "now", and no claimed wait`, async () => {
      mock.inject({ endpoint: 'processing', status: 429, headers: { 'Retry-After': header } });
      const asked = Date.now();
      await vscode.commands.executeCommand('flowsync.refreshProcessing');
      const state = x.explorer.lists.processing.state;
      assert.equal(state.error?.kind, 'rateLimited');
      assert.doesNotMatch(state.error!.message, /asked to wait/);
      const delay = state.nextAttemptAt! - asked;
      assert.ok(delay >= 3_500 && delay <= 6_500, `next attempt in ${delay} ms`);
    });
  }

  it('Retry-After of 999999999 s: the message states the hour actually waited', async () => {
    mock.inject({ endpoint: 'processing', status: 429, headers: { 'Retry-After': '999999999' } });
    const asked = Date.now();
    await vscode.commands.executeCommand('flowsync.refreshProcessing');
    const state = x.explorer.lists.processing.state;
    assert.match(state.error!.message, /asked to wait longer than 60 min; retrying in 60 min/);
    // The hour, never sooner, then the window's place in the interval after it (issue #49).
    const interval = x.explorer.lists.processing.pollIntervalMs ?? 30_000;
    assert.ok(state.nextAttemptAt! - asked >= 3_600_000 - 2_000, `${state.nextAttemptAt! - asked} ms`);
    assert.ok(
      state.nextAttemptAt! - asked <= 3_600_000 + 1.05 * interval + 2_000,
      `${state.nextAttemptAt! - asked} ms`,
    );
  });

  it('a Refresh inside the wait the service asked for is kept until it ends, and the view says when (issue #49)', async () => {
    const processing = () => mock.requests.filter((r) => r.path.endsWith('/flowsyncs/processing')).length;
    mock.inject({ endpoint: 'processing', status: 429, headers: { 'Retry-After': '30' }, times: 1 });
    await vscode.commands.executeCommand('flowsync.refreshProcessing');
    assert.equal(x.explorer.lists.processing.state.error?.kind, 'rateLimited');
    const asked = processing();
    let done = false;
    const kept = Promise.resolve(vscode.commands.executeCommand('flowsync.refreshProcessing')).then(
      () => (done = true),
    );
    await waitFor(() => x.explorer.lists.processing.state.refreshKeptUntil !== undefined, { message: 'kept' });
    const until = x.explorer.lists.processing.state.refreshKeptUntil!;
    assert.match(x.views.processing.view.message ?? '', /Your refresh waits as the service asked: refreshing at /);
    assert.equal(processing(), asked, 'nothing sent inside the wait');
    assert.equal(done, false, 'the refresh is still running');
    // The wait's end, run now instead of waiting 30 s: the kept refresh asks once.
    assert.ok(x.clock.runTimersDueAt(until) >= 1, `a timer due at ${new Date(until).toISOString()}`);
    await kept;
    assert.equal(processing(), asked + 1);
    assert.equal(x.explorer.lists.processing.state.error, undefined);
    assert.ok(!(x.views.processing.view.message ?? '').includes('Your refresh waits'));
  });

  it('a byte-order mark before the JSON, and statuses named like Object members: loaded, with the generic icon', async () => {
    const items = mock.dataset.processingAt(Date.now());
    const odd = [
      { ...items[0], id: 999_101, status: 'constructor' },
      { ...items[0], id: 999_102, status: '__proto__' },
    ];
    mock.inject({ endpoint: 'processing', status: 200, body: `\uFEFF${JSON.stringify([...items, ...odd])}` });
    await vscode.commands.executeCommand('flowsync.refreshProcessing');
    assert.equal(x.explorer.lists.processing.state.error, undefined);
    const leaves = x.views.processing.tree.getChildren().flatMap((g) => x.views.processing.tree.getChildren(g));
    for (const id of [999_101, 999_102]) {
      const leaf = leaves.find((n) => n.kind === 'leaf' && n.item.value.id === id)!;
      assert.equal((x.views.processing.tree.getTreeItem(leaf).iconPath as vscode.ThemeIcon).id, 'circle-outline');
    }
  });

  it('known teams are kept per service: another service never offers them', async () => {
    await vscode.commands.executeCommand('flowsync.refreshConnections');
    const firstTeams = x.explorer.teams.list();
    assert.equal(firstTeams.length, mock.dataset.teams.length);
    const other = await startMockApi({ apiKey: KEY, teams: 2, connections: 3, seed: 99 });
    try {
      await x.keys.set(new URL(other.url).origin, KEY);
      await setUserSetting('baseUrl', other.url);
      await x.reconfigure();
      // SecretStorage's change event may still be on its way and re-apply the settings: wait for the new origin.
      await waitFor(() => x.explorer.scope === new URL(other.url).origin && x.explorer.status === 'ready', {
        message: 'the other service',
      });
      // Only what the other service's own answer taught (its connections may already have loaded), never the first's.
      assert.ok(x.explorer.teams.list().length <= 2, JSON.stringify(x.explorer.teams.list()));
      await vscode.commands.executeCommand('flowsync.refreshConnections');
      assert.deepEqual(
        x.explorer.teams
          .list()
          .map((t) => t.id)
          .sort(),
        other.dataset.teams.map((t) => String(t.id)).sort(),
      );
    } finally {
      await x.keys.delete(new URL(other.url).origin);
      await setUserSetting('baseUrl', mock.url);
      await x.reconfigure();
      await waitFor(() => x.explorer.scope === new URL(mock.url).origin && x.explorer.status === 'ready', {
        message: 'the first service again',
      });
      await other.close();
    }
    assert.deepEqual(x.explorer.teams.list(), firstTeams, 'the first service has its own teams back');
  });

  it('a workspace sets refreshIntervalSeconds to 3,000,000: clamped, so no timer overflows into a request flood', async () => {
    await setUserSetting('autoRefresh', true);
    await config().update('refreshIntervalSeconds', 3_000_000, vscode.ConfigurationTarget.Workspace);
    try {
      await x.reconfigure();
      await vscode.commands.executeCommand('flowsync.refreshProcessing');
      const before = mock.requests.length;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.ok(mock.requests.length - before <= 1, `${mock.requests.length - before} requests in 1.5 s`);
      const state = x.explorer.lists.processing.state;
      // Clamped to a day: the next poll sits at this window's place in the interval (issue #38), at least 0.45 and at
      // most 1.55 of a day after the answer (pollDueAt); a timer that overflowed would be due at once.
      const day = 86_400_000;
      const inMs = state.nextAttemptAt! - Date.now();
      assert.ok(
        inMs > 0.45 * day - 60_000 && inMs <= 1.55 * day,
        `next poll in about a day (in ${inMs} ms; error: ${state.error?.message}; failures: ${state.failures})`,
      );
    } finally {
      await config().update('refreshIntervalSeconds', undefined, vscode.ConfigurationTarget.Workspace);
      await setUserSetting('autoRefresh', false);
      await x.reconfigure();
    }
  });

  it('a hostile 512 KB .vscode/settings.json does not freeze the extension host', async () => {
    fs.mkdirSync(path.dirname(settingsFile()), { recursive: true });
    fs.writeFileSync(settingsFile(), `{${'"flowsync":{'.repeat(45_000)}`);
    try {
      await new Promise((resolve) => setTimeout(resolve, 1000)); // let VS Code see the file
      const started = Date.now();
      await x.reconfigure();
      await new Promise((resolve) => setImmediate(resolve));
      assert.ok(Date.now() - started < 2000, `reconfigure took ${Date.now() - started} ms`);
      assert.equal(x.explorer.status, 'ready');
    } finally {
      fs.rmSync(settingsFile(), { force: true });
    }
  });

  it('a team id that is not digits (a lone surrogate): ignored with a warning, never sent, never retried forever', async () => {
    await setUserSetting('teamId', '\uD800');
    try {
      await x.reconfigure();
      assert.equal(x.explorer.teamId, '');
      mock.clearRequests();
      await vscode.commands.executeCommand('flowsync.refreshProcessing');
      assert.equal(x.explorer.lists.processing.state.error, undefined);
      assert.ok(mock.requests.every((r) => r.query.team_id === undefined));
    } finally {
      await setUserSetting('teamId', undefined);
      await x.reconfigure();
    }
  });

  it('a stored key that cannot travel in a header: a clear message, no request', async () => {
    const origin = new URL(mock.url).origin;
    await x.keys.set(origin, 'fs_€_key');
    try {
      mock.clearRequests();
      await x.reconfigure();
      assert.equal(x.explorer.status, 'noKey');
      assert.match(x.explorer.detail ?? '', /cannot be sent: An API key holds only letters, digits and punctuation/);
      assert.ok(!(x.explorer.detail ?? '').includes('€'));
      assert.equal(mock.requests.length, 0);
    } finally {
      await x.keys.set(origin, KEY);
      await x.reconfigure();
      x.explorer.reload();
    }
  });

  it('in ExtensionMode.Test only, activate() returns the test API (production returns nothing: see test/unit/extension.test.ts)', async () => {
    const ext = vscode.extensions.getExtension('flowsync-tools.flowsync-explorer')!;
    assert.equal(typeof (ext.exports as FlowSyncExplorerApi).reconfigure, 'function');
  });
});

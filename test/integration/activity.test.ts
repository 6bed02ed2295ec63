import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ActivityRange, ActivitySeries } from '../../src/activity/activityData';
import { parsePageMessage, type RenderReport } from '../../src/activity/activityMessages';
import { ACTIVITY_VIEW_TYPE, showActivityPanel, type ActivityPanel } from '../../src/activity/vscode/activityPanel';
import { EXTENSION_ID, activateExtension, waitFor } from './helpers';

const MIN = 60_000;

/** A fake history: `flows` flows over 60 one-minute buckets (hour), 96 (day) or 168 (week); empty when `empty`. */
class FakeHistory {
  empty = false;
  readonly asked: ActivityRange[] = [];
  private readonly listeners = new Set<() => void>();

  readonly series = (range: ActivityRange): ActivitySeries => {
    this.asked.push(range);
    if (this.empty) return { range, times: [], flows: [] };
    const n = { hour: 60, day: 96, week: 168 }[range];
    const times = Array.from({ length: n }, (_, i) => Date.UTC(2026, 10, 22) + i * MIN);
    const names = ['Orders <img src=x onerror=alert(1)>', 'Invoices', '\u202e2 other flows'];
    return {
      range,
      times,
      flows: names.map((name, f) => ({
        name,
        counts: times.map((_, i) => (i + f) % 4),
        ...(f === 2 ? { other: true } : {}),
      })),
    };
  };

  /** An Event<void> that counts its listeners (the panel must drop its own when disposed). */
  readonly onDidChange = (listener: () => void) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  get listenerCount(): number {
    return this.listeners.size;
  }

  fire(): void {
    for (const l of [...this.listeners]) l();
  }
}

/**
 * The next render report of the panel that matches: what its page posts when it has drawn a series (with the Content
 * Security Policy violations it saw), read from the panel's webview as the panel reads its messages.
 */
function nextRender(
  panel: ActivityPanel,
  match: (r: RenderReport) => boolean = () => true,
  timeoutMs = 15_000,
): Promise<RenderReport> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error('the activity page did not report a render in time'));
    }, timeoutMs);
    const sub = panel.panel.webview.onDidReceiveMessage((data) => {
      const r = parsePageMessage(data);
      if (r?.type !== 'rendered' || !match(r)) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(r);
    });
  });
}

function activityTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(ACTIVITY_VIEW_TYPE));
}

describe('activity panel (Flow Sync Activity)', function () {
  this.timeout(60_000);
  let extensionUri: vscode.Uri;

  before(async () => {
    await activateExtension();
    extensionUri = vscode.extensions.getExtension(EXTENSION_ID)!.extensionUri;
  });

  /** The panels a test opened (the test's own module: the extension's command opens the bundle's), closed after it. */
  const opened = new Set<ActivityPanel>();
  const show = (history: FakeHistory, range?: ActivityRange) => {
    const panel = showActivityPanel({ extensionUri }, history.series, history.onDidChange, range);
    if (!opened.has(panel)) panel.panel.onDidDispose(() => opened.delete(panel));
    opened.add(panel);
    return panel;
  };

  afterEach(async () => {
    for (const panel of opened) panel.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('opens one webview panel with the title, scripts on, resources limited to dist/webview and no retained context', async () => {
    const history = new FakeHistory();
    const panel = show(history);
    const rendered = nextRender(panel);
    assert.equal(panel.panel.title, vscode.l10n.t('Flow Sync Activity'));
    assert.equal(panel.panel.viewType, ACTIVITY_VIEW_TYPE);
    assert.equal(panel.panel.webview.options.enableScripts, true);
    assert.deepEqual(
      panel.panel.webview.options.localResourceRoots?.map((u) => u.toString()),
      [vscode.Uri.joinPath(extensionUri, 'dist', 'webview').toString()],
    );
    assert.equal(panel.panel.options.retainContextWhenHidden, false);
    assert.equal(panel.panel.options.enableFindWidget, false);
    await waitFor(() => activityTabs().length === 1, { message: 'the panel open, in a tab' });

    const html = panel.panel.webview.html;
    const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1].replace(/&#39;/g, "'") ?? '';
    assert.match(
      csp,
      /^default-src 'none'; script-src 'nonce-[0-9a-f]{32}'; style-src [^;]+; base-uri 'none'; form-action 'none'$/,
    );
    assert.doesNotMatch(csp, /unsafe/);
    assert.ok(csp.includes(`style-src ${panel.panel.webview.cspSource}`), csp);

    // a second call reveals the same panel
    assert.equal(show(history), panel);
    await waitFor(() => activityTabs().length === 1, { message: 'one Flow Sync Activity tab' });
    assert.equal(activityTabs()[0].label, vscode.l10n.t('Flow Sync Activity'));

    // the page ran in VS Code's webview under that policy and drew the series
    const report = await rendered;
    assert.deepEqual(report, { type: 'rendered', range: 'hour', flows: 3, buckets: 60, chart: true, violations: [] });
  });

  it('switches the range, follows data changes and shows the empty state', async () => {
    const history = new FakeHistory();
    const panel = show(history, 'day');
    assert.equal((await nextRender(panel)).range, 'day');

    const week = nextRender(panel, (r) => r.range === 'week');
    show(history, 'week');
    assert.equal(history.asked.at(-1), 'week', 'the panel shows the week: it asked for its series at once');
    assert.deepEqual(await week, {
      type: 'rendered',
      range: 'week',
      flows: 3,
      buckets: 168,
      chart: true,
      violations: [],
    });

    history.empty = true;
    const empty = nextRender(panel, (r) => !r.chart);
    history.fire();
    history.fire(); // changes close together: one new series
    assert.deepEqual(await empty, {
      type: 'rendered',
      range: 'week',
      flows: 0,
      buckets: 0,
      chart: false,
      violations: [],
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.deepEqual(history.asked, ['day', 'week', 'week']);
  });

  it('asks for no data while hidden and redraws when shown again; disposing drops the listener', async () => {
    const history = new FakeHistory();
    const panel = show(history);
    await nextRender(panel);
    assert.equal(history.listenerCount, 1);

    const doc = await vscode.workspace.openTextDocument({ content: 'cover the panel' });
    await vscode.window.showTextDocument(doc, { viewColumn: panel.panel.viewColumn, preview: false });
    await waitFor(() => !panel.panel.visible, { message: 'the panel hidden' });
    const asked = history.asked.length;
    history.fire();
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.equal(history.asked.length, asked, 'no series computed for a hidden panel');

    const again = nextRender(panel);
    show(history);
    assert.equal((await again).chart, true, 'the page, reloaded, asked for its data again');

    const closed = new Promise<void>((resolve) => panel.panel.onDidDispose(() => resolve()));
    panel.dispose();
    await closed;
    assert.equal(history.listenerCount, 0);
    await waitFor(() => activityTabs().length === 0, { message: 'the tab closed' });
    assert.notEqual(
      show(new FakeHistory()),
      panel,
      'no longer the panel shown: showing the chart again makes a new one',
    );
  });

  it('the Show Activity command opens the chart through the extension (its code is a chunk of the bundle, loaded on first use)', async () => {
    assert.equal(activityTabs().length, 0);
    await vscode.commands.executeCommand('flowsync.showActivity');
    await waitFor(() => activityTabs().length === 1, { message: 'the command opened one Flow Sync Activity tab' });
    assert.equal(activityTabs()[0].label, vscode.l10n.t('Flow Sync Activity'));
    // again: the loaded chart reveals the same panel
    await vscode.commands.executeCommand('flowsync.showActivity');
    assert.equal(activityTabs().length, 1);
  });
});

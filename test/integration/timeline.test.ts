import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { systemClock } from '../../src/base/clock';
import { PANEL_VIEW_TYPES } from '../../src/base/commandIds';
import { makeEntry, type HistoryEntry } from '../../src/history/entry';
import { NO_OLDER_DAYS } from '../../src/history/summary';
import { restoreActivity } from '../../src/activity/vscode/activityCommand';
import { restoreTimeline, type TimelineCommandDeps } from '../../src/timeline/vscode/timelineCommand';
import type { TimelineService } from '../../src/timeline/vscode/timelinePanel';
import { EXTENSION_ID, activateExtension, waitFor } from './helpers';

const MIN = 60_000;

/** A service whose History holds `runs` runs of three flows, one every `everyMin` minutes, and nothing processing. */
function fakeService(name: string, runs: number, everyMin = 10) {
  const now = Date.now();
  const entries: HistoryEntry[] = Array.from({ length: runs }, (_, i) => {
    const start = now - (i + 1) * everyMin * MIN;
    return makeEntry({
      id: 1000 + i,
      flowId: (i % 3) + 1,
      flowName: ['Invoices → Sheets', 'Orders <img src=x onerror=alert(1)>', '\u202eNightly'][i % 3],
      createdAt: new Date(start).toISOString(),
      firstSeen: start + MIN,
      lastSeen: start + 6 * MIN,
      leftAt: start + 7 * MIN,
      raw: undefined,
      hadErrors: i % 5 === 0,
    });
  });
  const listeners = new Set<() => void>();
  return {
    id: `${name} https://example.com`,
    name,
    explorer: { keyToHide: undefined },
    history: {
      snapshot: {
        origin: 'https://example.com',
        entries,
        stats: new Map(),
        older: NO_OLDER_DAYS,
        watches: { syncs: [], flows: [] },
      },
      onDidChange: (listener: () => void) => {
        listeners.add(listener);
        return { dispose: () => listeners.delete(listener) };
      },
      tracked: new Map(),
      isStuck: () => false,
      isWatched: () => false,
      pins: { ids: () => [3] },
    },
    get listeners() {
      return listeners.size;
    },
  };
}

type Fake = ReturnType<typeof fakeService>;

function deps(extensionUri: vscode.Uri, services: Fake[]): TimelineCommandDeps<TimelineService & Fake> {
  return {
    extensionUri,
    services: {
      all: services as unknown as Array<TimelineService & Fake>,
      several: services.length > 1,
      onDidChange: () => ({ dispose: () => undefined }),
    },
    clock: systemClock,
    historyFilter: () => undefined,
    onDidChangeFilter: () => ({ dispose: () => undefined }),
    act: async () => undefined,
  };
}

/** The next message of a panel's page that matches (the page's own posts: 'ready', 'rendered'). */
function nextMessage(
  panel: vscode.WebviewPanel,
  match: (m: Record<string, unknown>) => boolean,
  timeoutMs = 20_000,
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error('the page did not post the message in time'));
    }, timeoutMs);
    const sub = panel.webview.onDidReceiveMessage((m: Record<string, unknown>) => {
      if (!match(m)) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(m);
    });
  });
}

function tabsOf(viewType: string): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(viewType));
}

/** A webview panel as VS Code hands a serializer one after a reload: no page, no scripts yet. */
function restoredPanel(viewType: string): vscode.WebviewPanel {
  return vscode.window.createWebviewPanel(viewType, 'restoring', vscode.ViewColumn.Active, {});
}

describe('Run Timeline panel', function () {
  this.timeout(90_000);
  let extensionUri: vscode.Uri;

  before(async () => {
    await activateExtension();
    extensionUri = vscode.extensions.getExtension(EXTENSION_ID)!.extensionUri;
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('Show Run Timeline opens one "Run Timeline" panel through the extension (its code loads on request)', async () => {
    await vscode.commands.executeCommand('flowsync.showTimeline');
    await waitFor(() => tabsOf(PANEL_VIEW_TYPES.timeline).length === 1, { message: 'one Run Timeline tab' });
    assert.equal(tabsOf(PANEL_VIEW_TYPES.timeline)[0].label, vscode.l10n.t('Run Timeline'));
    await vscode.commands.executeCommand('flowsync.showTimeline');
    assert.equal(tabsOf(PANEL_VIEW_TYPES.timeline).length, 1, 'shown again, not duplicated');
  });

  it('restores the timeline in the panel VS Code hands back, with the service its page kept, drawn from History under the policy', async () => {
    const prod = fakeService('Prod', 30, 60);
    const staging = fakeService('Staging', 90);
    const panel = restoredPanel(PANEL_VIEW_TYPES.timeline);
    const rendered = nextMessage(panel, (m) => m.type === 'rendered');
    restoreTimeline(deps(extensionUri, [prod, staging]), panel, {
      service: 'Staging',
      start: Date.now() - 6 * 60 * MIN,
      span: 6 * 60 * MIN,
      scroll: 1e9, // out of bounds: dropped
    });
    assert.equal(panel.title, vscode.l10n.t('Run Timeline'), 'the restored panel itself is used');
    assert.equal(panel.webview.options.enableScripts, true);
    assert.match(panel.webview.html, /script-src &#39;nonce-[0-9a-f]{32}&#39;/);
    const report = await rendered;
    // Staging's runs, one every 10 minutes: the window kept (6 hours) shows 36 of them, in its three lanes (Prod's,
    // one an hour, would be 6; the first window, 24 hours, all 90)
    assert.equal(report.lanes, 3);
    assert.ok((report.bars as number) >= 34 && (report.bars as number) <= 38, `bars: ${String(report.bars)}`);
    assert.deepEqual(report.violations, []);
    assert.equal(staging.listeners, 1, 'it follows the History shown');
    panel.dispose();
    assert.equal(staging.listeners, 0, 'and lets it go when closed');
  });

  it('restores the activity chart in its range', async () => {
    const service = fakeService('Prod', 20);
    const panel = restoredPanel(PANEL_VIEW_TYPES.activity);
    const rendered = nextMessage(panel, (m) => m.type === 'rendered');
    restoreActivity(
      {
        extensionUri,
        now: () => Date.now(),
        services: {
          all: [service] as never,
          byName: () => undefined,
        },
      },
      panel,
      { range: 'week', host: { service: 'Gone' } },
    );
    assert.equal(panel.title, vscode.l10n.t('Flow Sync Activity'));
    const report = await rendered;
    assert.equal(report.range, 'week');
    assert.deepEqual(report.violations, []);
    panel.dispose();
  });
});

import * as vscode from 'vscode';
import { registerCommands } from './commands/vscode/registerCommands';
import { systemClock } from './base/clock';
import type { Explorer } from './lists/explorer';
import type { PollCoordinator } from './sharing/pollLease';
import { hideEverywhere } from './base/inert';
import { useLocalize } from './base/l10n';
import { LinkHandler } from './links/vscode/linkHandler';
import { watchFailures, type FailureNotifications } from './notifications/vscode/failureNotifications';
import { ApiKeyStore } from './keys/vscode/apiKeyStore';
import { SettingsSource } from './settings/vscode/settings';
import { createServiceConnection } from './services/vscode/serviceConnection';
import { activitySeries, activitySparkline, processingNow } from './history/index';
import { HistoryService } from './history/vscode/historyService';
import { StuckAnnouncer } from './notifications/stuckAnnouncer';
import { announceFinished, chartSeries, processingDecorations } from './history/vscode/historyUi';
import { registerTools } from './tools/vscode/tools';
import { showActivityPanel } from './activity/vscode/activityPanel';
import { HistoryView } from './history/vscode/historyView';
import { JSON_SCHEME, JsonDocuments } from './json/vscode/jsonDocuments';
import { allViews, createListViews, type ListViews } from './lists/vscode/listView';
import { ProcessingStatusBar } from './status/vscode/statusBar';

/**
 * The live objects, for the integration tests only: activate() returns them when VS Code runs the extension in
 * ExtensionMode.Test, and nothing otherwise. Other extensions get no path to the key (`keys`, or the configuration
 * inside `explorer`): SecretStorage isolates extensions from each other, and our exports must not undo that.
 */
export interface FlowSyncExplorerApi {
  explorer: Explorer;
  keys: ApiKeyStore;
  /** The view of each list, by list id. */
  views: ListViews;
  statusBar: ProcessingStatusBar;
  json: JsonDocuments;
  notifications: FailureNotifications;
  /** Where VS Code keeps this extension's logs (the "Flow Sync" channel's file is in a sibling folder). */
  logUri: vscode.Uri;
  /** Answers vscode://…/sync?id=N links (tests call it directly). */
  links: LinkHandler;
  history: HistoryService;
  historyView: HistoryView;
  /** One poller for all windows: whether this window holds the lease of a polled list. */
  sharing: PollCoordinator;
  /** Re-reads settings and the key; resolves once applied. */
  reconfigure(): Promise<void>;
}

/** Wires the pieces together; behaviour lives in the modules. Returns the test API in ExtensionMode.Test only. */
export function activate(context: vscode.ExtensionContext): FlowSyncExplorerApi | undefined {
  useLocalize(vscode.l10n.t);
  const log = vscode.window.createOutputChannel('Flow Sync', { log: true });
  const version = String(context.extension.packageJSON.version ?? '0.0.0');
  const clock = systemClock;
  const settings = new SettingsSource((error) => log.error(`A settings listener failed: ${String(error)}`));
  const keys = new ApiKeyStore(context.secrets);
  const service = createServiceConnection({
    globalStorageUri: context.globalStorageUri,
    globalState: context.globalState,
    log,
    clock,
    // Our own window id: vscode.env.sessionId is the same in every window while telemetry is off.
    windowId: `${clock.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`,
    settings,
    keys,
    userAgent: `flowsync-explorer/${version} (VS Code ${vscode.version})`,
  });
  const { explorer, history } = service;
  hideEverywhere(() => explorer.keyToHide); // every text made inert masks the key the service may echo
  const now = () => clock.now();
  const views = createListViews(explorer, clock, settings, { processing: processingDecorations(history, now) });
  const json = new JsonDocuments(explorer, history);
  const notifications = watchFailures(explorer);
  const stuckAndSparkline = () => ({
    stuck: history.stuckSyncs(),
    sparkline: activitySparkline(history.snapshot.entries, processingNow(history.tracked, explorer.keyToHide), now()),
  });
  const statusBar = new ProcessingStatusBar(explorer, clock, { get: stuckAndSparkline, onDidChange: history.onDidChange });
  const historyView = new HistoryView(history, now);
  const showActivity = () =>
    void showActivityPanel(context, (range) => chartSeries(activitySeries(history.snapshot.entries, processingNow(history.tracked, explorer.keyToHide), now(), range, undefined, history.snapshot.older)), history.onDidChange);
  const commandContext = { service, keys, views, json, log, settings, showActivity, extensionId: context.extension.id };
  const links = new LinkHandler(commandContext);
  const stuckAnnouncer = new StuckAnnouncer(() => explorer.keyToHide);

  context.subscriptions.push(
    log,
    settings,
    service,
    ...allViews(views),
    json,
    vscode.workspace.registerTextDocumentContentProvider(JSON_SCHEME, json),
    statusBar,
    notifications,
    historyView,
    history.onDidChange(() => views.processing.tree.refreshAll()),
    history.onDidAnnounce(({ text, entries }) => announceFinished(text, entries, json)),
    // A sync that becomes stuck is said once (a notification: screen readers read it out, the focus stays put), by the
    // window whose request saw it, unless notifications are off.
    history.onDidChange(() => {
      const text = stuckAnnouncer.next(history.stuckSyncs());
      if (text && settings.current.notifyWhenFinished !== 'off' && !explorer.lists.processing.state.adopted) void vscode.window.showWarningMessage(text);
    }),
    vscode.window.onDidChangeWindowState((state) => explorer.setFocused(state.focused)),
    vscode.window.registerUriHandler(links),
    ...registerCommands(commandContext),
    ...registerTools({ explorer, keys, clock, settings, history: { entries: () => history.snapshot.entries, stuck: () => history.stuckSyncs() } }),
  );
  explorer.setFocused(vscode.window.state.focused);
  void service.reconfigure();
  log.info(`Flow Sync Explorer ${version} activated`);
  if (context.extensionMode !== vscode.ExtensionMode.Test) return undefined;
  return {
    explorer,
    keys,
    views,
    statusBar,
    json,
    notifications,
    logUri: context.logUri,
    links,
    history,
    historyView,
    get sharing() {
      return service.sharing;
    },
    reconfigure: () => service.reconfigure(),
  };
}

export function deactivate(): void {}

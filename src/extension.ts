import * as vscode from 'vscode';
import type { RequestRecord } from './api/client';
import { registerCommands } from './commands/vscode/registerCommands';
import { ConfigurationSync } from './settings/vscode/configuration';
import { systemClock } from './base/clock';
import { Explorer } from './lists/explorer';
import { lazySharing, PollCoordinator } from './sharing/pollLease';
import { FileSharedStore } from './sharing/vscode/fileStore';
import { hideEverywhere, inert } from './base/inert';
import { useLocalize } from './base/l10n';
import { LinkHandler } from './links/vscode/linkHandler';
import { watchFailures, type FailureNotifications } from './notifications/vscode/failureNotifications';
import { ApiKeyStore } from './keys/vscode/apiKeyStore';
import { onDidChangeSettings, readSettings } from './settings/vscode/settings';
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

/** The teams seen per service origin (globalState): the team filter's choices. */
const TEAMS_STATE_KEY = 'flowsync.knownTeamsByOrigin';
/** 0.1.0 kept one list for every service; it is removed, since it cannot be told which service it belongs to. */
const LEGACY_TEAMS_STATE_KEY = 'flowsync.knownTeams';

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
  const explorer = new Explorer(
    systemClock,
    (record) => logRequest(log, record),
    Math.random,
    (error) => log.error(`A view failed to update: ${inert((error as Error)?.stack ?? String(error), 2000)}`),
  );
  hideEverywhere(() => explorer.keyToHide); // every text made inert masks the key the service may echo
  explorer.teams.restore(context.globalState.get<unknown>(TEAMS_STATE_KEY));
  if (context.globalState.get(LEGACY_TEAMS_STATE_KEY) !== undefined) void context.globalState.update(LEGACY_TEAMS_STATE_KEY, undefined);
  // One poller for all windows: the processing list is polled by one window and shared through global storage. The
  // window id is our own: vscode.env.sessionId is the same in every window while telemetry is off.
  const windowId = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
  const sharing = lazySharing(explorer, () => new PollCoordinator(explorer, new FileSharedStore(context.globalStorageUri), windowId, systemClock, (m) => log.info(m)));
  const keys = new ApiKeyStore(context.secrets);
  const configuration = new ConfigurationSync(explorer, keys, log, `flowsync-explorer/${version} (VS Code ${vscode.version})`);
  const views = createListViews(explorer, systemClock);
  const json = new JsonDocuments(explorer);
  const reconfigure = () => configuration.apply();
  const notifications = watchFailures(explorer);
  const history = new HistoryService(
    explorer,
    context.globalStorageUri,
    context.globalState,
    windowId, // each window writes its own history segment (sessionId is shared while telemetry is off)
    systemClock,
    readSettings,
    log,
    (text, entries) => announceFinished(text, entries, json),
  );
  json.history = history;
  const now = () => systemClock.now();
  const stuckAndSparkline = () => ({
    stuck: history.stuckSyncs(),
    sparkline: activitySparkline(history.snapshot.entries, processingNow(history.tracked, explorer.keyToHide), now()),
  });
  const statusBar = new ProcessingStatusBar(explorer, { get: stuckAndSparkline, onDidChange: history.onDidChange });
  views.processing.tree.decorations = processingDecorations(history, now);
  const historyView = new HistoryView(history, now);
  const showActivity = () =>
    void showActivityPanel(context, (range) => chartSeries(activitySeries(history.snapshot.entries, processingNow(history.tracked, explorer.keyToHide), now(), range, undefined, history.snapshot.older)), history.onDidChange);
  const commandContext = { explorer, keys, views, json, log, reconfigure, history, settings: readSettings, showActivity, extensionId: context.extension.id };
  const links = new LinkHandler(commandContext);
  const stuckAnnouncer = new StuckAnnouncer(() => explorer.keyToHide);

  context.subscriptions.push(
    log,
    { dispose: () => explorer.dispose() },
    sharing,
    configuration,
    ...allViews(views),
    json,
    vscode.workspace.registerTextDocumentContentProvider(JSON_SCHEME, json),
    statusBar,
    notifications,
    history,
    historyView,
    history.onDidChange(() => views.processing.tree.refreshAll()),
    // A sync that becomes stuck is said once (a notification: screen readers read it out, the focus stays put), by the
    // window whose request saw it, unless notifications are off.
    history.onDidChange(() => {
      const text = stuckAnnouncer.next(history.stuckSyncs());
      if (text && readSettings().notifyWhenFinished !== 'off' && !explorer.lists.processing.state.adopted) void vscode.window.showWarningMessage(text);
    }),
    vscode.window.onDidChangeWindowState((state) => explorer.setFocused(state.focused)),
    explorer.teams.onDidLearn(() => {
      void context.globalState.update(TEAMS_STATE_KEY, explorer.teams.snapshot());
      for (const view of allViews(views)) view.decorate(systemClock.now()); // the filtered team's name may be known now
    }),
    onDidChangeSettings(() => {
      allViews(views).forEach((view) => view.rearrange());
      history.applySettings();
    }),
    vscode.window.registerUriHandler(links),
    ...registerCommands(commandContext),
    ...registerTools(explorer, keys, { entries: () => history.snapshot.entries, stuck: () => history.stuckSyncs(), days: () => readSettings().historyDays }),
  );
  explorer.setFocused(vscode.window.state.focused);
  void configuration.apply();
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
      return sharing.current();
    },
    reconfigure,
  };
}

export function deactivate(): void {}

function logRequest(log: vscode.LogOutputChannel, r: RequestRecord): void {
  if (r.error) {
    log.warn(`${r.method} ${r.path} → ${r.status ?? r.error.kind} in ${r.ms} ms: ${inert(r.error.message)}`);
  } else {
    const dropped = r.dropped ? `, ${r.dropped} dropped` : '';
    log.info(`${r.method} ${r.path} → ${r.status} in ${r.ms} ms, ${r.items} items${dropped}, ${r.bytes} bytes`);
  }
}

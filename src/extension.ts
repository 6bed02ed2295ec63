import * as vscode from 'vscode';
import { hurryClock, systemClock } from './base/clock';
import { hideEverywhere, inert } from './base/inert';
import { useLocalize } from './base/l10n';
import { onFirstUse } from './base/onFirstUse';
import { registerCommands } from './commands/vscode/registerCommands';
import { testApi, type FlowSyncExplorerApi } from './commands/vscode/testApi';
import { findOnFirstUse } from './find/vscode/findOnFirstUse';
import { HistoryView } from './history/vscode/historyView';
import { removeExportLeftovers } from './export/vscode/exportLeftovers';
import { registerJsonDocuments } from './json/vscode/jsonOnFirstUse';
import { ApiKeyStore } from './keys/vscode/apiKeyStore';
import { LinkHandler } from './links/vscode/linkHandler';
import { readListsSection } from './lists/listsSection';
import { allViews, createListViews } from './lists/vscode/listView';
import { watchFailures } from './notifications/vscode/failureNotifications';
import { announceHistoryNotices } from './notifications/vscode/historyNotices';
import { readServicesSection } from './services/servicesSection';
import { ServiceRegistry } from './services/vscode/serviceRegistry';
import { SettingsWarnings } from './services/vscode/settingsWarnings';
import { SettingsSource } from './settings/vscode/settings';
import { ProcessingStatusBar } from './status/vscode/statusBar';
import { registerTools } from './tools/vscode/tools';

export type { FlowSyncExplorerApi } from './commands/vscode/testApi';

/** Wires the pieces together; behaviour lives in the modules. Returns the test API in ExtensionMode.Test only. */
export function activate(context: vscode.ExtensionContext): FlowSyncExplorerApi | undefined {
  useLocalize(vscode.l10n.t);
  const log = vscode.window.createOutputChannel('Flow Sync', { log: true });
  const version = String(context.extension.packageJSON.version ?? '0.0.0');
  // In ExtensionMode.Test, timers a test can run before their time (a retry's wait): see the test API's `clock`.
  const hurried = context.extensionMode === vscode.ExtensionMode.Test ? hurryClock(systemClock) : undefined;
  const clock = hurried ?? systemClock;
  const now = () => clock.now();
  const settings = new SettingsSource(
    // Each feature reads its own section, in the same read: the services (flowsync.services), the lists' arrangements.
    (read, shared) => ({ ...readServicesSection(read, shared), ...readListsSection(read) }),
    (error) => log.error(`A settings listener failed: ${String(error)}`),
  );
  const keys = new ApiKeyStore(context.secrets);
  const services = new ServiceRegistry({
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
  // Every text made inert masks the key any service may echo.
  hideEverywhere(() => services.all.map((s) => s.explorer.keyToHide).filter((key): key is string => key !== undefined));
  const views = createListViews(services, clock, settings, {
    processing: (s) => services.byId(s.id)!.history.processingMarks,
  });
  // A failed load of a chunk (esbuild.js CHUNKS), once per load; the next use tries again.
  const failedToLoad = (what: string) => (error: unknown) =>
    log.error(`${what} could not be loaded: ${inert(String(error), 300)}`);
  const jsonDocuments = registerJsonDocuments(services, failedToLoad('The JSON documents'));
  const json = jsonDocuments.json;
  const notifications = watchFailures(services);
  const statusBar = new ProcessingStatusBar(services, clock);
  const historyView = new HistoryView(services, now);
  const find = findOnFirstUse(
    { processing: views.processing, connections: views.connections, history: historyView },
    context.workspaceState,
    now,
    failedToLoad("The views' filters"),
  );
  const commandContext = {
    services,
    keys,
    views,
    historyView,
    find,
    json,
    log,
    settings,
    extensionUri: context.extensionUri,
    now,
    extensionId: context.extension.id,
    globalState: context.globalState,
  };
  const links = new LinkHandler(commandContext);
  const commandTable = onFirstUse(() => import('./commands/vscode/handlers'));

  context.subscriptions.push(
    log,
    settings,
    new SettingsWarnings(settings, log),
    services,
    ...allViews(views),
    jsonDocuments,
    statusBar,
    notifications,
    historyView,
    find,
    announceHistoryNotices(services, json, failedToLoad("History's notifications")),
    vscode.window.onDidChangeWindowState((state) => services.setFocused(state.focused)),
    vscode.window.registerUriHandler(links),
    ...registerCommands(commandContext, commandTable),
    ...registerTools({ services, keys, clock, settings }),
    removeExportLeftovers(context.globalState, log),
  );
  services.setFocused(vscode.window.state.focused);
  void services.start();
  log.info(`Flow Sync Explorer ${version} activated`);
  if (!hurried) return undefined; // ExtensionMode.Test only
  return testApi({
    clock: hurried,
    services,
    keys,
    views,
    statusBar,
    json: jsonDocuments.documents,
    notifications,
    logUri: context.logUri,
    links,
    historyView,
    find,
    removeService: async (name) => {
      const service = services.byName(name);
      if (service) await (await commandTable.get()).removeServiceNow(commandContext, service);
    },
    addService: async (answers) => (await commandTable.get()).addServiceNow(commandContext, answers),
  });
}

export function deactivate(): void {}

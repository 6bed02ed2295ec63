import * as vscode from 'vscode';
import { userAgent } from './api/userAgent';
import { useLocalize } from './base/l10n';
import { ReadYourWritesState } from './base/readYourWrites';
import { failedToLoad, onFirstUse } from './base/onFirstUse';
import { registerCommands, registerPanelSerializers } from './commands/vscode/registerCommands';
import { systemClock } from './base/clock';
import { extensionClock } from './base/vscode/extensionClock';
import type { FlowSyncExplorerApi, TestSeams } from './commands/vscode/testApi';
import { removeExportLeftovers } from './export/vscode/exportLeftovers';
import { findOnFirstUse } from './find/vscode/findOnFirstUse';
import { HistoryView } from './history/vscode/historyView';
import { registerJsonDocuments } from './json/vscode/jsonOnFirstUse';
import { ApiKeyStore } from './keys/vscode/apiKeyStore';
import { BrowserOpener, LinkHandler } from './links/vscode/linkHandler';
import { allViews, createListViews } from './lists/vscode/listView';
import { registerShowMoreRows } from './lists/vscode/showMore';
import { watchFailures } from './notifications/vscode/failureNotifications';
import { ServiceRegistry } from './services/vscode/serviceRegistry';
import { windowSettings } from './services/vscode/settingsSource';
import { newWindowId } from './sharing/windowId';
import { statusBarWithServices } from './status/vscode/statusOnFirstUse';
import { registerTools } from './tools/vscode/tools';
import { teamHistoryOnFirstUse } from './teamHistory/vscode/teamHistoryStart';

export type { FlowSyncExplorerApi } from './commands/vscode/testApi';

/** Wires the pieces (all disposed with context.subscriptions: no deactivate). The test API in ExtensionMode.Test only. */
export function activate(context: vscode.ExtensionContext): Promise<FlowSyncExplorerApi> | undefined {
  useLocalize(vscode.l10n.t);
  const log = vscode.window.createOutputChannel('Flow Sync', { log: true });
  const version = String(context.extension.packageJSON.version ?? '0.0.0');
  const { clock, now, hurried } = extensionClock(context.extensionMode);
  const settings = windowSettings(log);
  const keys = new ApiKeyStore(context.secrets);
  const thisWindow = { clock, windowId: newWindowId(clock.now()) };
  // Never lost to another window's write; on the system's clock (a test's hurried timers are the product's polls only).
  const globalState = new ReadYourWritesState(context.globalState, { ...thisWindow, clock: systemClock });
  const loadFailed = failedToLoad(log); // a chunk (esbuild.js CHUNKS) that could not be loaded
  const shared = { ...thisWindow, globalState, log, settings, keys, globalStorageUri: context.globalStorageUri };
  const teamHistory = teamHistoryOnFirstUse({ ...shared, secrets: context.secrets }, loadFailed);
  const services = new ServiceRegistry({ ...shared, teamHistory, userAgent: userAgent(version, vscode.version) });
  services.withServices(teamHistory); // made with the services' code, before the services
  const views = createListViews(services, clock, settings, {
    processing: (s) => services.byId(s.id)?.history.processingMarks,
  });
  // ExtensionMode.Test only: the test API, whose ways out keep what they showed (loaded with the services' chunk)
  const test = hurried && onFirstUse(() => import('./commands/vscode/testApi'), { onError: loadFailed('Test API') });
  const seams = test && test.get().then((m) => m.testSeams());
  const seam = <K extends keyof TestSeams>(key: K) => seams?.then((s) => s[key]);
  const jsonDocuments = registerJsonDocuments(services, loadFailed('The JSON documents'));
  const failureDeps = { ...thisWindow, settings, json: jsonDocuments.json, storage: context.globalStorageUri, log };
  // made with the services; History's news too
  watchFailures(services, failureDeps, loadFailed('Telling errors'), seam('failures'));
  statusBarWithServices(services, clock, loadFailed('The status bar'), seam('statusBar')); // made with the services
  const historyView = new HistoryView(services, now, settings);
  const filtered = { processing: views.processing, connections: views.connections, history: historyView };
  const find = findOnFirstUse(filtered, context.workspaceState, now, loadFailed("The views' filters"));
  const ofExtension = { extensionUri: context.extensionUri, extensionId: context.extension.id };
  const browser = new BrowserOpener(seam('browser'));
  const shown = { services, views, historyView, find, json: jsonDocuments.json, browser };
  const commandContext = { ...shared, ...shown, ...ofExtension, clock, now, teamHistory };
  const links = new LinkHandler(commandContext, seam('links'));
  const commandTable = onFirstUse(() => import('./commands/vscode/handlers'));

  context.subscriptions.push(
    log,
    globalState,
    settings,
    services,
    ...allViews(views),
    jsonDocuments,
    historyView,
    find,
    vscode.window.registerUriHandler(links),
    ...registerCommands(commandContext, commandTable),
    registerShowMoreRows(),
    ...registerPanelSerializers(commandContext, commandTable),
    ...registerTools({ services, keys, clock, settings }),
    removeExportLeftovers(globalState, log),
  );
  void services.start();
  log.info(`Flow Sync Explorer ${version} activated`);
  if (!test || !seams) return undefined; // ExtensionMode.Test only
  return Promise.all([test.get(), seams]).then(([m, s]) => m.testApi(commandContext, s, { hurried, links, context }));
}

import * as vscode from 'vscode';
import { userAgent } from '../../api/userAgent';
import { ReadYourWritesState } from '../../base/readYourWrites';
import { systemClock } from '../../base/clock';
import { extensionClock } from '../../base/vscode/extensionClock';
import type { LateTreeView } from '../../base/vscode/lateTree';
import type { CommandContext } from '../../commands/vscode/commandContext';
import { testApi, testSeams, type FlowSyncExplorerApi } from '../../commands/vscode/testApi';
import { removeExportLeftovers } from '../../export/vscode/exportLeftovers';
import { findOnFirstUse } from '../../find/vscode/findOnFirstUse';
import { HistoryView, type HistoryViewNode } from '../../history/vscode/historyView';
import type { JsonOnFirstUse } from '../../json/vscode/jsonOnFirstUse';
import { ApiKeyStore } from '../../keys/vscode/apiKeyStore';
import { BrowserOpener, LinkHandler } from '../../links/vscode/linkHandler';
import { allViews, createListViews, type ListTreeViews } from '../../lists/vscode/listView';
import { watchFailures } from '../../notifications/vscode/failureNotifications';
import { ServiceRegistry } from '../../services/vscode/serviceRegistry';
import { windowSettings } from '../../services/vscode/settingsSource';
import { newWindowId } from '../../sharing/windowId';
import { statusBarWithServices } from '../../status/vscode/statusOnFirstUse';
import type { ToolDeps } from '../../tools/vscode/toolAnswers';
import { teamHistoryOnFirstUse } from '../../teamHistory/vscode/teamHistoryStart';

/** The tree views activate() registered, whose rows the product makes. */
export type StartViews = ListTreeViews & { readonly history: LateTreeView<HistoryViewNode> };

/** What activate() made and registered, handed to the product. */
export interface Started {
  readonly context: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  readonly version: string;
  readonly views: StartViews;
  /** The JSON documents, whose provider is registered at start (their code loads with the first). */
  readonly json: JsonOnFirstUse['json'];
  /** What a failed load of a chunk logs. */
  readonly loadFailed: (what: string) => (error: unknown) => void;
}

/** What the commands, links, tools and JSON documents registered at start act on. */
export interface Product extends vscode.Disposable {
  readonly commands: CommandContext;
  readonly links: LinkHandler;
  readonly tools: ToolDeps;
  readonly services: ServiceRegistry;
  /** ExtensionMode.Test only: the test API, whose ways out keep what they showed. */
  readonly testApi?: FlowSyncExplorerApi;
}

/**
 * The product, made in the services' chunk once activate() has registered everything and returned (esbuild.js CHUNKS):
 * the settings, the key store, the services (started here: their connections are made after the host's turn), the
 * views' rows, History's view, the filters, the status bar and the watch of failures, and what the commands act on.
 * A product that cannot be made whole leaves nothing behind (listeners, timers, the views' rows): the next use makes
 * it anew.
 */
export function makeProduct(started: Started): Product {
  const made: vscode.Disposable[] = [];
  const keep = <T extends vscode.Disposable>(thing: T): T => (made.push(thing), thing);
  const dispose = () => {
    for (const thing of made.splice(0).reverse()) thing.dispose();
  };
  try {
    return { ...productOf(started, keep), dispose };
  } catch (error) {
    dispose();
    throw error;
  }
}

/** Makes the product; `keep`: what is disposed with it, in the order made (it is disposed in the reverse order). */
function productOf(started: Started, keep: <T extends vscode.Disposable>(thing: T) => T): Omit<Product, 'dispose'> {
  const { context, log, loadFailed } = started;
  const { clock, now, hurried } = extensionClock(context.extensionMode);
  const settings = keep(windowSettings(log));
  const keys = new ApiKeyStore(context.secrets);
  const thisWindow = { clock, windowId: newWindowId(clock.now()) };
  // Never lost to another window's write; on the system's clock (a test's hurried timers are the product's polls only).
  const globalState = keep(new ReadYourWritesState(context.globalState, { ...thisWindow, clock: systemClock }));
  const shared = { ...thisWindow, globalState, log, settings, keys, globalStorageUri: context.globalStorageUri };
  const teamHistory = keep(teamHistoryOnFirstUse({ ...shared, secrets: context.secrets }, loadFailed));
  const userAgentText = userAgent(started.version, vscode.version);
  const services = keep(new ServiceRegistry({ ...shared, teamHistory, userAgent: userAgentText }));
  services.withServices(teamHistory); // made with the services' code, before the services
  const views = createListViews(started.views, services, clock, settings, {
    processing: (s) => services.byId(s.id)?.history.processingMarks,
  });
  allViews(views).forEach(keep);
  // ExtensionMode.Test only: the test API's seams, ways out to the person that keep what they showed
  const seams = hurried ? testSeams() : undefined;
  const failureDeps = { ...thisWindow, settings, json: started.json, storage: context.globalStorageUri, log };
  // made with the services; History's news too
  keep(watchFailures(services, failureDeps, loadFailed('Telling errors'), seams && Promise.resolve(seams.failures)));
  const statusItems = seams && Promise.resolve(seams.statusBar);
  keep(statusBarWithServices(services, clock, loadFailed('The status bar'), statusItems));
  const historyView = keep(new HistoryView(started.views.history, services, now, settings));
  const filtered = { processing: views.processing, connections: views.connections, history: historyView };
  const find = keep(findOnFirstUse(filtered, context.workspaceState, now, loadFailed("The views' filters")));
  const ofExtension = { extensionUri: context.extensionUri, extensionId: context.extension.id };
  const browser = new BrowserOpener(seams && Promise.resolve(seams.browser));
  const shown = { services, views, historyView, find, json: started.json, browser };
  const commands: CommandContext = { ...shared, ...shown, ...ofExtension, clock, now, teamHistory };
  const links = new LinkHandler(commands, seams && Promise.resolve(seams.links));
  keep(removeExportLeftovers(globalState, log));
  const test = hurried && seams ? testApi(commands, seams, { hurried, links, context }) : undefined;
  void services.start(); // last: nothing of it starts for a product that could not be made
  return { commands, links, tools: { services, keys, clock, settings }, services, testApi: test };
}

import * as vscode from 'vscode';
import { registerCommands } from './commands/vscode/registerCommands';
import { systemClock } from './base/clock';
import type { Explorer } from './lists/explorer';
import type { PollCoordinator } from './sharing/pollLease';
import { hideEverywhere, inert } from './base/inert';
import { serviceName } from './base/serviceSet';
import { useLocalize } from './base/l10n';
import { LinkHandler } from './links/vscode/linkHandler';
import { watchFailures, type FailureNotifications } from './notifications/vscode/failureNotifications';
import { ApiKeyStore } from './keys/vscode/apiKeyStore';
import { SettingsSource } from './settings/vscode/settings';
import { SettingsWarnings } from './services/vscode/settingsWarnings';
import { readServicesSection } from './services/servicesSection';
import { readListsSection } from './lists/listsSection';
import { ServiceRegistry } from './services/vscode/serviceRegistry';
import { eachService } from './services/vscode/eachService';
import { onFirstUse, type OnFirstUse } from './base/onFirstUse';
import { HistoryService } from './history/vscode/historyService';
import { registerTools } from './tools/vscode/tools';
import { HistoryView } from './history/vscode/historyView';
import { JSON_SCHEME } from './json/jsonScheme';
import type { JsonDocuments, JsonTarget } from './json/vscode/jsonDocuments';
import { allViews, createListViews, type ListViews } from './lists/vscode/listView';
import { ProcessingStatusBar } from './status/vscode/statusBar';
import { keptFilters } from './find/keptFilters';
import type { FindViews } from './find/vscode/findViews';

/**
 * The live objects, for the integration tests only: activate() returns them when VS Code runs the extension in
 * ExtensionMode.Test, and nothing otherwise. Other extensions get no path to the key (`keys`, or the configuration
 * inside `explorer`): SecretStorage isolates extensions from each other, and our exports must not undo that.
 */
export interface FlowSyncExplorerApi {
  /** Every service (one, or several side by side). */
  services: ServiceRegistry;
  /** The first service's Explorer (the only one, unless there are several). */
  explorer: Explorer;
  keys: ApiKeyStore;
  /** The view of each list, by list id. */
  views: ListViews;
  statusBar: ProcessingStatusBar;
  /** The JSON documents, made when the first is opened or restored. */
  json: OnFirstUse<JsonDocuments>;
  notifications: FailureNotifications;
  /** Where VS Code keeps this extension's logs (the "Flow Sync" channel's file is in a sibling folder). */
  logUri: vscode.Uri;
  /** Answers vscode://…/sync?id=N links (tests call it directly). */
  links: LinkHandler;
  /** The first service's History. */
  history: HistoryService;
  historyView: HistoryView;
  /** The views' filters (Find), made on first use. */
  find: OnFirstUse<FindViews>;
  /** One poller for all windows (the first service's): whether this window holds the lease of a polled list. */
  sharing: Promise<PollCoordinator>;
  /** Re-reads settings and the key; resolves once applied. */
  reconfigure(): Promise<void>;
  /** Remove Service... without its questions: the service of this name and its key (tests drive the questions in e2e). */
  removeService(name: string): Promise<void>;
  /** Add Service... with its answers given (the current service's name the first time, the new one's name and URL). */
  addService(answers: { currentName?: string; name: string; url: string }): Promise<void>;
}

/** Wires the pieces together; behaviour lives in the modules. Returns the test API in ExtensionMode.Test only. */
export function activate(context: vscode.ExtensionContext): FlowSyncExplorerApi | undefined {
  useLocalize(vscode.l10n.t);
  const log = vscode.window.createOutputChannel('Flow Sync', { log: true });
  const version = String(context.extension.packageJSON.version ?? '0.0.0');
  const clock = systemClock;
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
  const first = () => services.all[0];
  // Every text made inert masks the key any service may echo.
  hideEverywhere(() => services.all.map((s) => s.explorer.keyToHide).filter((key): key is string => key !== undefined));
  const views = createListViews(services, clock, settings, {
    processing: (s) => services.byId(s.id)!.history.processingMarks,
  });
  // A failed load of a chunk (esbuild.js CHUNKS), once per load; the next use tries again.
  const failedToLoad = (what: string) => (error: unknown) =>
    log.error(`${what} could not be loaded: ${inert(String(error), 300)}`);
  // The JSON documents: their content provider is registered now (VS Code asks it for a restored document at once);
  // their code is loaded, and they are made, with the first document.
  const jsonChanged = new vscode.EventEmitter<vscode.Uri>();
  const jsonDocuments = onFirstUse(
    async () => new (await import('./json/vscode/jsonDocuments')).JsonDocuments(services, jsonChanged),
    { dispose: (made) => made.dispose(), onError: failedToLoad('The JSON documents') },
  );
  const json = { open: async (target: JsonTarget) => (await jsonDocuments.get()).open(target) };
  // What History says (its notifications): loaded when it first says something.
  const announcer = onFirstUse(() => import('./history/vscode/announceFinished'), {
    onError: failedToLoad("History's notifications"),
  });
  const notifications = watchFailures(services);
  const statusBar = new ProcessingStatusBar(services, clock);
  const historyView = new HistoryView(services, now);
  // The views' filters: made when one is first set or read, or now when this workspace kept one.
  const find = onFirstUse(
    async () =>
      (await import('./find/vscode/findViews')).createFindViews(
        { processing: views.processing, connections: views.connections, history: historyView },
        context.workspaceState,
        now,
      ),
    { dispose: (made) => made.dispose(), onError: failedToLoad("The views' filters") },
  );
  if (keptFilters(context.workspaceState)) find.get().catch(() => undefined);
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
  };
  const links = new LinkHandler(commandContext);
  const commandTable = onFirstUse(() => import('./commands/vscode/handlers'));

  context.subscriptions.push(
    log,
    settings,
    new SettingsWarnings(settings, log),
    services,
    ...allViews(views),
    jsonChanged,
    jsonDocuments,
    vscode.workspace.registerTextDocumentContentProvider(JSON_SCHEME, {
      onDidChange: jsonChanged.event,
      provideTextDocumentContent: async (uri) => (await jsonDocuments.get()).provideTextDocumentContent(uri),
    }),
    statusBar,
    notifications,
    historyView,
    find,
    // What History says (syncs that left, became stuck or slower, History not written), named by its service.
    eachService(services, (service) =>
      service.history.onDidNotify(
        (notice) =>
          void announcer.get().then(
            (m) =>
              m.announce(
                notice,
                (text) => {
                  const name = serviceName(services, service);
                  return name === undefined ? text : `${name}: ${text}`;
                },
                json,
                service.id,
              ),
            () => undefined, // logged by failedToLoad
          ),
      ),
    ),
    vscode.window.onDidChangeWindowState((state) => services.setFocused(state.focused)),
    vscode.window.registerUriHandler(links),
    ...registerCommands(commandContext, commandTable),
    ...registerTools({ services, keys, clock, settings }),
  );
  services.setFocused(vscode.window.state.focused);
  void services.start();
  log.info(`Flow Sync Explorer ${version} activated`);
  if (context.extensionMode !== vscode.ExtensionMode.Test) return undefined;
  return {
    services,
    get explorer() {
      return first().explorer;
    },
    keys,
    views,
    statusBar,
    json: jsonDocuments,
    notifications,
    logUri: context.logUri,
    links,
    get history() {
      return first().history;
    },
    historyView,
    find,
    get sharing() {
      return first().sharing;
    },
    reconfigure: () => services.reconfigure(),
    removeService: async (name) => {
      const service = services.byName(name);
      if (service) await (await commandTable.get()).removeServiceNow(commandContext, service);
    },
    addService: async (answers) => (await commandTable.get()).addServiceNow(commandContext, answers),
  };
}

export function deactivate(): void {}

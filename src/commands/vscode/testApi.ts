import type * as vscode from 'vscode';
import type { HurryClock } from '../../base/clock';
import { onFirstUse, type OnFirstUse } from '../../base/onFirstUse';
import type { FindViews } from '../../find/vscode/findViews';
import type { HistoryService } from '../../history/vscode/historyService';
import type { HistoryView } from '../../history/vscode/historyView';
import type { JsonDocuments } from '../../json/vscode/jsonDocuments';
import type { ApiKeyStore } from '../../keys/vscode/apiKeyStore';
import type { BrowserOpener, LinkHandler } from '../../links/vscode/linkHandler';
import type { Explorer } from '../../lists/explorer';
import type { ListViews } from '../../lists/vscode/listView';
import type { FailureNotifications } from '../../notifications/vscode/failureNotifications';
import type { ServiceRegistry } from '../../services/vscode/serviceRegistry';
import type { PollCoordinator } from '../../sharing/pollLease';
import type { ProcessingStatusBar } from '../../status/vscode/statusBar';
import type { CommandContext } from './commandContext';

/**
 * The live objects, for the integration tests only: activate() returns them when VS Code runs the extension in
 * ExtensionMode.Test, and nothing otherwise. Other extensions get no path to the key (`keys`, or the configuration
 * inside `explorer`): SecretStorage isolates extensions from each other, and our exports must not undo that.
 */
export interface FlowSyncExplorerApi {
  /** The extension's clock: a test runs a pending timer (a retry's wait) now instead of sleeping until it. */
  clock: HurryClock;
  /** Every service (one, or several side by side). */
  services: ServiceRegistry;
  /** The first service's Explorer (the only one, unless there are several). */
  explorer: Explorer;
  keys: ApiKeyStore;
  /** The view of each list, by list id. */
  views: ListViews;
  /** Made with the services' code (before the services: src/status/vscode/statusOnFirstUse.ts). */
  readonly statusBar: ProcessingStatusBar;
  /** The JSON documents, made when the first is opened or restored. */
  json: OnFirstUse<JsonDocuments>;
  notifications: FailureNotifications;
  /** Where VS Code keeps this extension's logs (the "Flow Sync" channel's file is in a sibling folder). */
  logUri: vscode.Uri;
  /** Open in Browser's way out: what it was asked to open (`holdBack`: open nothing). */
  browser: BrowserOpener;
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
  /** Team History (Connect Team History without its password box: `connect(text)`). */
  teamHistory: CommandContext['teamHistory'];
}

/**
 * The test API over the live objects: what the start gives the command table, and the parts only the tests look at.
 * The first service's parts are read anew on each access (services come and go). Loaded in ExtensionMode.Test only
 * (with the services' chunk, esbuild.js CHUNKS, which a start loads anyway): activate() then answers a promise of it.
 */
export function testApi(
  context: CommandContext,
  {
    statusBar,
    ...parts
  }: Pick<FlowSyncExplorerApi, 'clock' | 'json' | 'notifications' | 'logUri' | 'links'> & {
    statusBar: OnFirstUse<ProcessingStatusBar>;
  },
): FlowSyncExplorerApi {
  const { services, keys, views, historyView, find, browser, teamHistory } = context;
  const first = () => services.all[0];
  // Add/Remove Service's own code (the commands' chunk, esbuild.js CHUNKS), without their questions
  const serviceCommands = onFirstUse(() => import('../../services/vscode/serviceCommands'));
  return {
    ...parts,
    services,
    keys,
    views,
    historyView,
    find,
    browser,
    teamHistory,
    get explorer() {
      return first().explorer;
    },
    get statusBar() {
      if (!statusBar.made) throw new Error('The status bar is made with the services: await services.whenMade() first');
      return statusBar.made;
    },
    get history() {
      return first().history;
    },
    get sharing() {
      return first().sharing;
    },
    reconfigure: () => services.reconfigure(),
    removeService: async (name) => {
      const service = services.byName(name);
      if (service) await (await serviceCommands.get()).removeServiceNow(context, service);
    },
    addService: async (answers) => (await serviceCommands.get()).addServiceNow(context, answers),
  };
}

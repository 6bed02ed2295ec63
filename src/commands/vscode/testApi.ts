import * as vscode from 'vscode';
import type { HurryClock } from '../../base/clock';
import { onFirstUse, type OnFirstUse } from '../../base/onFirstUse';
import type { FindViews } from '../../find/vscode/findViews';
import type { HistoryService } from '../../history/vscode/historyService';
import type { HistoryView } from '../../history/vscode/historyView';
import type { ApiKeyStore } from '../../keys/vscode/apiKeyStore';
import type { SayLink } from '../../links/vscode/answerLink';
import { BrowserOpener, sayLinkAnswer, type LinkHandler } from '../../links/vscode/linkHandler';
import type { Explorer } from '../../lists/explorer';
import type { ListViews } from '../../lists/vscode/listView';
import type { ServiceRegistry } from '../../services/vscode/serviceRegistry';
import type { StatusBarItems } from '../../status/vscode/statusBar';
import type { CommandContext } from './commandContext';

/**
 * The live objects, for the integration tests only: activate() returns them when VS Code runs the extension in
 * ExtensionMode.Test, and nothing otherwise. Other extensions get no path to the key (`keys`, or the configuration
 * inside `explorer`): SecretStorage isolates extensions from each other, and our exports must not undo that. What the
 * window showed a person (the status bar item, the notifications, the addresses opened) is kept here, by the seams
 * activate() hands the product in that mode (testSeams), not by the product.
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
  /** The status bar's item: undefined before the first configuration (the status bar is made with the services). */
  readonly statusBar: { readonly item: vscode.StatusBarItem | undefined };
  /** The failure notifications shown: each one's kind of trouble and its text, in order (all of the window's life). */
  notifications: { readonly shown: readonly string[]; readonly texts: readonly string[] };
  /** Where VS Code keeps this extension's logs (the "Flow Sync" channel's file is in a sibling folder). */
  logUri: vscode.Uri;
  /** The extension's global storage (History's files are under history/<its scope's folder>/ there). */
  storage: vscode.Uri;
  /** Open in Browser's way out: what it was asked to open (`holdBack`: open nothing). */
  browser: KeptBrowser;
  /** Answers vscode://…/sync?id=N links (tests call it directly); `said`: what the answers said, in order. */
  links: Pick<LinkHandler, 'handleUri'> & { readonly said: readonly string[] };
  /** The first service's History. */
  history: HistoryService;
  historyView: HistoryView;
  /** The views' filters (Find), made on first use. */
  find: OnFirstUse<FindViews>;
  /** Re-reads settings and the key; resolves once applied. */
  reconfigure(): Promise<void>;
  /** Remove Service... without its questions: the service of this name and its key (tests drive the questions in e2e). */
  removeService(name: string): Promise<void>;
  /** Add Service... with its answers given (the current service's name the first time, the new one's name and URL). */
  addService(answers: { currentName?: string; name: string; url: string }): Promise<void>;
  /** Team History (Connect Team History without its password box: `connect(text)`). */
  teamHistory: CommandContext['teamHistory'];
}

/** How many of the last links' answers and addresses opened the test API keeps. */
const KEPT = 20;

function keep(list: string[], text: string): void {
  list.push(text);
  if (list.length > KEPT) list.shift();
}

/**
 * Open in Browser's way out that keeps the addresses it is asked to open (`asked`: never a key, an address is a
 * template of the user settings filled with a row's ids); `holdBack`: opens none.
 */
interface KeptBrowser {
  open(url: string): Promise<boolean>;
  readonly asked: readonly string[];
  holdBack: boolean;
}

/** A way to say the links' answers that keeps what they say (`said`), each answer told as the product tells it. */
export function keptLinkAnswers(): { readonly said: readonly string[]; readonly say: SayLink } {
  const said: string[] = [];
  return {
    said,
    say: (level, message, action, command) => {
      keep(said, message);
      sayLinkAnswer(level, message, action, command);
    },
  };
}

/**
 * What activate() hands the product in ExtensionMode.Test, where it otherwise hands VS Code's own: the window's ways out
 * that keep what they showed (the status bar item, the failure notifications, the links' answers, the addresses
 * opened). Each does what the product's own does; only the keeping is added.
 */
export interface TestSeams {
  readonly statusBar: StatusBarItems & FlowSyncExplorerApi['statusBar'];
  readonly failures: FlowSyncExplorerApi['notifications'] & { said(kind: string, text: string): void };
  readonly links: ReturnType<typeof keptLinkAnswers>;
  readonly browser: KeptBrowser;
}

/** The seams of one window (activate() makes them once, in ExtensionMode.Test only). */
export function testSeams(): TestSeams {
  const opener = new BrowserOpener();
  const asked: string[] = [];
  const browser: KeptBrowser = {
    asked,
    holdBack: false,
    open: async (url) => {
      keep(asked, url);
      return browser.holdBack ? false : opener.open(url);
    },
  };
  let item: vscode.StatusBarItem | undefined;
  const shown: string[] = [];
  const texts: string[] = [];
  return {
    statusBar: {
      get item() {
        return item;
      },
      createStatusBarItem: (id, alignment, priority) =>
        (item = vscode.window.createStatusBarItem(id, alignment, priority)),
    },
    failures: {
      shown,
      texts,
      said: (kind, text) => {
        shown.push(kind);
        texts.push(text);
      },
    },
    links: keptLinkAnswers(),
    browser,
  };
}

/**
 * The test API over the live objects: what the start gives the command table, what the seams kept, the link handler,
 * and where the extension keeps its logs and files. The first service's parts are read anew on each access (services
 * come and go). Loaded in ExtensionMode.Test only (with the services' chunk, esbuild.js CHUNKS, which a start loads
 * anyway): activate() then answers a promise of it.
 */
export function testApi(
  context: CommandContext,
  seams: TestSeams,
  parts: {
    hurried: HurryClock;
    links: LinkHandler;
    context: Pick<vscode.ExtensionContext, 'logUri' | 'globalStorageUri'>;
  },
): FlowSyncExplorerApi {
  const { services, keys, views, historyView, find, teamHistory } = context;
  const first = () => services.all[0];
  // Add/Remove Service's own code (the commands' chunk, esbuild.js CHUNKS), without their questions
  const serviceCommands = onFirstUse(() => import('../../services/vscode/serviceCommands'));
  return {
    clock: parts.hurried,
    statusBar: seams.statusBar,
    notifications: seams.failures,
    browser: seams.browser,
    links: { handleUri: (uri) => parts.links.handleUri(uri), said: seams.links.said },
    logUri: parts.context.logUri,
    storage: parts.context.globalStorageUri,
    services,
    keys,
    views,
    historyView,
    find,
    teamHistory,
    get explorer() {
      return first().explorer;
    },
    get history() {
      return first().history;
    },
    reconfigure: () => services.reconfigure(),
    removeService: async (name) => {
      const service = services.byName(name);
      if (service) await (await serviceCommands.get()).removeServiceNow(context, service);
    },
    addService: async (answers) => (await serviceCommands.get()).addServiceNow(context, answers),
  };
}

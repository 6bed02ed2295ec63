import type * as vscode from 'vscode';
import type { Clock } from '../../base/clock';
import type { ApiKeyStore } from '../../keys/vscode/apiKeyStore';
import type { JsonDocuments } from '../../json/vscode/jsonDocuments';
import type { ListViews } from '../../lists/vscode/listView';
import type { ServiceRegistry } from '../../services/vscode/serviceRegistry';
import type { ServicesSection } from '../../services/servicesSection';
import type { Settings, SettingsFeed } from '../../settings/settingsFeed';
import type { OnFirstUse } from '../../base/onFirstUse';
import type { FindViews } from '../../find/vscode/findViews';
import type { HistoryView } from '../../history/vscode/historyView';
import type { BrowserOpener } from '../../links/vscode/linkHandler';
import type { TeamHistory } from '../../teamHistory/vscode/teamHistory';

/**
 * What the start (src/extension.ts) gives the command table (registerCommands.ts). No feature imports it: each
 * feature's command file declares the narrow dependencies it uses (e.g. KeyCommandDeps, TeamFilterDeps), and the
 * table hands each handler this context with the ports the handlers' chunk adds (handlers.ts: deps).
 */
export interface CommandContext {
  /** The services (one, or several side by side): each with its Explorer, History and sharing. */
  services: ServiceRegistry;
  keys: ApiKeyStore;
  views: ListViews;
  /** The History view (Go to... reveals a run in it). */
  historyView: HistoryView;
  /** The views' filters (Find), their code loaded on first use. */
  find: OnFirstUse<FindViews>;
  /** Opens a JSON document (the documents' code is loaded with the first). */
  json: Pick<JsonDocuments, 'open'>;
  log: vscode.LogOutputChannel;
  settings: SettingsFeed<Settings & ServicesSection>;
  /** Where the extension is installed (the webview panels' pages and styles). */
  extensionUri: vscode.Uri;
  /** The time now (the extension's clock). */
  now(): number;
  /** The extension's clock (Flow Insights' gap between pages). */
  clock: Clock;
  /** This extension's id (publisher.name): the authority of its links. */
  extensionId: string;
  /** The extension's globalState (Export History remembers its temporary file there until it is done). */
  globalState: vscode.Memento;
  /** Opens the service's own web pages (Open in Browser); the tests read what it was asked to open. */
  browser: BrowserOpener;
  /** Team History (its store, Connect and Disconnect), made with the services. */
  teamHistory: OnFirstUse<TeamHistory>;
}

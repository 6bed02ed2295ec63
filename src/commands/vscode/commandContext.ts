import type * as vscode from 'vscode';
import type { Explorer } from '../../lists/explorer';
import type { SettingValues } from '../../settings/settingValues';
import type { HistoryService } from '../../history/vscode/historyService';
import type { ApiKeyStore } from '../../keys/vscode/apiKeyStore';
import type { JsonDocuments } from '../../json/vscode/jsonDocuments';
import type { ListViews } from '../../lists/vscode/listView';

/** What the commands work with. Each command lives in its own file and gets this. */
export interface CommandContext {
  explorer: Explorer;
  keys: ApiKeyStore;
  views: ListViews;
  json: JsonDocuments;
  log: vscode.LogOutputChannel;
  history: HistoryService;
  /** The current settings (read when asked). */
  settings(): SettingValues;
  /** Opens the activity chart. */
  showActivity(): void;
  /** This extension's id (publisher.name): the authority of its links. */
  extensionId: string;
  /** Re-reads settings and the key and applies them; resolves when applied. */
  reconfigure(): Promise<void>;
}

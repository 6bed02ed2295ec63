import type * as vscode from 'vscode';
import type { Explorer } from '../core/explorer';
import type { ApiKeyStore } from '../secrets';
import type { JsonDocuments } from '../views/jsonDocuments';
import type { ListViews } from '../views/listView';

/** What the commands work with. Each command lives in its own file and gets this. */
export interface CommandContext {
  explorer: Explorer;
  keys: ApiKeyStore;
  views: ListViews;
  json: JsonDocuments;
  log: vscode.LogOutputChannel;
  /** Re-reads settings and the key and applies them; resolves when applied. */
  reconfigure(): Promise<void>;
}

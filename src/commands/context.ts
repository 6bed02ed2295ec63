import type * as vscode from 'vscode';
import type { Connection, FlowSync } from '../api/types';
import type { Explorer } from '../core/explorer';
import type { ApiKeyStore } from '../secrets';
import type { ExplorerView } from '../views/explorerViews';
import type { JsonDocuments } from '../views/jsonDocuments';

/** What the commands work with. Each command lives in its own file and gets this. */
export interface CommandContext {
  explorer: Explorer;
  keys: ApiKeyStore;
  processingView: ExplorerView<FlowSync>;
  connectionsView: ExplorerView<Connection>;
  json: JsonDocuments;
  log: vscode.LogOutputChannel;
  /** Re-reads settings and the key and applies them; resolves when applied. */
  reconfigure(): Promise<void>;
}

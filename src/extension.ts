import * as vscode from 'vscode';
import { VIEW_ID } from './base/commandIds';
import { useLocalize } from './base/l10n';
import { failedToLoad, onFirstUse } from './base/onFirstUse';
import { lateTreeView } from './base/vscode/lateTree';
import { registerCommands, registerPanelSerializers } from './commands/vscode/registerCommands';
import type { FlowSyncExplorerApi } from './commands/vscode/testApi';
import { registerJsonDocuments } from './json/vscode/jsonOnFirstUse';
import { registerShowMoreRows } from './lists/vscode/showMore';
import type { StartViews } from './start/vscode/product';
import { productOnFirstUse } from './start/vscode/productOnFirstUse';
import { registerTools } from './tools/vscode/tools';

export type { FlowSyncExplorerApi } from './commands/vscode/testApi';

/**
 * Registers what VS Code asks for by id (the views, every command, the panels' serializers, the tools, the links and
 * the JSON documents' provider) and returns; the product they act on (src/start/vscode/product.ts: the settings, the
 * services, the views' rows) is made with the services' chunk once the host has had its turn, and each of them waits
 * for it. All disposed with context.subscriptions (no deactivate). The test API in ExtensionMode.Test only.
 */
export function activate(context: vscode.ExtensionContext): Promise<FlowSyncExplorerApi> | undefined {
  useLocalize(vscode.l10n.t);
  const log = vscode.window.createOutputChannel('Flow Sync', { log: true });
  const version = String(context.extension.packageJSON.version ?? '0.0.0');
  const loadFailed = failedToLoad(log); // a chunk (esbuild.js CHUNKS) that could not be loaded
  const views: StartViews = {
    processing: lateTreeView(VIEW_ID.processing),
    connections: lateTreeView(VIEW_ID.connections),
    history: lateTreeView(VIEW_ID.history),
  };
  const made = () => product.get();
  const jsonDocuments = registerJsonDocuments(async () => (await made()).services, loadFailed('The JSON documents'));
  const product = productOnFirstUse({ context, log, version, views, json: jsonDocuments.json, loadFailed });
  const commandTable = onFirstUse(() => import('./commands/vscode/handlers'));
  const commands = { context: async () => (await made()).commands, log };

  context.subscriptions.push(
    log,
    ...Object.values(views),
    jsonDocuments,
    vscode.window.registerUriHandler({ handleUri: async (uri) => (await made()).links.handleUri(uri) }),
    ...registerCommands(commands, commandTable),
    registerShowMoreRows(),
    ...registerPanelSerializers(commands, commandTable),
    ...registerTools(async () => (await made()).tools),
    product,
  );
  const making = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(made); // the host's turn first
  making.catch(() => undefined); // said where it is made (productOnFirstUse); the next use tries again
  log.info(`Flow Sync Explorer ${version} activated`);
  if (context.extensionMode !== vscode.ExtensionMode.Test) return undefined;
  return making.then(({ testApi }) => testApi ?? Promise.reject(new Error('the test API was not made')));
}

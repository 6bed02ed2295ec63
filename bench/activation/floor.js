// `node bench/activation.mjs --floor`: the floor of a start. Loaded in place of dist/extension.js, it makes only the
// VS Code calls the real activate() makes at start (the same view, command, serializer and tool ids, the same options:
// package.json's contributes), reads the settings once, and runs none of the extension's own code. What it costs is
// VS Code's part of code load + activate(); the rest of the real figure is ours.
'use strict';
const vscode = require('vscode');

/** The settings the real start reads (src/settings: the shared values and the lists' arrangements). */
const SETTINGS = [
  'baseUrl',
  'allowHttp',
  'teamId',
  'autoRefresh',
  'refreshIntervalSeconds',
  'requestTimeoutSeconds',
  'notifyWhenFinished',
  'notifyOnErrors',
  'stuckAfterMinutes',
  'historyDays',
  'services',
  'webUrl',
  'processing.groupBy',
  'processing.sortBy',
  'connections.groupBy',
  'connections.sortBy',
];
/** The command registered at start that package.json does not list (src/lists/vscode/showMore.ts). */
const INTERNAL_COMMANDS = ['flowsync.showMoreRows'];
/** The panels that come back after a reload (src/base/commandIds.ts PANEL_VIEW_TYPES). */
const PANEL_VIEW_TYPES = ['flowsync.activity', 'flowsync.insights', 'flowsync.timeline'];

module.exports.activate = function activate(context) {
  const contributes = context.extension.packageJSON.contributes;
  const subscriptions = context.subscriptions;
  // what the real start reads of its context and of VS Code (VS Code makes some of these on first use)
  void [context.extensionMode, context.extensionUri, context.extension.id, context.globalStorageUri, vscode.version];
  void [context.secrets.onDidChange, context.globalState.get('flowsync.filters'), context.workspaceState.keys()];
  void vscode.l10n.t('Flow Sync');
  subscriptions.push(vscode.window.createOutputChannel('Flow Sync', { log: true }));
  const settings = vscode.workspace.getConfiguration('flowsync');
  for (const key of SETTINGS) settings.get(key);
  subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(() => undefined),
    vscode.window.onDidChangeWindowState(() => undefined),
  );
  const provider = { getChildren: () => [], getTreeItem: (element) => element };
  for (const view of Object.values(contributes.views).flat()) {
    subscriptions.push(
      vscode.window.createTreeView(view.id, { treeDataProvider: provider, showCollapseAll: true, canSelectMany: true }),
    );
  }
  subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider('flowsync-json', { provideTextDocumentContent: () => '' }),
    vscode.window.registerUriHandler({ handleUri: () => undefined }),
  );
  for (const id of [...contributes.commands.map((c) => c.command), ...INTERNAL_COMMANDS])
    subscriptions.push(vscode.commands.registerCommand(id, async () => undefined));
  for (const viewType of PANEL_VIEW_TYPES)
    subscriptions.push(
      vscode.window.registerWebviewPanelSerializer(viewType, { deserializeWebviewPanel: async () => {} }),
    );
  for (const tool of contributes.languageModelTools)
    subscriptions.push(vscode.lm.registerTool(tool.name, { invoke: async () => undefined }));
  return undefined;
};

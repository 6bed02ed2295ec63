/**
 * Every command id, once: code and tests use these names, package.json declares the same ids (a test checks both
 * ways). Ids are a stable contract (key bindings, menus, tests): never rename one.
 */
export const COMMAND = {
  setApiKey: 'flowsync.setApiKey',
  clearApiKey: 'flowsync.clearApiKey',
  setBaseUrl: 'flowsync.setBaseUrl',
  refresh: 'flowsync.refresh',
  refreshProcessing: 'flowsync.refreshProcessing',
  refreshConnections: 'flowsync.refreshConnections',
  openJson: 'flowsync.openJson',
  copyId: 'flowsync.copyId',
  filterByTeam: 'flowsync.filterByTeam',
  clearTeamFilter: 'flowsync.clearTeamFilter',
  showLog: 'flowsync.showLog',
  groupProcessing: 'flowsync.groupProcessing',
  groupConnections: 'flowsync.groupConnections',
  copyLink: 'flowsync.copyLink',
  watch: 'flowsync.watch',
  unwatch: 'flowsync.unwatch',
  showActivity: 'flowsync.showActivity',
  clearHistory: 'flowsync.clearHistory',
  addService: 'flowsync.addService',
  removeService: 'flowsync.removeService',
  filterProcessing: 'flowsync.filterProcessing',
  filterConnections: 'flowsync.filterConnections',
  filterHistory: 'flowsync.filterHistory',
  clearFilter: 'flowsync.clearFilter',
  goTo: 'flowsync.goTo',
  copyViewLink: 'flowsync.copyViewLink',
  exportHistory: 'flowsync.exportHistory',
  showInsights: 'flowsync.showInsights',
  pinFlow: 'flowsync.pinFlow',
  unpinFlow: 'flowsync.unpinFlow',
  openInBrowser: 'flowsync.openInBrowser',
  copyAsMarkdown: 'flowsync.copyAsMarkdown',
  connectTeamHistory: 'flowsync.connectTeamHistory',
  disconnectTeamHistory: 'flowsync.disconnectTeamHistory',
  showTimeline: 'flowsync.showTimeline',
} as const;

export type CommandId = (typeof COMMAND)[keyof typeof COMMAND];

/**
 * The command of a view's "Show more" row (src/lists/vscode/showMore.ts): registered at start, never declared in
 * package.json, so neither the Command Palette nor a menu offers it; it acts only on a row the views handed out.
 */
export const SHOW_MORE_ROWS = 'flowsync.showMoreRows';

/**
 * The id of each tree view (package.json `views`): registered at start (src/extension.ts), their rows made with the
 * services' chunk.
 */
export const VIEW_ID = {
  processing: 'flowsync.processing',
  connections: 'flowsync.connections',
  history: 'flowsync.history',
} as const;

/**
 * The view type of each webview panel: VS Code restores a panel of these after a reload (each has a serializer,
 * registered at start, and an `onWebviewPanel:` activation event in package.json; a test checks both).
 */
export const PANEL_VIEW_TYPES = {
  activity: 'flowsync.activity',
  insights: 'flowsync.insights',
  timeline: 'flowsync.timeline',
} as const;

export type PanelKind = keyof typeof PANEL_VIEW_TYPES;

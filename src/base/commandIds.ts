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
} as const;

export type CommandId = (typeof COMMAND)[keyof typeof COMMAND];

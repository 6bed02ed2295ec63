/**
 * History, the pure part: when a sync started, as far as it can be true (start), which flow syncs left processing
 * (ProcessingObserver), how long flows usually take and which syncs are stuck (stats), what the History view, its
 * tooltips and the notifications say (texts), and the activity chart's series and the status bar's sparkline
 * (activity). Storage is in historyStore.ts.
 * No vscode import; time comes from the caller.
 */
export * from './history/start';
export * from './history/entry';
export * from './history/observer';
export * from './history/stats';
export * from './history/summary';
export * from './history/texts';
export * from './history/activity';
export * from './history/eta';

/**
 * History, the pure part: when a sync started, as far as it can be true (start), which flow syncs left processing
 * (ProcessingObserver), how long flows usually take and which syncs are stuck (stats), what the History view, its
 * tooltips and the notifications say (texts), and the activity chart's series and the status bar's sparkline
 * (activity). Storage: the append-only day files are log.ts's (written, read, summarized, pruned on disk, cleared);
 * store.ts merges the runs of several windows (mergeSegments) and prunes what a window holds (pruneEntries); the
 * service that runs them is historyService.ts.
 * No vscode import; time comes from the caller.
 */
export * from './entry';
export * from './observer';
export * from './stats';
export * from './summary';
export * from './texts';
export * from './activity';
export * from './eta';

/** History storage, the pure part: an append-only log per day and window (history/log.ts); merge, prune and 0.2.0 segments (history/store.ts). */
export * from './store';
export * from './log';

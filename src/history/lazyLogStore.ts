import type { LogStore, LogStoreOptions } from './log';

/** What History does with its store: every method of LogStore it uses, each async. */
export type HistoryLog = Pick<LogStore, 'cleared' | 'append' | 'read' | 'summaries' | 'pruneDisk' | 'clear'>;

/**
 * A LogStore whose code is loaded, and which is made, on its first call: the class (reading, writing, summarizing and
 * pruning the logs) is its own chunk, dist/chunks/logStore.js (esbuild.js CHUNKS), not loaded while no service is used.
 * Every call goes to the one LogStore made with `options`, in the order made.
 */
export function lazyLogStore(options: LogStoreOptions): HistoryLog {
  let made: Promise<LogStore> | undefined;
  const store = () => (made ??= import('./logStore').then(({ LogStore }) => new LogStore(options)));
  return {
    cleared: async () => (await store()).cleared(),
    append: async (...args) => (await store()).append(...args),
    read: async (...args) => (await store()).read(...args),
    summaries: async (...args) => (await store()).summaries(...args),
    pruneDisk: async (...args) => (await store()).pruneDisk(...args),
    clear: async () => (await store()).clear(),
  };
}

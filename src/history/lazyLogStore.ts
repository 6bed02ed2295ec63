import { callsOnFirstUse, onFirstUse } from '../base/onFirstUse';
import type { LogStore, LogStoreOptions } from './logStore';

/** What History does with its store: every method of LogStore it uses, each async. */
export type HistoryLog = Pick<LogStore, 'cleared' | 'append' | 'read' | 'summaries' | 'pruneDisk' | 'clear'>;

/**
 * A LogStore whose code is loaded, and which is made, on its first call: the class (reading, writing, summarizing and
 * pruning the logs) is its own chunk, dist/chunks/logStore.js (esbuild.js CHUNKS), not loaded while no service is used.
 * Every call goes to the one LogStore made with `options`, in the order made.
 */
export function lazyLogStore(options: LogStoreOptions): HistoryLog {
  const store = onFirstUse(async () => new (await import('./logStore')).LogStore(options));
  return callsOnFirstUse(store, ['cleared', 'append', 'read', 'summaries', 'pruneDisk', 'clear']);
}

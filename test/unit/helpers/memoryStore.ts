import type { SharedFile, SharedStore } from '../../../src/core/pollLease';

/**
 * The windows' shared global storage, in memory: one instance shared by several simulated windows (unit tests and
 * bench/network.mjs). `view(window)` gives one window a handle that can be frozen (a hung window: its reads and writes
 * never finish) or made to fail (a read-only disk).
 */
export class MemoryStore {
  readonly files = new Map<string, { text: string; version: number }>();
  private version = 0;
  writes = 0;

  view(): SharedStore & { frozen: boolean; failing: boolean } {
    const store = {
      frozen: false,
      failing: false,
      read: (folder: string, file: SharedFile) => guard(() => this.files.get(`${folder}/${file}`)?.text),
      write: (folder: string, file: SharedFile, text: string) =>
        guard(() => {
          this.writes++;
          this.files.set(`${folder}/${file}`, { text, version: ++this.version });
        }),
      stamp: (folder: string, file: SharedFile) => guard(() => this.files.get(`${folder}/${file}`)?.version.toString()),
    };
    const guard = <R>(action: () => R): Promise<R> => {
      if (store.frozen) return new Promise<R>(() => undefined);
      if (store.failing) return Promise.reject(new Error('EROFS: read-only file system'));
      return Promise.resolve(action());
    };
    return store;
  }

  /** Everything written, for "the key is never on disk" checks. */
  allText(): string {
    return [...this.files.values()].map((f) => f.text).join('\n');
  }
}

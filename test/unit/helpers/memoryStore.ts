import { TOO_LARGE } from '../../../src/api/jsonBounds';
import type { SharedFile, SharedStore } from '../../../src/sharing/pollLease';

/**
 * The windows' shared global storage, in memory: one instance shared by several simulated windows (unit tests and
 * bench/network.mjs). `view(window)` gives one window a handle that can be frozen (a hung window: its reads and writes
 * never finish) or made to fail (a read-only disk).
 */
export class MemoryStore {
  readonly files = new Map<string, { text: string; bytes: Uint8Array; version: number }>();
  private version = 0;
  writes = 0;
  /** The bytes of every write, over all windows. */
  bytesWritten = 0;

  view(): SharedStore & {
    frozen: boolean;
    failing: boolean;
    /** The reads of each file by this window that handed its bytes out (each is parsed next). */
    reads: Record<SharedFile, number>;
    write(folder: string, file: SharedFile, content: Uint8Array | string): Promise<void>;
  } {
    const store = {
      frozen: false,
      failing: false,
      reads: { lease: 0, snapshot: 0, failure: 0, heartbeat: 0 },
      /** Like the file store: the size is checked before the bytes are handed out. */
      read: (folder: string, file: SharedFile, maxBytes: number) =>
        guard(() => {
          const stored = this.files.get(`${folder}/${file}`);
          if (!stored) return undefined;
          if (stored.bytes.length > maxBytes) return TOO_LARGE;
          store.reads[file]++;
          return stored.bytes;
        }),
      /** Takes the bytes a coordinator writes, or a test's text. */
      write: (folder: string, file: SharedFile, content: Uint8Array | string) =>
        guard(() => {
          this.writes++;
          const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
          this.bytesWritten += bytes.length;
          this.files.set(`${folder}/${file}`, {
            text: new TextDecoder().decode(bytes),
            bytes,
            version: ++this.version,
          });
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

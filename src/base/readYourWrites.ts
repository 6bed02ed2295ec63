import { sameJson } from './sameJson';

/** What ReadYourWritesState needs of VS Code's globalState (a Memento): read a key, list them, write one. */
export interface StateStore {
  get(key: string): unknown;
  keys(): readonly string[];
  update(key: string, value: unknown): PromiseLike<void>;
  setKeysForSync?(keys: readonly string[]): void;
}

/** How many times a write that another window's echo undid before it was sent is written again. */
const MAX_REWRITES = 2;

/**
 * globalState with read-your-writes: what this window wrote is what it reads, and what every window reads once it is
 * done. VS Code's extension host sends its whole copy of the state with each write and takes each echo of the
 * workbench whole (the workbench echoes every change, this window's own included), so two writes on their way at once
 * undo each other: one reads back without the other, or is sent without it and lost (test/unit/helpers/echoingMemento.ts
 * models it). Watches, pins, the teams remembered and an export's temporary file are such writes.
 * - This window's writes go one at a time: each is sent once the one before is acknowledged (every echo of it is in
 *   then), so no send carries a copy an echo of this window's own made stale. Writes of a key waiting their turn are
 *   made one: its latest value is sent.
 * - Until a write is done, `get` reads it.
 * - When it is done, the store is read again: it holds this write, or another window's later change of the key, which
 *   wins; or, when it is back to what it held before the send, another window's echo replaced the copy between this
 *   write and its send, and it is written again (at most MAX_REWRITES times).
 */
export class ReadYourWritesState {
  /** The latest value this window wrote of each key whose write is not done yet (a JSON copy: what VS Code keeps). */
  private readonly wanted = new Map<string, { readonly value: unknown }>();
  /** The write under way, or done: the next waits for it. */
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly store: StateStore) {}

  get<T>(key: string): T | undefined;
  get<T>(key: string, fallback: T): T;
  get<T>(key: string, fallback?: T): T | undefined {
    const mine = this.wanted.get(key);
    const value = mine ? mine.value : this.store.get(key);
    return value === undefined ? fallback : (value as T);
  }

  keys(): readonly string[] {
    const keys = new Set(this.store.keys());
    for (const [key, { value }] of this.wanted) {
      if (value === undefined) keys.delete(key);
      else keys.add(key);
    }
    return [...keys];
  }

  /** Resolves once this value, or a later one of the key, is written; rejects when the store refused it. */
  update(key: string, value: unknown): Promise<void> {
    this.wanted.set(key, { value: value === undefined ? undefined : JSON.parse(JSON.stringify(value)) });
    const done = this.tail.then(() => this.write(key));
    this.tail = done.catch(() => undefined);
    return done;
  }

  setKeysForSync(keys: readonly string[]): void {
    this.store.setKeysForSync?.(keys);
  }

  private async write(key: string): Promise<void> {
    const mine = this.wanted.get(key);
    if (!mine) return; // a write of the key that waited its turn with this one sent the latest value
    try {
      for (let rewrites = 0; ; rewrites++) {
        const before = this.store.get(key);
        await this.store.update(key, mine.value);
        if (this.wanted.get(key) !== mine) return; // a later value of the key waits its turn
        const stored = this.store.get(key);
        if (rewrites === MAX_REWRITES || sameJson(stored, mine.value) || !sameJson(stored, before)) return;
      }
    } finally {
      if (this.wanted.get(key) === mine) this.wanted.delete(key);
    }
  }
}

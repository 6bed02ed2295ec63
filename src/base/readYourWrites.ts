import { sameJson } from './sameJson';

/** What ReadYourWritesState needs of VS Code's globalState (a Memento): read a key, list them, write one. */
export interface StateStore {
  get(key: string): unknown;
  keys(): readonly string[];
  update(key: string, value: unknown): PromiseLike<void>;
  setKeysForSync?(keys: readonly string[]): void;
}

/** How many times a write that an older echo undid is written again before the store's value is taken as it is. */
const MAX_REWRITES = 2;

/** A write on its way: the value written (a JSON copy: what the store keeps of it), and what the key held before. */
interface OnItsWay {
  readonly value: unknown;
  readonly before: unknown;
}

/**
 * globalState with read-your-writes: what this window wrote is what it reads until the write is done. VS Code's
 * extension host takes every echo of the workbench whole (the workbench echoes each change of the value, this
 * window's own included), so without this a write made while an earlier write's echo is on its way reads back the
 * older value until its own echo comes, and a write set just before that echo arrives is sent without it and lost
 * (test/unit/helpers/echoingMemento.ts models both). Watches, pins and the teams remembered are such writes.
 * - While a write is on its way, `get` reads it. What `get` gives is a copy: what a reader changes is not stored.
 * - When it is done (the workbench acknowledged it: every echo sent before is in), the store's value is read again:
 *   it is this write, or another window's later one, which wins; or, when it is back to what the key held before, an
 *   older echo undid this write before it was sent, and it is written again (at most MAX_REWRITES times).
 */
export class ReadYourWritesState {
  private readonly onItsWay = new Map<string, OnItsWay>();

  constructor(private readonly store: StateStore) {}

  get<T>(key: string): T | undefined;
  get<T>(key: string, fallback: T): T;
  get<T>(key: string, fallback?: T): T | undefined {
    const mine = this.onItsWay.get(key);
    const value = copyOf(mine ? mine.value : this.store.get(key));
    return value === undefined ? fallback : (value as T);
  }

  keys(): readonly string[] {
    const keys = new Set(this.store.keys());
    for (const [key, { value }] of this.onItsWay) {
      if (value === undefined) keys.delete(key);
      else keys.add(key);
    }
    return [...keys];
  }

  async update(key: string, value: unknown): Promise<void> {
    const mine: OnItsWay = { value: copyOf(value), before: this.get(key) };
    this.onItsWay.set(key, mine);
    try {
      for (let rewrites = 0; ; rewrites++) {
        await this.store.update(key, mine.value);
        if (this.onItsWay.get(key) !== mine) return; // a later write of the key is the one read now
        const stored = this.store.get(key);
        if (rewrites === MAX_REWRITES || sameJson(stored, mine.value) || !sameJson(stored, mine.before)) return;
      }
    } finally {
      if (this.onItsWay.get(key) === mine) this.onItsWay.delete(key);
    }
  }

  setKeysForSync(keys: readonly string[]): void {
    this.store.setKeysForSync?.(keys);
  }
}

/** A JSON copy (what VS Code keeps of a value); undefined stays undefined. */
function copyOf(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

import type { Clock, TimerHandle } from './clock';
import { STATE_KEYS } from './stateKeys';

/** What ReadYourWritesState needs of VS Code's globalState (a Memento): read a key, list them, write one. */
export interface StateStore {
  get(key: string): unknown;
  keys(): readonly string[];
  update(key: string, value: unknown): PromiseLike<void>;
  setKeysForSync?(keys: readonly string[]): void;
}

export interface ReadYourWritesOptions {
  /** Times the looks at the store (LOOKS_MS, LOOK_EVERY_MS). */
  readonly clock: Clock;
  /** This window's id (src/sharing/windowId.ts): two windows' writes of a key in one millisecond are told apart by it. */
  readonly windowId: string;
}

/**
 * The key under which the values' versions are kept, in the same globalState (so every whole copy VS Code keeps or
 * delivers carries each value with its version): { [key]: [ms, windowId] }. Written here only; not synced (Settings
 * Sync carries only the keys given to setKeysForSync: the pins).
 */
export const VERSIONS_KEY = STATE_KEYS.stateVersions;

/** A write's version: when (ms; later than every version of its key the writing window had seen) and by which window. */
type Version = readonly [at: number, by: string];

/** How many times a send writes again what the store's copy is behind on (a copy without it arrived each time). */
const MAX_ROUNDS = 8;

/**
 * When the store is looked at after a send of this window (ms after the acknowledgement, then after each look, so at
 * 0.15, 0.3, 0.6, 1.2 s): another window's copy written about when this one was arrives 0.1-0.3 s after it was
 * written (docs/architecture.md); then every LOOK_EVERY_MS (a look compares one reference while no copy arrived).
 */
const LOOKS_MS = [150, 150, 300, 600];
const LOOK_EVERY_MS = 2000;

/** The latest version of a key this window knows of, and its value. */
interface Known {
  value: unknown;
  readonly version: Version;
}

/**
 * globalState with read-your-writes, and no write lost to another window's.
 *
 * VS Code keeps an extension's globalState as ONE JSON value (key: the extension's id) in the profile's storage, and
 * every window's extension host holds a whole copy: `update` sets a key in this host's copy and sends the whole copy;
 * each copy that reaches the workbench (this window's own, echoed before the acknowledgement; another window's, 0.1-0.3
 * s after that window wrote it) replaces this host's copy whole, and the profile keeps the last whole copy written. So
 * two windows writing within about 0.1 s (web) or 0.2 s (desktop) lose one of the two writes, for good, and a window's
 * own writes on their way at once undo each other (docs/architecture.md, "globalState across windows";
 * test/unit/helpers/echoingMemento.ts models both; test/rig/globalStateRace.mjs measures them in the real workbench).
 *
 * The fix, a per-key merge on read (a last-writer-wins map): each write gets a version (time and window id, later than
 * every version of its key seen), kept with the values under VERSIONS_KEY and sent in the same copy. This window
 * remembers the latest version of each key it has written or seen, with its value; when the store's copy holds an
 * older version of a key, or none (another window's copy written before this one reached it, or a stale echo), the
 * key is written again from memory over that copy, which keeps the copy's other keys (and read from memory until
 * then). A later version wins, whichever window wrote it; a value changed without its version (Settings Sync, a window
 * of an older version of the extension) wins too. Every window does so, so all end with every key's latest version.
 * The store is looked at on each read, before each send, after each send (LOOKS_MS) and every LOOK_EVERY_MS.
 * This window's sends go one at a time, each once the one before is acknowledged; the writes made meanwhile go in one.
 */
export class ReadYourWritesState {
  private readonly known = new Map<string, Known>();
  /** The store's versions object last looked at (VS Code replaces it with each copy it takes), and what it holds. */
  private raw: unknown = null;
  private versions = new Map<string, Version>();
  /** The next send (every write made before it starts goes in it), and the one before. */
  private next: Promise<void> | undefined;
  private tail: Promise<void> = Promise.resolve();
  private look: TimerHandle | undefined;
  private disposed = false;

  constructor(
    private readonly store: StateStore,
    private readonly options: ReadYourWritesOptions,
  ) {
    this.lookAt(LOOKS_MS.length);
  }

  get<T>(key: string): T | undefined;
  get<T>(key: string, fallback: T): T;
  get<T>(key: string, fallback?: T): T | undefined {
    const known = this.reconcile().get(key);
    const value = known && this.behind(key, known) ? known.value : this.store.get(key);
    return value === undefined ? fallback : (value as T);
  }

  keys(): readonly string[] {
    const keys = new Set([...this.store.keys(), ...this.reconcile().keys()]);
    return [...keys].filter((key) => key !== VERSIONS_KEY && this.get(key) !== undefined);
  }

  /** Resolves once this value, or a later one of the key, is written; rejects when the store refused it. */
  update(key: string, value: unknown): Promise<void> {
    const seen = this.reconcile().get(key)?.version[0] ?? 0;
    this.known.set(key, {
      value: value === undefined ? undefined : JSON.parse(JSON.stringify(value)),
      version: [Math.max(Math.floor(this.options.clock.now()), seen + 1), this.options.windowId],
    });
    return this.send();
  }

  setKeysForSync(keys: readonly string[]): void {
    this.store.setKeysForSync?.(keys);
  }

  /** Stops looking at the store (sends on their way still go). */
  dispose(): void {
    this.disposed = true;
    if (this.look !== undefined) this.options.clock.clearTimeout(this.look);
  }

  /** The next send: after the one on its way, and once this turn is over (the writes of this turn go with it). */
  private send(): Promise<void> {
    if (this.next) return this.next;
    const next = this.tail.then(() => {
      this.next = undefined;
      return this.write();
    });
    this.tail = next.catch(() => undefined);
    return (this.next = next);
  }

  /** Writes what the store's copy is behind on, in one copy with the versions, until it holds it (MAX_ROUNDS). */
  private async write(): Promise<void> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const behind = [...this.reconcile()].filter(([key, known]) => this.behind(key, known));
      if (behind.length === 0) return;
      const versions = Object.fromEntries(this.versions);
      for (const [key, known] of behind) versions[key] = known.version;
      try {
        await Promise.all([
          ...behind.map(([key, known]) => this.store.update(key, known.value)),
          this.store.update(VERSIONS_KEY, versions),
        ]);
      } catch (error) {
        for (const [key, known] of behind) if (this.known.get(key) === known) this.known.delete(key); // the store is read
        throw error;
      }
      this.lookAt(0);
    }
  }

  /**
   * Takes in the store's copy, when it is a new one: a later version of a key is learnt; the value of a version it
   * holds is its (a value changed without its version wins); when it is behind on a key, a send is due.
   */
  private reconcile(): Map<string, Known> {
    const raw = this.store.get(VERSIONS_KEY);
    if (raw === this.raw) return this.known;
    this.raw = raw;
    this.versions = new Map();
    for (const [key, v] of Object.entries(Object(raw))) {
      if (Array.isArray(v) && typeof v[0] === 'number' && typeof v[1] === 'string') {
        this.versions.set(key, [v[0], v[1]]);
      }
    }
    for (const [key, version] of this.versions) {
      const known = this.known.get(key);
      const order = compare(version, known?.version);
      if (order > 0) this.known.set(key, { value: this.store.get(key), version });
      else if (order === 0) known!.value = this.store.get(key);
    }
    for (const [key, known] of this.known) if (this.behind(key, known)) void this.send();
    return this.known;
  }

  /** Looks at the store LOOKS_MS[step] from now, or, past them, LOOK_EVERY_MS. */
  private lookAt(step: number): void {
    if (this.disposed) return;
    if (this.look !== undefined) this.options.clock.clearTimeout(this.look);
    this.look = this.options.clock.setTimeout(() => {
      this.reconcile();
      this.lookAt(step + 1);
    }, LOOKS_MS[step] ?? LOOK_EVERY_MS);
  }

  /** Whether the store's copy holds an older version of the key than `known`, or none. */
  private behind(key: string, known: Known): boolean {
    return compare(known.version, this.versions.get(key)) > 0;
  }
}

/** Orders two versions (none is before any): by time, then by window id. */
function compare(a: Version | undefined, b: Version | undefined): number {
  if (!a || !b) return (a ? 1 : 0) - (b ? 1 : 0);
  return a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);
}

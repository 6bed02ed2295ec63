import type { TimerHandle } from '../../../src/base/clock';
import type { FakeClock } from './fakeClock';

/**
 * A model of VS Code's globalState in the extension host (ExtensionMemento, extHostMemento.ts; checked against the
 * rig's code-server 4.139.1), in which nothing moves until a test says so:
 * - `update` sets the key in the host's copy at once and plans a send of the whole copy for the next turn (`turn()`:
 *   VS Code's RunOnceScheduler of 0 ms); updates before that send share it, and their promises resolve when the
 *   workbench acknowledges it;
 * - the workbench takes sends in order; a send that changes its copy is echoed back (MainThreadStorage's
 *   `$acceptValue`, this window's own writes included: the storage fires no change for an unchanged value), then
 *   acknowledged; the host takes its messages one at a time, in order, and takes an echoed value whole, over whatever
 *   it set since.
 * So a write made while the echo of an earlier one is on its way reads back the older value until its own echo comes,
 * and a write set between that echo and its send is sent without it and lost.
 */
export class EchoingMemento {
  /** The host's copy (what `get` reads). */
  private local: Record<string, unknown> = {};
  /** The workbench's copy (the one every window shares). */
  private main: Record<string, unknown> = {};
  /** Sends not yet taken by the workbench, and messages of the workbench not yet taken by the host, in order. */
  private readonly toMain: { value: Record<string, unknown>; done: (() => void)[] }[] = [];
  private readonly toHost: ({ kind: 'echo'; value: Record<string, unknown> } | { kind: 'ack'; done: () => void })[] =
    [];
  /** The updates waiting for the next send (planned when there are any). */
  private waiting: (() => void)[] = [];
  /** Keys handed to setKeysForSync. */
  synced: readonly string[] = [];

  get<T>(key: string, fallback?: T): T | undefined {
    const value = this.local[key];
    return value === undefined ? fallback : (value as T);
  }

  keys(): readonly string[] {
    return Object.keys(this.local).filter((k) => this.local[k] !== undefined);
  }

  update(key: string, value: unknown): Promise<void> {
    this.local[key] = value !== null && typeof value === 'object' ? JSON.parse(JSON.stringify(value)) : value;
    return new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  setKeysForSync(keys: readonly string[]): void {
    this.synced = keys;
  }

  /** The next turn of the host: the planned send goes (the host's whole copy, as it is now). */
  turn(): void {
    if (this.waiting.length === 0) return;
    this.toMain.push({ value: copy(this.local), done: this.waiting });
    this.waiting = [];
  }

  /** The workbench takes the oldest send: its copy changes, and it echoes the change (if any) and acknowledges. */
  workbenchTakes(): void {
    const sent = this.toMain.shift();
    if (!sent) return;
    if (JSON.stringify(sent.value) !== JSON.stringify(this.main)) {
      this.main = copy(sent.value);
      this.toHost.push({ kind: 'echo', value: copy(this.main) });
    }
    for (const done of sent.done) this.toHost.push({ kind: 'ack', done });
  }

  /** Another window changes a key: the workbench's copy changes and the change is echoed to this host. */
  otherWindowWrites(key: string, value: unknown): void {
    this.main = { ...this.main, [key]: value };
    this.toHost.push({ kind: 'echo', value: copy(this.main) });
  }

  /** The host takes the next message of the workbench, if any; then lets promises settle. */
  async hostTakes(): Promise<void> {
    const message = this.toHost.shift();
    if (message?.kind === 'echo') this.local = copy(message.value);
    else message?.done();
    await settle();
  }

  /** What can happen next: a turn (a send is planned), the workbench's take, the host's take. */
  get possible(): ('turn' | 'workbench' | 'host')[] {
    return [
      ...(this.waiting.length ? (['turn'] as const) : []),
      ...(this.toMain.length ? (['workbench'] as const) : []),
      ...(this.toHost.length ? (['host'] as const) : []),
    ];
  }

  /** Does one of the things that can happen next, then lets promises settle. */
  async step(what: 'turn' | 'workbench' | 'host'): Promise<void> {
    if (what === 'turn') this.turn();
    if (what === 'workbench') this.workbenchTakes();
    if (what === 'host') return this.hostTakes();
    await settle();
  }

  /** Everything on its way delivered, in order, one message at a time, until nothing is left. */
  async quiet(): Promise<void> {
    for (let steps = 0; steps < 1000; steps++) {
      await settle();
      const [next] = this.possible;
      if (next === undefined) return;
      await this.step(next);
    }
    throw new Error('the model did not settle');
  }

  /** What the workbench holds for a key (what every window will read). */
  shared(key: string): unknown {
    return this.main[key];
  }
}

function copy(value: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value));
}

/** Lets queued microtasks and promise callbacks run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

/**
 * How VS Code keeps one profile's globalState across windows (read in its code: docs/architecture.md, "globalState
 * across windows"), on the clock of a test:
 * - each window's extension host keeps a whole copy and sends it whole (the model of EchoingMemento above, timed:
 *   the send in the next turn, `rpcMs` each way between host and workbench); the workbench's Storage echoes a copy
 *   that changes its cache, then acknowledges;
 * - the workbench flushes its last copy 100 ms after the last change (Storage.DEFAULT_FLUSH_DELAY), and then
 *   - 'web' (code-server, vscode.dev: IndexedDB): the profile keeps that copy, and a BroadcastChannel carries it to the
 *     other windows (`crossMs`), which take it as an external change (acceptExternal: a copy that changes the cache is
 *     delivered to the host);
 *   - 'desktop' (state.vscdb in the main process): the copy goes to the main process (`rpcMs`), which keeps it and,
 *     100 ms after its last change (StorageDatabaseChannel's debounce), sends what it then holds to every window,
 *     the writer's included (`rpcMs`).
 * So the profile keeps the last whole copy written, and a window takes each copy of another whole.
 */
export class SharedProfile {
  /** The profile's copy (IndexedDB, or the main process's), as JSON: what a window opened now starts from. */
  stored: string | undefined;
  private readonly windows: ProfileWindow[] = [];
  private mainTimer: TimerHandle | undefined;
  private readonly lastAt = new Map<string, number>();
  private seed: number;

  /** `jitterMs`: each message takes up to that much longer, by a sequence of chance that `seed` starts. */
  constructor(
    readonly clock: FakeClock,
    readonly flavor: 'web' | 'desktop',
    readonly delays: { rpcMs: number; crossMs: number; jitterMs?: number; seed?: number } = { rpcMs: 2, crossMs: 20 },
  ) {
    this.seed = delays.seed ?? 1;
  }

  /** A new window on the profile: its host and workbench start from the profile's copy. */
  openWindow(): ProfileWindow {
    const w = new ProfileWindow(this, `w${this.windows.length}`);
    this.windows.push(w);
    return w;
  }

  /** What the profile keeps of a key. */
  kept(key: string): unknown {
    return this.stored === undefined ? undefined : JSON.parse(this.stored)[key];
  }

  /** Runs `deliver` `ms` from now, after everything sent earlier on `channel` (each channel is in order). */
  send(channel: string, ms: number, deliver: () => void): void {
    const at = Math.max(
      this.clock.now() + ms + Math.floor(this.chance() * (this.delays.jitterMs ?? 0)),
      this.lastAt.get(channel) ?? 0,
    );
    this.lastAt.set(channel, at);
    this.clock.setTimeout(deliver, at - this.clock.now());
  }

  /** A number in [0, 1) (mulberry32). */
  private chance(): number {
    let t = (this.seed = (this.seed + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** A workbench flushed `copy` (its last one). */
  flushed(from: ProfileWindow, copy: string): void {
    const { rpcMs, crossMs } = this.delays;
    if (this.flavor === 'web') {
      this.stored = copy;
      for (const w of this.windows.filter((w) => w !== from)) {
        this.send(`${from.name}>${w.name}`, crossMs, () => w.external(copy));
      }
      return;
    }
    this.send(`${from.name}>main`, rpcMs, () => {
      if (copy === this.stored) return;
      this.stored = copy;
      if (this.mainTimer !== undefined) this.clock.clearTimeout(this.mainTimer);
      this.mainTimer = this.clock.setTimeout(() => {
        this.mainTimer = undefined;
        const now = this.stored!;
        for (const w of this.windows) this.send(`main>${w.name}`, rpcMs, () => w.external(now));
      }, 100);
    });
  }
}

/** One window of a SharedProfile: its extension host's globalState (a StateStore) over its workbench's storage. */
export class ProfileWindow {
  private local: Record<string, unknown>;
  private waiting: (() => void)[] = [];
  private sendPlanned = false;
  /** The workbench's cache (JSON) and the copy it has yet to flush. */
  private cache: string | undefined;
  private pending: string | undefined;
  private flushTimer: TimerHandle | undefined;
  /** How many copies this host has sent. */
  sends = 0;

  constructor(
    private readonly profile: SharedProfile,
    readonly name: string,
  ) {
    this.cache = profile.stored;
    this.local = profile.stored === undefined ? {} : JSON.parse(profile.stored);
  }

  get(key: string): unknown {
    return this.local[key];
  }

  keys(): readonly string[] {
    return Object.keys(this.local).filter((k) => this.local[k] !== undefined);
  }

  update(key: string, value: unknown): Promise<void> {
    this.local[key] = value !== null && typeof value === 'object' ? JSON.parse(JSON.stringify(value)) : value;
    if (!this.sendPlanned) {
      this.sendPlanned = true;
      this.profile.clock.setTimeout(() => this.sendCopy(), 0);
    }
    return new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** The host's planned send: its whole copy, as it is now. */
  private sendCopy(): void {
    this.sendPlanned = false;
    this.sends++;
    const copy = JSON.stringify(this.local);
    const done = this.waiting;
    this.waiting = [];
    this.profile.send(`${this.name}:host>wb`, this.profile.delays.rpcMs, () => {
      if (copy !== this.cache) {
        this.cache = copy;
        this.pending = copy;
        if (this.flushTimer !== undefined) this.profile.clock.clearTimeout(this.flushTimer);
        this.flushTimer = this.profile.clock.setTimeout(() => this.flush(), 100);
        this.toHost(() => (this.local = JSON.parse(copy))); // the echo
      }
      this.toHost(() => done.forEach((resolve) => resolve())); // then the acknowledgement
    });
  }

  private flush(): void {
    this.flushTimer = undefined;
    const copy = this.pending;
    this.pending = undefined;
    if (copy !== undefined) this.profile.flushed(this, copy);
  }

  /** Another window's copy (or, on the desktop, the main process's) reaches this workbench. */
  external(copy: string): void {
    if (copy === this.cache) return;
    this.cache = copy;
    this.toHost(() => (this.local = JSON.parse(copy)));
  }

  private toHost(deliver: () => void): void {
    this.profile.send(`${this.name}:wb>host`, this.profile.delays.rpcMs, deliver);
  }
}

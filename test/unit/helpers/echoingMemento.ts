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

/**
 * A model of VS Code's globalState in the extension host (ExtensionMemento, extHostMemento.ts; checked against the
 * rig's code-server 4.139.1), with every message between the extension host and the workbench held until a test
 * delivers it:
 * - `update` sets the key in the host's copy at once and sends the whole copy on the next turn (one send per turn);
 *   its promise resolves when the workbench acknowledges that send;
 * - the workbench echoes every change of the value back (MainThreadStorage: `$acceptValue`, its own writes included),
 *   and the host then takes the echoed value whole, over whatever it set since.
 * So a write made while the echo of an earlier one is on its way reads back the older value until its own echo comes,
 * and a write set in the moment between that echo and the next send is lost: the send carries the older value.
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
  /** The updates waiting for the next send, and whether it is planned. */
  private waiting: (() => void)[] = [];
  private planned = false;
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
    this.local[key] = value === undefined ? undefined : JSON.parse(JSON.stringify(value));
    return new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      if (!this.planned) {
        this.planned = true;
        queueMicrotask(() => this.send()); // VS Code: a RunOnceScheduler of 0 ms (the next turn)
      }
    });
  }

  setKeysForSync(keys: readonly string[]): void {
    this.synced = keys;
  }

  /** The workbench takes every send it was given: its copy changes, and it echoes each change and acknowledges. */
  workbenchTakes(): void {
    for (const sent of this.toMain.splice(0)) {
      this.main = copy(sent.value);
      this.toHost.push({ kind: 'echo', value: copy(this.main) });
      for (const done of sent.done) this.toHost.push({ kind: 'ack', done });
    }
  }

  /** Another window changes a key: the workbench's copy changes and the change is echoed to this host. */
  otherWindowWrites(key: string, value: unknown): void {
    this.main = { ...this.main, [key]: value };
    this.toHost.push({ kind: 'echo', value: copy(this.main) });
  }

  /** The host takes the next `count` messages of the workbench (all of them when not given); lets promises settle. */
  async hostTakes(count = Infinity): Promise<void> {
    for (const message of this.toHost.splice(0, count)) {
      if (message.kind === 'echo') this.local = copy(message.value);
      else message.done();
    }
    await settle();
  }

  /** Everything on its way delivered, until nothing is left (sends, echoes, acknowledgements). */
  async quiet(): Promise<void> {
    for (let round = 0; round < 20; round++) {
      await settle();
      if (this.toMain.length === 0 && this.toHost.length === 0) return;
      this.workbenchTakes();
      await this.hostTakes();
    }
    throw new Error('the model did not settle');
  }

  /** What the workbench holds for a key (what every window will read). */
  shared(key: string): unknown {
    return this.main[key];
  }

  private send(): void {
    this.planned = false;
    this.toMain.push({ value: copy(this.local), done: this.waiting });
    this.waiting = [];
  }
}

function copy(value: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value));
}

/** Lets queued microtasks and promise callbacks run (the sends planned on the next turn among them). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

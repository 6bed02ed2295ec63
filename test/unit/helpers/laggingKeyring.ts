import type * as vscode from 'vscode';
import type { FakeClock } from './fakeClock';

/**
 * The SecretStorage of one installation as VS Code keeps it: one store, and a view per window that reads its own
 * writes at once while they reach the store (and with it every other window) `lagMs` later, in the order they land;
 * the write that lands last wins. VS Code's windows each keep a copy and send writes on, so a write a window checked
 * right before it can land after one another window made meanwhile.
 */
export class LaggingKeyring {
  readonly values = new Map<string, string>();

  constructor(private readonly clock: FakeClock) {}

  /** A window's SecretStorage, whose writes land `lagMs` after they are made. */
  window(lagMs = 0): vscode.SecretStorage {
    const own = new Map<string, { value: string | undefined; n: number }>();
    let n = 0;
    const write = (id: string, value: string | undefined) => {
      const mine = ++n;
      own.set(id, { value, n: mine });
      this.clock.setTimeout(() => {
        if (value === undefined) this.values.delete(id);
        else this.values.set(id, value);
        if (own.get(id)?.n === mine) own.delete(id);
      }, lagMs);
    };
    const secrets = {
      get: async (id: string) => (own.has(id) ? own.get(id)!.value : this.values.get(id)),
      store: async (id: string, value: string) => write(id, value),
      delete: async (id: string) => write(id, undefined),
      keys: async () => [...this.values.keys()],
      onDidChange: () => ({ dispose: () => undefined }),
    };
    return secrets as unknown as vscode.SecretStorage;
  }
}

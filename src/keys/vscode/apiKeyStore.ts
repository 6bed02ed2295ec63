import * as vscode from 'vscode';
import { clampDelay } from '../../base/clock';
import { inert } from '../../base/inert';
import { t } from '../../base/l10n';
import { MOVED_SLOT, OWN_SLOT, readSlot, type SecretStore } from '../keySlots';

/** How long a secret store call may take before we say the keyring is unavailable. */
const SECRET_TIMEOUT_MS = 10_000;

/** What the legacy move (src/keys/legacyKeys.ts) decides about the keys an earlier version kept for an origin. */
export interface KeyGuard {
  /** Whether `slot`'s key may be read now (false while the person has not said whose an earlier version's key is). */
  mayRead(slot: string): Promise<boolean>;
  /** A person set the key of `slot`: it is that service's own. */
  wrote(slot: string): void;
}

/**
 * The API key, kept only in SecretStorage and bound to the exact base URL it was entered for (its slot: scheme://host:port
 * and path prefix). A key for one base URL is never looked up for another, so changing the service URL never sends an
 * old key elsewhere, not even to another path on the same host. (Earlier versions kept the one service's key for
 * its origin: moved at the upgrade, see src/keys/legacyKeys.ts; a moved key sits below the service's own slot, see
 * src/keys/keySlots.ts.)
 */
export class ApiKeyStore {
  /** SecretStorage, each call bounded by the timeout. */
  readonly bounded: SecretStore;
  private guard: KeyGuard | undefined;
  /** Keys set before the guard came (the services' code not loaded yet): told to it then. */
  private readonly written: string[] = [];
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly secrets: vscode.SecretStorage,
    /** How long a call may take (tests inject a short one, so the hang test takes milliseconds). */
    readonly timeoutMs = SECRET_TIMEOUT_MS,
  ) {
    // Reads the fields at each call, as the calls did before the slots moved here (the integration suite swaps in a
    // hanging or failing SecretStorage and a short timeout on the running store).
    this.bounded = {
      get: (id) => withTimeout(this.secrets.get(id), this.timeoutMs),
      store: (id, value) => withTimeout(Promise.resolve(this.secrets.store(id, value)), this.timeoutMs),
      delete: (id) => withTimeout(Promise.resolve(this.secrets.delete(id)), this.timeoutMs),
    };
  }

  /** The key of the service at `slot`; undefined while the legacy move holds it back (see KeyGuard). */
  async get(slot: string): Promise<string | undefined> {
    return !this.guard || (await this.guard.mayRead(slot)) ? readSlot(this.bounded, slot) : undefined;
  }

  /** A key a person set (Set API Key): its own slot; a moved key below it goes (it is read only without one). */
  async set(slot: string, key: string): Promise<void> {
    await this.bounded.store(OWN_SLOT + slot, key);
    await Promise.resolve(this.bounded.delete(MOVED_SLOT + slot)).catch(() => undefined);
    if (this.guard) this.guard.wrote(slot);
    else this.written.push(slot);
  }

  /** Remove API Key, Remove Service: both slots. */
  async delete(slot: string): Promise<void> {
    await this.bounded.delete(OWN_SLOT + slot);
    await this.bounded.delete(MOVED_SLOT + slot);
  }

  /** Installed by the legacy move, before any service reads its key (src/services/vscode/legacyKey.ts). */
  guardReads(guard: KeyGuard): void {
    this.guard = guard;
    for (const slot of this.written.splice(0)) guard.wrote(slot);
  }

  /** Tells the listeners to read again (a decision that let a key through without a keyring write). */
  changed(): void {
    for (const listener of this.listeners) listener();
  }

  /** Fires for changes to any service's key, also those made in another window. */
  onDidChange(listener: () => void): vscode.Disposable {
    this.listeners.add(listener);
    const fromStorage = this.secrets.onDidChange((e) => {
      if (e.key.startsWith(OWN_SLOT) || e.key.startsWith(MOVED_SLOT)) listener();
    });
    return { dispose: () => void (this.listeners.delete(listener), fromStorage.dispose()) };
  }
}

/** Message for a secret store that failed or hung; never includes the key. */
export function secretStoreProblem(e: unknown): string {
  const reason =
    e instanceof SecretTimeout
      ? t('it did not answer within {0} s', e.timeoutMs / 1000)
      : inert(String((e as Error)?.message ?? e));
  return t(
    'The API key could not be read from the system keyring ({0}). On Linux, install and unlock a keyring such as GNOME Keyring or KWallet.',
    reason,
  );
}

class SecretTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
  }
}

function withTimeout<T>(promise: Thenable<T>, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new SecretTimeout(timeoutMs)), clampDelay(timeoutMs));
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

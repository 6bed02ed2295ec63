import * as vscode from 'vscode';
import { clampDelay } from '../../base/clock';
import { inert } from '../../base/inert';
import { t } from '../../base/l10n';

/** How long a secret store call may take before we say the keyring is unavailable. */
const SECRET_TIMEOUT_MS = 10_000;

/**
 * The API key, kept only in SecretStorage and bound to the exact base URL it was entered for (its slot: scheme://host:port
 * and path prefix). A key for one base URL is never looked up for another, so changing the service URL never sends an
 * old key elsewhere, not even to another path on the same host. (Earlier versions kept the one service's key for
 * its origin: moved at the upgrade, see src/keys/legacyKeys.ts.)
 */
export class ApiKeyStore {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    /** How long a call may take (tests inject a short one, so the hang test takes milliseconds). */
    readonly timeoutMs = SECRET_TIMEOUT_MS,
  ) {}

  static secretId(slot: string): string {
    return `flowsync.apiKey:${slot}`;
  }

  get(slot: string): Promise<string | undefined> {
    return withTimeout(this.secrets.get(ApiKeyStore.secretId(slot)), this.timeoutMs);
  }

  set(slot: string, key: string): Promise<void> {
    return withTimeout(Promise.resolve(this.secrets.store(ApiKeyStore.secretId(slot), key)), this.timeoutMs);
  }

  delete(slot: string): Promise<void> {
    return withTimeout(Promise.resolve(this.secrets.delete(ApiKeyStore.secretId(slot))), this.timeoutMs);
  }

  /** Fires for changes to any service's key, also those made in another window. */
  onDidChange(listener: () => void): vscode.Disposable {
    return this.secrets.onDidChange((e) => {
      if (e.key.startsWith('flowsync.apiKey:')) listener();
    });
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

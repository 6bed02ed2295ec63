import * as vscode from 'vscode';
import { clampDelay } from '../../base/clock';
import { inert } from '../../base/inert';
import { t } from '../../base/l10n';

/** How long a secret store call may take before we say the keyring is unavailable. */
export const SECRET_TIMEOUT_MS = 10_000;

/**
 * The API key, kept only in SecretStorage and bound to the origin (scheme://host:port) it was entered for. A key for
 * one origin is never looked up for another, so changing the service URL never sends an old key to a new host.
 */
export class ApiKeyStore {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    /** How long a call may take (tests inject a short one, so the hang test takes milliseconds). */
    readonly timeoutMs = SECRET_TIMEOUT_MS,
  ) {}

  static secretId(origin: string): string {
    return `flowsync.apiKey:${origin}`;
  }

  get(origin: string): Promise<string | undefined> {
    return withTimeout(this.secrets.get(ApiKeyStore.secretId(origin)), this.timeoutMs);
  }

  set(origin: string, key: string): Promise<void> {
    return withTimeout(Promise.resolve(this.secrets.store(ApiKeyStore.secretId(origin), key)), this.timeoutMs);
  }

  delete(origin: string): Promise<void> {
    return withTimeout(Promise.resolve(this.secrets.delete(ApiKeyStore.secretId(origin))), this.timeoutMs);
  }

  /** Fires for changes to any origin's key, also those made in another window. */
  onDidChange(listener: () => void): vscode.Disposable {
    return this.secrets.onDidChange((e) => {
      if (e.key.startsWith('flowsync.apiKey:')) listener();
    });
  }
}

/** Message for a secret store that failed or hung; never includes the key. */
export function secretStoreProblem(e: unknown): string {
  const reason = e instanceof SecretTimeout ? t('it did not answer within {0} s', e.timeoutMs / 1000) : inert(String((e as Error)?.message ?? e));
  return t('The API key could not be read from the system keyring ({0}). On Linux, install and unlock a keyring such as GNOME Keyring or KWallet.', reason);
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

import type * as vscode from 'vscode';
import type { ErrorsDeps } from './errorNotifications';
import { onFirstUse } from '../../base/onFirstUse';
import type { ServiceRegistry } from '../../services/vscode/serviceRegistry';

/** Tells the person about failures: once per kind of trouble, with the action that fixes it. */
export interface FailureNotifications extends vscode.Disposable {
  /** Kinds announced so far, in order (for tests and diagnostics). */
  readonly shown: readonly string[];
  /** The texts shown, in the same order (inert: service text in them is never a link, icon or markup). */
  readonly texts: readonly string[];
}

/**
 * Tells each service's failures, once per kind of trouble and service, and (with `errors`) that its processing syncs
 * report errors and what its History tells (failureWatch.ts). Its code is made with the services' code (their chunk, esbuild.js CHUNKS), before
 * the services: there is no answer to tell of before them.
 */
export function watchFailures(
  services: ServiceRegistry,
  errors?: ErrorsDeps,
  loadFailed?: (error: unknown) => void,
): FailureNotifications {
  const shown: string[] = [];
  const texts: string[] = [];
  const say = (kind: string, text: string) => {
    shown.push(kind);
    texts.push(text);
  };
  const watching = services.withServices(
    onFirstUse(async () => (await import('./failureWatch')).watchEachService(services, say, errors), {
      dispose: (made) => made.dispose(),
      onError: loadFailed,
    }),
  );
  return { shown, texts, dispose: () => watching.dispose() };
}

import type * as vscode from 'vscode';
import type { ErrorsDeps } from './errorNotifications';
import { watchEachService, type FailuresTold } from './failureWatch';
import { onFirstUse } from '../../base/onFirstUse';
import type { ServiceRegistry } from '../../services/vscode/serviceRegistry';

/**
 * Tells each service's failures, once per kind of trouble and service, and (with `errors`) that its processing syncs
 * report errors and what its History tells (failureWatch.ts). It is made with the services' code (the registry's
 * withServices), before the services: there is no answer to tell of before them. `told`: told each notification's kind of trouble and text as
 * it is shown (the test API's, in ExtensionMode.Test; the text is inert: service text in it is never a link, icon or
 * markup).
 */
export function watchFailures(
  services: ServiceRegistry,
  errors?: ErrorsDeps,
  loadFailed?: (error: unknown) => void,
  told?: PromiseLike<FailuresTold>,
): vscode.Disposable {
  const watching = services.withServices(
    onFirstUse(async () => watchEachService(services, await told, errors), {
      dispose: (made) => made.dispose(),
      onError: loadFailed,
    }),
  );
  return { dispose: () => watching.dispose() };
}

import type { Clock } from '../../base/clock';
import { onFirstUse, type OnFirstUse } from '../../base/onFirstUse';
import type { ServiceRegistry } from '../../services/vscode/serviceRegistry';
import { ProcessingStatusBar, type StatusBarItems } from './statusBar';

/**
 * The status bar, made with the services' code (the registry's withServices) before the services: it has no item
 * before their first configuration anyway (statusBar.ts), so nothing of it is needed at start. `items`: where its item
 * is made (in ExtensionMode.Test the test API's, which keeps it; else VS Code's window).
 */
export function statusBarWithServices(
  services: ServiceRegistry,
  clock: Clock,
  onError: (error: unknown) => void,
  items?: PromiseLike<StatusBarItems>,
): OnFirstUse<ProcessingStatusBar> {
  return services.withServices(
    onFirstUse(async () => new ProcessingStatusBar(services, clock, await items), {
      dispose: (bar) => bar.dispose(),
      onError,
    }),
  );
}

import type { Disposable } from '../../base/events';
import type { ServiceConnection } from './serviceConnection';
import type { ServiceRegistry } from './serviceRegistry';

/**
 * Runs `setup` for every service, now and whenever one is added; what it returns is disposed when that service is
 * removed (or all of it, on dispose). For wiring that is per service: its notifications, its History's effects on
 * the views.
 */
export function eachService(services: ServiceRegistry, setup: (service: ServiceConnection) => Disposable): Disposable {
  const wired = new Map<ServiceConnection, Disposable>();
  const sync = () => {
    for (const [service, wiring] of wired) {
      if (services.all.includes(service)) continue;
      wiring.dispose();
      wired.delete(service);
    }
    for (const service of services.all) if (!wired.has(service)) wired.set(service, setup(service));
  };
  const subscription = services.onDidChange(sync);
  sync();
  return {
    dispose: () => {
      subscription.dispose();
      for (const wiring of wired.values()) wiring.dispose();
      wired.clear();
    },
  };
}

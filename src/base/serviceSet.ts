import type { Disposable, Event } from './events';
import { inert } from './inert';

/** The longest name of a service (flowsync.services refuses longer ones; a name is shown at most this long). */
export const MAX_SERVICE_NAME = 60;

/**
 * The services a window shows, in the order of the settings, as every feature reads them: the views, the status bar,
 * the documents, the notifications, the commands, links and tools. The service registry is one; each feature names the
 * part of a service it reads as `S` (a `ServiceSet<S>`), so it is handed the registry itself and nothing is mapped.
 */
export interface ServiceSet<S> {
  /** Every service, in the order of the settings (none before the services are made). */
  readonly all: readonly S[];
  /** True with two or more services: rows, titles and messages then name their service. */
  readonly several: boolean;
  byId(id: string): S | undefined;
  /** The service of a name, as the settings tell names apart; undefined when none has it. */
  byName(name: string): S | undefined;
  /** Fires when a service is added or removed, or the order changes (not when a service's data changes). */
  readonly onDidChange: Event<void>;
}

/**
 * The one way a service is named where the person reads it (a row, a title, a message, a log line): with several
 * services, its name made inert (service text from the settings is data) and at most MAX_SERVICE_NAME long; undefined
 * with one service (nothing to tell apart) or for the service of flowsync.baseUrl (it has no name).
 */
export function serviceName(services: Pick<ServiceSet<unknown>, 'several'>, service: { readonly name?: string }) {
  return services.several && service.name !== undefined ? inert(service.name, MAX_SERVICE_NAME) : undefined;
}

/**
 * The one way to follow the set of services: `setup` runs for every service, now and whenever one is added; what it
 * returns (its subscriptions) is disposed when that service is removed, and all of it on dispose. `changed`, when
 * given, runs after each change of the set, once the services gone are let go and the new ones set up (not now: the
 * caller does at once what it does on a change). A service is one object for its life (the registry keeps it until
 * it leaves the settings), so it is known by identity.
 */
export function eachService<S>(
  services: Pick<ServiceSet<S>, 'all' | 'onDidChange'>,
  setup: (service: S) => Disposable,
  changed?: () => void,
): Disposable {
  const followed = new Map<S, Disposable>();
  const sync = () => {
    const now = new Set(services.all);
    for (const [service, subscriptions] of followed) {
      if (now.has(service)) continue;
      followed.delete(service);
      subscriptions.dispose();
    }
    for (const service of now) if (!followed.has(service)) followed.set(service, setup(service));
  };
  const subscription = services.onDidChange(() => {
    sync();
    changed?.();
  });
  sync();
  return {
    dispose: () => {
      subscription.dispose();
      for (const subscriptions of followed.values()) subscriptions.dispose();
      followed.clear();
    },
  };
}

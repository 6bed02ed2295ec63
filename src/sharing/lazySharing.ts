import type { Disposable } from '../base/events';
import type { ListSharing } from '../lists/explorer';

/** What a lazily made coordinator is: the Explorer's sharing, disposable. */
export type Coordinator = ListSharing & Disposable;

export interface LazySharing<C extends Coordinator> {
  /** Give this to the Explorer's constructor. */
  readonly sharing: ListSharing;
  /** The coordinator, made now if it was not yet (the test API asks for it); rejects once disposed. */
  current(): Promise<C>;
  /** The coordinator if it is made, else undefined. */
  loaded(): C | undefined;
  dispose(): void;
  readonly disposed: boolean;
}

/**
 * Sharing that starts on first use: the coordinator (its timer, its files) is made when the Explorer first asks
 * whether it may poll or loads a polled list. A window that never polls (no key set yet) never makes it.
 *
 * Until it is made, the answers are those of a coordinator just made: it may poll (nothing is known of another
 * window's lease yet), and a load waits for the coordinator, which may answer it from another window's snapshot. If
 * making it fails, `onError` is told once and the window goes on as without sharing: it polls and loads on its own.
 * Once disposed, it answers as no sharing does.
 */
export function lazySharing<C extends Coordinator>(
  create: () => C | Promise<C>,
  onError: (error: unknown) => void = () => undefined,
): LazySharing<C> {
  let coordinator: C | undefined;
  let making: Promise<C | undefined> | undefined;
  let disposed = false;
  const make = (): Promise<C | undefined> =>
    (making ??= Promise.resolve()
      .then(create)
      .then(
        (made) => {
          if (disposed) {
            made.dispose();
            return undefined;
          }
          return (coordinator = made);
        },
        (error: unknown) => {
          onError(error);
          return undefined;
        },
      ));
  return {
    sharing: {
      mayPoll: (id) => {
        if (disposed) return true;
        if (coordinator) return coordinator.mayPoll(id);
        void make();
        return true;
      },
      load: async (list, explicit, request) => {
        const made = disposed ? undefined : (coordinator ?? (await make()));
        return made && !disposed ? made.load(list, explicit, request) : request();
      },
    },
    current: async () => {
      if (disposed) throw new Error('sharing was disposed');
      const made = coordinator ?? (await make());
      if (!made) throw new Error(disposed ? 'sharing was disposed' : 'sharing could not be started');
      return made;
    },
    loaded: () => coordinator,
    dispose: () => {
      disposed = true;
      coordinator?.dispose();
    },
    get disposed() {
      return disposed;
    },
  };
}

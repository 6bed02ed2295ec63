/** The small event and lifetime pieces the pure layers share (vscode's own are not available there). */

export interface Disposable {
  dispose(): void;
}

export type Listener<E> = (event: E) => void;
export type Event<E> = (listener: Listener<E>) => Disposable;

/**
 * An event source. Each listener runs on its own: one that throws cannot stop the others, nor the code that fired;
 * its error goes to `onListenerError` (for the log).
 */
export class Emitter<E> implements Disposable {
  private readonly listeners = new Set<Listener<E>>();

  constructor(private readonly onListenerError: (error: unknown) => void = () => undefined) {}

  readonly event: Event<E> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  get listenerCount(): number {
    return this.listeners.size;
  }

  fire(event: E): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        try {
          this.onListenerError(error);
        } catch {
          // a failing error reporter must not break the caller either
        }
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}

/** Disposables disposed together, last added first; adding to a disposed store disposes at once. */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposed = false;

  add(...items: Disposable[]): void {
    for (const item of items) {
      if (this.disposed) item.dispose();
      else this.items.push(item);
    }
  }

  /** Disposes what it holds, and stays usable. */
  clear(): void {
    for (const item of this.items.splice(0).reverse()) item.dispose();
  }

  dispose(): void {
    this.disposed = true;
    this.clear();
  }
}

import { inert } from './inert';

/**
 * What is loaded late, and how. What a start does not need is in a chunk (esbuild.js CHUNKS: the chunks by layer, each
 * with the modules code may import() and when it loads), the build fails on a static import of one from below it, and
 * code reaches it only as `onFirstUse(() => import('…'))` where it is first needed (test/unit/repo/chunks.test.ts).
 */
export interface OnFirstUse<T> {
  /** What `load` made: loaded on the first call, and the same promise for every call after; a failed load is tried again. */
  get(): Promise<T>;
  /** What `load` made, once it is made (for code that must answer at once); undefined until then. */
  readonly made: T | undefined;
  /** Disposes what was made (options.dispose), now or once a load in flight ends; get() rejects from then on. */
  dispose(): void;
}

export interface OnFirstUseOptions<T> {
  /**
   * Told once of each load that failed (for the log), unless it was disposed meanwhile (nobody is left to tell); the
   * callers waiting for it get its error.
   */
  onError?(error: unknown): void;
  /** Disposes what `load` made. */
  dispose?(made: T): void;
}

/**
 * Loads on first use: `load` (an import() of a chunk's module, and whatever is made from it) runs on the first call of
 * get(), not before. Every later call gets the same promise, so it runs once; a load that failed (a chunk that could
 * not be read) is reported to `onError` once and forgotten, so the next use tries again.
 */
export function onFirstUse<T>(load: () => Promise<T>, options: OnFirstUseOptions<T> = {}): OnFirstUse<T> {
  let loading: Promise<T> | undefined;
  let made: T | undefined;
  let disposed = false;
  const gone = () => new Error('disposed before it was loaded');
  return {
    get: () => {
      if (disposed) return Promise.reject(gone());
      return (loading ??= new Promise<T>((resolve) => resolve(load())).then(
        (value) => {
          if (disposed) {
            options.dispose?.(value);
            throw gone();
          }
          return (made = value);
        },
        (error: unknown) => {
          loading = undefined;
          if (!disposed) options.onError?.(error);
          throw error;
        },
      ));
    },
    get made() {
      return made;
    },
    dispose: () => {
      if (disposed) return;
      disposed = true;
      if (made !== undefined) options.dispose?.(made);
    },
  };
}

/**
 * What a failed load says in the log (once per load; the next use tries again): `failedToLoad(log)('The JSON
 * documents')` is the `onError` of that chunk's onFirstUse. The error's text is made inert and bounded.
 */
export function failedToLoad(log: { error(message: string): void }): (what: string) => (error: unknown) => void {
  return (what) => (error) => log.error(`${what} could not be loaded: ${inert(String(error), 300)}`);
}

/** Time and timers, injected so the refresh logic can be tested with a fake clock and never sleeps in tests. */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export type TimerHandle = { readonly __timer: unique symbol } | ReturnType<typeof setTimeout>;

/** The longest delay a timer can hold: Node and browsers fire a longer one (2^31 ms and up) after about 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A delay every timer can hold: 0 to MAX_TIMER_MS; NaN counts as 0. Every timer of the extension goes through it. */
export function clampDelay(ms: number): number {
  if (!(ms > 0)) return 0;
  return Math.min(ms, MAX_TIMER_MS);
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, clampDelay(ms));
    // A pending poll must never keep a process (tests, the extension host on shutdown) alive.
    (handle as { unref?: () => void }).unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Runs `tick` every `ms` through `clock` (so a fake clock drives it in tests) until disposed. */
export function every(clock: Clock, ms: number, tick: () => void): { dispose(): void } {
  let disposed = false;
  let handle: TimerHandle | undefined;
  const arm = () => {
    handle = clock.setTimeout(() => {
      if (disposed) return;
      arm();
      tick();
    }, ms);
  };
  arm();
  return {
    dispose: () => {
      disposed = true;
      if (handle !== undefined) clock.clearTimeout(handle);
    },
  };
}

/** A clock whose pending timers a test can run before their time (hurryClock). */
export interface HurryClock extends Clock {
  /**
   * Runs now, in the order they were due, the pending timers due within `toleranceMs` of `at` (a time on this clock);
   * returns how many ran. The time itself does not move: a timer that ran early simply did not wait.
   */
  runTimersDueAt(at: number, toleranceMs?: number): number;
}

/**
 * `base` with timers a test can hurry: the integration tests' seam (activate() uses it in ExtensionMode.Test only), so
 * a test proves that a retry is due at the announced moment without sleeping until it.
 */
export function hurryClock(base: Clock): HurryClock {
  const pending = new Map<object, { due: number; run: () => void; handle: TimerHandle }>();
  return {
    now: () => base.now(),
    setTimeout: (callback, ms) => {
      const token = {};
      const run = () => {
        pending.delete(token);
        callback();
      };
      pending.set(token, { due: base.now() + clampDelay(ms), run, handle: base.setTimeout(run, ms) });
      return token as TimerHandle;
    },
    clearTimeout: (token) => {
      const timer = pending.get(token as object);
      if (timer) base.clearTimeout(timer.handle);
      pending.delete(token as object);
    },
    runTimersDueAt: (at, toleranceMs = 50) => {
      const due = [...pending.values()]
        .filter((t) => Math.abs(t.due - at) <= toleranceMs)
        .sort((a, b) => a.due - b.due);
      for (const timer of due) {
        base.clearTimeout(timer.handle);
        timer.run();
      }
      return due.length;
    },
  };
}

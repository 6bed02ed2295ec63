import type { Clock, TimerHandle } from '../../../src/base/clock';

interface Timer {
  id: number;
  at: number;
  callback: () => void;
}

/**
 * A Clock whose time moves only when a test says so. Timers fire in time order; nothing sleeps. The one fake clock of
 * the unit tests and the bench (bench/lib/common.mjs loads the compiled out/test/unit/helpers/fakeClock.js).
 */
export class FakeClock implements Clock {
  private time: number;
  private nextId = 1;
  private timers: Timer[] = [];

  constructor(start = Date.UTC(2026, 10, 22, 12, 0, 0)) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const timer = { id: this.nextId++, at: this.time + Math.max(0, ms), callback };
    this.timers.push(timer);
    return timer.id as unknown as TimerHandle;
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers = this.timers.filter((t) => t.id !== (handle as unknown as number));
  }

  /** Time passes while code runs (a slow listener on a busy machine): no timer fires. */
  pass(ms: number): void {
    this.time += ms;
  }

  get pendingTimers(): number {
    return this.timers.length;
  }

  /** The time the next timer fires, if any. */
  get nextTimerAt(): number | undefined {
    return this.timers.reduce<number | undefined>(
      (min, t) => (min === undefined || t.at < min ? t.at : min),
      undefined,
    );
  }

  /**
   * Moves time forward by `ms`, firing due timers in time order. After each timer, `settle()` runs before the next one
   * is looked for: by default it lets promise callbacks run; the bench passes one that waits for the real I/O a timer
   * started (a request to the mock).
   */
  async advance(ms: number, settle: () => Promise<void> = flushPromises): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      await flushPromises();
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = due.at;
      due.callback();
      await settle();
    }
    this.time = end;
    await flushPromises();
  }
}

/** Lets already-resolved promise chains run to completion. */
export async function flushPromises(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

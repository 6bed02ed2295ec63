// A Clock (src/core/clock.ts) whose time moves only when the bench says so. Unlike the unit tests' fake clock, firing
// a timer may start real I/O (an HTTP request to the mock), so `advance` lets the caller wait for that after each timer.

export class BenchClock {
  constructor(start = Date.UTC(2026, 10, 22, 12, 0, 0)) {
    this.time = start;
    this.nextId = 1;
    this.timers = new Map(); // id -> { at, callback }
  }

  now() {
    return this.time;
  }

  setTimeout(callback, ms) {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + Math.max(0, ms), callback });
    return id;
  }

  clearTimeout(id) {
    this.timers.delete(id);
  }

  nextDue() {
    let best;
    for (const [id, t] of this.timers) if (!best || t.at < best.at || (t.at === best.at && id < best.id)) best = { id, ...t };
    return best;
  }

  /**
   * Moves time forward by `ms`, firing due timers in time order; after each one, awaits `settle()` (e.g. "the request
   * the timer started has finished") before looking for the next.
   */
  async advance(ms, settle = async () => {}) {
    const end = this.time + ms;
    for (;;) {
      const due = this.nextDue();
      if (!due || due.at > end) break;
      this.timers.delete(due.id);
      this.time = due.at;
      due.callback();
      await settle();
    }
    this.time = end;
  }
}

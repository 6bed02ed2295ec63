/**
 * Polls spread over the interval (issue #28): with several services in a window, service i of n polls i/n of the way
 * into each interval instead of all of them at once. Pure; the ServiceRegistry keeps one PollSpread per window.
 */

/**
 * When a list polled every `intervalMs` at `fraction` of the way into each interval (0 ≤ fraction < 1; times counted
 * from 0) polls next after an answer at `loadedAt`: the first such time at least half an interval after the answer.
 * A list answered within half an interval of its poll so polls exactly once per interval, always at the same point
 * of it; after a first load or a reset the gap is between half an interval and one and a half.
 */
export function spreadDueAt(loadedAt: number, intervalMs: number, fraction: number): number {
  const offset = Math.round(fraction * intervalMs);
  const earliest = loadedAt + intervalMs / 2;
  return offset + Math.ceil((earliest - offset) / intervalMs) * intervalMs;
}

/** Where each service of a window polls within the interval: service i of n at i/n. */
export class PollSpread {
  private readonly slots = new Map<string, number>();

  /** The services of the window, in order (the settings' order). True when any service's place changed. */
  order(ids: readonly string[]): boolean {
    const changed = ids.length !== this.slots.size || ids.some((id, i) => this.slots.get(id) !== i);
    if (!changed) return false;
    this.slots.clear();
    ids.forEach((id, i) => this.slots.set(id, i));
    return true;
  }

  /**
   * The fraction of the interval at which a service polls; undefined when it is the only one (it polls one interval
   * after each answer, exactly as before there were several) or not in the window.
   */
  fraction(id: string): number | undefined {
    const i = this.slots.get(id);
    return i === undefined || this.slots.size < 2 ? undefined : i / this.slots.size;
  }
}

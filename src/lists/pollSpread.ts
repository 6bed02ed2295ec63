/**
 * Polls spread over the interval (issues #28 and #38). Each window draws a place of its own in the interval once
 * (`PollSpread`'s `place`), and service i of its n services polls at that place plus i/n of the way into each
 * interval, with a jitter of up to ±POLL_JITTER of the interval on every poll: many people's windows asking one
 * service are spread over the interval instead of all asking at one moment, and the services of one window are spread
 * too. Pure; the ServiceRegistry keeps one PollSpread per window.
 */

/** The jitter on every poll: up to this fraction of the interval, either way. */
const POLL_JITTER = 0.05;

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

/**
 * The poll after an answer at `loadedAt`: at its place (spreadDueAt) moved by a jitter of up to ±POLL_JITTER of the
 * interval drawn from `random` (0 ≤ random() < 1; 0.5 is no jitter). Never sooner than 0.45 of an interval after the
 * answer, never later than 1.55; a list answered within 0.45 of an interval keeps its place (the jitter does not add
 * up from poll to poll).
 */
export function pollDueAt(loadedAt: number, intervalMs: number, fraction: number, random: () => number): number {
  const jitter = Math.round((2 * unit(random()) - 1) * POLL_JITTER * intervalMs);
  return spreadDueAt(loadedAt, intervalMs, fraction) + jitter;
}

/**
 * Where a list comes back after a wait the service asked for (Retry-After) that ends at `notBefore`: the first time at
 * its place in the interval (spreadDueAt's place) from that moment on, moved by the same jitter as a poll, and never
 * before `notBefore` (a jitter that would land sooner takes the next place). So the windows the service told one
 * moment come back over the interval after it, each at its own place, and poll on from there in their own rhythm.
 */
export function placeAfter(notBefore: number, intervalMs: number, fraction: number, random: () => number): number {
  const offset = Math.round(unit(fraction) * intervalMs);
  const at = offset + Math.ceil((notBefore - offset) / intervalMs) * intervalMs;
  const jitter = Math.round((2 * unit(random()) - 1) * POLL_JITTER * intervalMs);
  return at + jitter >= notBefore ? at + jitter : at + intervalMs + jitter;
}

/** A window's place in the interval from a draw: a number in [0, 1) (anything else counts as 0). */
function unit(x: number): number {
  return x >= 0 && x < 1 ? x : 0;
}

/** Where each service of a window polls within the interval: the window's own place plus i/n for service i of n. */
export class PollSpread {
  private readonly slots = new Map<string, number>();
  /** The window's place in the interval, in [0, 1): drawn once per window, the same for all its polls. */
  readonly place: number;

  constructor(place: number) {
    this.place = unit(place);
  }

  /** The services of the window, in order (the settings' order). True when any service's place changed. */
  order(ids: readonly string[]): boolean {
    const changed = ids.length !== this.slots.size || ids.some((id, i) => this.slots.get(id) !== i);
    if (!changed) return false;
    this.slots.clear();
    ids.forEach((id, i) => this.slots.set(id, i));
    return true;
  }

  /**
   * The fraction of the interval at which a service polls: the window's place plus i/n (wrapped into [0, 1)); a
   * service alone polls at the window's place. Undefined when it is not in the window.
   */
  fraction(id: string): number | undefined {
    const i = this.slots.get(id);
    if (i === undefined) return undefined;
    const at = this.place + i / this.slots.size;
    return at >= 1 ? at - 1 : at;
  }
}

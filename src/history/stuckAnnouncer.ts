import type { FlowSync } from '../api/types';
import { t } from '../base/l10n';
import { flowLabel } from '../lists/grouping';
import { inert } from '../base/inert';

/** How long a stuck sync is remembered after it was last seen stuck: a list that drops it for a while (a flapping
 * answer, a failed poll, a partial page) does not make it new again. A sync id is one run: it never comes back once
 * the run has really ended, so this only bounds memory. */
export const STUCK_GRACE_MS = 60 * 60_000;
/** The least time between two stuck announcements of one service: syncs newly stuck meanwhile are said together. */
export const STUCK_QUIET_MS = 5 * 60_000;
/** The most syncs remembered (the longest processing list a service may answer): the oldest seen are forgotten first. */
const MAX_REMEMBERED = 100_000;

/**
 * Says once that syncs became stuck (for a notification, which a screen reader reads out without taking the focus),
 * for one service:
 * - each sync (a run) at most once, the first time it is seen stuck; it is remembered until STUCK_GRACE_MS after it
 *   was last seen stuck, so a list that flaps never announces it again;
 * - at most one announcement per STUCK_QUIET_MS: syncs that become stuck during the quiet period are said together
 *   when it ends (on the first poll after it that lists them stuck); those no longer listed are not said.
 * Nothing is said on a poll that changes nothing. The work of a poll grows with the stuck syncs, and memory stays
 * bounded (MAX_REMEMBERED).
 */
export class StuckAnnouncer {
  /** Sync id -> when it was last seen stuck (ms), oldest first (re-inserted when seen again). */
  private readonly seen = new Map<number, number>();
  /** Newly stuck syncs not said yet (the quiet period was on), by id. */
  private readonly held = new Map<number, FlowSync>();
  private lastSaid = -Infinity;
  /** The one sync the last text named (its notification's Open in Browser), undefined when it named several. */
  saidOne?: { readonly id: number; readonly flowId: number };

  /**
   * `keyToHide`: the API key, masked in a flow name before it is cut (a service may echo it). `now`: the clock (ms).
   */
  constructor(
    private readonly keyToHide: () => string | undefined = () => undefined,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** How many syncs are remembered (for tests: memory stays bounded). */
  get remembered(): number {
    return this.seen.size;
  }

  /** The stuck syncs now; the text to announce, or undefined when there is nothing new to say now. */
  next(stuck: readonly FlowSync[]): string | undefined {
    const now = this.now();
    const stuckNow = new Set<number>();
    for (const sync of stuck) {
      stuckNow.add(sync.id);
      if (!this.seen.has(sync.id)) this.held.set(sync.id, sync);
      else this.seen.delete(sync.id); // re-inserted below: the map stays ordered by last seen
      this.seen.set(sync.id, now);
    }
    this.forget(now);
    if (this.held.size === 0 || now - this.lastSaid < STUCK_QUIET_MS) return undefined;
    // Held syncs that are not in the list now are not said now (they left, or the list dropped them for a poll): they
    // stay held, and are said if they are seen stuck again before they are forgotten.
    const fresh = [...this.held.values()].filter((sync) => stuckNow.has(sync.id));
    if (fresh.length === 0) return undefined;
    for (const sync of fresh) this.held.delete(sync.id);
    this.lastSaid = now;
    this.saidOne = fresh.length === 1 ? { id: fresh[0].id, flowId: fresh[0].flow_id } : undefined;
    if (fresh.length === 1) {
      return t(
        'Sync #{0} ({1}) is stuck: it has been processing for longer than its flow allows.',
        fresh[0].id,
        inert(flowLabel(fresh[0]), 80, this.keyToHide()),
      );
    }
    return t('{0} syncs are now stuck: processing for longer than their flows allow.', fresh.length);
  }

  /** Forgets the syncs last seen more than STUCK_GRACE_MS ago, and the oldest beyond MAX_REMEMBERED. */
  private forget(now: number): void {
    for (const [id, at] of this.seen) {
      // A clock that went back counts as now: only a sync not seen for the grace period is forgotten.
      if (now - at <= STUCK_GRACE_MS && this.seen.size <= MAX_REMEMBERED) break;
      this.seen.delete(id);
      this.held.delete(id);
    }
  }
}

import type { FlowSync } from '../api/types';
import { inert } from '../base/inert';
import { t } from '../base/l10n';
import { flowLabel } from '../lists/grouping';
import type { NotifyMode } from '../settings/settingValues';

/** The least time between two errors announcements of one service: syncs that get errors meanwhile are said together. */
export const ERRORS_QUIET_MS = 5 * 60_000;
/** How long a sync seen with errors is remembered after it was last seen so: a list that drops it for a poll does not make it new. */
export const ERRORS_GRACE_MS = 60 * 60_000;
/** The most syncs remembered (the longest processing list a service may answer): the oldest seen are forgotten first. */
const MAX_REMEMBERED = 100_000;

/** One look at a service's Processing list (a successful answer, this window's or one another window polled). */
export interface ErrorsPoll {
  /** The syncs processing now, as the service listed them. */
  readonly processing: readonly FlowSync[];
  /** `flowsync.notifyOnErrors`. */
  readonly mode: NotifyMode;
  /** Whether the person watches a sync (itself or its flow): what `watched` announces. */
  readonly watched: (sync: FlowSync) => boolean;
  /** Another window polled it (src/sharing/pollLease.ts): remembered here, said there (one notification, not one per window). */
  readonly adopted: boolean;
  /** The service's name when there are several (user text: made inert here). */
  readonly service?: string;
}

/** What to say: the text (inert: service text in it is never markup) and the syncs it is about (newest id first). */
export interface ErrorsAnnouncement {
  readonly text: string;
  readonly syncs: readonly FlowSync[];
}

/**
 * Says that processing syncs report errors (`errors` not null: it turned, or the sync came with them), for one
 * service, pure (time from `now`):
 * - each sync (a run: an id never comes back once it ended) at most once, the first time it is seen with errors, by
 *   the window whose poll saw it; every window remembers what it saw, so a window that takes over the polling does not
 *   say it again; a sync seen with errors while it was not to be said (`off`, not watched, another window's poll) is
 *   remembered as seen and never said later;
 * - at most one announcement per ERRORS_QUIET_MS: syncs that get errors meanwhile are said together when it ends (on
 *   the first poll after it that still lists them), "3 syncs of Production report errors";
 * - memory stays bounded: a sync not seen with errors for ERRORS_GRACE_MS is forgotten, and at most MAX_REMEMBERED.
 */
export class ErrorAnnouncer {
  /** Sync id -> when it was last seen with errors (ms), oldest first (re-inserted when seen again). */
  private readonly seen = new Map<number, number>();
  /** Syncs to say that were not said yet (the quiet period was on), by id. */
  private readonly held = new Map<number, FlowSync>();
  private lastSaid = -Infinity;

  /** `keyToHide`: the API key, masked in a flow name before it is cut (a service may echo it). `now`: the clock (ms). */
  constructor(
    private readonly now: () => number,
    private readonly keyToHide: () => string | undefined = () => undefined,
  ) {}

  /** How many syncs are remembered (for tests: memory stays bounded). */
  get remembered(): number {
    return this.seen.size;
  }

  /** The Processing list now; what to announce, or undefined when there is nothing new to say now. */
  next(poll: ErrorsPoll): ErrorsAnnouncement | undefined {
    const now = this.now();
    const withErrors = new Map<number, FlowSync>();
    for (const sync of poll.processing) {
      if (sync.errors === null || sync.errors === undefined) continue;
      withErrors.set(sync.id, sync);
      const fresh = !this.seen.has(sync.id);
      if (!fresh) this.seen.delete(sync.id); // re-inserted below: the map stays ordered by last seen
      this.seen.set(sync.id, now);
      if (fresh && !poll.adopted && wanted(poll, sync)) this.held.set(sync.id, sync);
    }
    this.forget(now);
    if (poll.mode === 'off') this.held.clear();
    if (poll.adopted || this.held.size === 0 || now - this.lastSaid < ERRORS_QUIET_MS) return undefined;
    // Held syncs no longer listed (they left, or the list dropped them for a poll) stay held, said if seen again.
    const fresh = [...this.held.keys()].flatMap((id) => withErrors.get(id) ?? []);
    if (fresh.length === 0) return undefined;
    for (const sync of fresh) this.held.delete(sync.id);
    this.lastSaid = now;
    fresh.sort((a, b) => b.id - a.id);
    return { text: this.textOf(fresh, poll.service), syncs: fresh };
  }

  private textOf(syncs: readonly FlowSync[], service: string | undefined): string {
    const name = service === undefined ? undefined : inert(service, 80, this.keyToHide());
    if (syncs.length > 1) {
      return name === undefined
        ? t('{0} syncs report errors', syncs.length)
        : t('{0} syncs of {1} report errors', syncs.length, name);
    }
    const flow = inert(flowLabel(syncs[0]), 80, this.keyToHide());
    return name === undefined
      ? t('Sync #{0} ({1}) reports errors', syncs[0].id, flow)
      : t('{0}: Sync #{1} ({2}) reports errors', name, syncs[0].id, flow);
  }

  /** Forgets the syncs last seen with errors more than ERRORS_GRACE_MS ago, and the oldest beyond MAX_REMEMBERED. */
  private forget(now: number): void {
    for (const [id, at] of this.seen) {
      // A clock that went back counts as now: only a sync not seen for the grace period is forgotten.
      if (now - at <= ERRORS_GRACE_MS && this.seen.size <= MAX_REMEMBERED) break;
      this.seen.delete(id);
      this.held.delete(id);
    }
  }
}

function wanted(poll: ErrorsPoll, sync: FlowSync): boolean {
  return poll.mode === 'all' || (poll.mode === 'watched' && poll.watched(sync));
}

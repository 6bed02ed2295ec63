import type { FlowSync } from '../api/types';
import { t } from '../base/l10n';
import { flowLabel } from '../lists/grouping';
import { inert } from '../base/inert';
import { QuietAnnouncer } from './quietAnnouncer';

/**
 * Says once that syncs became stuck (for a notification, which a screen reader reads out without taking the focus),
 * for one service, through the quiet announcer (quietAnnouncer.ts):
 * - each sync (a run) at most once, the first time it is seen stuck; it is remembered until GRACE_MS after it was last
 *   seen stuck, so a list that flaps never announces it again;
 * - at most one announcement per QUIET_MS: syncs that become stuck during the quiet period are said together when it
 *   ends (on the first poll after it that lists them stuck); those no longer listed are not said.
 * Nothing is said on a poll that changes nothing. The work of a poll grows with the stuck syncs, and memory stays
 * bounded.
 */
export class StuckAnnouncer {
  private readonly runs = new QuietAnnouncer<FlowSync>();
  /** The one sync the last text named (its notification's Open in Browser), undefined when it named several. */
  saidOne?: { readonly id: number; readonly flowId: number };
  /** How many syncs the last text named. */
  saidCount = 0;

  /**
   * `keyToHide`: the API key, masked in a flow name before it is cut (a service may echo it). `now`: the clock (ms).
   */
  constructor(
    private readonly keyToHide: () => string | undefined = () => undefined,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** How many syncs are remembered (for tests: memory stays bounded). */
  get remembered(): number {
    return this.runs.remembered;
  }

  /** The stuck syncs now; the text to announce, or undefined when there is nothing new to say now. */
  next(stuck: readonly FlowSync[]): string | undefined {
    const now = this.now();
    const stuckNow = new Set<number>();
    for (const sync of stuck) {
      stuckNow.add(sync.id);
      if (this.runs.see(sync.id, now)) this.runs.hold(sync);
    }
    this.runs.forget(now);
    const fresh = this.runs.say((id) => stuckNow.has(id), now);
    if (!fresh) return undefined;
    this.saidOne = fresh.length === 1 ? { id: fresh[0].id, flowId: fresh[0].flow_id } : undefined;
    this.saidCount = fresh.length;
    if (fresh.length === 1) {
      return t(
        'Sync #{0} ({1}) is stuck: it has been processing for longer than its flow allows.',
        fresh[0].id,
        inert(flowLabel(fresh[0]), 80, this.keyToHide()),
      );
    }
    return t('{0} syncs are now stuck: processing for longer than their flows allow.', fresh.length);
  }
}

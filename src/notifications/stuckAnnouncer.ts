import type { FlowSync } from '../api/types';
import { t } from '../base/l10n';
import { flowLabel } from '../lists/grouping';
import { inert } from '../base/inert';

/**
 * Says once that syncs became stuck (for a notification, which a screen reader reads out without taking the focus).
 * Each sync is announced the first time it is seen stuck, never again while it stays stuck: nothing is said on a poll
 * that changes nothing. Syncs that are no longer stuck (they left processing) are forgotten, so memory stays bounded.
 */
export class StuckAnnouncer {
  private announced = new Set<number>();

  /** `keyToHide`: the API key, masked in a flow name before it is cut (a service may echo it). */
  constructor(private readonly keyToHide: () => string | undefined = () => undefined) {}

  /** The stuck syncs now; the text to announce, or undefined when none is newly stuck. */
  next(stuck: readonly FlowSync[]): string | undefined {
    const fresh = stuck.filter((s) => !this.announced.has(s.id));
    this.announced = new Set(stuck.map((s) => s.id));
    if (fresh.length === 0) return undefined;
    if (fresh.length === 1) return t('Sync #{0} ({1}) is stuck: it has been processing for longer than its flow allows.', fresh[0].id, inert(flowLabel(fresh[0]), 80, this.keyToHide()));
    return t('{0} syncs are now stuck: processing for longer than their flows allow.', fresh.length);
  }
}

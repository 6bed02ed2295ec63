import { DAY_MS, type HistoryEntry } from './entry';
import { flowInsights, type FlowInsight } from './insights';
import type { OlderDays } from './summary';

/** How long the flows slower than usual are kept before they are computed again (History changes every poll). */
export const SLOWER_RECHECK_MS = 5 * 60_000;

/**
 * Which flows are slower than usual (src/history/insights.ts), for the Processing view's flow rows and the one
 * notification a day: computed from History's runs in memory and day summaries at most every SLOWER_RECHECK_MS, or
 * at once when the summaries changed (a new day, another service). Pure: History's snapshot and the time are passed in.
 */
export class SlowerFlows {
  private computedAt = -Infinity;
  private older: OlderDays | undefined;
  private flows = new Map<number, FlowInsight>();

  /** The flows slower than usual now, by flow id. */
  get(entries: readonly HistoryEntry[], older: OlderDays, now: number): ReadonlyMap<number, FlowInsight> {
    if (older !== this.older || now - this.computedAt >= SLOWER_RECHECK_MS || now < this.computedAt) {
      this.older = older;
      this.computedAt = now;
      this.flows = new Map(
        flowInsights(entries, older, now)
          .filter((f) => f.slower)
          .map((f) => [f.flowId, f]),
      );
    }
    return this.flows;
  }
}

/**
 * The notification "slower than usual": once per flow per UTC day. `next` gives the flows to say now (those slower
 * that were not said today); what was said is forgotten after the day.
 */
export class SlowerAnnouncer {
  private readonly said = new Map<number, number>();

  next(slower: Iterable<FlowInsight>, now: number): FlowInsight[] {
    const today = Math.floor(now / DAY_MS);
    for (const [flowId, day] of this.said) if (day !== today) this.said.delete(flowId);
    const fresh: FlowInsight[] = [];
    for (const f of slower) {
      if (this.said.has(f.flowId)) continue;
      this.said.set(f.flowId, today);
      fresh.push(f);
    }
    return fresh;
  }
}

import type { Clock, TimerHandle } from '../base/clock';
import { flowInsights, type FlowInsight } from '../history/insights';
import type { HistorySnapshot } from '../history/historyService';

/** How long a service's flows are reused while its History is unchanged: the "last 24 hours" figures move with time. */
export const FLOWS_KEPT_MS = 60_000;
/** The shortest time between two pages posted to Flow Insights while History changes (every poll of every service). */
export const INSIGHTS_POST_GAP_MS = 3_000;

/**
 * Each service's flows (flowInsights), computed again only when that service's History changed: keyed by the runs
 * and older days its History holds, which History replaces (never edits) on every change. With 20 services of 50,000
 * runs each, a change of one costs one service's computation, not twenty. Reused for at most FLOWS_KEPT_MS.
 */
export class FlowsByService<S extends object> {
  private readonly held = new WeakMap<
    S,
    { snapshot: Pick<HistorySnapshot, 'entries' | 'older'>; at: number; flows: FlowInsight[] }
  >();

  constructor(private readonly compute: typeof flowInsights = flowInsights) {}

  flows(service: S, snapshot: Pick<HistorySnapshot, 'entries' | 'older'>, now: number): FlowInsight[] {
    const held = this.held.get(service);
    if (
      held &&
      held.snapshot.entries === snapshot.entries &&
      held.snapshot.older === snapshot.older &&
      now >= held.at &&
      now - held.at < FLOWS_KEPT_MS
    ) {
      return held.flows;
    }
    const flows = this.compute(snapshot.entries, snapshot.older, now);
    this.held.set(service, { snapshot: { entries: snapshot.entries, older: snapshot.older }, at: now, flows });
    return flows;
  }
}

/**
 * Sends at most once every `gapMs` on `clock`: the first request at once, a request within the gap once the gap has
 * passed (one send for all the requests made meanwhile: it reads the numbers of then). Disposing drops a planned send.
 */
export class Throttle {
  private last: number | undefined;
  private timer: TimerHandle | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly gapMs = INSIGHTS_POST_GAP_MS,
  ) {}

  request(send: () => void): void {
    if (this.timer !== undefined) return;
    const now = this.clock.now();
    const wait = this.last === undefined || now < this.last ? 0 : this.last + this.gapMs - now;
    if (wait <= 0) {
      this.last = now;
      send();
      return;
    }
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.last = this.clock.now();
      send();
    }, wait);
  }

  dispose(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }
}

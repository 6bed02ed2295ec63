import type { Clock, TimerHandle } from '../base/clock';
import { inert } from '../base/inert';
import { flowInsights, type FlowInsight } from '../history/insights';
import type { HistorySnapshot } from '../history/historyService';
import { changedFlows, withFlowsChanged } from './flowChanges';
import { flowWindow, flowsAt, type FlowWindow } from './flowsOverTime';
import { hourLabels, insightsPart, insightsStrings, partRow, type InsightsPage } from './insightsPage';
import {
  insightsGroups,
  rowChange,
  type InsightsPart,
  type InsightsPartRow,
  type InsightsPartUpdate,
  type InsightsState,
  type InsightsUpdate,
} from './insightsState';

/**
 * How long a service's flows are reused as they are while its History is unchanged: the "last 24 hours" figures move
 * with time, and are brought to the time after this (flowsOverTime.ts: the last 24 hours alone, not every run again).
 */
export const FLOWS_KEPT_MS = 60_000;
/** The shortest time between two pages posted to Flow Insights while History changes (every poll of every service). */
export const INSIGHTS_POST_GAP_MS = 3_000;

/**
 * Each service's flows (flowInsights), computed again only when that service's History changed: keyed by the runs
 * and older days its History holds, which History replaces (never edits) on every change. With 20 services of 50,000
 * runs each, a change of one costs one service's computation, not twenty; and when its new runs are the old ones with
 * runs added at the top or bottom and some of the last gone (a poll's departures, the cap), only the flows those runs
 * belong to are computed again (flowChanges.ts), the others kept as they are. While a service's History is unchanged
 * its flows are reused for FLOWS_KEPT_MS, then brought to the time (flowsAt: only the last 24 hours move; the window
 * that does it is made once per History, on first need): the same array when none of its figures moved.
 */
export class FlowsByService<S extends object> {
  private readonly held = new WeakMap<
    S,
    {
      snapshot: Pick<HistorySnapshot, 'entries' | 'older'>;
      /** The time of the flows (the oldest of them: those computed again since are newer). */
      at: number;
      flows: readonly FlowInsight[];
      window?: FlowWindow;
    }
  >();

  /** `compute`: flowInsights (a test counts its calls: one per service, or per flow computed again). */
  constructor(private readonly compute: typeof flowInsights = flowInsights) {}

  flows(service: S, snapshot: Pick<HistorySnapshot, 'entries' | 'older'>, now: number): readonly FlowInsight[] {
    const held = this.held.get(service);
    if (held && held.snapshot.older === snapshot.older && now >= held.at) {
      if (held.snapshot.entries !== snapshot.entries) {
        const changed = changedFlows(held.snapshot.entries, snapshot.entries);
        if (!changed) return this.computed(service, snapshot, now);
        held.flows = withFlowsChanged(held.flows, changed, snapshot.entries, snapshot.older, now, this.compute);
        held.snapshot = { entries: snapshot.entries, older: snapshot.older };
        held.window = undefined;
      }
      if (now - held.at < FLOWS_KEPT_MS) return held.flows;
      held.window ??= flowWindow(snapshot.entries, snapshot.older, now);
      held.flows = flowsAt(held.flows, held.window, now);
      held.at = now;
      return held.flows;
    }
    return this.computed(service, snapshot, now);
  }

  private computed(service: S, snapshot: Pick<HistorySnapshot, 'entries' | 'older'>, now: number): FlowInsight[] {
    const flows = this.compute(snapshot.entries, snapshot.older, now);
    this.held.set(service, { snapshot: { entries: snapshot.entries, older: snapshot.older }, at: now, flows });
    return flows;
  }
}

/** One service as InsightsFeed reads it: the service (its key: the same object each time), its name, its History. */
export interface FeedService<S extends object> {
  readonly service: S;
  readonly name: string;
  readonly snapshot: Pick<HistorySnapshot, 'entries' | 'older'>;
}

/**
 * What Flow Insights posts to its page (issue #49 item 10): the whole page when the page has loaded (reset), then
 * only what changed since the update before (insightsState.ts, which the page merges): the services whose flows or
 * hour changed, and of those only the flows whose row changed. A service whose flows are the same as at the last
 * update (FlowsByService: the same array while its History and last 24 hours did not move) costs no row at all; a
 * flow's row is made once per computation of the flow and hour. Nothing to post when nothing changed.
 */
export class InsightsFeed<S extends object> {
  /** What the page has: the last update posted, merged (undefined: the page needs the whole page). */
  private state: InsightsState | undefined;
  private historyDays: number | undefined;
  /** Per service (key): the flows and hour its part was made from. */
  private made = new Map<string, { flows: readonly FlowInsight[]; hourEnd: number }>();
  private readonly keys = new WeakMap<S, string>();
  private nextKey = 0;
  /** Each flow's row, made once per flow object and hour. */
  private readonly rows = new WeakMap<FlowInsight, { hourEnd: number; row: InsightsPartRow }>();
  private labels: { hourEnd: number; labels: string[] } | undefined;

  /** `hourLabel` names an hour (the page's locale). */
  constructor(
    private readonly hourLabel?: (endMs: number) => string,
    private readonly flows = new FlowsByService<S>(),
  ) {}

  /** The page loaded (or asked again): the next update is the whole page. */
  reset(): void {
    this.state = undefined;
  }

  /**
   * The update to post now: the whole page after reset() (or when the days kept, or whether several services are
   * shown, changed: the words and every name change), else what changed since the last one; undefined when nothing
   * did.
   */
  next(
    services: ReadonlyArray<FeedService<S>>,
    several: boolean,
    historyDays: number,
    now: number,
  ): InsightsUpdate | undefined {
    const base = this.state?.several === several && this.historyDays === historyDays ? this.state : undefined;
    const hourEnd = Math.floor(now / 3_600_000) * 3_600_000;
    const labels = this.labelsAt(now, hourEnd);
    const keys: string[] = [];
    const parts: Record<string, InsightsPart> = {};
    const changes: Record<string, InsightsPartUpdate> = {};
    let changed = false;
    const made = new Map<string, { flows: readonly FlowInsight[]; hourEnd: number }>();
    for (const { service, name, snapshot } of services) {
      const key = this.keyOf(service);
      keys.push(key);
      const flows = this.flows.flows(service, snapshot, now);
      made.set(key, { flows, hourEnd });
      const shown = several ? inert(name, 60) : undefined;
      const was = base?.parts[key];
      const before = this.made.get(key);
      if (was && before?.flows === flows && before.hourEnd === hourEnd && was.service === shown) {
        parts[key] = was;
        continue;
      }
      const part = insightsPart(flows, shown, (f) => this.rowOf(f, hourEnd, labels));
      const change: InsightsPartUpdate = {};
      if (shown !== undefined && shown !== was?.service) change.service = shown;
      if (!was || !sameData(was.flows, part.flows)) change.flows = part.flows;
      for (const flow of part.flows) {
        const row = part.rows[flow];
        const old = was && Object.hasOwn(was.rows, flow) ? was.rows[flow] : undefined;
        if (old === row) continue;
        const rowUpdate = old ? rowChange(old, row, sameData) : row;
        if (rowUpdate) (change.rows ??= {})[flow] = rowUpdate;
        else part.rows[flow] = old!;
      }
      parts[key] = part;
      if (change.service !== undefined || change.flows || change.rows) {
        changes[key] = change;
        changed = true;
      }
    }
    this.made = made;
    const order = !base || !sameData(base.services, keys);
    if (base && !changed && !order) return undefined;
    const strings = base?.strings ?? insightsStrings(historyDays);
    const seq = (this.state?.seq ?? 0) + 1;
    this.state = { seq, strings, several, services: keys, parts };
    this.historyDays = historyDays;
    if (!base) return { type: 'insights', seq, strings, several, services: keys, parts };
    return { type: 'insights', seq, base: base.seq, ...(order ? { services: keys } : {}), parts: changes };
  }

  /** The page as the page has it after the last update (tests read its numbers). */
  page(): InsightsPage | undefined {
    const state = this.state;
    return state && { strings: state.strings, several: state.several, ...insightsGroups(state) };
  }

  private keyOf(service: S): string {
    let key = this.keys.get(service);
    if (key === undefined) this.keys.set(service, (key = String(this.nextKey++)));
    return key;
  }

  private rowOf(f: FlowInsight, hourEnd: number, labels: readonly string[]): InsightsPartRow {
    const held = this.rows.get(f);
    if (held?.hourEnd === hourEnd) return held.row;
    const row = partRow(f, labels);
    this.rows.set(f, { hourEnd, row });
    return row;
  }

  private labelsAt(now: number, hourEnd: number): string[] {
    if (this.labels?.hourEnd !== hourEnd) this.labels = { hourEnd, labels: hourLabels(now, this.hourLabel) };
    return this.labels.labels;
  }
}

/** True when two values of plain data (text, numbers, booleans, arrays and objects of them) are equal. */
function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameData(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.hasOwn(b, k) || !sameData((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) {
      return false;
    }
  }
  return true;
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

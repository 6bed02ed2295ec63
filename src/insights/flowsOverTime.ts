import { DAY_MS, type HistoryEntry } from '../history/entry';
import { slowerThanUsual, type FlowInsight } from '../history/insights';
import { histogramPercentiles } from '../history/stats';
import { durationBucket, type OlderDays } from '../history/summary';

/*
 * A service's flows brought to a later time without reading all its runs again (Flow Insights, issue #49 item 10).
 * Of a flow's figures (src/history/insights.ts: flowInsights) only the last 24 hours move with time while History is
 * unchanged: the runs per hour, and which runs are recent and which before (their medians, "slower than usual"). The
 * rest (runs, median, p95, p99, the days) is the same at any time. So a window keeps, per flow, the runs that left in
 * the 24 hours before the time it was made (all a later time can count as recent or per hour) and the histogram of
 * every timed run (recent and before together): at a later time, before = all - recent. Pure.
 */

const HOUR = 3_600_000;

/** One flow's part of a window: its timed runs' histogram, and the runs of the window's last 24 hours. */
interface FlowRuns {
  /** bucket -> runs: every run timed from the service's start (the summaries' and those in memory). */
  readonly all: Map<number, number>;
  /** The runs that left at or after the window's time less a day: when they left, and their bucket (-1 untimed). */
  readonly leftAt: number[];
  readonly bucket: number[];
}

export interface FlowWindow {
  /** The time it was made: it brings flows to this time or later. */
  readonly at: number;
  readonly flows: ReadonlyMap<number, FlowRuns>;
}

/** The window of a service's History (`entries`, `older`, as flowInsights reads them) at `at`. */
export function flowWindow(entries: Iterable<HistoryEntry>, older: OlderDays, at: number): FlowWindow {
  const flows = new Map<number, FlowRuns>();
  const flowOf = (flowId: number) => {
    let f = flows.get(flowId);
    if (!f) flows.set(flowId, (f = { all: new Map(), leftAt: [], bucket: [] }));
    return f;
  };
  for (const summary of older.days) {
    for (const flow of summary.flows) {
      const { all } = flowOf(flow.flowId);
      for (let i = 0; i < flow.durations.length; i += 2) add(all, flow.durations[i], flow.durations[i + 1]);
    }
  }
  const from = at - DAY_MS;
  for (const e of entries) {
    if (e.leftAt < older.before) continue;
    const f = flowOf(e.flowId);
    const bucket = e.duration.from === 'created' ? durationBucket(e.duration.ms) : -1;
    if (bucket >= 0) add(f.all, bucket, 1);
    if (e.leftAt >= from) {
      f.leftAt.push(e.leftAt);
      f.bucket.push(bucket);
    }
  }
  return { at, flows };
}

/**
 * `flows` (flowInsights of the window's History, at the window's time or later) at `now` (not before the window's
 * time): what flowInsights gives at `now`. A flow whose last 24 hours are unchanged is the same object, and when none
 * changed, so is the array.
 */
export function flowsAt(flows: readonly FlowInsight[], window: FlowWindow, now: number): readonly FlowInsight[] {
  let changed = false;
  const moved = flows.map((f) => {
    const next = flowAt(f, window.flows.get(f.flowId), now);
    if (next !== f) changed = true;
    return next;
  });
  return changed ? moved : flows;
}

function flowAt(f: FlowInsight, runs: FlowRuns | undefined, now: number): FlowInsight {
  const perHour = new Array<number>(24).fill(0);
  const recentRuns = new Map<number, number>();
  const from = now - DAY_MS;
  for (let k = 0; k < (runs?.leftAt.length ?? 0); k++) {
    const leftAt = runs!.leftAt[k];
    const hoursAgo = Math.floor((now - leftAt) / HOUR);
    if (hoursAgo >= 0 && hoursAgo < 24) perHour[23 - hoursAgo]++;
    if (runs!.bucket[k] >= 0 && leftAt >= from) add(recentRuns, runs!.bucket[k], 1);
  }
  const beforeRuns = new Map(runs?.all);
  for (const [bucket, n] of recentRuns) add(beforeRuns, bucket, -n);
  const recent = figures(recentRuns);
  const before = figures(beforeRuns);
  if (
    samePerHour(perHour, f.perHour) &&
    recent.runs === f.recent.runs &&
    Object.is(recent.medianMs, f.recent.medianMs) &&
    before.runs === f.before.runs &&
    Object.is(before.medianMs, f.before.medianMs)
  ) {
    return f;
  }
  return { ...f, perHour, recent, before, slower: slowerThanUsual(recent, before) };
}

/** Runs and median of a histogram, as flowInsights gives them (NaN for none). */
function figures(histogram: Map<number, number>): { runs: number; medianMs: number } {
  let runs = 0;
  for (const n of histogram.values()) runs += n;
  return { runs, medianMs: runs === 0 ? NaN : histogramPercentiles(histogram).percentile(50) };
}

function add(histogram: Map<number, number>, bucket: number, n: number): void {
  const runs = (histogram.get(bucket) ?? 0) + n;
  if (runs === 0) histogram.delete(bucket);
  else histogram.set(bucket, runs);
}

function samePerHour(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

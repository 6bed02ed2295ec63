import { DAY_MS, entryFlowLabel, type HistoryEntry } from './entry';
import { dayOf } from './log';
import { histogramPercentiles, type FlowStats } from './stats';
import { durationBucket, type OlderDays } from './summary';

/*
 * Show Flow Insights (issue #31), its numbers: per flow, runs, median, p95 and p99 over the History kept; the trend of
 * the daily median and p95; runs finished per hour (the last 24 hours) and per day; and whether the flow is slower
 * than usual. Pure. It reads only what History holds cheaply: the day summaries of the older days and the runs in
 * memory, never a log file. Every percentile comes from the duration histogram of summary.ts (a run in memory is
 * added to its day's histogram), so a figure is within a factor √R (±2.2 %) of the exact one, old days and new alike.
 */

/** A flow is slower than usual when the median of its last 24 hours is at least this many times … */
export const SLOWER_FACTOR = 1.5;
/** … its median over the days before, with at least this many runs on each side. */
export const SLOWER_MIN_RUNS = 5;
const HOUR = 3_600_000;

interface DayFigures {
  /** The UTC day, yyyy-mm-dd. */
  readonly day: string;
  /** Runs of the flow that left that day. */
  readonly runs: number;
  /** Median and p95 of the durations that count from the service's start (NaN with none). */
  readonly medianMs: number;
  readonly p95Ms: number;
}

/** A flow's figures: its runs, median and p95 as flowStats gives them (FlowStats), and more. */
export interface FlowInsight extends FlowStats {
  readonly flowId: number;
  /** The flow's label at its latest run (inert: History keeps names inert). */
  readonly label: string;
  readonly p99Ms: number;
  /** Days with runs, oldest first: the trend and the runs per day. */
  readonly days: readonly DayFigures[];
  /** Runs finished in each of the last 24 hours, oldest first (the last is the hour up to now). */
  readonly perHour: readonly number[];
  /** The last 24 hours and the days before, as the slower-than-usual rule compares them. */
  readonly recent: { readonly runs: number; readonly medianMs: number };
  readonly before: { readonly runs: number; readonly medianMs: number };
  /** True when the rule holds (see SLOWER_FACTOR). */
  readonly slower: boolean;
}

/** A duration histogram (bucket -> runs), as summary.ts keeps them. */
class Histogram {
  readonly counts = new Map<number, number>();
  runs = 0;

  add(bucket: number, n = 1): void {
    this.counts.set(bucket, (this.counts.get(bucket) ?? 0) + n);
    this.runs += n;
  }

  addAll(other: Histogram): void {
    for (const [bucket, n] of other.counts) this.add(bucket, n);
  }

  /** The p-th percentile (stats.ts histogramPercentiles); NaN for none. */
  percentile(p: number): number {
    return this.runs === 0 ? NaN : histogramPercentiles(this.counts).percentile(p);
  }
}

/** A flow's day: the histogram of durations from the service's start, and every run of the day. */
interface DayTotals {
  readonly histogram: Histogram;
  runs: number;
}

interface FlowAccumulator {
  label: string;
  labelAt: number;
  /** Per UTC day (yyyy-mm-dd). */
  readonly days: Map<string, DayTotals>;
  readonly recent: Histogram;
  readonly before: Histogram;
  readonly perHour: number[];
}

/**
 * The insights of one service's History: `entries` the runs in memory, `older` the summaries of the days they do not
 * reach (runs in memory that left before `older.before` are in the summaries already and are not counted again).
 * Flows by most runs first.
 */
export function flowInsights(entries: Iterable<HistoryEntry>, older: OlderDays, now: number): FlowInsight[] {
  const flows = new Map<number, FlowAccumulator>();
  addSummaries(flows, older);
  addRuns(flows, entries, older.before, now);
  const insights = [...flows].map(([flowId, f]) => insightOf(flowId, f));
  return insights.sort((a, b) => b.runs - a.runs || a.flowId - b.flowId);
}

/** A flow's accumulator, made when first met; its label is the one of its latest run (or summary). */
function accumulatorOf(
  flows: Map<number, FlowAccumulator>,
  flowId: number,
  label: string,
  at: number,
): FlowAccumulator {
  let f = flows.get(flowId);
  if (!f) {
    flows.set(
      flowId,
      (f = {
        label,
        labelAt: at,
        days: new Map(),
        recent: new Histogram(),
        before: new Histogram(),
        perHour: new Array<number>(24).fill(0),
      }),
    );
  } else if (at > f.labelAt) [f.label, f.labelAt] = [label, at];
  return f;
}

/** A flow's figures of one UTC day, made when first met. */
function dayTotalsOf(f: FlowAccumulator, day: string): DayTotals {
  let d = f.days.get(day);
  if (!d) f.days.set(day, (d = { histogram: new Histogram(), runs: 0 }));
  return d;
}

/** Adds the day summaries' runs and durations: to their day, and to "before" (a summarized day is never recent). */
function addSummaries(flows: Map<number, FlowAccumulator>, older: OlderDays): void {
  for (const summary of older.days) {
    for (const flow of summary.flows) {
      const f = accumulatorOf(flows, flow.flowId, flow.label, flow.labelAt);
      const d = dayTotalsOf(f, summary.day);
      for (let i = 0; i < flow.durations.length; i += 2) {
        d.histogram.add(flow.durations[i], flow.durations[i + 1]);
        // A summarized day is older than the last 24 hours (the newest days are held in memory whole).
        f.before.add(flow.durations[i], flow.durations[i + 1]);
        d.runs += flow.durations[i + 1];
      }
    }
  }
}

/**
 * Adds the runs in memory that left from `from` on: each to its day's runs and, in the last 24 hours, its hour's; its
 * duration (when it counts from the service's start) to its day and to the recent or the before histogram.
 */
function addRuns(
  flows: Map<number, FlowAccumulator>,
  entries: Iterable<HistoryEntry>,
  from: number,
  now: number,
): void {
  const recentFrom = now - DAY_MS;
  for (const e of entries) {
    if (e.leftAt < from) continue;
    const f = accumulatorOf(flows, e.flowId, entryFlowLabel(e), e.leftAt);
    const d = dayTotalsOf(f, dayOf(e.leftAt));
    d.runs++;
    const hoursAgo = Math.floor((now - e.leftAt) / HOUR);
    if (hoursAgo >= 0 && hoursAgo < 24) f.perHour[23 - hoursAgo]++;
    if (e.duration.from !== 'created') continue;
    const bucket = durationBucket(e.duration.ms);
    d.histogram.add(bucket);
    (e.leftAt >= recentFrom ? f.recent : f.before).add(bucket);
  }
}

/** A flow's insight from what was added up: its days oldest first, its percentiles over all of them. */
function insightOf(flowId: number, f: FlowAccumulator): FlowInsight {
  const all = new Histogram();
  const days: DayFigures[] = [];
  let runs = 0;
  for (const day of [...f.days.keys()].sort()) {
    const d = f.days.get(day)!;
    all.addAll(d.histogram);
    runs += d.runs;
    days.push({ day, runs: d.runs, medianMs: d.histogram.percentile(50), p95Ms: d.histogram.percentile(95) });
  }
  const recent = { runs: f.recent.runs, medianMs: f.recent.percentile(50) };
  const before = { runs: f.before.runs, medianMs: f.before.percentile(50) };
  return {
    flowId,
    label: f.label,
    runs,
    medianMs: all.percentile(50),
    p95Ms: all.percentile(95),
    p99Ms: all.percentile(99),
    days,
    perHour: f.perHour,
    recent,
    before,
    slower: slowerThanUsual(recent, before),
  };
}

/** The rule: the recent median at least SLOWER_FACTOR times the median before, with SLOWER_MIN_RUNS runs each. */
export function slowerThanUsual(
  recent: { runs: number; medianMs: number },
  before: { runs: number; medianMs: number },
): boolean {
  if (recent.runs < SLOWER_MIN_RUNS || before.runs < SLOWER_MIN_RUNS) return false;
  if (!(before.medianMs > 0) || !Number.isFinite(recent.medianMs)) return false;
  return recent.medianMs >= SLOWER_FACTOR * before.medianMs;
}

/** One flow across services: its insight in each service that has it (by the flow's name, in any letter case). */
export interface FlowAcrossServices {
  readonly label: string;
  readonly services: ReadonlyArray<{ readonly service: string; readonly insight: FlowInsight }>;
}

/**
 * The same flow side by side per service (production and staging), matched by name (the flow ids of two services
 * need not agree). In the order of first appearance; a service with two flows of one name shows the busier one.
 */
export function acrossServices(
  services: ReadonlyArray<{ readonly service: string; readonly flows: readonly FlowInsight[] }>,
): FlowAcrossServices[] {
  const byName = new Map<string, { label: string; services: Array<{ service: string; insight: FlowInsight }> }>();
  for (const { service, flows } of services) {
    for (const insight of flows) {
      const key = insight.label.toLocaleLowerCase('en');
      let row = byName.get(key);
      if (!row) byName.set(key, (row = { label: insight.label, services: [] }));
      if (!row.services.some((s) => s.service === service)) row.services.push({ service, insight });
    }
  }
  return [...byName.values()];
}

import type { FlowSync } from '../api/types';
import type { HistoryEntry } from './entry';
import { plausibleStart } from '../base/plausibleTime';
import { NO_OLDER_DAYS, bucketValue, durationBucket, type OlderDays } from './summary';

/** Typical durations of one flow's observed runs. */
export interface FlowStats {
  readonly runs: number;
  readonly medianMs: number;
  /** 95th percentile, nearest rank: with fewer than 20 runs, the longest. */
  readonly p95Ms: number;
}

const MINUTE = 60_000;

/** A flow's learned stuck threshold needs this many observed runs; before that, nothing of it is stuck. */
export const STUCK_MIN_RUNS = 5;
/** The learned threshold is this many times the flow's 95th percentile … */
export const STUCK_P95_FACTOR = 3;
/** … and never below this (a flow whose runs take seconds is not stuck after a minute) … */
export const STUCK_FLOOR_MS = 10 * MINUTE;
/** … nor above this, the most `flowsync.stuckAfterMinutes` takes (10,080 minutes: 7 days). */
export const STUCK_CEILING_MS = 7 * 24 * 60 * MINUTE;

/**
 * Runs, median and 95th percentile of the durations of each flow's entries. Only durations from the service's start
 * count: a run whose created_at cannot be true (see plausibleStart) has only a lower bound, measured from when it was
 * first seen, and is not learned from (one run claiming 1970 would otherwise set its flow's threshold to a century).
 * With `older` (days whose runs are not all in memory): a flow with runs in those days gets its figures from a
 * histogram of their summaries and its runs in memory from `older.before` on (within a factor √R: see summary.ts).
 */
export function flowStats(entries: Iterable<HistoryEntry>, older: OlderDays = NO_OLDER_DAYS): Map<number, FlowStats> {
  const durations = new Map<number, number[]>();
  // Team History: runs only teammates saw (seenHere false) are anyone's to write. They teach only a flow this window
  // has not learned itself (fewer than STUCK_MIN_RUNS runs seen here), so a few hostile rows never move its figures.
  const theirs = new Map<number, number[]>();
  for (const e of entries) {
    if (e.duration.from !== 'created' || e.leftAt < older.before) continue;
    const into = e.seenHere === false ? theirs : durations;
    const list = into.get(e.flowId);
    if (list) list.push(e.duration.ms);
    else into.set(e.flowId, [e.duration.ms]);
  }
  for (const [flowId, list] of theirs) {
    const mine = durations.get(flowId);
    if (!mine) durations.set(flowId, list);
    else if (mine.length < STUCK_MIN_RUNS) mine.push(...list);
  }
  // Older days (summaries, when the runs in memory do not reach them): their flows' histograms.
  const histograms = new Map<number, Map<number, number>>();
  for (const day of older.days) {
    for (const f of day.flows) {
      if (f.durations.length === 0) continue;
      let h = histograms.get(f.flowId);
      if (!h) histograms.set(f.flowId, (h = new Map()));
      for (let i = 0; i < f.durations.length; i += 2) {
        h.set(f.durations[i], (h.get(f.durations[i]) ?? 0) + f.durations[i + 1]);
      }
    }
  }
  const stats = new Map<number, FlowStats>();
  for (const [flowId, list] of durations) {
    if (histograms.has(flowId)) continue;
    const sorted = Float64Array.from(list).sort();
    stats.set(flowId, { runs: sorted.length, medianMs: median(sorted), p95Ms: percentile(sorted, 95) });
  }
  for (const [flowId, h] of histograms) {
    for (const ms of durations.get(flowId) ?? []) {
      const b = durationBucket(ms);
      h.set(b, (h.get(b) ?? 0) + 1);
    }
    stats.set(flowId, histogramStats(h));
  }
  return stats;
}

/** Runs, median and p95 of a duration histogram (see summary.ts: each within a factor √R of the exact value's bucket). */
export function histogramStats(histogram: ReadonlyMap<number, number>): FlowStats {
  const { runs, percentile } = histogramPercentiles(histogram);
  return { runs, medianMs: percentile(50), p95Ms: percentile(95) };
}

/**
 * The runs of a duration histogram (bucket -> runs) and its percentiles, each a bucket's value (see summary.ts): p 50
 * the median (the mean of the middle two for an even count), any other p by nearest rank. The one reading of a
 * histogram, for typical durations and for Flow Insights.
 */
export function histogramPercentiles(histogram: ReadonlyMap<number, number>): {
  runs: number;
  percentile(p: number): number;
} {
  const buckets = [...histogram].sort((a, b) => a[0] - b[0]);
  const runs = buckets.reduce((acc, [, n]) => acc + n, 0);
  /** The value of the run at rank r (1-based, ascending). */
  const at = (r: number) => {
    let seen = 0;
    for (const [bucket, n] of buckets) {
      seen += n;
      if (seen >= r) return bucketValue(bucket);
    }
    return NaN;
  };
  const percentile = (p: number) => {
    if (p === 50) {
      const mid = runs >> 1;
      return runs % 2 ? at(mid + 1) : (at(mid) + at(mid + 1)) / 2;
    }
    return at(Math.min(runs, Math.max(1, Math.ceil((p / 100) * runs))));
  };
  return { runs, percentile };
}

/** The median of ascending values (the mean of the middle two for an even count); NaN for none. */
export function median(sorted: ArrayLike<number>): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const mid = n >> 1;
  return n % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The p-th percentile (0–100) of ascending values by nearest rank: a value that occurred; NaN for none. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const rank = Math.ceil((Math.min(100, Math.max(0, p)) / 100) * n);
  return sorted[Math.min(n, Math.max(1, rank)) - 1];
}

/**
 * When a processing sync of a flow counts as stuck: after `stuckAfterMinutes` when that is positive; when it is 0
 * (learn), after STUCK_P95_FACTOR × the flow's p95 once it has STUCK_MIN_RUNS runs, within [STUCK_FLOOR_MS,
 * STUCK_CEILING_MS]; before
 * that, undefined (never stuck). A negative or non-numeric setting counts as 0.
 */
export function stuckThresholdMs(stats: FlowStats | undefined, stuckAfterMinutes: number): number | undefined {
  if (Number.isFinite(stuckAfterMinutes) && stuckAfterMinutes > 0) return stuckAfterMinutes * MINUTE;
  if (!stats || stats.runs < STUCK_MIN_RUNS || !Number.isFinite(stats.p95Ms)) return undefined;
  return Math.min(STUCK_CEILING_MS, Math.max(STUCK_FLOOR_MS, STUCK_P95_FACTOR * stats.p95Ms));
}

/**
 * How long a sync has been processing: from its plausible start (created_at when that can be true, else `firstSeen`,
 * a lower bound, if given: see plausibleStart); else undefined. Never negative.
 */
export function processingAgeMs(
  sync: Pick<FlowSync, 'created_at'>,
  now: number,
  firstSeen?: number,
): number | undefined {
  const start = plausibleStart(sync.created_at, firstSeen, now);
  return start === undefined ? undefined : Math.max(0, now - start.ms);
}

/** True when the sync's age is over the threshold; never without a threshold or an age. */
export function isStuck(
  sync: Pick<FlowSync, 'created_at'>,
  now: number,
  thresholdMs: number | undefined,
  firstSeen?: number,
): boolean {
  if (thresholdMs === undefined) return false;
  const age = processingAgeMs(sync, now, firstSeen);
  return age !== undefined && age > thresholdMs;
}

import { inert } from '../base/inert';
import { DAY_MS, MAX_FLOW_NAME, entryFlowLabel, type HistoryEntry } from './entry';

/*
 * Per-day, per-flow summaries of History: what typical durations (flowStats) and the week chart (activitySeries) need
 * of the days whose runs are not held in memory, in a few hundred bytes per flow and day instead of every run.
 * - Durations: a histogram on a log scale, DURATION_STEPS buckets per doubling (bucket i holds [R^i, R^(i+1)) ms,
 *   R = 2^(1/16)). A percentile read from it is the bucket's geometric middle: within a factor √R (±2.2 %) of the
 *   duration at that rank.
 * - Processing time per hour (the week chart's bucket), by hour since the epoch: exact (the same overlaps
 *   activitySeries adds up), for the hours of the week before the day's end.
 * A summary is of the runs of one UTC day (by leftAt) after all windows' files of that day are merged (each run once).
 */

/** Histogram buckets per doubling of the duration. */
export const DURATION_STEPS = 16;
const LOG_R = Math.LN2 / DURATION_STEPS;
/** Durations above 2^45 ms (about 1,100 years) are counted in the last bucket. */
const MAX_BUCKET = 45 * DURATION_STEPS;
const HOUR = 3_600_000;
/** Hours before a day's end a summary keeps processing time for (the week chart's span). */
const SPAN_HOURS = 8 * 24;
/** Bounds of a summary read from disk. */
const MAX_SUMMARY_FLOWS = 5_000;
const MAX_COUNT = 1e9;

/** One flow's runs of one day. */
interface FlowDay {
  readonly flowId: number;
  /** The flow's label at its latest run of the day, and when that run left. */
  readonly label: string;
  readonly labelAt: number;
  /**
   * Runs whose duration counts from created_at (the ones flowStats learns from), per histogram bucket: flat pairs
   * bucket, count, bucket, count, … by ascending bucket (one array of numbers: small in memory at 90 days).
   */
  readonly durations: readonly number[];
  /** Processing milliseconds per hour (by hour since the epoch): flat pairs hour, ms, … by ascending hour. */
  readonly hours: readonly number[];
}

/** The summary of one day's runs. */
export interface DaySummary {
  readonly day: string;
  /** All runs of the day (each once). */
  readonly runs: number;
  readonly flows: readonly FlowDay[];
}

/**
 * The days whose runs are not all held in memory: their summaries, and the start of the first day held whole. Runs in
 * memory that left before `before` are not counted again (the summaries hold them).
 */
export interface OlderDays {
  readonly before: number;
  readonly days: readonly DaySummary[];
}

/** No older days: everything is in memory. */
export const NO_OLDER_DAYS: OlderDays = { before: -Infinity, days: [] };

/** The histogram bucket of a duration (ms). */
export function durationBucket(ms: number): number {
  if (!(ms >= 1)) return 0;
  return Math.min(MAX_BUCKET, Math.floor(Math.log(ms) / LOG_R) + 1);
}

/** The value a bucket stands for: its geometric middle (0 for bucket 0, the durations under 1 ms). */
export function bucketValue(bucket: number): number {
  return bucket <= 0 ? 0 : Math.exp((bucket - 0.5) * LOG_R);
}

/** A run's processing span as the activity chart counts it: from the earlier of its start and first seen, to the midpoint of its departure. */
export function processingSpan(e: HistoryEntry): { start: number; end: number } {
  return { start: Math.min(e.duration.startMs, e.firstSeen), end: e.lastSeen + (e.leftAt - e.lastSeen) / 2 };
}

/** Summarizes one day's runs (merged: each run once). */
export function summarizeDay(day: string, entries: Iterable<HistoryEntry>): DaySummary {
  const dayEnd = Date.parse(`${day}T00:00:00.000Z`) + DAY_MS;
  const from = dayEnd - SPAN_HOURS * HOUR;
  const flows = new Map<
    number,
    { label: string; labelAt: number; durations: Map<number, number>; hours: Map<number, number> }
  >();
  let runs = 0;
  for (const e of entries) {
    runs++;
    let f = flows.get(e.flowId);
    if (!f) {
      flows.set(
        e.flowId,
        (f = { label: entryFlowLabel(e), labelAt: e.leftAt, durations: new Map(), hours: new Map() }),
      );
    } else if (e.leftAt > f.labelAt) [f.label, f.labelAt] = [entryFlowLabel(e), e.leftAt];
    if (e.duration.from === 'created') {
      const b = durationBucket(e.duration.ms);
      f.durations.set(b, (f.durations.get(b) ?? 0) + 1);
    }
    const span = processingSpan(e);
    const s = Math.max(span.start, from);
    const end = Math.min(span.end, dayEnd);
    for (let h = Math.floor(s / HOUR); h * HOUR < end; h++) {
      const overlap = Math.min(end, (h + 1) * HOUR) - Math.max(s, h * HOUR);
      if (overlap > 0) f.hours.set(h, (f.hours.get(h) ?? 0) + overlap);
    }
  }
  const sorted = (m: Map<number, number>) => [...m].sort((a, b) => a[0] - b[0]).flat();
  return {
    day,
    runs,
    flows: [...flows].map(([flowId, f]) => ({
      flowId,
      label: f.label,
      labelAt: f.labelAt,
      durations: sorted(f.durations),
      hours: sorted(f.hours),
    })),
  };
}

/** A summary as read from disk (JSON), checked field by field; undefined when anything is off. */
export function summaryOf(value: unknown): DaySummary | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as { day?: unknown; runs?: unknown; flows?: unknown };
  if (
    typeof v.day !== 'string' ||
    !/^\d{4}-\d{2}-\d{2}$/.test(v.day) ||
    !count(v.runs) ||
    !Array.isArray(v.flows) ||
    v.flows.length > MAX_SUMMARY_FLOWS
  ) {
    return undefined;
  }
  const dayEnd = Date.parse(`${v.day}T00:00:00.000Z`) + DAY_MS;
  if (!Number.isFinite(dayEnd)) return undefined;
  const firstHour = dayEnd / HOUR - SPAN_HOURS;
  const flows: FlowDay[] = [];
  for (const f of v.flows as unknown[]) {
    if (typeof f !== 'object' || f === null) return undefined;
    const { flowId, label, labelAt, durations, hours } = f as Record<string, unknown>;
    if (
      !Number.isSafeInteger(flowId) ||
      (flowId as number) < 0 ||
      typeof label !== 'string' ||
      !Number.isSafeInteger(labelAt)
    ) {
      return undefined;
    }
    const d = pairs(durations, 0, MAX_BUCKET, MAX_COUNT);
    const h = pairs(hours, firstHour, firstHour + SPAN_HOURS - 1, HOUR * MAX_COUNT);
    if (!d || !h) return undefined;
    flows.push({
      flowId: flowId as number,
      label: inert(label, MAX_FLOW_NAME),
      labelAt: labelAt as number,
      durations: d,
      hours: h,
    });
  }
  return { day: v.day, runs: v.runs as number, flows };
}

function count(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= MAX_COUNT;
}

/** Flat pairs key, value, … with integer keys in [min, max], ascending, and finite values in [0, maxValue]. */
function pairs(value: unknown, min: number, max: number, maxValue: number): number[] | undefined {
  if (!Array.isArray(value) || value.length % 2 || value.length > 2 * (max - min + 1)) return undefined;
  let last = -Infinity;
  for (let i = 0; i < value.length; i += 2) {
    const k: unknown = value[i];
    const n: unknown = value[i + 1];
    if (!Number.isSafeInteger(k) || (k as number) < min || (k as number) > max || (k as number) <= last) {
      return undefined;
    }
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0 || n > maxValue) return undefined;
    last = k as number;
  }
  return value as number[];
}

import { t } from '../base/l10n';
import { entryFlowLabel, flowNameOf, type HistoryEntry } from './entry';
import { plausibleStart } from '../base/plausibleTime';
import type { Tracked } from './observer';
import { NO_OLDER_DAYS, processingSpan, type OlderDays } from './summary';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export type ActivityRange = 'hour' | 'day' | 'week';

/** Each range's span and bucket: 60 × 1 min, 96 × 15 min, 168 × 1 h. */
export const ACTIVITY_RANGES: Readonly<Record<ActivityRange, { spanMs: number; bucketMs: number }>> = {
  hour: { spanMs: HOUR, bucketMs: MINUTE },
  day: { spanMs: 24 * HOUR, bucketMs: 15 * MINUTE },
  week: { spanMs: 7 * 24 * HOUR, bucketMs: HOUR },
};

/** Flows shown by name in the chart; the rest are summed into "other flows". */
const DEFAULT_TOP_FLOWS = 5;

/** A sync processing now, as the chart needs it (see processingNow). */
export interface ProcessingNow {
  readonly flowId: number;
  readonly flowName: string;
  readonly createdAt: string;
  readonly firstSeen: number;
}

/** One stacked band of the chart: a flow, or 'other' for the flows beyond the top N. */
interface ActivityBand {
  readonly key: number | 'other';
  readonly label: string;
  /** Per bucket: the average number of this band's syncs processing during it. */
  readonly values: number[];
}

export interface ActivitySeries {
  readonly range: ActivityRange;
  readonly bucketMs: number;
  /** Start of each bucket (ms); buckets are aligned to multiples of bucketMs since the epoch; the last one holds now. */
  readonly times: number[];
  /** Biggest first (by processing time in the range); 'other' last. Stacked, they sum to `total`. */
  readonly bands: ActivityBand[];
  readonly total: number[];
}

/** The syncs the observer sees processing, for the chart; `hide` (the key) is masked in their flow names. */
export function processingNow(tracked: ReadonlyMap<number, Tracked>, hide?: string): ProcessingNow[] {
  return [...tracked.values()].map((s) => ({
    flowId: s.sync.flow_id,
    flowName: flowNameOf(s.sync, hide),
    createdAt: s.sync.created_at,
    firstSeen: s.firstSeen,
  }));
}

interface Flow {
  label: string;
  labelAt: number;
  ms: Float64Array;
  totalMs: number;
}

/** A range's buckets up to now (the last one holds now) and each flow's processing time in them. */
interface Buckets {
  readonly now: number;
  readonly bucketMs: number;
  readonly count: number;
  /** Start of the first and of the last bucket (ms). */
  readonly first: number;
  readonly last: number;
  readonly flows: Map<number, Flow>;
}

/**
 * How many syncs were processing over the last hour, day or week, stacked by flow: per bucket, the time-weighted
 * average count (so 15-minute and hourly buckets show load, not throughput; the last, partial bucket is averaged over
 * its elapsed part). A sync processed from the earlier of its plausible start (created_at when that can be true, else
 * first seen: see plausibleStart) and first seen, to the midpoint of the time it left (entries) or to now (the syncs
 * processing now). With `older` (days whose runs are not all in memory), the week's hours of those days come from
 * their summaries and only runs in memory that left from `older.before` on are counted.
 */
export function activitySeries(
  entries: Iterable<HistoryEntry>,
  processing: Iterable<ProcessingNow>,
  now: number,
  range: ActivityRange,
  topN = DEFAULT_TOP_FLOWS,
  older: OlderDays = NO_OLDER_DAYS,
): ActivitySeries {
  const { spanMs, bucketMs } = ACTIVITY_RANGES[range];
  const count = spanMs / bucketMs;
  const last = Math.floor((now - 1) / bucketMs) * bucketMs;
  const buckets: Buckets = { now, bucketMs, count, first: last - (count - 1) * bucketMs, last, flows: new Map() };
  for (const e of entries) {
    if (e.leftAt < buckets.first || e.leftAt < older.before) continue;
    const span = processingSpan(e);
    addSpan(buckets, e.flowId, entryFlowLabel(e), e.leftAt, span.start, span.end);
  }
  // Days not all in memory: their summaries' processing time per hour (the week's bucket; shorter ranges are in memory).
  if (bucketMs === HOUR) addOlderHours(buckets, older);
  for (const p of processing) {
    const start = Math.min(plausibleStart(p.createdAt, p.firstSeen, now).ms, p.firstSeen);
    addSpan(buckets, p.flowId, entryFlowLabel(p), now, start, now);
  }
  const times = Array.from({ length: count }, (_, i) => buckets.first + i * bucketMs);
  const bands = rankedBands(buckets, topN);
  const total = times.map((_, i) => bands.reduce((acc, band) => acc + band.values[i], 0));
  return { range, bucketMs, times, bands, total };
}

/** A flow's processing time per bucket, made when first met; its label is the one of its latest run. */
function flowIn(buckets: Buckets, flowId: number, label: string, labelAt: number): Flow {
  let flow = buckets.flows.get(flowId);
  if (!flow) buckets.flows.set(flowId, (flow = { label, labelAt, ms: new Float64Array(buckets.count), totalMs: 0 }));
  else if (labelAt > flow.labelAt) [flow.label, flow.labelAt] = [label, labelAt];
  return flow;
}

/** Adds a sync processing from `start` to `end` to each bucket it overlaps (the part from the first bucket to now). */
function addSpan(buckets: Buckets, flowId: number, label: string, labelAt: number, start: number, end: number): void {
  const { bucketMs, count, first } = buckets;
  const s = Math.max(start, first);
  const e = Math.min(end, buckets.now);
  if (!(e > s)) return;
  const flow = flowIn(buckets, flowId, label, labelAt);
  const i1 = Math.min(count - 1, Math.floor((e - first - 1) / bucketMs));
  for (let i = Math.floor((s - first) / bucketMs); i <= i1; i++) {
    const b = first + i * bucketMs;
    const overlap = Math.min(e, b + bucketMs) - Math.max(s, b);
    flow.ms[i] += overlap;
    flow.totalMs += overlap;
  }
}

/** Adds the processing time per hour of the days' summaries to the hourly buckets (the week's) they fall in. */
function addOlderHours(buckets: Buckets, older: OlderDays): void {
  const { bucketMs, count, first } = buckets;
  for (const day of older.days) {
    for (const f of day.flows) {
      for (let k = 0; k < f.hours.length; k += 2) {
        const hour = f.hours[k];
        const ms = f.hours[k + 1];
        const i = (hour * HOUR - first) / bucketMs;
        if (!(ms > 0 && i >= 0 && i < count - 1)) continue; // the last bucket holds now: never a closed day's
        const flow = flowIn(buckets, f.flowId, f.label, f.labelAt);
        flow.ms[i] += ms;
        flow.totalMs += ms;
      }
    }
  }
}

/**
 * The flows as bands of average counts per bucket: the `topN` with the most processing time first (the lower flow id
 * first on a tie), then the rest summed into one band, named by its flow when it is one, else "N other flows".
 */
function rankedBands(buckets: Buckets, topN: number): ActivityBand[] {
  const { bucketMs, count, now, last } = buckets;
  const length = (i: number) => (i === count - 1 ? now - last : bucketMs);
  const averages = (ms: Float64Array) => Array.from(ms, (v, i) => v / length(i));
  const ranked = [...buckets.flows.entries()].sort(([ka, a], [kb, b]) => b.totalMs - a.totalMs || ka - kb);
  const bands: ActivityBand[] = ranked
    .slice(0, Math.max(0, topN))
    .map(([key, f]) => ({ key, label: f.label, values: averages(f.ms) }));
  const rest = ranked.slice(Math.max(0, topN));
  if (rest.length) {
    const sum = new Float64Array(count);
    for (const [, f] of rest) for (let i = 0; i < count; i++) sum[i] += f.ms[i];
    bands.push({
      key: 'other',
      label: rest.length === 1 ? rest[0][1].label : t('{0} other flows', rest.length),
      values: averages(sum),
    });
  }
  return bands;
}

const BLOCKS = '▁▂▃▄▅▆▇█';

/**
 * "▁▂▅▇▅▂": one block per value, scaled to the largest; zero (or nothing) is the lowest block, any positive value at
 * least the second. With `width`, values are first averaged in equal groups down to at most that many blocks.
 */
export function sparkline(values: readonly number[], width = Infinity): string {
  let v = values.map((x) => (Number.isFinite(x) && x > 0 ? x : 0));
  if (v.length > width && width >= 1) {
    const size = Math.ceil(v.length / Math.floor(width));
    const grouped: number[] = [];
    for (let i = 0; i < v.length; i += size) {
      const part = v.slice(i, i + size);
      grouped.push(part.reduce((a, b) => a + b, 0) / part.length);
    }
    v = grouped;
  }
  const max = Math.max(0, ...v);
  return v.map((x) => BLOCKS[x > 0 ? Math.min(7, Math.max(1, Math.ceil((x / max) * 7))) : 0]).join('');
}

/** The status bar tooltip's line: the last hour's processing count, 30 blocks of 2 minutes. */
export function activitySparkline(
  entries: Iterable<HistoryEntry>,
  processing: Iterable<ProcessingNow>,
  now: number,
  width = 30,
): string {
  return sparkline(activitySeries(entries, processing, now, 'hour', 0).total, width);
}

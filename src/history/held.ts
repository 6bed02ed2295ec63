import { bounded } from '../settings/settingValues';
import { DAY_MS, HISTORY_DAYS, compareNewestFirst, withoutRaw, type HistoryEntry } from './entry';
import { histogramStats, median, percentile, type FlowStats } from './stats';
import { HISTORY_CAP, RAW_KEPT, mergeSegments, pruneEntries } from './store';
import { durationBucket, type OlderDays } from './summary';

/** The runs a window holds (newest first) and their flows' typical durations. */
export interface Held {
  readonly entries: HistoryEntry[];
  readonly stats: Map<number, FlowStats>;
}

/**
 * What a poll with departures does to the runs a window holds, in time proportional to the change: the same results as
 * `pruneEntries(mergeSegments([entries, left]), now, days)` and `flowStats` of them with `older`, without a pass over
 * every held run. It keeps, for the array it returned last (and the `older` it was given), per flow the held durations
 * flowStats learns from (ascending) and, for flows with older days, their histogram; per sync id the runs held; and
 * how many keep their raw item. A departure goes in by binary search, the runs pruned (the days, the cap) come off the
 * ends, and only the flows they touch are figured again. Anything else falls back to the full computation:
 * `entries` or `older` not the ones it saw last (a load, a setting, a clear, new summaries: it indexes them once), or a
 * departure whose sync id is held already (the merge may make one run of two: mergeSegments decides).
 * Only which flows the stats map holds and their figures are the same: its order of iteration may differ.
 */
export class HeldRuns {
  private entries: readonly HistoryEntry[] | undefined;
  private older: OlderDays | undefined;
  private stats = new Map<number, FlowStats>();
  /** Per flow: the durations (ms, ascending) of the held runs that flowStats learns from. */
  private readonly durations = new Map<number, number[]>();
  /** Per flow with runs in the older days: their histogram, added up as flowStats does. */
  private readonly summaries = new Map<number, Map<number, number>>();
  /** Per flow with runs in the older days: its held durations per histogram bucket. */
  private readonly buckets = new Map<number, Map<number, number>>();
  /** Held runs per sync id. */
  private readonly ids = new Map<number, number>();
  /** Held runs that keep their raw item. */
  private raws = 0;
  /** Whether the held runs are newest first (pruneEntries' order; else every departure takes the full computation). */
  private sorted = true;

  constructor(
    private readonly cap = HISTORY_CAP,
    private readonly rawKept = RAW_KEPT,
  ) {}

  /** The held runs with the runs that left added (merged, pruned to `days` before `now` and the cap), and their stats. */
  depart(
    entries: readonly HistoryEntry[],
    older: OlderDays,
    left: readonly HistoryEntry[],
    now: number,
    days: number,
  ): Held {
    if (entries !== this.entries || older !== this.older) this.index(entries, older);
    if (!this.separate(entries, left)) {
      const kept = pruneEntries(mergeSegments([entries, left]), now, days, this.cap, this.rawKept);
      this.index(kept, older);
      return { entries: kept, stats: this.stats };
    }
    // mergeSegments of runs that share no sync id: both lists, newest first; the merge keeps a held run before a
    // departure that compares equal (as the stable sort of mergeSegments does). One array for it (and, cut in place,
    // for the runs kept): a copy of the held runs is a large object (V8 allocates arrays over 128 KB one by one), the
    // cost of a poll at the cap.
    const added = [...left].sort(compareNewestFirst);
    const merged = mergedInPlace(entries, added);
    // pruneEntries: leftAt within [now − days, now + a day] (a range of the sorted list), then the newest `cap`.
    const from = now - bounded(days, HISTORY_DAYS) * DAY_MS;
    const to = now + DAY_MS;
    let start = 0;
    while (start < merged.length && merged[start].leftAt > to) start++;
    let end = merged.length;
    while (end > start && merged[end - 1].leftAt < from) end--;
    end = Math.min(end, start + Math.max(0, this.cap));
    const touched = new Set<number>();
    const isNew = new Set<HistoryEntry>(left);
    const dropped = new Set<HistoryEntry>();
    const drop = (e: HistoryEntry) => (isNew.has(e) ? dropped.add(e) : this.remove(e, touched));
    for (let i = 0; i < start; i++) drop(merged[i]);
    for (let i = end; i < merged.length; i++) drop(merged[i]);
    // merged.slice(start, end), in place.
    if (start > 0) merged.copyWithin(0, start, end);
    merged.length = end - start;
    const kept = merged;
    for (const e of added) if (!dropped.has(e)) this.add(e, touched);
    // The newest rawKept runs with a raw item keep it: pass the held ones, up to the last.
    let raws = this.raws;
    for (const e of added) if (e.raw && !dropped.has(e)) raws++;
    let seen = 0;
    for (let i = 0; i < kept.length && seen < raws; i++) {
      const e = kept[i];
      if (!e.raw) continue;
      if (seen++ >= this.rawKept) kept[i] = withoutRaw(e);
    }
    this.raws = Math.min(raws, this.rawKept);
    this.stats = new Map(this.stats);
    for (const flowId of touched) this.figure(flowId);
    this.entries = kept;
    return { entries: kept, stats: this.stats };
  }

  /** True when no departure's sync id is held (nor twice among them), and the held runs are the larger list. */
  private separate(entries: readonly HistoryEntry[], left: readonly HistoryEntry[]): boolean {
    if (!this.sorted || left.length > entries.length) return false;
    const ids = new Set<number>();
    for (const e of left) {
      if (ids.has(e.id) || this.ids.has(e.id)) return false;
      ids.add(e.id);
    }
    return true;
  }

  /** Everything from scratch, for `entries` (newest first, as pruneEntries returns them) and `older`. */
  private index(entries: readonly HistoryEntry[], older: OlderDays): void {
    this.entries = entries;
    this.older = older;
    this.durations.clear();
    this.summaries.clear();
    this.buckets.clear();
    this.ids.clear();
    this.raws = 0;
    this.sorted = true;
    for (let i = 1; i < entries.length && this.sorted; i++) {
      this.sorted = compareNewestFirst(entries[i - 1], entries[i]) <= 0;
    }
    for (const day of older.days) {
      for (const f of day.flows) {
        if (f.durations.length === 0) continue;
        let h = this.summaries.get(f.flowId);
        if (!h) this.summaries.set(f.flowId, (h = new Map()));
        for (let i = 0; i < f.durations.length; i += 2) {
          h.set(f.durations[i], (h.get(f.durations[i]) ?? 0) + f.durations[i + 1]);
        }
      }
    }
    for (const e of entries) {
      this.ids.set(e.id, (this.ids.get(e.id) ?? 0) + 1);
      if (e.raw) this.raws++;
      if (!this.learns(e)) continue;
      const list = this.durations.get(e.flowId);
      if (list) list.push(e.duration.ms);
      else this.durations.set(e.flowId, [e.duration.ms]);
    }
    this.stats = new Map();
    for (const [flowId, list] of this.durations) {
      list.sort((a, b) => a - b);
      if (this.summaries.has(flowId)) {
        const b = new Map<number, number>();
        for (const ms of list) b.set(durationBucket(ms), (b.get(durationBucket(ms)) ?? 0) + 1);
        this.buckets.set(flowId, b);
      } else this.figure(flowId);
    }
    for (const flowId of this.summaries.keys()) this.figure(flowId);
  }

  /** flowStats learns from a run when its duration counts from created_at and the summaries do not hold its day. */
  private learns(e: HistoryEntry): boolean {
    return e.duration.from === 'created' && !(e.leftAt < this.older!.before);
  }

  private add(e: HistoryEntry, touched: Set<number>): void {
    this.ids.set(e.id, (this.ids.get(e.id) ?? 0) + 1);
    if (!this.learns(e)) return;
    let list = this.durations.get(e.flowId);
    if (!list) this.durations.set(e.flowId, (list = []));
    list.splice(lowerBound(list, e.duration.ms), 0, e.duration.ms);
    this.count(e, 1);
    touched.add(e.flowId);
  }

  private remove(e: HistoryEntry, touched: Set<number>): void {
    const n = (this.ids.get(e.id) ?? 0) - 1;
    if (n > 0) this.ids.set(e.id, n);
    else this.ids.delete(e.id);
    if (e.raw) this.raws--;
    if (!this.learns(e)) return;
    const list = this.durations.get(e.flowId)!;
    list.splice(lowerBound(list, e.duration.ms), 1);
    if (list.length === 0) this.durations.delete(e.flowId);
    this.count(e, -1);
    touched.add(e.flowId);
  }

  /** A held duration of a flow with older days, in or out of its buckets. */
  private count(e: HistoryEntry, by: 1 | -1): void {
    if (!this.summaries.has(e.flowId)) return;
    let b = this.buckets.get(e.flowId);
    if (!b) this.buckets.set(e.flowId, (b = new Map()));
    const bucket = durationBucket(e.duration.ms);
    const n = (b.get(bucket) ?? 0) + by;
    if (n > 0) b.set(bucket, n);
    else b.delete(bucket);
  }

  /** One flow's figures, as flowStats makes them: from its durations, or from its older days' histogram and them. */
  private figure(flowId: number): void {
    const summary = this.summaries.get(flowId);
    if (summary) {
      const h = new Map(summary);
      for (const [bucket, n] of this.buckets.get(flowId) ?? []) {
        const base = h.get(bucket) ?? 0;
        // flowStats adds 1 per run: the same as adding n at once for whole counts; a count from disk may be fractional.
        if (Number.isSafeInteger(base) && Number.isSafeInteger(base + n)) h.set(bucket, base + n);
        else {
          let sum = base;
          for (let i = 0; i < n; i++) sum += 1;
          h.set(bucket, sum);
        }
      }
      this.stats.set(flowId, histogramStats(h));
      return;
    }
    const list = this.durations.get(flowId);
    if (list) this.stats.set(flowId, { runs: list.length, medianMs: median(list), p95Ms: percentile(list, 95) });
    else this.stats.delete(flowId);
  }
}

/**
 * `entries` (newest first) and `added` (newest first) as one list, newest first, in a new array (the only copy): each
 * of `added` after the held runs that compare equal to it, in its order among `added`. Filled from the end, in place
 * (a merge into the room at the end of the copy): the held runs before the newest departure's place are not moved.
 */
function mergedInPlace(entries: readonly HistoryEntry[], added: readonly HistoryEntry[]): HistoryEntry[] {
  const merged = entries.concat(added);
  let i = entries.length - 1;
  let j = added.length - 1;
  for (let w = merged.length - 1; j >= 0; w--) {
    if (i >= 0 && compareNewestFirst(entries[i], added[j]) > 0) merged[w] = entries[i--];
    else merged[w] = added[j--];
  }
  return merged;
}

/** The first index of an ascending list whose value is not below `value`. */
function lowerBound(list: readonly number[], value: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The Run Timeline's layout, pure (no DOM, no vscode): the page (src/timeline/webview/timeline.ts) draws what it says.
 * The visible window (zoom from MIN_SPAN_MS to MAX_SPAN_MS, pan), the runs of each lane found by binary search (only
 * what is visible is laid out), bars narrower than a pixel gathered into one mark, the keyboard's way from bar to bar,
 * each bar's accessible name, and the table of the same runs.
 */
import { MAX_SPAN_MS, MIN_SPAN_MS, RUN_FLAG, type TimelineRuns } from './timelineMessages';
import type { NameStrings } from './timelineStrings';

/** The visible window: from `start`, `span` ms wide. */
export interface TimelineWindow {
  readonly start: number;
  readonly span: number;
}

const EARLIEST = Date.UTC(2000, 0, 1);
/** The window's right edge may go past now by this share of its span (room for the runs that grow). */
const AHEAD = 0.05;
/** The window shown first: the last 24 hours. */
const FIRST_SPAN_MS = 24 * 3_600_000;

/** A window within bounds: its span between one hour and 90 days, not ending later than now (+ AHEAD), not before 2000. */
export function clampWindow(w: TimelineWindow, now: number): TimelineWindow {
  const span = Math.min(MAX_SPAN_MS, Math.max(MIN_SPAN_MS, Number.isFinite(w.span) ? w.span : FIRST_SPAN_MS));
  const latest = now + span * AHEAD - span;
  const start = Math.max(EARLIEST, Math.min(latest, Number.isFinite(w.start) ? w.start : latest));
  return { start, span };
}

/** The window first shown: the last 24 hours up to now. */
export function firstWindow(now: number): TimelineWindow {
  return clampWindow({ start: now, span: FIRST_SPAN_MS }, now);
}

/**
 * The window a timeline opens on: up to now, as wide as the runs of the last 24 hours need (from the earliest start
 * among them, with a margin), at least an hour, at most 24 hours (the last 24 hours when none ran in them).
 */
export function fitWindow(index: RunIndex, now: number): TimelineWindow {
  const since = now - FIRST_SPAN_MS;
  let earliest = Infinity;
  for (let lane = 0; lane < index.lanes; lane++) {
    index.visible(lane, { start: since, span: FIRST_SPAN_MS }, (run) => {
      earliest = Math.min(earliest, Math.max(since, index.runs.start[run]));
    });
  }
  if (earliest === Infinity) return firstWindow(now);
  const span = Math.min(FIRST_SPAN_MS, Math.max(0, now - earliest) * 1.15);
  return clampWindow({ start: now, span }, now);
}

/** Zoomed by `factor` (< 1: in, > 1: out) around the point at `anchor` (0: the left edge, 1: the right), in bounds. */
export function zoomWindow(w: TimelineWindow, factor: number, now: number, anchor = 0.5): TimelineWindow {
  const span = Math.min(MAX_SPAN_MS, Math.max(MIN_SPAN_MS, w.span * factor));
  const at = w.start + w.span * anchor;
  return clampWindow({ start: at - span * anchor, span }, now);
}

/** Moved by `share` of its span (< 0: earlier), in bounds. */
export function panWindow(w: TimelineWindow, share: number, now: number): TimelineWindow {
  return clampWindow({ start: w.start + w.span * share, span: w.span }, now);
}

/** Where each lane's runs are (the runs are ordered by lane, then start) and each lane's longest run. */
export class RunIndex {
  /** Lane l's runs are [from[l], from[l + 1]). */
  private readonly from: Int32Array;
  private readonly longest: Float64Array;

  constructor(
    readonly runs: TimelineRuns,
    readonly lanes: number,
    private readonly now: number,
  ) {
    this.from = new Int32Array(lanes + 1);
    this.longest = new Float64Array(lanes);
    const n = runs.id.length;
    let at = 0;
    for (let lane = 0; lane < lanes; lane++) {
      this.from[lane] = at;
      while (at < n && runs.lane[at] === lane) {
        this.longest[lane] = Math.max(this.longest[lane], this.endOf(at) - runs.start[at]);
        at++;
      }
    }
    this.from[lanes] = at;
  }

  get size(): number {
    return this.from[this.lanes];
  }

  /** The latest a run can have ended: when seen gone, or now while processing. */
  endOf(run: number): number {
    const end = this.runs.end[run];
    return end < 0 ? this.now : end;
  }

  /** The runs of a lane: [first, last). */
  laneRuns(lane: number): [number, number] {
    return [this.from[lane], this.from[lane + 1]];
  }

  /** The first run of `lane` whose start is at or after `time` (its last run + 1 when none). */
  firstFrom(lane: number, time: number): number {
    let [lo, hi] = this.laneRuns(lane);
    const start = this.runs.start;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (start[mid] < time) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Calls `each` with every run of `lane` that overlaps the window, in order of start. */
  visible(lane: number, w: TimelineWindow, each: (run: number) => void): void {
    const last = this.from[lane + 1];
    const end = w.start + w.span;
    const start = this.runs.start;
    for (let run = this.firstFrom(lane, w.start - this.longest[lane]); run < last && start[run] <= end; run++) {
      if (this.endOf(run) >= w.start) each(run);
    }
  }
}

/**
 * One mark drawn: a run (`run`, `count` 1) or several runs narrower than a pixel gathered (`run` the first, `count`
 * how many). x in pixels from the chart's left edge: from the start (x0) to when last seen (x1, solid) and to when seen
 * gone (x2: the end's uncertainty, drawn as such; x1 = x2 while processing, which grows to now).
 */
export interface Bar {
  readonly lane: number;
  readonly run: number;
  readonly count: number;
  readonly x0: number;
  readonly x1: number;
  readonly x2: number;
  /** RUN_FLAG bits of every run in it; `processing` when one of them is. */
  readonly flags: number;
  readonly processing: boolean;
}

/**
 * The bars of lanes [firstLane, firstLane + laneCount) in the window, `width` pixels wide: only the runs that overlap
 * the window, found by binary search; consecutive runs that both end within a pixel of where the mark began are
 * gathered (so a lane draws at most about `width` marks, whatever the zoom).
 */
export function layoutBars(
  index: RunIndex,
  w: TimelineWindow,
  width: number,
  firstLane: number,
  laneCount: number,
): Bar[] {
  const bars: Bar[] = [];
  const scale = width / w.span;
  const x = (time: number) => Math.max(-2, Math.min(width + 2, (time - w.start) * scale));
  const { lastSeen, flags, end } = index.runs;
  const lastLane = Math.min(index.lanes, firstLane + laneCount);
  for (let lane = Math.max(0, firstLane); lane < lastLane; lane++) {
    let open:
      | {
          lane: number;
          run: number;
          count: number;
          x0: number;
          x1: number;
          x2: number;
          flags: number;
          processing: boolean;
        }
      | undefined;
    index.visible(lane, w, (run) => {
      const processing = end[run] < 0;
      const x0 = x(index.runs.start[run]);
      const x2 = x(index.endOf(run));
      const x1 = processing ? x2 : x(lastSeen[run]);
      if (open && x2 - open.x0 < 1 && x0 - open.x0 < 1) {
        open.count++;
        open.x2 = Math.max(open.x2, x2);
        open.x1 = Math.max(open.x1, x1);
        open.flags |= flags[run];
        open.processing ||= processing;
        return;
      }
      if (open) bars.push(open);
      open = { lane, run, count: 1, x0, x1, x2, flags: flags[run], processing };
    });
    if (open) bars.push(open);
  }
  return bars;
}

export type Direction = 'left' | 'right' | 'up' | 'down';

/**
 * The run the arrow key moves to from `run`: left and right, the previous and next run of its lane (by start); up and
 * down, the run of the nearest lane above or below that has runs, the one whose start is nearest. Undefined at an end.
 */
export function neighbour(index: RunIndex, run: number, direction: Direction): number | undefined {
  const lane = index.runs.lane[run];
  const [first, last] = index.laneRuns(lane);
  if (direction === 'left') return run > first ? run - 1 : undefined;
  if (direction === 'right') return run + 1 < last ? run + 1 : undefined;
  const step = direction === 'up' ? -1 : 1;
  for (let l = lane + step; l >= 0 && l < index.lanes; l += step) {
    const near = nearestInLane(index, l, index.runs.start[run]);
    if (near !== undefined) return near;
  }
  return undefined;
}

/** The run of `lane` whose start is nearest `time`; undefined when the lane has none. */
export function nearestInLane(index: RunIndex, lane: number, time: number): number | undefined {
  const [first, last] = index.laneRuns(lane);
  if (first === last) return undefined;
  const at = index.firstFrom(lane, time);
  if (at >= last) return last - 1;
  if (at === first) return first;
  const start = index.runs.start;
  return time - start[at - 1] <= start[at] - time ? at - 1 : at;
}

/** The run to focus first in a window: the visible run of the top lane shown whose start is nearest the middle. */
export function firstRun(index: RunIndex, w: TimelineWindow, firstLane: number): number | undefined {
  for (let lane = firstLane; lane < index.lanes; lane++) {
    let best: number | undefined;
    let distance = Infinity;
    const middle = w.start + w.span / 2;
    index.visible(lane, w, (run) => {
      const d = Math.abs(index.runs.start[run] - middle);
      if (d < distance) [best, distance] = [run, d];
    });
    if (best !== undefined) return best;
  }
  return undefined;
}

/** The window moved (not zoomed) so that `run` is in it: unchanged when its start is; else its start at a tenth in. */
export function windowShowing(w: TimelineWindow, index: RunIndex, run: number, now: number): TimelineWindow {
  const start = index.runs.start[run];
  if (start >= w.start && start <= w.start + w.span) return w;
  return clampWindow({ start: start - w.span / 10, span: w.span }, now);
}

/** The runs that overlap the window in every lane, ordered by start, at most `max` (and how many more there are). */
export function tableRuns(index: RunIndex, w: TimelineWindow, max: number): { rows: number[]; more: number } {
  const all: number[] = [];
  for (let lane = 0; lane < index.lanes; lane++) index.visible(lane, w, (run) => all.push(run));
  const start = index.runs.start;
  all.sort((a, b) => start[a] - start[b] || a - b);
  return { rows: all.slice(0, max), more: Math.max(0, all.length - max) };
}

/** The words of a run, for its accessible name and its row of the table. */
export interface RunWords {
  /** "09:14", "before 09:14" (first seen). */
  readonly start: string;
  /** "about 09:26", or "now" words: "09:14 to about 09:26" / "09:14 to now". */
  readonly when: string;
  /** "ran about 12 min" / "processing for 5 min". */
  readonly ran: string;
  /** "had errors", "stuck" (each only when so). */
  readonly states: string[];
}

const fill = (template: string, ...args: Array<string | number>) =>
  template.replace(/\{(\d+)\}/g, (m, i: string) => (args[Number(i)] !== undefined ? String(args[Number(i)]) : m));

/** "45 s", "12 min", "2 h 5 min", "3 d 4 h". */
export function spanWords(ms: number, s: NameStrings): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return fill(s.seconds, seconds);
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return fill(s.minutes, minutes);
  if (minutes < 48 * 60) {
    const [h, m] = [Math.floor(minutes / 60), minutes % 60];
    return m ? fill(s.pair, fill(s.hours, h), fill(s.minutes, m)) : fill(s.hours, h);
  }
  const hours = Math.round(minutes / 60);
  const [d, h] = [Math.floor(hours / 24), hours % 24];
  return h ? fill(s.pair, fill(s.days, d), fill(s.hours, h)) : fill(s.days, d);
}

/**
 * A run's words: its start (the time, or "before" it when created_at could not be true), its end (the middle of when
 * it was last seen and seen gone, "about"), how long it ran (to that middle), or "to now" and "processing for" while
 * it runs; "had errors", "stuck". `time` formats a time (the page's locale).
 */
export function runWords(index: RunIndex, run: number, s: NameStrings, time: (ms: number) => string): RunWords {
  const r = index.runs;
  const begun = r.start[run];
  const processing = r.end[run] < 0;
  const flags = r.flags[run];
  const start = flags & RUN_FLAG.firstSeen ? fill(s.firstSeen, time(begun)) : time(begun);
  const end = processing ? index.endOf(run) : (r.lastSeen[run] + r.end[run]) / 2;
  const states = [...(flags & RUN_FLAG.errors ? [s.errors] : []), ...(flags & RUN_FLAG.stuck ? [s.stuck] : [])];
  return {
    start,
    when: processing ? fill(s.processing, start) : fill(s.finished, start, time(end)),
    ran: fill(processing ? s.runningFor : s.ran, spanWords(end - begun, s)),
    states,
  };
}

/** "#1003 Invoices → Sheets, 09:14 to about 09:26, ran about 12 min, had errors". */
export function runName(
  index: RunIndex,
  run: number,
  flow: string,
  s: NameStrings,
  time: (ms: number) => string,
): string {
  const words = runWords(index, run, s, time);
  return [fill(s.run, index.runs.id[run], flow), words.when, words.ran, ...words.states].join(', ');
}

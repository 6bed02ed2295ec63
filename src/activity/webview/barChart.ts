/**
 * The layout of the activity chart (src/activity/webview/activity.ts draws it on a canvas): the stacked parts, the
 * scales, which ticks the axes label, where each bar goes and which bucket the pointer is over. Pure: numbers in,
 * numbers out (no DOM, no clock; the local time offset is passed in), unit-tested in plain Node
 * (test/unit/activity/barChart.test.ts).
 */

/** A rectangle in CSS pixels of the canvas. */
export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Cumulative sums per bucket, first flow at the bottom: flow f tops at the sum of flows 0..f. */
export function stackCounts(flows: ReadonlyArray<{ counts: readonly number[] }>, buckets: number): number[][] {
  const sums = new Array<number>(buckets).fill(0);
  return flows.map((flow) => sums.map((_, i) => (sums[i] += flow.counts[i] ?? 0)));
}

/** The bucket length: the smallest step between buckets (or `fallback` for a single bucket). */
export function bucketLength(times: readonly number[], fallback: number): number {
  let step = Infinity;
  for (let i = 1; i < times.length; i++) step = Math.min(step, times[i] - times[i - 1]);
  return Number.isFinite(step) && step > 0 ? step : fallback;
}

/** The count scale's top: 8 % above the highest stack, so the tallest bar does not touch the edge; 1 when all are 0. */
export function countTop(stacks: readonly number[][]): number {
  const top = stacks.at(-1) ?? [];
  const max = top.reduce((m, v) => Math.max(m, v), 0);
  return max > 0 ? max * 1.08 : 1;
}

/**
 * Steps of the count axis: counts may be averages over a bucket, so tenths are the finest step (the table shows one
 * decimal too).
 */
export const COUNT_STEPS = [
  0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000,
  500_000, 1_000_000,
];

/** The count ticks from 0 to `top`: the smallest step of COUNT_STEPS that keeps them `minSpace` pixels apart. */
export function countTicks(top: number, heightPx: number, minSpace: number): number[] {
  if (!(top > 0) || !(heightPx > 0)) return [0];
  const pxPerUnit = heightPx / top;
  const step = COUNT_STEPS.find((s) => s * pxPerUnit >= minSpace) ?? COUNT_STEPS[COUNT_STEPS.length - 1];
  const ticks: number[] = [];
  for (let k = 0; k * step <= top + 1e-9 && ticks.length < 1000; k++) ticks.push(Math.round(k * step * 10) / 10);
  return ticks;
}

/** A linear scale from [domainMin, domainMax] onto [rangeFrom, rangeTo] (pixels; rangeTo < rangeFrom flips it). */
export function linearScale(
  domainMin: number,
  domainMax: number,
  rangeFrom: number,
  rangeTo: number,
): (value: number) => number {
  const span = domainMax - domainMin || 1;
  return (value) => rangeFrom + ((value - domainMin) / span) * (rangeTo - rangeFrom);
}

/** The plot's rectangle inside a canvas of `width` x `height`, leaving room for the axes' labels. */
export function plotArea(
  width: number,
  height: number,
  axes: { countLabelWidth: number; lineHeight: number; hasTitle: boolean; tickLength: number },
): Rect {
  const { countLabelWidth, lineHeight, hasTitle, tickLength } = axes;
  const left = Math.ceil((hasTitle ? lineHeight + 6 : 0) + countLabelWidth + tickLength + 4);
  const top = Math.ceil(lineHeight / 2) + 2;
  const bottom = Math.ceil(tickLength + lineHeight + 6);
  const right = 8;
  return {
    left,
    top,
    width: Math.max(1, width - left - right),
    height: Math.max(1, height - top - bottom),
  };
}

/** One stacked part of a bar: flow `flow` in bucket `bucket`, in whole pixels. */
export interface BarPart extends Rect {
  flow: number;
  bucket: number;
}

/** How much of its bucket a bar fills (the rest is the gap to the next bar). */
export const BAR_FILL = 0.9;

/**
 * Every stacked part with a height: each bar starts at its bucket's time and fills BAR_FILL of the bucket, at least a
 * pixel wide; flow f's part spans from the sum of the flows below it to its own sum.
 */
export function barParts(
  stacks: readonly number[][],
  times: readonly number[],
  step: number,
  x: (ms: number) => number,
  y: (count: number) => number,
): BarPart[] {
  const parts: BarPart[] = [];
  times.forEach((time, bucket) => {
    const left = Math.round(x(time));
    const width = Math.max(1, Math.round(x(time + step * BAR_FILL)) - left);
    let below = y(0);
    stacks.forEach((sums, flow) => {
      const top = Math.round(y(sums[bucket]));
      const bottom = Math.round(below);
      below = top;
      if (bottom - top > 0) parts.push({ flow, bucket, left, top, width, height: bottom - top });
    });
  });
  return parts;
}

/**
 * The bucket under the pointer at `px` (CSS pixels from the canvas's left), or undefined off the plot or between the
 * data: the bucket whose time span [time, time + step) holds the pointer's time.
 */
export function bucketAt(
  px: number,
  plot: Rect,
  min: number,
  max: number,
  times: readonly number[],
  step: number,
): number | undefined {
  if (!(px >= plot.left && px <= plot.left + plot.width) || times.length === 0) return undefined;
  const ms = min + ((px - plot.left) / plot.width) * (max - min);
  // the last bucket that starts at or before ms (times ascend)
  let lo = 0;
  let hi = times.length - 1;
  if (ms < times[0]) return undefined;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (times[mid] <= ms) lo = mid;
    else hi = mid - 1;
  }
  return ms < times[lo] + step ? lo : undefined;
}

/** Where a label `width` wide centred on `center` goes so it stays inside [0, limit]: its left edge. */
export function clampLabel(center: number, width: number, limit: number): number {
  return Math.max(0, Math.min(limit - width, center - width / 2));
}

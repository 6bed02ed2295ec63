/**
 * The time axis of the webview pages' canvases (the activity chart, the Run Timeline): which instants to label, each on
 * a boundary of local time. Pure: the local time offset is passed in (unit-tested in plain Node).
 */

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** Steps of the time axis, each on its own boundary of local time (a whole 15 minutes, a midnight). */
const TIME_STEPS = [
  MIN,
  2 * MIN,
  5 * MIN,
  10 * MIN,
  15 * MIN,
  30 * MIN,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  4 * HOUR,
  6 * HOUR,
  8 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
];

/**
 * The time ticks in [min, max]: the smallest of `steps` (ascending; the activity chart's TIME_STEPS by default) that keeps them `minSpace` pixels apart (the widest
 * label and a gap, so labels never overlap), each on a boundary of local time. `localOffset(ms)` is how far local time
 * is ahead of UTC at `ms` (the page passes the browser's, -getTimezoneOffset() in ms).
 */
export function timeTicks(
  min: number,
  max: number,
  widthPx: number,
  minSpace: number,
  localOffset: (ms: number) => number,
  steps: readonly number[] = TIME_STEPS,
): number[] {
  if (!(max > min) || !(widthPx > 0)) return [];
  const pxPerMs = widthPx / (max - min);
  const step = steps.find((s) => s * pxPerMs >= minSpace);
  if (step === undefined) return [];
  const ticks: number[] = [];
  // walk local time from the first boundary at or after min; each tick is the instant that boundary is local time at
  for (let local = Math.ceil((min + localOffset(min)) / step) * step; ticks.length < 1000; local += step) {
    const t = local - localOffset(local - localOffset(local));
    if (t > max) break;
    if (t >= min && t !== ticks.at(-1)) ticks.push(t);
  }
  return ticks;
}

/**
 * When a flow sync started, as far as it can be true. The service's `created_at` is data: a service (or anything
 * between it and us) can send 1970, a date in the future, or one years before this extension ever saw the sync
 * processing. Every age and duration of a sync (the Processing view's "started … ago", History's durations, the
 * learned stuck thresholds, the stuck check, the activity chart) counts from `plausibleStart`, so one rule decides.
 */

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** No time before 2000 is one the service or this extension can have written (the 1970 epoch of a zero, a 1900 default). */
export const EARLIEST_PLAUSIBLE_TIME = Date.UTC(2000, 0, 1);

/**
 * How far the service's clock may run ahead of ours: a created_at up to this far after we first saw the sync (or after
 * now) is clock skew (ages count from it, never below 0); further ahead, the sync cannot have been processing when we
 * saw it. Clocks kept by NTP agree within seconds; five minutes covers a machine without it.
 */
export const MAX_CLOCK_SKEW_MS = 5 * MINUTE;

/**
 * How long before this extension first saw it a sync can plausibly have started. It must be generous: the extension
 * sees a sync only while a window is open and polling, so a sync started before a weekend or a week's leave is first
 * seen when the window opens again. Seven days covers that (and is History's default `historyDays`), while bounding
 * what one run can claim: with it, a single run moves its flow's learned threshold (3 × the 95th percentile) by weeks
 * at most, not by decades. A sync started earlier than that still counts, from when it was first seen: a lower bound
 * ("at least …"), the stuck check still applies to it, and it is not learned from.
 */
export const MAX_UNSEEN_MS = 7 * DAY;

/** Where a sync's processing time counts from. */
export interface SyncStart {
  /** ms since the epoch. */
  readonly ms: number;
  /**
   * 'created': the service's created_at, a plausible time; 'firstSeen': created_at is not a time or not a plausible
   * one, so the time counts from when this extension first saw the sync (a lower bound: never learned from).
   */
  readonly from: 'created' | 'firstSeen';
}

/**
 * The start a sync's age and duration count from: its created_at when that is a time that can be true, else when this
 * extension first saw it processing. created_at cannot be true when it is not a time, before EARLIEST_PLAUSIBLE_TIME,
 * more than MAX_CLOCK_SKEW_MS after the sync was first seen (or after `nowMs`: the future), or more than MAX_UNSEEN_MS
 * before it was first seen. Without `firstSeenMs` (a row of the Processing list), only the bounds that need no first
 * sighting apply (a time, after 2000, not in the future), and an implausible created_at gives undefined: no age.
 */
export function plausibleStart(createdAt: string, firstSeenMs: number, nowMs: number): SyncStart;
export function plausibleStart(
  createdAt: string,
  firstSeenMs: number | undefined,
  nowMs: number,
): SyncStart | undefined;
export function plausibleStart(
  createdAt: string,
  firstSeenMs: number | undefined,
  nowMs: number,
): SyncStart | undefined {
  const created = parseTime(createdAt);
  const seen = firstSeenMs === undefined ? nowMs : Math.min(firstSeenMs, nowMs);
  const plausible =
    isPlausibleTime(created, seen) && (firstSeenMs === undefined || created >= firstSeenMs - MAX_UNSEEN_MS);
  if (plausible) return { ms: created, from: 'created' };
  return firstSeenMs === undefined ? undefined : { ms: firstSeenMs, from: 'firstSeen' };
}

/** A time from the service that can be true at `nowMs`: a finite time, not before 2000, not later than clock skew allows. */
export function isPlausibleTime(ms: number, nowMs: number): boolean {
  return Number.isFinite(ms) && ms >= EARLIEST_PLAUSIBLE_TIME && ms <= nowMs + MAX_CLOCK_SKEW_MS;
}

/**
 * Date.parse, with a fast path for the form the service and toISOString use ("2026-11-22T11:48:00.000Z"): loading
 * 50,000 entries parses 50,000 of them. Any other form goes to Date.parse.
 */
export function parseTime(text: string): number {
  const ms = canonicalTime(text);
  return ms === ms ? ms : Date.parse(text);
}

/**
 * The ms of a time in the canonical form toISOString writes ("YYYY-MM-DDTHH:MM:SS.mmmZ", a year from 1000), or NaN
 * when the text is any other: new Date(ms).toISOString() gives that text back exactly.
 */
export function canonicalTime(text: string): number {
  // Separators at fixed places, digits elsewhere.
  if (
    text.length !== 24 ||
    text.charCodeAt(23) !== 90 ||
    text.charCodeAt(10) !== 84 ||
    text.charCodeAt(4) !== 45 ||
    text.charCodeAt(7) !== 45 ||
    text.charCodeAt(13) !== 58 ||
    text.charCodeAt(16) !== 58 ||
    text.charCodeAt(19) !== 46
  ) {
    return NaN;
  }
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  const milli = digits(text, 20, 3);
  if (
    year < 1000 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    hour < 0 ||
    hour > 23 ||
    minute < 0 ||
    minute > 59 ||
    second < 0 ||
    second > 59 ||
    milli < 0
  ) {
    return NaN;
  }
  const ms = Date.UTC(year, month - 1, day, hour, minute, second, milli);
  // A day past the month's end (the 30th of February) rolls over: not the canonical text of any time.
  return day <= 28 || new Date(ms).getUTCDate() === day ? ms : NaN;
}

/** The number written by `length` decimal digits at `at`, or -1 if any is not a digit. */
function digits(text: string, at: number, length: number): number {
  let n = 0;
  for (let i = at; i < at + length; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

import { t } from '../base/l10n';
import { clockTime, escapeMarkdown, serviceTimeAgo, timeAgo } from '../base/format';
import { inert } from '../base/inert';
import type { NotifyMode } from '../settings/settingValues';
import { compareNewestFirst, entryFlowLabel, type Duration, type HistoryEntry } from './entry';
import { STUCK_MIN_RUNS, type FlowStats } from './stats';
import type { FlowInsight } from './insights';
import type { RowStates } from '../lists/rowTints';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// ------------------------------------------------------------ durations

type DurationLike = Pick<Duration, 'ms' | 'uncertaintyMs' | 'from'>;

/** A length of time, rounded to what a person needs: "45 s", "12 min", "2 h 5 min", "3 d 4 h". */
export function span(ms: number): string {
  const seconds = Math.round(Math.max(0, ms) / SECOND);
  if (seconds < 60) return t('{0} s', seconds);
  const minutes = Math.round(ms / MINUTE);
  if (minutes < 60) return t('{0} min', minutes);
  if (minutes < 24 * 60) {
    const [h, m] = [Math.floor(minutes / 60), minutes % 60];
    return m ? t('{0} h {1} min', h, m) : t('{0} h', h);
  }
  const hours = Math.round(ms / HOUR);
  const [d, h] = [Math.floor(hours / 24), hours % 24];
  return h ? t('{0} d {1} h', d, h) : t('{0} d', d);
}

/**
 * "about 12 min"; "at least 12 min" when created_at was not a time that can be true (measured from when it was first
 * seen, so it may have run longer).
 */
export function durationText(d: DurationLike): string {
  const lower = d.ms - d.uncertaintyMs;
  return d.from === 'firstSeen' && lower >= SECOND ? t('at least {0}', span(lower)) : t('about {0}', span(d.ms));
}

/** "about 12 min (± 15 s)": the duration with the poll interval's uncertainty. */
export function durationDetail(d: DurationLike): string {
  return `${durationText(d)} (± ${span(d.uncertaintyMs)})`;
}

/** "4–12 min", or "about 5 min" when both round alike, or "20 s–12 min" when the lower one rounds to 0. */
export function rangeText(lowMs: number, highMs: number): string {
  const unit = highMs < 59.5 * SECOND ? SECOND : highMs < 59.5 * MINUTE ? MINUTE : highMs < 47.5 * HOUR ? HOUR : DAY;
  const [a, b] = [Math.round(lowMs / unit), Math.round(highMs / unit)];
  if (a === b) return t('about {0}', unitText(unit, b));
  if (a === 0) return `${span(lowMs)}–${span(highMs)}`;
  return unitText(unit, `${a}–${b}`);
}

function unitText(unit: number, value: number | string): string {
  if (unit === SECOND) return t('{0} s', value);
  if (unit === MINUTE) return t('{0} min', value);
  if (unit === HOUR) return t('{0} h', value);
  return t('{0} d', value);
}

/** For a flow's tooltip: "usually 4–12 min, 37 runs" (median to 95th percentile); undefined before any run. */
export function flowStatsText(stats: FlowStats | undefined): string | undefined {
  if (!stats || stats.runs < 1) return undefined;
  if (stats.runs === 1) return t('{0}, 1 run', t('about {0}', span(stats.medianMs)));
  return t('usually {0}, {1} runs', rangeText(stats.medianMs, stats.p95Ms), stats.runs);
}

// ------------------------------------------------------------ the History view

/**
 * One row of the History view: label = the flow, description = "#1003 · ran about 12 min · 5 min ago"; `said`: what
 * the description says after the id (Copy as Markdown says it after the run's title).
 */
export function historyRow(
  entry: HistoryEntry,
  now: number,
  stats?: FlowStats,
): { label: string; description: string; said: string[]; states: RowStates } {
  const states = historyRowStates(entry, stats);
  const marks = [
    ...(states.errors ? [t('had errors')] : []),
    ...(states.longer ? [t('ran longer than usual')] : []),
    ...(entry.seenHere === false ? [t('seen by another window')] : []),
  ];
  const said = [t('ran {0}', durationText(entry.duration)), agoMs(entry.leftAt, now), ...marks];
  return { label: entryFlowLabel(entry), description: [`#${entry.id}`, ...said].join(' · '), said, states };
}

/**
 * What makes a History row stand out (tinted: src/lists/rowTints.ts): the run had errors; it ran longer than its
 * flow's usual (past the 95th percentile of a flow with enough runs to know it, the same as "running longer than
 * usual" on a processing sync). Its words are in the row's description.
 */
function historyRowStates(entry: HistoryEntry, stats: FlowStats | undefined): RowStates {
  const known = stats !== undefined && stats.runs >= STUCK_MIN_RUNS && entry.duration.from === 'created';
  return { errors: entry.hadErrors, longer: known && entry.duration.ms > stats.p95Ms };
}

/** Markdown tooltip of an entry; text from the service is escaped; says plainly that success is not known. */
export function historyTooltip(entry: HistoryEntry, now: number): string {
  const rows: Array<[string, string]> = [
    [t('Flow sync'), `#${entry.id}`],
    [t('Flow'), `${escapeMarkdown(entryFlowLabel(entry))} (#${entry.flowId})`],
    [t('Started'), `${escapeMarkdown(entry.createdAt)} (${serviceTimeAgo(entry.createdAt, now, entry.firstSeen)})`],
    [t('First seen processing'), dateTime(entry.firstSeen)],
    [t('Last seen processing'), dateTime(entry.lastSeen)],
    [t('No longer processing'), t('between {0} and {1}', dateTime(entry.lastSeen), dateTime(entry.leftAt))],
    [t('Duration'), durationDetail(entry.duration)],
  ];
  const notes = [t('The service does not say whether a flow sync succeeded, only that it is no longer processing.')];
  if (entry.duration.from === 'firstSeen') {
    notes.push(t('Its start time is not a plausible time: the duration is counted from when it was first seen.'));
  }
  return [['| | |', '|---|---|', ...rows.map(([k, v]) => `| **${k}** | ${v} |`)].join('\n'), '', ...notes].join('\n');
}

/** A group of the History view: a local calendar day. */
export interface HistoryGroup {
  /** Local midnight that starts the day (ms). */
  readonly key: number;
  /** "Today", "Yesterday", or a date such as "Fri, 20 Nov". */
  readonly label: string;
  /** Newest first. */
  readonly entries: HistoryEntry[];
}

/**
 * Groups entries by the local day they left processing, newest day first, newest entry first within a day. Days,
 * not flows: History answers "what finished, and when" (overnight, this morning); a day holds what a person reads at
 * once; the per-flow view already exists (Processing's flow nodes carry the typical durations, the chart stacks by
 * flow); and there are at most 90 days, but a service can have hundreds of flows. An entry that left "in the future"
 * (another window's clock runs ahead) counts as today.
 */
export function historyGroups(entries: readonly HistoryEntry[], now: number): HistoryGroup[] {
  const sorted = isNewestFirst(entries) ? entries : [...entries].sort(compareNewestFirst);
  const today = localDayStart(now);
  const yesterday = localDayStart(today - 1);
  const groups: HistoryGroup[] = [];
  let current: HistoryGroup | undefined;
  for (const entry of sorted) {
    const at = Math.min(entry.leftAt, now);
    if (!current || at < current.key) {
      const key = localDayStart(at);
      current = {
        key,
        label: key === today ? t('Today') : key === yesterday ? t('Yesterday') : dayLabel(key, now),
        entries: [],
      };
      groups.push(current);
    }
    current.entries.push(entry);
  }
  return groups;
}

function isNewestFirst(entries: readonly HistoryEntry[]): boolean {
  for (let i = 1; i < entries.length; i++) if (compareNewestFirst(entries[i - 1], entries[i]) > 0) return false;
  return true;
}

/** Local midnight at the start of the day that holds `ms` (DST-safe: by the calendar, not by 24-hour steps). */
export function localDayStart(ms: number): number {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

function dayLabel(dayStart: number, now: number): string {
  const sameYear = new Date(dayStart).getFullYear() === new Date(now).getFullYear();
  return new Date(dayStart).toLocaleDateString(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    ...(sameYear ? {} : { year: 'numeric' }),
  });
}

function dateTime(ms: number): string {
  return `${new Date(ms).toLocaleDateString(undefined, { day: 'numeric', month: 'short' })} ${clockTime(ms)}`;
}

function agoMs(ms: number, now: number): string {
  return timeAgo(new Date(Number.isFinite(ms) ? ms : now).toISOString(), now);
}

// ------------------------------------------------------------ notifications

/** Watched sync ids (a watch ends when the sync leaves) and watched flow ids (a watch lasts). */
export interface Watches {
  readonly syncs: ReadonlySet<number>;
  readonly flows: ReadonlySet<number>;
}

/** What to announce about one poll's departures. */
export interface FinishedNotice {
  /** The one notification of this poll, or undefined for none. */
  readonly text: string | undefined;
  /** The entries it is about (e.g. for a "Show" button). */
  readonly entries: HistoryEntry[];
  /** Watched syncs that left: their watches end, whatever the mode. */
  readonly unwatch: number[];
}

/** Longest flow name in a notification. */
const NOTICE_NAME = 80;

/**
 * At most one notification per poll: "Sync #1003 (Invoices) is no longer processing, after about 12 min." for one
 * sync, "5 syncs of Invoices are no longer processing." for several of one flow, "5 syncs of 3 flows are no longer
 * processing." otherwise. Never "succeeded" or "failed": the service does not say.
 */
export function finishedNotification(
  left: readonly HistoryEntry[],
  watches: Watches,
  mode: NotifyMode,
): FinishedNotice {
  const unwatch = left.filter((e) => watches.syncs.has(e.id)).map((e) => e.id);
  const entries =
    mode === 'all'
      ? [...left]
      : mode === 'watched'
        ? left.filter((e) => watches.syncs.has(e.id) || watches.flows.has(e.flowId))
        : [];
  return { text: noticeText(entries), entries, unwatch };
}

function noticeText(entries: readonly HistoryEntry[]): string | undefined {
  if (entries.length === 0) return undefined;
  const name = (e: HistoryEntry) => inert(entryFlowLabel(e), NOTICE_NAME);
  if (entries.length === 1) {
    const e = entries[0];
    return t('Sync #{0} ({1}) is no longer processing, after {2}.', e.id, name(e), durationText(e.duration));
  }
  const flows = new Set(entries.map((e) => e.flowId));
  if (flows.size === 1) return t('{0} syncs of {1} are no longer processing.', entries.length, name(entries[0]));
  return t('{0} syncs of {1} flows are no longer processing.', entries.length, flows.size);
}

/** "Slower than usual: median 12 min in the last 24 hours, 5 min before" (the tooltip, the notification). */
export function slowerText(f: Pick<FlowInsight, 'recent' | 'before'>): string {
  return t(
    'Slower than usual: median {0} in the last 24 hours, {1} before',
    span(f.recent.medianMs),
    span(f.before.medianMs),
  );
}

/** The tooltip line of team History: how many installations watched today, and its status (one line each). */
export function teamTooltip(team: { readonly status: string; readonly watchedToday: number }): string {
  const watched =
    team.watchedToday === 1
      ? t('team History: 1 installation watched today')
      : t('team History: {0} installations watched today', team.watchedToday);
  return `${watched}\n${team.status}`;
}

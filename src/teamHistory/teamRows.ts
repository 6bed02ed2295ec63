import { bounded, inert } from '../base/inert';
import { MAX_CLOCK_SKEW_MS, MAX_UNSEEN_MS } from '../base/plausibleTime';
import { own } from '../base/own';
import { DAY_MS, HISTORY_DAYS, MAX_CREATED_AT, MAX_FLOW_NAME, type HistoryEntry } from '../history/entry';

/*
 * The rows of team History: what one installation saw of one run of a service (TeamRun) and when it was watching
 * (WatchSpan), as this installation writes them and as every installation reads them back. What is read is
 * untrusted (anyone who may write to the team's database can put anything there): readRunRow and readSpanRow refuse
 * every row that is not one this extension can have written (lengths, ranges, times), and make its texts inert.
 * Pure: time comes from the caller.
 */

/** The fields of a run that History keeps and the team's rows share. */
type RunFields = Pick<
  HistoryEntry,
  'id' | 'flowId' | 'flowName' | 'createdAt' | 'firstSeen' | 'lastSeen' | 'hadErrors'
>;

/** One installation's sighting of one run. */
export interface TeamRun extends RunFields {
  /** The installation that saw it (an id drawn once per installation, never a user name). */
  readonly observer: string;
  /** The service it ran on: its key (TeamRun rows of one service share it, whatever each person named it). */
  readonly service: string;
  /** The team filter of the window that saw it: '' for every team, else the team's id (digits). */
  readonly team: string;
  /** The first answer without it after lastSeen; undefined when this installation did not see it leave. */
  readonly leftAt: number | undefined;
}

/** A span of time when one installation was watching a service (its first and last complete answers). */
export interface WatchSpan {
  readonly observer: string;
  readonly service: string;
  readonly team: string;
  readonly from: number;
  readonly to: number;
}

/** An installation's id: 8 to 64 letters, digits, '-' or '_' (a UUID is one). */
const OBSERVER_ID = /^[A-Za-z0-9_-]{8,64}$/;
/** Longest service key kept (a base URL: its origin and path). */
const MAX_SERVICE_KEY = 300;
/** A team filter: '' (every team) or a team id of up to 18 digits (as `flowsync.services` takes it). */
const TEAM = /^[0-9]{0,18}$/;
/**
 * Longest time one installation can have watched one run, first seen to gone: the longest a sync's start may
 * plausibly lie before its first sighting (MAX_UNSEEN_MS, 7 days), so what one row claims of a run is bounded the
 * way a created_at is. A run of 10 years, or ending before it started, is refused.
 */
export const MAX_RUN_MS = MAX_UNSEEN_MS;
/** Longest watch span kept: the longest History is kept, and a day (a span that started before it). */
const MAX_SPAN_MS = (HISTORY_DAYS.max + 1) * DAY_MS;
/** How far back a row may lie: History's longest keep (90 days) and a day. */
const MAX_AGE_MS = (HISTORY_DAYS.max + 1) * DAY_MS;

/** A number the store sent: a JS number or the decimal text PostgreSQL sends a bigint as; undefined when neither. */
function integerOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value !== 'string' || !/^-?[0-9]{1,16}$/.test(value)) return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** Times a row may hold, read at `now`: within History's longest keep, and not later than clock skew allows. */
function timeOf(value: unknown, now: number): number | undefined {
  const ms = integerOf(value);
  return ms !== undefined && ms >= now - MAX_AGE_MS && ms <= now + MAX_CLOCK_SKEW_MS ? ms : undefined;
}

function textOf(value: unknown, pattern: RegExp): string | undefined {
  return typeof value === 'string' && pattern.test(value) ? value : undefined;
}

function serviceOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_SERVICE_KEY ? value : undefined;
}

/**
 * A row of the store's runs table as this extension reads it (column names of the schema), or undefined when it is
 * not one this extension can have written: ids that are not non-negative safe integers, a created_at longer than
 * History keeps, times outside [now − 91 days, now + clock skew], a run that ends before it starts or spans more than
 * MAX_RUN_MS, an observer, service or team of the wrong form. The flow name is made inert (control characters, bidi,
 * markup, links: see base/inert.ts) and cut to what History keeps; `hide` (a secret) is masked in it.
 */
export function readRunRow(row: unknown, now: number, hide?: string): TeamRun | undefined {
  const observer = textOf(own(row, 'observer'), OBSERVER_ID);
  const service = serviceOf(own(row, 'service'));
  const team = textOf(own(row, 'team'), TEAM);
  const id = integerOf(own(row, 'sync_id'));
  const flowId = integerOf(own(row, 'flow_id'));
  const flowName = own(row, 'flow_name');
  const createdAt = own(row, 'created_at');
  const hadErrors = own(row, 'had_errors');
  if (
    observer === undefined ||
    service === undefined ||
    team === undefined ||
    id === undefined ||
    id < 0 ||
    flowId === undefined ||
    flowId < 0 ||
    typeof flowName !== 'string' ||
    typeof createdAt !== 'string' ||
    createdAt.length > MAX_CREATED_AT ||
    typeof hadErrors !== 'boolean'
  ) {
    return undefined;
  }
  const firstSeen = timeOf(own(row, 'first_seen'), now);
  const lastSeen = timeOf(own(row, 'last_seen'), now);
  const left = own(row, 'left_at');
  const leftAt = left === null || left === undefined ? undefined : timeOf(left, now);
  if (firstSeen === undefined || lastSeen === undefined || lastSeen < firstSeen) return undefined;
  if (left !== null && left !== undefined && (leftAt === undefined || leftAt < lastSeen)) return undefined;
  if ((leftAt ?? lastSeen) - firstSeen > MAX_RUN_MS) return undefined;
  return {
    observer,
    service,
    team,
    id,
    flowId,
    flowName: inert(flowName, MAX_FLOW_NAME, hide),
    createdAt: bounded(createdAt, MAX_CREATED_AT, hide),
    firstSeen,
    lastSeen,
    leftAt,
    hadErrors,
  };
}

/** A row of the store's spans table, or undefined when it is not one this extension can have written. */
export function readSpanRow(row: unknown, now: number): WatchSpan | undefined {
  const observer = textOf(own(row, 'observer'), OBSERVER_ID);
  const service = serviceOf(own(row, 'service'));
  const team = textOf(own(row, 'team'), TEAM);
  const from = timeOf(own(row, 'from_ms'), now);
  const to = timeOf(own(row, 'to_ms'), now);
  if (observer === undefined || service === undefined || team === undefined) return undefined;
  if (from === undefined || to === undefined || to < from || to - from > MAX_SPAN_MS) return undefined;
  return { observer, service, team, from, to };
}

/** The row this installation writes for a run its History kept (a run it saw leave). */
export function runOfEntry(entry: HistoryEntry, observer: string, service: string, team: string): TeamRun {
  return {
    observer,
    service,
    team,
    id: entry.id,
    flowId: entry.flowId,
    flowName: entry.flowName,
    createdAt: entry.createdAt,
    firstSeen: entry.firstSeen,
    lastSeen: entry.lastSeen,
    leftAt: entry.leftAt,
    hadErrors: entry.hadErrors,
  };
}

import type { FlowSync } from '../../api/types';
import { t } from '../../l10n';
import { inert } from '../inert';
import type { NumberBounds } from '../settingValues';

/**
 * One flow sync that left processing, as the History view lists it and the store keeps it. Service data only
 * (never the API key). Honest: the service does not say whether the sync succeeded, only that it is no longer listed.
 */
export interface HistoryEntry {
  /** The flow sync's id. */
  readonly id: number;
  readonly flowId: number;
  /** The flow's name as the service last sent it, made inert and bounded; '' when the service sent none. */
  readonly flowName: string;
  /** created_at exactly as the service sent it (bounded length); it may not be a valid time. */
  readonly createdAt: string;
  /** When this extension first and last saw the sync in a processing answer (ms since the epoch). */
  readonly firstSeen: number;
  readonly lastSeen: number;
  /**
   * The time of the first successful, complete answer without the sync: it left processing between `lastSeen` and
   * `leftAt` (the latest it can have left). Sorting, grouping, "… ago" and pruning use it.
   */
  readonly leftAt: number;
  /** The duration, computed from the fields above (never read from disk). */
  readonly duration: Duration;
  /** The last item the service returned for it (for Open as JSON); undefined when too large or no longer kept. */
  readonly raw?: Readonly<Record<string, unknown>>;
}

/** How long a sync was processing: from its start to the midpoint of [lastSeen, leftAt], ± half that gap. */
export interface Duration {
  readonly ms: number;
  readonly uncertaintyMs: number;
  /** 'created': from a valid created_at; 'firstSeen': created_at was not a valid time (a lower bound then). */
  readonly from: 'created' | 'firstSeen';
  /** The start it counts from (ms): created_at, or first seen. */
  readonly startMs: number;
}

/** The fields an entry is made of (the duration is derived). */
export type EntryFields = Omit<HistoryEntry, 'duration'>;

const MINUTE = 60_000;
export const DAY_MS = 24 * 60 * MINUTE;

/** `flowsync.historyDays`: how long the History view remembers (the same bounds as package.json should declare). */
export const HISTORY_DAYS: NumberBounds = { min: 1, max: 90, fallback: 7 };
/** Longest flow name kept: enough for a tree row, far less than a page. */
export const MAX_FLOW_NAME = 120;
/** Longest created_at kept; a longer one is not a timestamp and is cut. */
export const MAX_CREATED_AT = 64;
/** An item whose JSON is longer than this (characters) is not kept for Open as JSON; the entry is kept without it. */
export const MAX_RAW_CHARS = 16 * 1024;

/**
 * Makes an entry: copies the fields (every entry has the same shape, `raw` is always present, maybe undefined) and
 * computes the duration. The caller has made the fields safe. (No object spread: 50,000 entries load 10× faster.)
 */
export function makeEntry(f: EntryFields): HistoryEntry {
  return {
    id: f.id,
    flowId: f.flowId,
    flowName: f.flowName,
    createdAt: f.createdAt,
    firstSeen: f.firstSeen,
    lastSeen: f.lastSeen,
    leftAt: f.leftAt,
    duration: durationOf(f),
    raw: f.raw,
  };
}

/** The same entry without its raw item. */
export function withoutRaw(e: HistoryEntry): HistoryEntry {
  return e.raw === undefined ? e : { ...e, raw: undefined };
}

/**
 * From created_at when it is a valid time (else first seen) to the midpoint of [lastSeen, leftAt], ± half that gap.
 * Never negative (a created_at after the sync was seen means the clocks disagree).
 */
export function durationOf(e: Pick<EntryFields, 'createdAt' | 'firstSeen' | 'lastSeen' | 'leftAt'>): Duration {
  const created = parseTime(e.createdAt);
  const from = Number.isFinite(created) ? 'created' : 'firstSeen';
  const startMs = from === 'created' ? created : e.firstSeen;
  const gap = Math.max(0, e.leftAt - e.lastSeen);
  return { ms: Math.max(0, e.lastSeen + gap / 2 - startMs), uncertaintyMs: gap / 2, from, startMs };
}

/**
 * Date.parse, with a fast path for the form the service and toISOString use ("2026-11-22T11:48:00.000Z"): loading
 * 50,000 entries parses 50,000 of them. Any other form, a day past the 28th or a year before 1000 goes to Date.parse.
 */
export function parseTime(text: string): number {
  // "YYYY-MM-DDTHH:MM:SS.mmmZ": separators at fixed places, digits elsewhere.
  if (text.length === 24 && text.charCodeAt(23) === 90 && text.charCodeAt(10) === 84 && text.charCodeAt(4) === 45 && text.charCodeAt(7) === 45 && text.charCodeAt(13) === 58 && text.charCodeAt(16) === 58 && text.charCodeAt(19) === 46) {
    const year = digits(text, 0, 4);
    const month = digits(text, 5, 2);
    const day = digits(text, 8, 2);
    const hour = digits(text, 11, 2);
    const minute = digits(text, 14, 2);
    const second = digits(text, 17, 2);
    const ms = digits(text, 20, 3);
    if (year >= 1000 && month >= 1 && month <= 12 && day >= 1 && day <= 28 && hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 && second >= 0 && second <= 59 && ms >= 0) {
      return Date.UTC(year, month - 1, day, hour, minute, second, ms);
    }
  }
  return Date.parse(text);
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

/** The service's flow name of a sync, made inert and bounded, `hide` (the key) masked first ('' when there is none). */
export function flowNameOf(sync: FlowSync, hide?: string): string {
  return inert(sync.flow?.name ?? '', MAX_FLOW_NAME, hide);
}

/** How an entry's flow is shown: its name, or "Flow 12" when the service sent none. */
export function entryFlowLabel(entry: Pick<HistoryEntry, 'flowId' | 'flowName'>): string {
  return entry.flowName || t('Flow {0}', entry.flowId);
}

/** The raw item if its JSON is at most MAX_RAW_CHARS long, else undefined. */
export function boundedRaw(raw: Readonly<Record<string, unknown>> | undefined): Readonly<Record<string, unknown>> | undefined {
  if (!raw) return undefined;
  try {
    const json = JSON.stringify(raw);
    return json !== undefined && json.length <= MAX_RAW_CHARS ? raw : undefined;
  } catch {
    return undefined; // a cycle or a BigInt: nothing a validated answer holds, but never a crash
  }
}

/** Newest first: by leftAt, then id (highest first), then firstSeen (latest first). */
export function compareNewestFirst(a: HistoryEntry, b: HistoryEntry): number {
  return b.leftAt - a.leftAt || b.id - a.id || b.firstSeen - a.firstSeen;
}

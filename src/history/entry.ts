import type { FlowSync } from '../api/types';
import { t } from '../base/l10n';
import { inert } from '../base/inert';
import type { NumberBounds } from '../settings/settingValues';
import { plausibleStart, type SyncStart } from '../base/plausibleTime';

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
  /** Whether the service listed it with `errors` (not null) at any poll of the run, kept when its item is not. */
  readonly hadErrors: boolean;
  /** false: only teammates' windows saw it (team History, src/teamHistory/merge.ts); otherwise this installation did. */
  readonly seenHere?: boolean;
}

/** How long a sync was processing: from its start to the midpoint of [lastSeen, leftAt], ± half that gap. */
export interface Duration {
  readonly ms: number;
  readonly uncertaintyMs: number;
  /** 'created': from created_at; 'firstSeen': created_at was not a time that can be true (a lower bound then). */
  readonly from: SyncStart['from'];
  /** The start it counts from (ms): created_at, or first seen (see plausibleStart). */
  readonly startMs: number;
}

/** The fields an entry is made of (the duration is derived; hadErrors, when not given, is read from the item). */
export type EntryFields = Omit<HistoryEntry, 'duration' | 'hadErrors'> & { readonly hadErrors?: boolean };

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
    hadErrors: f.hadErrors === true || itemHasErrors(f.raw),
  };
}

/** Whether a sync's item says it has errors: `errors` present and not null. */
export function itemHasErrors(raw: Readonly<Record<string, unknown>> | undefined): boolean {
  return raw !== undefined && raw.errors !== null && raw.errors !== undefined;
}

/** The same entry without its raw item. */
export function withoutRaw(e: HistoryEntry): HistoryEntry {
  return e.raw === undefined ? e : { ...e, raw: undefined };
}

/**
 * From the sync's plausible start (its created_at when that can be true, else first seen: see plausibleStart) to the
 * midpoint of [lastSeen, leftAt], ± half that gap. Never negative (a created_at within clock skew after the sync was
 * seen means the clocks disagree).
 */
export function durationOf(e: Pick<EntryFields, 'createdAt' | 'firstSeen' | 'lastSeen' | 'leftAt'>): Duration {
  const start = plausibleStart(e.createdAt, e.firstSeen, e.lastSeen);
  const gap = Math.max(0, e.leftAt - e.lastSeen);
  return {
    ms: Math.max(0, e.lastSeen + gap / 2 - start.ms),
    uncertaintyMs: gap / 2,
    from: start.from,
    startMs: start.ms,
  };
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
export function boundedRaw(
  raw: Readonly<Record<string, unknown>> | undefined,
): Readonly<Record<string, unknown>> | undefined {
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

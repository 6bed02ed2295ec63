import { inert } from '../base/inert';
import { MAX_CREATED_AT, MAX_FLOW_NAME, MAX_RAW_CHARS, makeEntry, type HistoryEntry } from './entry';
import { HISTORY_CAP, fnv1a } from './store';
import type { FileInfo, Files } from '../env/types';
import { isTemporaryName } from '../env/temporaryName';

/** The files the store needs are the storage port of the platform seam (src/env/types.ts). */
export type { FileInfo, Files };

/*
 * The History store (format 2): a time-partitioned, append-only log. In the folder of a service origin
 * (originFolder), each window appends the runs it saw leave to its own file of the day they left (UTC):
 *   h2-YYYY-MM-DD-<window>.log
 * Each run is one record: a newline, then a JSON array [id, flowId, "flow name", "created_at", firstSeen, lastSeen,
 * leftAt, raw item or 0]. A record is written by one append and never rewritten; a window never writes another's
 * file. A write cut short (a crash) leaves a torn last record: no strict prefix of a JSON array is JSON, and the next
 * record starts with its own newline, so a reader skips exactly the torn one. Readers merge the files of all windows
 * (mergeSegments: a run two windows recorded is one entry). Nothing is rewritten per poll: a poll's cost is its own
 * records (a few hundred bytes per run), whatever the store holds.
 * - Reads are bounded: each file's size is checked before it is read (MAX_LOG_BYTES); a file over it, or with no
 *   readable record among several lines, is set aside once (renamed *.corrupt), counted, and deleted after the user's
 *   historyDays like the day files.
 * - Only the user's own historyDays deletes (pruneDisk): day files older than that, set-aside files, leftovers of
 *   interrupted writes. A window's shown days (a workspace may shorten them) only limit what it reads.
 * - Clear History writes a marker next to the origin folder (<origin folder>.cleared: the time of the clear), then
 *   deletes the folder. Every window reads the marker before it appends and when it reloads, drops what left before
 *   it, and every reader ignores such records: a cleared run never comes back.
 * - Segments of 0.2.0 (segment-*.json, one JSON document per window, rewritten whole) are migrated once: their runs
 *   written to day files (h2-DAY-migrated-<segment>.log, whole, atomically: the same names and contents if two
 *   windows or a restart do it again), then the segment is deleted.
 * - Per-day summaries (summary.ts: per flow, a duration histogram and processing time per hour) of the days a window
 *   does not hold in memory: s2-YYYY-MM-DD.json, written once (atomically) by the first window that needs the day after
 *   it closed, from all windows' files of that day merged (each run once), with the names and sizes of those files and
 *   the clear marker's time: when any of them changed (a late append, a clear), the summary is made again.
 * - Where a platform cannot append (the browser: workspace.fs only), the window rewrites its own file of the day,
 *   atomically (temporary file, then rename): small, as a day of one window is.
 * Only service data: never the API key (the caller leaves out records that hold it).
 */

/** A log file longer than this is not read (a day of 10,000 runs of one window is about 2-4 MB). */
export const MAX_LOG_BYTES = 32 * 1024 * 1024;
/** Bytes one read reads at most, across files (what is left is read by the next read). */
export const MAX_READ_BYTES = 48 * 1024 * 1024;
/** Runs one read parses at most, across files: twice what a window holds (HISTORY_CAP), for the windows that record the same runs. */
export const MAX_READ_RUNS = 2 * HISTORY_CAP;
/** Files of one day read at most (a window's own first, then the newest); the rest are set aside. */
export const MAX_DAY_FILES = 64;
/** A raw item whose JSON is longer than this is not written with its run (a run's record stays under 1 KB). */
const RAW_LINE_CHARS = 600;

export const LOG_NAME = /^h2-(\d{4}-\d{2}-\d{2})-([A-Za-z0-9_-]{1,80})\.log$/;
export const LEGACY_NAME = /^segment-.*\.json$/;
export const SUMMARY_NAME = /^s2-(\d{4}-\d{2}-\d{2})\.json$/;
/** A summary file longer than this is not read (made again instead). */
export const MAX_SUMMARY_BYTES = 1024 * 1024;
export const SET_ASIDE = '.corrupt';
/** No record is shorter (its three times alone take 39 characters). */
export const MIN_RECORD_BYTES = 40;
/** A leftover of a write cut short: a temporary name (src/env/temporaryName.ts), or one an earlier version gave (`<name>.tmp-<hex>`). */
export const isLeftover = (name: string) => isTemporaryName(name) || /\.tmp-[0-9a-z]+$/.test(name);
/**
 * How far ahead of this window's clock a time of the store (the Clear marker) may be and still count as it is: the
 * windows of one machine share its clock. A marker further ahead was written by a clock that was wrong, or planted.
 */
export const CLOCK_SKEW_MS = 5 * 60_000;
/** Times outside these years are not times this extension wrote. */
const MIN_TIME = Date.UTC(2000, 0, 1);
const MAX_TIME = Date.UTC(2200, 0, 1);

/** The UTC day ("YYYY-MM-DD") of a time. */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The file of one window's runs of one day. */
export function logFileName(day: string, windowTag: string): string {
  return `h2-${day}-${windowTag}.log`;
}

/** A window's tag in file names: readable, safe, distinct (a hash of the id). */
export function windowTag(windowId: string): string {
  const safe = windowId.replace(/[^A-Za-z0-9-]+/g, '_').slice(0, 40);
  return `${safe || 'window'}-${fnv1a(windowId)}`;
}

// ------------------------------------------------------------ records

/** One run's record: a newline, then the JSON array. */
export function logRecord(e: HistoryEntry): string {
  // Without its item: 0, or 1 when the run had errors (a reader before 0.4.0 reads either as "no item").
  let raw: unknown = e.hadErrors ? 1 : 0;
  if (e.raw) {
    const json = safeJson(e.raw);
    if (json !== undefined && json.length <= RAW_LINE_CHARS) raw = e.raw;
  }
  return '\n' + JSON.stringify([e.id, e.flowId, e.flowName, e.createdAt, e.firstSeen, e.lastSeen, e.leftAt, raw]);
}

/** The records of a log's text: every line that is a valid record; the others (a torn write, garbage) counted. */
export function parseLog(text: string): { entries: HistoryEntry[]; rejected: number } {
  const entries: HistoryEntry[] = [];
  let rejected = 0;
  const names = new Map<string, string>(); // flow names made inert once per file: a day repeats a few hundred
  // Fast path: every line a record (the usual case): one JSON.parse for the whole file.
  if (everyLineARecord(text)) {
    const rows = joinedRows(text);
    if (rows) {
      for (const row of rows) {
        const e = entryOf(row, names);
        if (e) entries.push(e);
        else rejected++;
      }
      return { entries, rejected };
    }
  }
  for (const line of text.split('\n')) {
    if (line.length === 0) continue;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      rejected++;
      continue;
    }
    const e = entryOf(row, names);
    if (e) entries.push(e);
    else rejected++;
  }
  return { entries, rejected };
}

/** UTF-8 bytes of a log decoded and parsed per piece of about this many bytes (each piece whole records). */
const LOG_PIECE_BYTES = 32 * 1024;

/**
 * parseLog of the UTF-8 text of `bytes` (a log's records), the same answer, read in pieces of about LOG_PIECE_BYTES
 * that end where a record does: a day's log is megabytes, and a string of it (or of its records joined for one
 * JSON.parse) is a large object to V8, allocated and freed on its own, which made reading a day several times slower
 * than parsing it. A newline byte is never part of another character in UTF-8, so the pieces decode as the whole
 * does. Where a piece is not all records (a torn write, garbage), the whole is decoded and parsed as before.
 */
export function parseLogBytes(bytes: Uint8Array): { entries: HistoryEntry[]; rejected: number } {
  const decoder = new TextDecoder();
  if (bytes.length <= LOG_PIECE_BYTES) return parseLog(decoder.decode(bytes));
  const names = new Map<string, string>();
  const entries: HistoryEntry[] = [];
  let rejected = 0;
  for (let from = 0; from < bytes.length;) {
    let to = bytes.length;
    if (to - from > LOG_PIECE_BYTES) {
      to = bytes.lastIndexOf(10, from + LOG_PIECE_BYTES);
      if (to <= from) to = bytes.indexOf(10, from + LOG_PIECE_BYTES);
      if (to < 0) to = bytes.length;
    }
    const piece = decoder.decode(bytes.subarray(from, to));
    // Each piece a JSON array of one row or more: then the whole text's lines joined are these rows, in this order.
    const rows = everyLineARecord(piece) ? joinedRows(piece) : undefined;
    if (!rows?.length) return parseLog(decoder.decode(bytes)); // parseLog's own way, on the whole
    for (const row of rows) {
      const e = entryOf(row, names);
      if (e) entries.push(e);
      else rejected++;
    }
    from = to;
  }
  return { entries, rejected };
}

/** parseLog's test for its fast path: the text is records, each after a newline (no empty line, none at the end). */
function everyLineARecord(text: string): boolean {
  return text.charCodeAt(0) === 10 && !text.includes('\n\n') && text.charCodeAt(text.length - 1) !== 10;
}

/** The lines of `text` (see everyLineARecord) parsed as one JSON array, or undefined when that is not JSON. */
function joinedRows(text: string): unknown[] | undefined {
  try {
    const rows: unknown = JSON.parse(`[${text.slice(1).replaceAll('\n', ',')}]`);
    return Array.isArray(rows) ? rows : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A file's runs with each once: a window records a run once, but a write retried by an older version (or planted
 * records) may repeat one (the same sync, created_at and first sighting). Linear; the list itself when none repeats.
 */
export function withoutRepeats(entries: HistoryEntry[]): HistoryEntry[] {
  const byId = new Map<number, HistoryEntry | Map<number, HistoryEntry>>();
  let kept: HistoryEntry[] | undefined;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    const found = byId.get(e.id);
    let repeat = false;
    if (found === undefined) byId.set(e.id, e);
    else {
      const byFirstSeen = found instanceof Map ? found : new Map([[found.firstSeen, found]]);
      if (byFirstSeen !== found) byId.set(e.id, byFirstSeen);
      repeat = byFirstSeen.get(e.firstSeen)?.createdAt === e.createdAt;
      if (!repeat) byFirstSeen.set(e.firstSeen, e);
    }
    if (repeat) {
      kept ??= entries.filter((_, k) => k < i);
    } // the runs before the first repeat
    else kept?.push(e);
  }
  return kept ?? entries;
}

function entryOf(row: unknown, names: Map<string, string>): HistoryEntry | undefined {
  if (!Array.isArray(row) || row.length !== 8) return undefined;
  const [id, flowId, flowName, createdAt, firstSeen, lastSeen, leftAt, raw] = row as unknown[];
  if (
    !isInt(id) ||
    id < 0 ||
    !isInt(flowId) ||
    flowId < 0 ||
    typeof flowName !== 'string' ||
    typeof createdAt !== 'string' ||
    createdAt.length > MAX_CREATED_AT
  ) {
    return undefined;
  }
  if (
    !isInt(firstSeen) ||
    !isInt(lastSeen) ||
    !isInt(leftAt) ||
    firstSeen < MIN_TIME ||
    lastSeen < firstSeen ||
    leftAt < lastSeen ||
    leftAt > MAX_TIME
  ) {
    return undefined;
  }
  let kept: Record<string, unknown> | undefined;
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    const json = safeJson(raw);
    if (json !== undefined && json.length <= Math.min(MAX_RAW_CHARS, RAW_LINE_CHARS)) {
      kept = raw as Record<string, unknown>;
    } // JSON of a short text: at most that deep
  }
  let name = names.get(flowName);
  if (name === undefined) names.set(flowName, (name = inert(flowName, MAX_FLOW_NAME)));
  return makeEntry({
    id,
    flowId,
    flowName: name,
    createdAt,
    firstSeen,
    lastSeen,
    leftAt,
    raw: kept,
    hadErrors: raw === 1,
  });
}

// ------------------------------------------------------------ the store of one origin

function safeJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

function isInt(value: unknown): value is number {
  return Number.isSafeInteger(value);
}

import { inert } from '../base/inert';
import { bounded } from '../settings/settingValues';
import {
  DAY_MS,
  HISTORY_DAYS,
  MAX_CREATED_AT,
  MAX_FLOW_NAME,
  MAX_RAW_CHARS,
  compareNewestFirst,
  makeEntry,
  withoutRaw,
  type HistoryEntry,
} from './entry';
import { EARLIEST_PLAUSIBLE_TIME } from '../base/plausibleTime';

/*
 * History's runs, pure part: merging the records of several windows (mergeSegments: a run two windows recorded is
 * one entry, a sync that ran twice stays two; grouped by sync id, then by created_at and overlapping spans: linear
 * but for sorting a group), what a window keeps (pruneEntries), the folder of an origin (originFolder), and the
 * segments of 0.2.0 (one JSON document per window, rewritten whole), which log.ts migrates to its day files
 * (parseSegment; serializeSegment is that version's writer, kept for the tests and the bench of the migration).
 *
 * Format (version 1), one JSON object, in columns (smaller and faster to parse than an object per entry):
 *   { "format": "flowsync-history", "version": 1, "origin": "https://…", "base": <ms>,
 *     "flows": [[flowId, "name"], …],                      names table; entries point into it
 *     "id": […], "flow": [index into flows, …], "createdAt": ["…", …],
 *     "firstSeen": [ms after base, …], "seenFor": [lastSeen − firstSeen, …], "leftAfter": [leftAt − lastSeen, …],
 *     "raw": [[entry index, {…}], …] }                      the last item seen, for the newest entries only
 * Only service data: never the API key (nor anything derived from it).
 */

export const HISTORY_FORMAT = 'flowsync-history';
const HISTORY_VERSION = 1;

/**
 * Most runs a window holds in memory (the newest) for the views: at 10,000 syncs a day, the last 5 days. The disk keeps
 * every run of the user's historyDays (log.ts: 90 days of 10,000 a day are 900,000 runs in day files); a window
 * reads the newest days only, up to this.
 */
export const HISTORY_CAP = 50_000;
/** Entries (the newest) whose last raw item is kept for Open as JSON; older entries show their fields only. */
export const RAW_KEPT = 1_000;
/** At most this many characters of raw items per segment, however many entries have one. */
const RAW_CHARS_KEPT = 1_000_000;
/** A segment longer than this is not read at all (a valid one at the cap is about 3 MB). */
export const MAX_SEGMENT_CHARS = 16 * 1024 * 1024;
/** Deepest raw item accepted from disk (an answer's item is 3 levels deep; this is far beyond any). */
const MAX_RAW_DEPTH = 32;

/** Times outside these years are not times this extension wrote. */
const MIN_TIME = EARLIEST_PLAUSIBLE_TIME;
const MAX_TIME = Date.UTC(2200, 0, 1);

/** A segment read from disk: the entries that parse and the number left out, or why the whole file was not read. */
export type ParsedSegment =
  | { ok: true; entries: HistoryEntry[]; rejected: number }
  | {
      ok: false;
      /**
       * tooLarge, notJson, notHistory: corrupt (set it aside); newerVersion: written by a newer version of the
       * extension (leave it alone); otherOrigin: belongs to another service (never mixed in).
       */
      reason: 'tooLarge' | 'notJson' | 'notHistory' | 'newerVersion' | 'otherOrigin';
    };

// ------------------------------------------------------------ serialize

/**
 * One window's segment. Pass the output of pruneEntries (newest first): the raw items of the first RAW_KEPT entries
 * (at most RAW_CHARS_KEPT characters) are kept.
 */
export function serializeSegment(entries: readonly HistoryEntry[], origin: string): string {
  let base = Infinity;
  for (const e of entries) base = Math.min(base, e.firstSeen);
  if (!Number.isFinite(base)) base = 0;
  const flowIndex = new Map<string, number>();
  const flows: Array<[number, string]> = [];
  const n = entries.length;
  const id = new Array<number>(n);
  const flow = new Array<number>(n);
  const createdAt = new Array<string>(n);
  const firstSeen = new Array<number>(n);
  const seenFor = new Array<number>(n);
  const leftAfter = new Array<number>(n);
  const raw: Array<[number, unknown]> = [];
  let rawChars = 0;
  for (let i = 0; i < n; i++) {
    const e = entries[i];
    const flowKey = `${e.flowId}\u0000${e.flowName}`;
    let f = flowIndex.get(flowKey);
    if (f === undefined) {
      flowIndex.set(flowKey, (f = flows.length));
      flows.push([e.flowId, e.flowName]);
    }
    id[i] = e.id;
    flow[i] = f;
    createdAt[i] = e.createdAt;
    firstSeen[i] = e.firstSeen - base;
    seenFor[i] = e.lastSeen - e.firstSeen;
    leftAfter[i] = e.leftAt - e.lastSeen;
    if (e.raw && raw.length < RAW_KEPT && rawChars < RAW_CHARS_KEPT) {
      const json = safeJson(e.raw);
      if (json !== undefined && json.length <= MAX_RAW_CHARS && rawChars + json.length <= RAW_CHARS_KEPT) {
        raw.push([i, e.raw]);
        rawChars += json.length;
      }
    }
  }
  return JSON.stringify({
    format: HISTORY_FORMAT,
    version: HISTORY_VERSION,
    origin,
    base,
    flows,
    id,
    flow,
    createdAt,
    firstSeen,
    seenFor,
    leftAfter,
    raw,
  });
}

function safeJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

// ------------------------------------------------------------ parse

/**
 * Reads a segment. Every field from disk is checked; a corrupt or hostile file never throws: entries that do not
 * parse are left out and counted, a file that is not a segment at all is reported. With `origin`, a segment of
 * another service is refused.
 */
export function parseSegment(text: string, origin?: string): ParsedSegment {
  const segment = segmentColumns(text, origin);
  if (!segment.ok) return segment;
  const { base, columns, raw } = segment;
  const [flowRows, ids, flowRefs, createdAts, firstSeens, seenFors, leftAfters] = columns;

  const flows = new Array<[number, string] | null | undefined>(Math.min(flowRows.length, HISTORY_CAP)); // checked when first used
  const n = Math.max(
    ids.length,
    flowRefs.length,
    createdAts.length,
    firstSeens.length,
    seenFors.length,
    leftAfters.length,
  );
  const read = Math.min(n, HISTORY_CAP);
  const raws = rawsOf(raw, read);
  const entries: HistoryEntry[] = [];
  let rejected = n - read;
  for (let i = 0; i < read; i++) {
    const id = ids[i];
    const ref = flowRefs[i];
    const createdAt = createdAts[i];
    const fs = firstSeens[i];
    const seenFor = seenFors[i];
    const leftAfter = leftAfters[i];
    let f: [number, string] | null | undefined;
    if (isInt(ref) && ref >= 0 && ref < flows.length) {
      f = flows[ref];
      if (f === undefined) flows[ref] = f = flowOf(flowRows[ref]);
    }
    if (
      !f ||
      !isInt(id) ||
      id < 0 ||
      typeof createdAt !== 'string' ||
      createdAt.length > MAX_CREATED_AT ||
      !isInt(fs) ||
      !isInt(seenFor) ||
      !isInt(leftAfter) ||
      seenFor < 0 ||
      leftAfter < 0
    ) {
      rejected++;
      continue;
    }
    const firstSeen = base + fs;
    const lastSeen = firstSeen + seenFor;
    const leftAt = lastSeen + leftAfter;
    if (firstSeen < MIN_TIME || leftAt > MAX_TIME) {
      rejected++;
      continue;
    }
    entries.push(
      makeEntry({ id, flowId: f[0], flowName: f[1], createdAt, firstSeen, lastSeen, leftAt, raw: raws.get(i) }),
    );
  }
  return { ok: true, entries, rejected };
}

/** A segment's columns in the order SEGMENT_COLUMNS names them, each an array whose items are not checked yet. */
type SegmentColumns = [unknown[], unknown[], unknown[], unknown[], unknown[], unknown[], unknown[]];
const SEGMENT_COLUMNS = ['flows', 'id', 'flow', 'createdAt', 'firstSeen', 'seenFor', 'leftAfter'];

/**
 * The header of a segment checked (its size, JSON, format, version, origin, base and that every column is an array):
 * its base, columns and raw items (unchecked), or why the file is not read at all.
 */
function segmentColumns(
  text: string,
  origin: string | undefined,
): { ok: true; base: number; columns: SegmentColumns; raw: unknown } | Extract<ParsedSegment, { ok: false }> {
  if (typeof text !== 'string') return { ok: false, reason: 'notJson' };
  if (text.length > MAX_SEGMENT_CHARS) return { ok: false, reason: 'tooLarge' };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'notJson' };
  }
  if (!isObject(doc) || own(doc, 'format') !== HISTORY_FORMAT) return { ok: false, reason: 'notHistory' };
  const version = own(doc, 'version');
  if (!Number.isSafeInteger(version) || (version as number) < 1) return { ok: false, reason: 'notHistory' };
  if ((version as number) > HISTORY_VERSION) return { ok: false, reason: 'newerVersion' };
  if (origin !== undefined && own(doc, 'origin') !== origin) return { ok: false, reason: 'otherOrigin' };
  const base = own(doc, 'base');
  const columns = SEGMENT_COLUMNS.map((k) => own(doc as Record<string, unknown>, k));
  if (!isInt(base) || !columns.every(Array.isArray)) return { ok: false, reason: 'notHistory' };
  return { ok: true, base, columns: columns as SegmentColumns, raw: own(doc, 'raw') };
}

/** The raw items of a segment by entry index: plain objects, not too deep, not too long; the first for an index wins. */
function rawsOf(value: unknown, entries: number): Map<number, Record<string, unknown>> {
  const raws = new Map<number, Record<string, unknown>>();
  if (!Array.isArray(value)) return raws;
  for (const pair of value.slice(0, RAW_KEPT)) {
    if (
      !Array.isArray(pair) ||
      pair.length !== 2 ||
      !isInt(pair[0]) ||
      pair[0] < 0 ||
      pair[0] >= entries ||
      raws.has(pair[0])
    ) {
      continue;
    }
    const raw: unknown = pair[1];
    if (!isObject(raw) || depthOver(raw, MAX_RAW_DEPTH)) continue;
    const json = safeJson(raw);
    if (json !== undefined && json.length <= MAX_RAW_CHARS) raws.set(pair[0], raw);
  }
  return raws;
}

/** A row of the flows table, or null when it is not [id, name]. */
function flowOf(row: unknown): [number, string] | null {
  if (!Array.isArray(row) || row.length !== 2 || !isInt(row[0]) || row[0] < 0 || typeof row[1] !== 'string') {
    return null;
  }
  return [row[0], inert(row[1], MAX_FLOW_NAME)];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An own property only: a parsed "__proto__" key is an own data property, never the prototype's. */
function own(o: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;
}

function isInt(value: unknown): value is number {
  return Number.isSafeInteger(value);
}

/** True when a JSON value nests deeper than `max` (checked without recursion; stops at the first too-deep value). */
function depthOver(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

// ------------------------------------------------------------ merge and prune

/**
 * All segments of one origin as one list, newest first, each run once. Entries of the same sync (id and created_at)
 * are the same run when their observed spans [firstSeen, leftAt] overlap: two windows watching one run both saw it
 * before it left and both noticed after, so their spans overlap; a run that came back starts after every window
 * that noticed the first run leave had noticed it. So a sync that ran twice stays two entries (even with the same or
 * an invalid created_at), and a run two windows recorded is one entry, with the narrowest bounds both give: the
 * earliest firstSeen, the latest lastSeen and the earliest leftAt after it. Order of segments does not matter;
 * merging a merge changes nothing. Within one segment runs are taken as distinct (a window records a run once).
 */
export function mergeSegments(segments: readonly (readonly HistoryEntry[])[]): HistoryEntry[] {
  // A segment never holds one run twice (a window records a run once), so only runs across segments are looked for:
  // the largest segment (usually all but a few entries) is probed against the others instead of indexed itself.
  const [largest = [], ...rest] = [...segments].sort((a, b) => b.length - a.length);
  const others = new Map<number, HistoryEntry | HistoryEntry[]>();
  for (const segment of rest) for (const e of segment) add(others, e);
  let merged: HistoryEntry[];
  if (others.size === 0) merged = [...largest];
  else {
    merged = [];
    for (const e of largest) {
      if (others.has(e.id)) add(others, e);
      else merged.push(e);
    }
    for (const value of others.values()) {
      if (Array.isArray(value)) merged.push(...mergeRuns(value));
      else merged.push(value);
    }
  }
  return isNewestFirst(merged) ? merged : merged.sort(compareNewestFirst);
}

function add(byId: Map<number, HistoryEntry | HistoryEntry[]>, e: HistoryEntry): void {
  const found = byId.get(e.id);
  if (found === undefined) byId.set(e.id, e);
  else if (Array.isArray(found)) found.push(e);
  else byId.set(e.id, [found, e]);
}

/** Entries of one sync id: grouped by created_at, then by overlapping spans. */
function mergeRuns(same: HistoryEntry[]): HistoryEntry[] {
  if (same.length === 2) return sameRun(same[0], same[1]) ? [combine(same)] : same; // the common case
  same.sort(
    (a, b) =>
      (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0) ||
      a.firstSeen - b.firstSeen ||
      a.leftAt - b.leftAt,
  );
  const out: HistoryEntry[] = [];
  let cluster: HistoryEntry[] = [];
  let clusterEnd = -Infinity;
  for (const e of same) {
    const c = cluster[0];
    if (c && e.createdAt === c.createdAt && (e.firstSeen < clusterEnd || e.firstSeen === c.firstSeen)) {
      cluster.push(e);
      clusterEnd = Math.max(clusterEnd, e.leftAt);
    } else {
      if (c) out.push(combine(cluster));
      cluster = [e];
      clusterEnd = e.leftAt;
    }
  }
  if (cluster.length) out.push(combine(cluster));
  return out;
}

/**
 * Whether two records are of the same run: the same sync and created_at, and spans [firstSeen, leftAt] that overlap
 * (or start together), as mergeSegments decides for two.
 */
export function sameRun(a: HistoryEntry, b: HistoryEntry): boolean {
  if (a.id !== b.id || a.createdAt !== b.createdAt) return false;
  if (a.firstSeen === b.firstSeen) return true;
  return a.firstSeen < b.firstSeen ? b.firstSeen < a.leftAt : a.firstSeen < b.leftAt;
}

/** One run seen by several windows: the narrowest bounds; flow and raw item from the latest sighting. */
function combine(cluster: HistoryEntry[]): HistoryEntry {
  if (cluster.length === 1) return cluster[0];
  let latest = cluster[0];
  let firstSeen = Infinity;
  for (const e of cluster) {
    firstSeen = Math.min(firstSeen, e.firstSeen);
    if (e.lastSeen > latest.lastSeen || (e.lastSeen === latest.lastSeen && preferred(e, latest))) latest = e;
  }
  let leftAt = Infinity;
  for (const e of cluster) if (e.leftAt >= latest.lastSeen) leftAt = Math.min(leftAt, e.leftAt);
  const raw = latest.raw ?? cluster.find((e) => e.lastSeen === latest.lastSeen && e.raw)?.raw;
  return makeEntry({
    id: latest.id,
    flowId: latest.flowId,
    flowName: latest.flowName,
    createdAt: latest.createdAt,
    firstSeen,
    lastSeen: latest.lastSeen,
    leftAt,
    raw,
    hadErrors: cluster.some((e) => e.hadErrors),
  });
}

/** Among sightings at the same time, a deterministic pick (the same whatever the order of segments). */
function preferred(a: HistoryEntry, b: HistoryEntry): boolean {
  return (
    a.leftAt < b.leftAt ||
    (a.leftAt === b.leftAt && (a.flowName < b.flowName || (a.flowName === b.flowName && a.firstSeen < b.firstSeen)))
  );
}

function isNewestFirst(entries: readonly HistoryEntry[]): boolean {
  for (let i = 1; i < entries.length; i++) if (compareNewestFirst(entries[i - 1], entries[i]) > 0) return false;
  return true;
}

/**
 * What a window keeps and shows: entries that left within `days` (clamped to 1..90; a day ahead of `now` is
 * tolerated for another window's clock, further is dropped), newest first, at most `cap`; only the newest `rawKept`
 * keep their raw item (memory stays bounded).
 */
export function pruneEntries(
  entries: readonly HistoryEntry[],
  now: number,
  days: number,
  cap = HISTORY_CAP,
  rawKept = RAW_KEPT,
): HistoryEntry[] {
  const from = now - bounded(days, HISTORY_DAYS) * DAY_MS;
  const to = now + DAY_MS;
  const kept = entries.filter((e) => e.leftAt >= from && e.leftAt <= to);
  if (!isNewestFirst(kept)) kept.sort(compareNewestFirst);
  if (kept.length > cap) kept.length = Math.max(0, cap);
  let raws = 0;
  for (let i = 0; i < kept.length; i++) {
    const e = kept[i];
    if (!e.raw) continue;
    if (raws < rawKept) raws++;
    else kept[i] = withoutRaw(e);
  }
  return kept;
}

// ------------------------------------------------------------ file names

/** A folder name for one service origin: readable, safe on every file system, and distinct per origin (a hash). */
export function originFolder(origin: string): string {
  const readable = origin
    .toLowerCase()
    .replace(/^[a-z]+:\/\//, '')
    .replace(/[^a-z0-9.-]+/g, '_')
    .slice(0, 60);
  return `${readable || 'service'}-${fnv1a(origin)}`;
}

/** The file of one window's segment, from an id of that window (drawn per window: sessionId is shared while telemetry is off). */
export function segmentFileName(windowId: string): string {
  const safe = windowId.replace(/[^A-Za-z0-9-]+/g, '_').slice(0, 60);
  return `segment-${safe || 'window'}-${fnv1a(windowId)}.json`;
}

/** FNV-1a, 32 bits, as 8 hex digits: names, not security. */
export function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

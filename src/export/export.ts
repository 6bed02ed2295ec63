import { inert } from '../base/inert';
import { lazyRegExp } from '../base/lazyRegExp';
import type { HistoryEntry } from '../history/entry';
import { dayOf } from '../history/log';

/*
 * Export History... (issue #31): the rows of the History view as CSV (RFC 4180) or JSON Lines, the same columns in
 * the same order in both. Pure: entries in, text out, a chunk at a time (the adapter streams the chunks to a
 * temporary file and renames it when done, so a cancelled export leaves no partial file).
 */

/** The columns, in order. */
export const EXPORT_COLUMNS = [
  'service',
  'flow_id',
  'flow_name',
  'sync_id',
  'created_at',
  'first_seen',
  'left_at',
  'duration_seconds',
  'duration_is_lower_bound',
  'had_errors',
  'webhook',
  'last_status',
] as const;

export type ExportFormat = 'csv' | 'jsonl';

/** One exported run. `null` where the service's item is not kept with the run (too large when it left). */
export interface ExportRow {
  readonly service: string;
  readonly flow_id: number;
  readonly flow_name: string;
  readonly sync_id: number;
  /** ISO 8601 UTC when the service's created_at is a time; else the text it sent (it is service text: masked, bounded). */
  readonly created_at: string;
  readonly first_seen: string;
  readonly left_at: string;
  readonly duration_seconds: number;
  /** True when created_at could not be true and the duration counts from when the sync was first seen. */
  readonly duration_is_lower_bound: boolean;
  readonly had_errors: boolean | null;
  readonly webhook: boolean | null;
  readonly last_status: string | null;
}

/** The longest text a cell keeps (a flow name is at most 120 characters, a status is a word). */
const MAX_CELL = 1_000;

/** Masks service text for a file: removes the API key and any piece of it, and bounds the length. */
export type ExportMask = (text: string, max: number) => string;

/**
 * The row of one run. Every text cell goes through the clean-up every piece of service text goes through
 * (src/base/inert.ts: control characters, line breaks, bidi overrides, tag and every other invisible character
 * removed or made a space, one line, bounded), then `mask` (the adapter passes the one masking every text of the window
 * goes through: the key and any piece of it removed, after the clean-up that could join a key split by invisible
 * characters).
 */
export function exportRow(service: string, e: HistoryEntry, mask: ExportMask): ExportRow {
  const cell = cellText(mask);
  const raw = e.raw;
  // A duration from 'created' starts at created_at, already parsed (Date.parse is slow: 900,000 runs, three times each)
  const createdMs = e.duration.from === 'created' ? e.duration.startMs : Date.parse(e.createdAt);
  return {
    service: cell(service),
    flow_id: e.flowId,
    flow_name: cell(e.flowName),
    sync_id: e.id,
    created_at: Number.isFinite(createdMs) && /^\d{4}-/.test(e.createdAt) ? isoTime(createdMs) : cell(e.createdAt),
    first_seen: isoTime(e.firstSeen),
    left_at: isoTime(e.leftAt),
    duration_seconds: Math.round(e.duration.ms) / 1000,
    duration_is_lower_bound: e.duration.from !== 'created',
    had_errors: raw || e.hadErrors ? e.hadErrors : null,
    webhook: raw && typeof raw.webhook === 'boolean' ? raw.webhook : null,
    last_status: raw && typeof raw.status === 'string' ? cell(raw.status) : null,
  };
}

/** Distinct texts whose cell an export remembers (a service's name, its flows' names, statuses). */
const REMEMBERED_CELLS = 10_000;
/** The cells made by each mask (an export passes its own: they are forgotten with it). */
const cellsByMask = new WeakMap<ExportMask, (text: string) => string>();

/**
 * A text cell: `inert`'s clean-up, then `mask`. Remembered per mask: the same few texts (the service, 200 flow names, a
 * status) come back on 900,000 rows, and the clean-up and masking are most of a row's cost. Forgets all at the bound.
 */
function cellText(mask: ExportMask): (text: string) => string {
  let cell = cellsByMask.get(mask);
  if (cell) return cell;
  const known = new Map<string, string>();
  cell = (text) => {
    let out = known.get(text);
    if (out === undefined) {
      if (known.size >= REMEMBERED_CELLS) known.clear();
      // inert masks the window's keys too (hideEverywhere); `mask` again after its clean-up, for the keys it is given
      known.set(text, (out = mask(inert(text, MAX_CELL), MAX_CELL)));
    }
    return out;
  };
  cellsByMask.set(mask, cell);
  return cell;
}

/** The UTC day last formatted (isoTime): its number and its "yyyy-mm-ddT" (a cache: any copy of it is as good). */
const isoDay = { day: NaN, text: '' };

/**
 * ISO 8601 in UTC, as Date#toISOString writes it, ten times faster for times of one day (the day's text is kept):
 * an export writes three a run. '' for a time that is not one.
 */
export function isoTime(ms: number): string {
  if (!(Math.abs(ms) <= 8.64e15)) return ''; // not a time a Date can hold (NaN too)
  const day = Math.floor(ms / DAY);
  if (day !== isoDay.day) {
    const d = new Date(day * DAY);
    if (!Number.isFinite(d.getTime())) return '';
    const text = d.toISOString();
    if (text.length !== 24) return new Date(ms).toISOString(); // a year before 0 or after 9999
    [isoDay.day, isoDay.text] = [day, text.slice(0, 11)];
  }
  let rest = Math.floor(ms) - day * DAY;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = Math.floor(rest / 1000);
  const milli = rest - s * 1000;
  return `${isoDay.text}${h < 10 ? '0' : ''}${h}:${m < 10 ? '0' : ''}${m}:${s < 10 ? '0' : ''}${s}.${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}

const DAY = 86_400_000;

/** The header line of a CSV export (with its line break). */
export function csvHeader(): string {
  return `${EXPORT_COLUMNS.join(',')}\r\n`;
}

/** One CSV record (RFC 4180: CRLF, quoted where needed) with its line break. */
function csvLine(row: ExportRow): string {
  return `${EXPORT_COLUMNS.map((column) => csvCell(row[column])).join(',')}\r\n`;
}

/** One JSON Lines record with its line break: numbers as numbers, booleans as booleans, the columns in order. */
export function jsonlLine(row: ExportRow): string {
  // Written out (the order of EXPORT_COLUMNS; a test checks it): twice as fast as JSON.stringify of an object
  const s = JSON.stringify;
  return `{"service":${s(row.service)},"flow_id":${num(row.flow_id)},"flow_name":${s(row.flow_name)},"sync_id":${num(row.sync_id)},"created_at":${s(row.created_at)},"first_seen":${s(row.first_seen)},"left_at":${s(row.left_at)},"duration_seconds":${num(row.duration_seconds)},"duration_is_lower_bound":${row.duration_is_lower_bound},"had_errors":${row.had_errors},"webhook":${row.webhook},"last_status":${row.last_status === null ? 'null' : s(row.last_status)}}\n`;
}

/** A number as JSON writes it (not finite: null). */
function num(n: number): string {
  return Number.isFinite(n) ? String(n) : 'null';
}

/**
 * A CSV cell. A text that a spreadsheet would run as a formula is prefixed with ' (service text reaches a spreadsheet:
 * formula injection): one whose first character after any leading whitespace (line breaks, no-break spaces...) or
 * invisible character (zero-width, bidi, tag characters...) is =, +, -, @ or their full-width forms, or that begins with
 * a tab or a carriage return. Then a cell holding a quote, a comma or a line break is quoted, its quotes doubled
 * (RFC 4180). `null` is an empty cell. (The rows' cells are cleaned before: see exportRow; this holds for any text.)
 */
export function csvCell(value: string | number | boolean | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START().test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A formula's start: = + - @ (or full-width) after any whitespace or invisible character; or a tab or CR first. */
const FORMULA_START = lazyRegExp(
  '^(?:[\\t\\r]|[\\s\\p{Cf}\\p{Default_Ignorable_Code_Point}\\u2800]*[=+\\-@\\uff1d\\uff0b\\uff0d\\uff20])',
  'u',
);
const NEEDS_QUOTES = /[",\r\n]/;

/** Rows a chunk holds: each chunk is one write, so the heap holds at most a chunk's text at a time (500: its pieces die young; at 2,000 the peak heap of 900,000 runs was twice as high). */
export const EXPORT_CHUNK_ROWS = 500;

/**
 * The file's text in chunks: the header (CSV), then EXPORT_CHUNK_ROWS records a chunk. Lazy: a row is made only when
 * its chunk is asked for, so an export of 900,000 runs never holds their text at once.
 */
export function* exportChunks(format: ExportFormat, rows: Iterable<ExportRow>): Generator<string> {
  const line = format === 'csv' ? csvLine : jsonlLine;
  let chunk = format === 'csv' ? csvHeader() : '';
  let n = 0;
  for (const row of rows) {
    chunk += line(row);
    if (++n === EXPORT_CHUNK_ROWS) {
      yield chunk;
      chunk = '';
      n = 0;
    }
  }
  if (chunk) yield chunk;
}

/** The default file name: flowsync-history-<service>-<yyyy-mm-dd>.<ext>, the service's name made safe for a file. */
export function exportFileName(service: string | undefined, nowMs: number, format: ExportFormat): string {
  const safe = (service ?? 'all')
    .normalize('NFKD')
    .replace(/[^\w.-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 40)
    .toLowerCase();
  return `flowsync-history-${safe || 'service'}-${dayOf(nowMs)}.${format}`;
}

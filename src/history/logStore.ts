import { bounded } from '../settings/settingValues';
import { DAY_MS, HISTORY_DAYS, type HistoryEntry } from './entry';
import { MAX_SEGMENT_CHARS, fnv1a, mergeSegments, parseSegment } from './store';
import { summarizeDay, summaryOf, type DaySummary } from './summary';
import type { FileInfo, Files } from '../env/types';
import {
  MAX_LOG_BYTES,
  MAX_READ_BYTES,
  MAX_READ_RUNS,
  MAX_DAY_FILES,
  LOG_NAME,
  LEGACY_NAME,
  SUMMARY_NAME,
  MAX_SUMMARY_BYTES,
  SET_ASIDE,
  MIN_RECORD_BYTES,
  isLeftover,
  CLOCK_SKEW_MS,
  dayOf,
  logFileName,
  windowTag,
  logRecord,
  parseLogBytes,
  withoutRepeats,
} from './log';

/** History's store on disk (format 2, see log.ts): reading, appending, summarizing and pruning its logs. */
export interface LogStoreOptions {
  readonly files: Files;
  /** The origin's folder (originFolder). */
  readonly folder: string;
  readonly windowId: string;
  readonly now: () => number;
  /** Log lines (no service data beyond file names and counts). */
  readonly log?: (level: 'info' | 'warn', message: string) => void;
}

/** What was read: runs (merged, newest first, after the clear marker), and whether older days are left to read. */
export interface ReadResult {
  readonly entries: HistoryEntry[];
  readonly more: boolean;
}

/**
 * The store of one service origin for one window: appends its departures, reads every window's files (only the
 * bytes added since it last read them), migrates 0.2.0 segments, prunes by the user's days, clears for all windows.
 */
export class LogStore {
  /** Files set aside (unreadable) by this window. */
  setAside = 0;
  /** Records skipped (torn or not a record) by this window's reads. */
  rejected = 0;
  private readonly files: Files;
  private readonly folder: string;
  private readonly tag: string;
  private readonly now: () => number;
  private readonly log: (level: 'info' | 'warn', message: string) => void;
  /** Per file: the bytes read so far (up to the last complete record). */
  private readonly offsets = new Map<string, number>();
  /** Runs that left at or before this time were cleared. */
  private clearedAt = -Infinity;
  private markerStamp: string | undefined;
  /** Browser (no append): this window's text of its current day file. */
  private ownText: { name: string; text: string } | undefined;
  private prunedDay: string | undefined;
  private readonly migrated = new Set<string>();
  /** Per file of this window: the records a failed write did not put on disk, written first by the next append. */
  private readonly unsaved = new Map<string, Unsaved>();
  /** Per day: its summary and the key (files and clear) it was made from. */
  private readonly summaryCache = new Map<string, { key: string; summary: DaySummary }>();

  constructor(options: LogStoreOptions) {
    this.files = options.files;
    this.folder = options.folder;
    this.tag = windowTag(options.windowId);
    this.now = options.now;
    this.log = options.log ?? (() => undefined);
  }

  private path(name: string): string {
    return `${this.folder}/${name}`;
  }

  private get markerPath(): string {
    return `${this.folder}.cleared`;
  }

  /** The time of the last Clear History (any window), read anew when the marker changed. */
  async cleared(): Promise<number> {
    const info = await this.files.stat(this.markerPath).catch(() => undefined);
    const stamp = info ? `${info.size}:${info.mtime}` : undefined;
    if (stamp === this.markerStamp) return this.clearedAt;
    this.markerStamp = stamp;
    if (!info || info.size > 1024) return this.clearedAt;
    const text = new TextDecoder().decode(
      await this.files.read(this.markerPath, 0, 1024).catch(() => new Uint8Array()),
    );
    const at = Number((safeParse(text) as { clearedAt?: unknown } | undefined)?.clearedAt);
    if (Number.isSafeInteger(at) && at > this.clearedAt) {
      this.clearedAt = at;
      this.offsets.clear(); // the files were deleted: read again from their start
      this.ownText = undefined;
    }
    return this.clearedAt > this.now() + CLOCK_SKEW_MS ? this.clearedAhead() : this.clearedAt;
  }

  /**
   * The marker is ahead of the clock (written while the clock was ahead, or planted): it counts as now, here and, as
   * it is written back, in every window (else it would drop every run until the clock caught up with it).
   */
  private async clearedAhead(): Promise<number> {
    const now = this.now();
    this.log(
      'warn',
      `History: the Clear History marker is ${Math.round((this.clearedAt - now) / 60_000)} minute(s) ahead of the clock; it counts as now`,
    );
    this.clearedAt = now;
    await this.files
      .replace(this.markerPath, new TextEncoder().encode(JSON.stringify({ clearedAt: now })))
      .catch(() => undefined);
    const info = await this.files.stat(this.markerPath).catch(() => undefined);
    this.markerStamp = info ? `${info.size}:${info.mtime}` : undefined;
    return now;
  }

  /**
   * Appends the runs that left (one record each; `secret` says a record holds what must never be written, e.g. the
   * API key: it is left out). Runs a Clear History removed are not written. Records a failed write could not put on
   * disk are kept and written first by the next call (with nothing new too); the call fails (after writing what it
   * could) while some are left.
   */
  async append(
    left: readonly HistoryEntry[],
    secret: (record: string) => boolean = () => false,
  ): Promise<{ bytes: number; leftOut: number }> {
    const clearedAt = await this.cleared();
    let leftOut = 0;
    for (const e of left) {
      if (e.leftAt <= clearedAt) continue;
      const record = logRecord(e);
      if (secret(record)) {
        leftOut++;
        continue;
      }
      const name = logFileName(dayOf(e.leftAt), this.tag);
      const waiting = this.unsaved.get(name);
      if (waiting) waiting.records.push({ leftAt: e.leftAt, text: record });
      else this.unsaved.set(name, { records: [{ leftAt: e.leftAt, text: record }], cut: 0, size: 0 });
    }
    let bytes = 0;
    let failed: unknown;
    for (const [name, waiting] of this.unsaved) {
      const kept = waiting.records.filter((r) => r.leftAt > clearedAt); // a Clear since: not written
      if (kept.length !== waiting.records.length) [waiting.records, waiting.cut] = [kept, 0];
      try {
        if (kept.length) {
          bytes += this.files.append
            ? await this.appendRecords(name, waiting)
            : await this.rewriteOwn(name, kept.map((r) => r.text).join(''));
        }
        this.unsaved.delete(name);
      } catch (e) {
        failed ??= e;
      }
    }
    await this.pruneDaily();
    if (failed !== undefined) throw failed;
    return { bytes, leftOut };
  }

  /**
   * Appends records to this window's file (a missing folder made and the append tried again). What a failed append
   * put in the file (its size before and after) is never appended again: the records that reached it are dropped
   * from `waiting`, and of one cut short only its rest is written next (unless the file changed since: then whole).
   */
  private async appendRecords(name: string, waiting: Unsaved): Promise<number> {
    const path = this.path(name);
    const sizeOf = async () => (await this.files.stat(path).catch(() => undefined))?.size ?? 0;
    let size = await sizeOf();
    if (waiting.cut && size !== waiting.size) waiting.cut = 0;
    let data = new TextEncoder().encode(waiting.records.map((r) => r.text).join('')).subarray(waiting.cut);
    let written = 0;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.files.append!(path, data);
        return written + data.length;
      } catch (e) {
        const after = await sizeOf();
        const reached = Math.min(Math.max(0, after - size), data.length);
        written += reached;
        [data, size] = [data.subarray(reached), after];
        keepUnwritten(waiting, reached, after);
        if (attempt > 0) throw e;
        await this.files.mkdir(this.folder);
      }
    }
  }

  /** Without append: this window's day file, rewritten whole and atomically (its text kept in memory after one read). */
  private async rewriteOwn(name: string, added: string): Promise<number> {
    if (this.ownText?.name !== name) {
      const info = await this.files.stat(this.path(name));
      let text = '';
      if (info && info.size <= MAX_LOG_BYTES) {
        text = new TextDecoder().decode(await this.files.read(this.path(name), 0, info.size));
      }
      this.ownText = { name, text };
    }
    const text = this.ownText.text + added;
    await this.files.mkdir(this.folder);
    const data = new TextEncoder().encode(text);
    await this.files.replace(this.path(name), data);
    this.ownText = { name, text };
    return data.length;
  }

  /**
   * Reads what is new in every window's files of the last `days` days (newest day first), migrating 0.2.0 segments
   * first. With `limit`, stops after the day at which that many runs were read (`more`: older days are left; call
   * again to read them). Returns only runs not returned before (merge them into what you hold).
   */
  async read(days: number, limit = Infinity): Promise<ReadResult> {
    const clearedAt = await this.cleared();
    let listed = await this.files.list(this.folder);
    if (listed.some((f) => LEGACY_NAME.test(f.name) && !this.migrated.has(f.name))) {
      await this.migrate(listed.filter((f) => LEGACY_NAME.test(f.name)));
      listed = await this.files.list(this.folder);
    }
    const from = dayOf(this.now() - bounded(days, HISTORY_DAYS) * DAY_MS);
    const logs = (await this.dayFiles(listed)).filter((f) => f.day >= from);
    logs.sort((a, b) => (a.day < b.day ? 1 : a.day > b.day ? -1 : 0));
    const found: HistoryEntry[][] = [];
    let count = 0;
    // Bounded per read, across files: bytes before they are read, runs before they are parsed; the rest is read next time.
    let bytes = 0;
    let runs = 0;
    for (let i = 0; i < logs.length; i++) {
      const f = logs[i];
      const at = this.offsets.get(f.name) ?? 0;
      const size = f.size < at ? f.size : f.size - at;
      if (f.size <= MAX_LOG_BYTES && (bytes + size > MAX_READ_BYTES || runs >= MAX_READ_RUNS)) {
        this.log(
          'warn',
          `History: ${logs.length - i} file(s) left for a later read (a read reads at most ${MAX_READ_BYTES} bytes and ${MAX_READ_RUNS} runs)`,
        );
        return { entries: mergeSegments(found), more: true };
      }
      bytes += f.size <= MAX_LOG_BYTES ? size : 0;
      const entries = await this.readLog(f, MAX_READ_RUNS - runs);
      runs += entries.length;
      const kept = clearedAt === -Infinity ? entries : entries.filter((e) => e.leftAt > clearedAt);
      found.push(kept);
      count += kept.length;
      if (count >= limit && i + 1 < logs.length && logs[i + 1].day !== f.day) {
        return { entries: mergeSegments(found), more: true };
      }
    }
    return { entries: mergeSegments(found), more: false };
  }

  /**
   * The log files listed, with their days; of a day with more than MAX_DAY_FILES, this window's own and the newest are
   * kept and the rest set aside (each counted and logged).
   */
  private async dayFiles(listed: readonly FileInfo[]): Promise<Array<FileInfo & { day: string }>> {
    const byDay = new Map<string, Array<FileInfo & { day: string; own: boolean }>>();
    for (const f of listed) {
      const m = LOG_NAME.exec(f.name);
      if (!m) continue;
      const file = { ...f, day: m[1], own: m[2] === this.tag };
      const list = byDay.get(file.day);
      if (list) list.push(file);
      else byDay.set(file.day, [file]);
    }
    const out: Array<FileInfo & { day: string }> = [];
    for (const list of byDay.values()) {
      if (list.length > MAX_DAY_FILES) {
        list.sort((a, b) => Number(b.own) - Number(a.own) || b.mtime - a.mtime || (a.name < b.name ? -1 : 1));
        for (const f of list.splice(MAX_DAY_FILES)) {
          await this.setAsideFile(f.name, `more than ${MAX_DAY_FILES} files of ${f.day}`);
        }
      }
      out.push(...list);
    }
    return out;
  }

  /**
   * The summaries of the closed days (before today and before `before`, "YYYY-MM-DD") of the last `days` days that have
   * log files, oldest first: read from their summary files, or made from the day's files (all windows', merged: each
   * run once) and written, when there is none or the files changed since.
   */
  async summaries(days: number, before: string): Promise<DaySummary[]> {
    const clearedAt = await this.cleared();
    const listed = await this.files.list(this.folder);
    const from = dayOf(this.now() - bounded(days, HISTORY_DAYS) * DAY_MS);
    const today = dayOf(this.now());
    const until = before < today ? before : today;
    const byDay = new Map<string, FileInfo[]>();
    for (const f of await this.dayFiles(listed)) {
      const day = f.day; // the days before and after too: a run two windows saw leave on either side of midnight
      const list = byDay.get(day);
      if (list) list.push(f);
      else byDay.set(day, [f]);
    }
    for (const list of byDay.values()) list.sort((a, b) => (a.name < b.name ? -1 : 1));
    const out: DaySummary[] = [];
    const parsed = new Map<string, HistoryEntry[]>(); // each file read once by this call (a day is its neighbours' neighbour)
    for (const day of [...byDay.keys()].filter((d) => d >= from && d < until).sort()) {
      const logs = byDay.get(day)!;
      const start = Date.parse(`${day}T00:00:00.000Z`);
      const around = { before: byDay.get(dayOf(start - DAY_MS)) ?? [], after: byDay.get(dayOf(start + DAY_MS)) ?? [] };
      const key = JSON.stringify([
        String(clearedAt),
        logs.map((f) => `${f.name}:${f.size}`),
        [...around.before, ...around.after].map((f) => `${f.name}:${f.size}`),
      ]);
      let summary = this.summaryCache.get(day)?.key === key ? this.summaryCache.get(day)!.summary : undefined;
      summary ??=
        (await this.readSummary(day, key)) ?? (await this.makeSummary(day, logs, around, clearedAt, key, parsed));
      this.summaryCache.set(day, { key, summary });
      out.push(summary);
    }
    return out;
  }

  private async readSummary(day: string, key: string): Promise<DaySummary | undefined> {
    const path = this.path(`s2-${day}.json`);
    const info = await this.files.stat(path).catch(() => undefined);
    if (!info || info.size > MAX_SUMMARY_BYTES) return undefined;
    const text = new TextDecoder().decode(await this.files.read(path, 0, info.size).catch(() => new Uint8Array()));
    const stored = safeParse(text) as { key?: unknown; summary?: unknown } | undefined;
    if (stored?.key !== key) return undefined;
    const summary = summaryOf(stored.summary);
    return summary?.day === day ? summary : undefined;
  }

  /**
   * A day's summary from its files (read whole, apart from the incremental reads), written for the next window. The
   * runs of the days before and after that may be the same runs (their spans overlap the day's) are merged in: a run
   * counts on the day of its merged leftAt only.
   */
  private async makeSummary(
    day: string,
    logs: readonly FileInfo[],
    around: { before: readonly FileInfo[]; after: readonly FileInfo[] },
    clearedAt: number,
    key: string,
    parsed: Map<string, HistoryEntry[]>,
  ): Promise<DaySummary> {
    let readBytes = 0; // bounded like a read: what is over it is left out of the summary (and logged)
    const runsOf = async (f: FileInfo): Promise<HistoryEntry[]> => {
      let entries = parsed.get(f.name);
      if (entries) return entries;
      entries = [];
      if (f.size <= MAX_LOG_BYTES && readBytes + f.size > MAX_READ_BYTES) {
        this.log(
          'warn',
          `History: ${f.name} left out of the summary of ${day} (a summary reads at most ${MAX_READ_BYTES} bytes)`,
        );
        return entries;
      }
      if (f.size <= MAX_LOG_BYTES) {
        // (over it: set aside by the read)
        readBytes += f.size;
        const bytes = await this.files.read(this.path(f.name), 0, f.size).catch(() => new Uint8Array());
        const end = bytes.lastIndexOf(10) >= 0 ? lastRecordEnd(bytes) : 0;
        entries = withoutRepeats(parseLogBytes(bytes.subarray(0, end)).entries);
        if (clearedAt !== -Infinity) entries = entries.filter((e) => e.leftAt > clearedAt);
      }
      parsed.set(f.name, entries);
      return entries;
    };
    const found: HistoryEntry[][] = [];
    let firstSeen = Infinity;
    let leftAt = -Infinity;
    for (const f of logs) {
      const entries = await runsOf(f);
      for (const e of entries) [firstSeen, leftAt] = [Math.min(firstSeen, e.firstSeen), Math.max(leftAt, e.leftAt)];
      found.push(entries);
    }
    for (const f of around.before) found.push((await runsOf(f)).filter((e) => e.leftAt > firstSeen));
    for (const f of around.after) found.push((await runsOf(f)).filter((e) => e.firstSeen < leftAt));
    for (const name of parsed.keys()) if (LOG_NAME.exec(name)![1] < day) parsed.delete(name); // not needed by the next day
    const summary = summarizeDay(
      day,
      mergeSegments(found).filter((e) => dayOf(e.leftAt) === day),
    );
    const json = JSON.stringify({ key, summary });
    if (json.length <= MAX_SUMMARY_BYTES) {
      await this.files.replace(this.path(`s2-${day}.json`), new TextEncoder().encode(json)).catch(() => undefined);
    }
    return summary;
  }

  /** The new records of one log file (size checked first; only the bytes after what was read before; the newest `maxRuns`). */
  private async readLog(f: FileInfo, maxRuns = Infinity): Promise<HistoryEntry[]> {
    const at = this.offsets.get(f.name) ?? 0;
    if (f.size === at) return [];
    if (f.size > MAX_LOG_BYTES) {
      await this.setAsideFile(f.name, `larger than ${MAX_LOG_BYTES} bytes`);
      return [];
    }
    const start = f.size < at ? 0 : at; // shorter than read before: rewritten (the browser), read it whole
    const bytes = await this.files.read(this.path(f.name), start, f.size - start);
    // Only up to the last record's end: a record being appended right now is read next time, whole.
    const end = bytes.lastIndexOf(10) >= 0 ? lastRecordEnd(bytes) : 0;
    // At most `maxRuns` records, the newest (the last): each starts with a newline, found before anything is parsed.
    let first = 0;
    if (end > maxRuns * MIN_RECORD_BYTES) {
      for (let n = 0, nl = end; nl > 0 && n < maxRuns; n++) first = nl = bytes.lastIndexOf(10, nl - 1);
    }
    if (first > 0) {
      this.log(
        'warn',
        `History: the older records of ${f.name} were left unread (a read parses at most ${MAX_READ_RUNS} runs)`,
      );
    }
    this.offsets.set(f.name, start + end);
    const parsed = parseLogBytes(bytes.subarray(Math.max(0, first), end));
    if (parsed.rejected) {
      this.rejected += parsed.rejected;
      this.log(
        'warn',
        `History: ${parsed.rejected} record(s) of ${f.name} could not be read (a write cut short?) and were skipped`,
      );
      if (start === 0 && parsed.entries.length === 0 && parsed.rejected > 1) {
        await this.setAsideFile(f.name, 'no readable record');
      }
    }
    const entries = withoutRepeats(parsed.entries);
    if (entries.length < parsed.entries.length) {
      this.log(
        'warn',
        `History: ${parsed.entries.length - entries.length} repeated record(s) of ${f.name} were read once`,
      );
    }
    return entries;
  }

  private async setAsideFile(name: string, why: string): Promise<void> {
    this.setAside++;
    this.offsets.delete(name);
    this.log('warn', `History: ${name} could not be read (${why}); set aside as ${name}${SET_ASIDE}`);
    await this.files.rename(this.path(name), this.path(`${name}${SET_ASIDE}`)).catch(() => undefined);
  }

  /** 0.2.0 segments: their runs written to day files (atomically, names fixed by the segment), then the segment deleted. */
  private async migrate(segments: readonly FileInfo[]): Promise<void> {
    for (const f of segments) {
      this.migrated.add(f.name);
      if (f.size > MAX_SEGMENT_CHARS) {
        await this.setAsideFile(f.name, 'too large');
        continue;
      }
      let text: string;
      try {
        text = new TextDecoder().decode(await this.files.read(this.path(f.name), 0, f.size));
      } catch {
        continue; // gone (another window migrated it)
      }
      const parsed = parseSegment(text);
      if (!parsed.ok) {
        if (parsed.reason === 'newerVersion') this.log('info', `History: ${f.name} left alone (${parsed.reason})`);
        else await this.setAsideFile(f.name, parsed.reason);
        continue;
      }
      const byDay = new Map<string, string[]>();
      for (const e of parsed.entries) {
        const day = dayOf(e.leftAt);
        const list = byDay.get(day);
        if (list) list.push(logRecord(e));
        else byDay.set(day, [logRecord(e)]);
      }
      const tag = `migrated-${fnv1a(f.name)}`;
      for (const [day, records] of byDay) {
        await this.files.replace(this.path(logFileName(day, tag)), new TextEncoder().encode(records.join('')));
      }
      await this.files.delete(this.path(f.name)).catch(() => undefined);
      this.log(
        'info',
        `History: ${parsed.entries.length} runs of ${f.name} (0.2.0) moved to ${byDay.size} day file(s)`,
      );
    }
  }

  /** Once a day (per window): pruneDisk with the days the store was last told (see pruneDisk). */
  private userDays: number | undefined;
  private async pruneDaily(): Promise<void> {
    const today = dayOf(this.now());
    if (this.userDays === undefined || this.prunedDay === today) return;
    await this.pruneDisk(this.userDays);
  }

  /**
   * Deletes, from disk, what is older than the user's own historyDays (never a workspace's): day files, files set
   * aside and leftovers of interrupted writes (a day old). Call with the user's value only.
   */
  async pruneDisk(userDays: number): Promise<number> {
    this.userDays = userDays;
    const now = this.now();
    this.prunedDay = dayOf(now);
    const listed = await this.files.list(this.folder);
    // The days are counted back from the horizon (pruneHorizon): this installation's own day files, never a run's
    // text, and never later than the clock.
    const until = Math.min(now, pruneHorizon(listed.flatMap((f) => LOG_NAME.exec(f.name)?.[1] ?? [])));
    const keepFrom = dayOf(until - bounded(userDays, HISTORY_DAYS) * DAY_MS);
    const keepMtime = until - bounded(userDays, HISTORY_DAYS) * DAY_MS;
    let deleted = 0;
    for (const f of listed) {
      const day = (LOG_NAME.exec(f.name) ?? SUMMARY_NAME.exec(f.name))?.[1];
      const old =
        (day !== undefined && day < keepFrom) ||
        (f.name.endsWith(SET_ASIDE) && f.mtime < keepMtime) ||
        (isLeftover(f.name) && f.mtime < now - DAY_MS);
      if (!old) continue;
      await this.files.delete(this.path(f.name)).catch(() => undefined);
      this.offsets.delete(f.name);
      if (day !== undefined) this.summaryCache.delete(day);
      deleted++;
    }
    return deleted;
  }

  /** Clear History for every window: the marker first (others honour it), then the files. */
  async clear(): Promise<void> {
    const at = Math.max(this.now(), (await this.cleared()) + 1); // never after a marker ahead of the clock
    await this.files.replace(this.markerPath, new TextEncoder().encode(JSON.stringify({ clearedAt: at })));
    await this.files.delete(this.folder);
    await this.cleared();
  }
}

/**
 * Where pruning counts the user's days back from: the end of the newest day of records that the day before it
 * confirms (both hold records: the day files' own names, as this installation wrote them by its clock), else of the
 * second newest day of records, else of the only one; Infinity with none (the caller bounds it by the clock). A day
 * written while the clock was ahead stands apart from the real ones: it is never the horizon unless the clock stayed
 * ahead across a midnight while recording, so one start or one reload with a clock ahead deletes no real day, whatever
 * a run's created_at says (issue #49). After a real gap (time did pass), the old days go once two days in a row have
 * records.
 */
function pruneHorizon(days: readonly string[]): number {
  const ends = [...new Set(days)]
    .map((day) => Date.parse(`${day}T00:00:00.000Z`) + DAY_MS - 1)
    .filter(Number.isFinite)
    .sort((a, b) => b - a);
  if (ends.length === 0) return Infinity;
  if (ends.length === 1 || ends[0] - ends[1] === DAY_MS) return ends[0];
  return ends[1];
}

/** Records of one file not on disk yet: `cut` bytes of the first are (a write cut short), when the file is `size` bytes long. */
interface Unsaved {
  records: Array<{ readonly leftAt: number; readonly text: string }>;
  cut: number;
  size: number;
}

/** Drops from `waiting` the `reached` bytes a failed append put in the file (now `size` bytes long). */
function keepUnwritten(waiting: Unsaved, reached: number, size: number): void {
  let n = waiting.cut + reached;
  let i = 0;
  for (; i < waiting.records.length; i++) {
    const length = new TextEncoder().encode(waiting.records[i].text).length;
    if (n < length) break;
    n -= length;
  }
  waiting.records = waiting.records.slice(i);
  waiting.cut = waiting.records.length ? n : 0;
  waiting.size = size;
}

/** The end of the last complete record: the index of the last newline that starts a record, or the end when the text ends on a complete one. */
function lastRecordEnd(bytes: Uint8Array): number {
  // Records start with a newline: everything before the last newline is complete; the tail after it is complete when
  // it parses (a record fully written), else it is being written (or torn) and is left for the next read.
  const nl = bytes.lastIndexOf(10);
  const tail = new TextDecoder().decode(bytes.subarray(nl + 1));
  return safeParse(tail) !== undefined ? bytes.length : nl;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

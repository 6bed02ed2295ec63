import type { FileInfo, Files } from '../env/types';
import { DAY_MS, HISTORY_DAYS, MAX_CREATED_AT } from '../history/entry';
import type { AnnouncedMemory, RunRef } from '../history/errorAnnouncer';
import { dayOf, isLeftover, windowTag } from '../history/log';
import { bounded } from '../settings/settingValues';

/*
 * Which runs' errors were dealt with (announced, or seen while they were not to be announced), remembered beyond the
 * window's life and shared by the windows of one profile, so that a reload, a restart or a window that starts polling
 * does not say again what was said (issue #49, #7). A run is History's run: the service (one folder per service
 * scope), the sync id and its created_at as the service sent it (src/history/entry.ts, mergeSegments).
 *
 * Storage, the way History keeps its runs (src/history/log.ts): in the folder of a service scope (originFolder), each
 * window appends to its own file of the day (UTC)
 *   e1-YYYY-MM-DD-<window>.log
 * one record per run: a newline, then the JSON array [sync id, "created_at", when it was marked (ms)]. A record is
 * written by one append and never rewritten; a window never writes another's file. A write cut short (a crash) leaves
 * a torn last record, which a reader skips (no strict prefix of a JSON array is JSON); a record written twice is the
 * same mark. The cost of a mark is its own record (about 40 bytes), whatever the folder holds.
 * - Reads are incremental and bounded: a window reads only the bytes added since it last read a file, the newest days
 *   first, at most MAX_READ_BYTES per read (the rest the next time), never a file over MAX_FILE_BYTES, and holds at
 *   most MAX_MARKS marks (the newest).
 * - Bounded in time: a mark lasts the user's historyDays (the horizon History keeps runs for); a run still listed
 *   with errors is marked again every REMARK_MS, so only the runs that are gone are forgotten. Once a day a window
 *   deletes the day files older than that, and leftovers of interrupted writes.
 * - Where a platform cannot append (the browser: workspace.fs only), the window rewrites its own file of the day,
 *   atomically (temporary file, then rename): small, as a day of one window's marks is.
 * Only service data (ids and created_at, the key masked): a record that holds the key is not written.
 */

const MARK_NAME = /^e1-(\d{4}-\d{2}-\d{2})-([A-Za-z0-9_-]{1,80})\.log$/;
/** A file longer than this is not read (100,000 marks of one window in a day are about 4 MB). */
export const MAX_FILE_BYTES = 8 * 1024 * 1024;
/** Bytes one read reads at most, across files (what is left is read by the next read). */
const MAX_READ_BYTES = 16 * 1024 * 1024;
/** Marks held at most (the longest processing list a service may answer): the oldest are forgotten first. */
export const MAX_MARKS = 100_000;
/** A run still listed with errors is marked again once its mark is this old (well within the shortest horizon, a day). */
export const REMARK_MS = 12 * 60 * 60_000;
/** Times outside these years are not times this extension wrote. */
const MIN_TIME = Date.UTC(2000, 0, 1);
/** No record is longer (a created_at of 64 characters, each escaped, and two numbers). */
const MAX_RECORD_BYTES = 1024;

export interface AnnouncedRunsOptions {
  readonly files: Files;
  /** The service scope's folder (originFolder). */
  readonly folder: string;
  readonly windowId: string;
  readonly now: () => number;
  /** How long a mark lasts, in days: the user's own historyDays (clamped to 1..90). */
  readonly days: () => number;
  /** True when a record holds what must never be written (the API key): it is not written. */
  readonly secret?: (record: string) => boolean;
  /** Log lines (file names and counts only). */
  readonly log?: (message: string) => void;
}

/** The runs whose errors were dealt with, for one service scope, as this window knows them (see above). */
export class AnnouncedRuns implements AnnouncedMemory {
  private readonly files: Files;
  private readonly folder: string;
  private readonly tag: string;
  private readonly now: () => number;
  private readonly days: () => number;
  private readonly secret: (record: string) => boolean;
  private readonly log: (message: string) => void;
  /** Run key -> when it was marked (ms). */
  private readonly marks = new Map<string, number>();
  /** Per file of other windows: the bytes read so far (up to the last complete record). */
  private readonly offsets = new Map<string, number>();
  /** Records marked and not on disk yet (a write failed: written first by the next). */
  private unsaved: string[] = [];
  private writing: Promise<void> = Promise.resolve();
  private reading: Promise<void> | undefined;
  /** Browser (no append): this window's text of its current day file. */
  private ownText: { name: string; text: string } | undefined;
  private prunedDay: string | undefined;
  /** The last trouble of each kind logged (once, not every poll). */
  private readonly trouble: { read?: string; write?: string } = {};

  constructor(options: AnnouncedRunsOptions) {
    this.files = options.files;
    this.folder = options.folder;
    this.tag = windowTag(options.windowId);
    this.now = options.now;
    this.days = options.days;
    this.secret = options.secret ?? (() => false);
    this.log = options.log ?? (() => undefined);
  }

  /** How many runs are remembered (for tests: memory stays bounded). */
  get remembered(): number {
    return this.marks.size;
  }

  has(run: RunRef): boolean {
    return this.marks.has(keyOf(run));
  }

  refresh(): Promise<void> {
    // Reads asked for while one runs join it: it reads what is on disk by then.
    this.reading ??= this.readNow()
      .catch((e: unknown) =>
        this.note('read', `Errors announced: what other windows said could not be read: ${messageOf(e)}`),
      )
      .finally(() => (this.reading = undefined));
    return this.reading;
  }

  mark(runs: readonly RunRef[]): void {
    if (runs.length === 0) return;
    const now = this.now();
    for (const run of runs) {
      const key = keyOf(run);
      this.marks.delete(key); // re-inserted: the map stays ordered by when each was marked
      this.marks.set(key, now);
      const record = '\n' + JSON.stringify([run.id, run.createdAt, now]);
      if (!this.secret(record)) this.unsaved.push(record);
    }
    if (this.unsaved.length > MAX_MARKS) this.unsaved = this.unsaved.slice(-MAX_MARKS);
    this.cap();
    void this.save();
  }

  keep(runs: readonly RunRef[]): void {
    const due = this.now() - REMARK_MS;
    const old = runs.filter((run) => {
      const at = this.marks.get(keyOf(run));
      return at === undefined || at <= due;
    });
    this.mark(old);
  }

  /** Resolves when the marks made so far are written (or their write failed: they wait for the next). */
  flushed(): Promise<void> {
    return this.writing;
  }

  /** Writes the records not on disk yet, in order with the writes before. */
  private save(): Promise<void> {
    this.writing = this.writing.then(async () => {
      if (this.unsaved.length === 0) return;
      const records = this.unsaved;
      const name = `e1-${dayOf(this.now())}-${this.tag}.log`;
      try {
        if (this.files.append) await this.append(name, records.join(''));
        else await this.rewriteOwn(name, records.join(''));
        this.unsaved = this.unsaved.slice(records.length);
        this.trouble.write = undefined;
      } catch (e) {
        // Kept for the next write: a record that partly reached the file is then written whole after its torn part.
        this.note('write', `Errors announced: what was said could not be remembered for later (${messageOf(e)})`);
      }
    });
    return this.writing;
  }

  private async append(name: string, text: string): Promise<void> {
    const path = `${this.folder}/${name}`;
    const data = new TextEncoder().encode(text);
    try {
      await this.files.append!(path, data);
    } catch {
      await this.files.mkdir(this.folder);
      await this.files.append!(path, data);
    }
  }

  /** Without append: this window's day file, rewritten whole and atomically (its text kept after one read). */
  private async rewriteOwn(name: string, added: string): Promise<void> {
    const path = `${this.folder}/${name}`;
    if (this.ownText?.name !== name) {
      const stored = await this.files.readCapped(path, MAX_FILE_BYTES);
      if (stored === 'tooLarge') throw new Error(`${name} is full`); // never written over
      this.ownText = { name, text: stored === undefined ? '' : new TextDecoder().decode(stored) };
    }
    const text = this.ownText.text + added;
    await this.files.mkdir(this.folder);
    await this.files.replace(path, new TextEncoder().encode(text));
    this.ownText = { name, text };
  }

  /**
   * Reads what other windows (and earlier lives of this one) added to their files of the last `days` days, newest day
   * first, bounded; forgets marks older than that; once a day deletes older files.
   */
  private async readNow(): Promise<void> {
    const now = this.now();
    const from = now - bounded(this.days(), HISTORY_DAYS) * DAY_MS;
    const fromDay = dayOf(from);
    const listed = await this.files.list(this.folder);
    await this.pruneDaily(listed, fromDay, now);
    const logs: Array<FileInfo & { day: string }> = [];
    for (const f of listed) {
      const m = MARK_NAME.exec(f.name);
      if (m && m[1] >= fromDay && m[2] !== this.tag) logs.push({ ...f, day: m[1] });
    }
    const names = new Set(logs.map((f) => f.name));
    for (const name of this.offsets.keys()) if (!names.has(name)) this.offsets.delete(name); // deleted files
    logs.sort((a, b) => (a.day < b.day ? 1 : a.day > b.day ? -1 : 0));
    let bytes = 0;
    for (let i = 0; i < logs.length; i++) {
      const f = logs[i];
      const at = this.offsets.get(f.name) ?? 0;
      if (f.size === at) continue;
      if (f.size > MAX_FILE_BYTES) {
        this.note('read', `Errors announced: ${f.name} is larger than ${MAX_FILE_BYTES} bytes: not read`);
        continue;
      }
      const start = f.size < at ? 0 : at; // shorter than read before: rewritten (the browser), read it whole
      if (bytes + (f.size - start) > MAX_READ_BYTES) {
        this.log(
          `Errors announced: ${logs.length - i} file(s) left for a later read (at most ${MAX_READ_BYTES} bytes a read)`,
        );
        break;
      }
      bytes += f.size - start;
      const data = await this.files.read(`${this.folder}/${f.name}`, start, f.size - start);
      const end = completeEnd(data);
      this.offsets.set(f.name, start + end);
      this.take(new TextDecoder().decode(data.subarray(0, end)), from, now);
    }
    this.forget(from);
    this.cap();
  }

  /** The marks of a file's records (a line that is not one, a torn write or garbage, is skipped). */
  private take(text: string, from: number, now: number): void {
    for (const line of text.split('\n')) {
      if (line.length === 0) continue;
      let row: unknown;
      try {
        row = JSON.parse(line);
      } catch {
        continue;
      }
      if (!Array.isArray(row) || row.length !== 3) continue;
      const [id, createdAt, at] = row as unknown[];
      if (!Number.isSafeInteger(id) || (id as number) < 0) continue;
      if (typeof createdAt !== 'string' || createdAt.length > MAX_CREATED_AT) continue;
      // A mark from before the horizon is gone; one more than a day ahead of this clock is not a time it vouches for.
      if (!Number.isSafeInteger(at) || (at as number) < Math.max(from, MIN_TIME) || (at as number) > now + DAY_MS) {
        continue;
      }
      const key = keyOf({ id: id as number, createdAt });
      const known = this.marks.get(key);
      if (known !== undefined && known >= (at as number)) continue;
      this.marks.delete(key);
      this.marks.set(key, at as number);
    }
  }

  /** Forgets the marks older than the horizon (a run gone: no window marks it again). */
  private forget(from: number): void {
    for (const [key, at] of this.marks) if (at < from) this.marks.delete(key);
  }

  /** At most MAX_MARKS marks: the oldest are forgotten first. */
  private cap(): void {
    if (this.marks.size <= MAX_MARKS) return;
    const oldest = [...this.marks].sort((a, b) => a[1] - b[1]);
    for (let i = 0; i < oldest.length - MAX_MARKS; i++) this.marks.delete(oldest[i][0]);
  }

  /** Once a day (per window): deletes day files older than the horizon and leftovers of interrupted writes. */
  private async pruneDaily(listed: readonly FileInfo[], fromDay: string, now: number): Promise<void> {
    const today = dayOf(now);
    if (this.prunedDay === today) return;
    this.prunedDay = today;
    for (const f of listed) {
      const day = MARK_NAME.exec(f.name)?.[1];
      const old = (day !== undefined && day < fromDay) || (isLeftover(f.name) && f.mtime < now - DAY_MS);
      if (old) await this.files.delete(`${this.folder}/${f.name}`).catch(() => undefined);
    }
  }

  /** Logs a trouble once (not every poll) until it changes. */
  private note(kind: 'read' | 'write', message: string): void {
    if (message !== this.trouble[kind]) this.log(message);
    this.trouble[kind] = message;
  }
}

function keyOf(run: RunRef): string {
  return `${run.id}|${run.createdAt}`;
}

/**
 * The end of the last complete record: up to the last newline, or the whole when its tail parses (fully written) or
 * is longer than a record can be (garbage: else every read would read it again). A tail being written is read next time.
 */
function completeEnd(bytes: Uint8Array): number {
  const nl = bytes.lastIndexOf(10);
  if (nl < 0) return bytes.length > MAX_RECORD_BYTES ? bytes.length : 0;
  if (bytes.length - nl > MAX_RECORD_BYTES) return bytes.length;
  try {
    JSON.parse(new TextDecoder().decode(bytes.subarray(nl + 1)));
    return bytes.length;
  } catch {
    return nl;
  }
}

function messageOf(e: unknown): string {
  return String((e as Error)?.message ?? e);
}

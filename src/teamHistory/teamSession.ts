import type { Clock, TimerHandle } from '../base/clock';
import { Emitter, type Event } from '../base/events';
import { t } from '../base/l10n';
import { DAY_MS, type HistoryEntry } from '../history/entry';
import type { TeamGap, TeamHistoryPort, TeamObservation, TeamReader, TeamSummary } from '../history/teamPort';
import { backoffDelay } from '../lists/refresh';
import { mergedNewestFirst, TeamRuns } from './merge';
import { Outbox } from './outbox';
import { unwatched, watchedBy } from './spans';
import { StoreError, storeErrorOf, type StoreProblem } from './storeErrors';
import { runOfEntry, type TeamRun, type WatchSpan } from './teamRows';
import {
  RETENTION_MS,
  retentionDue,
  START,
  WRITE_BATCH,
  type StoreState,
  type TeamStore,
  type Watermark,
} from './teamStore';

/*
 * The team History of one window (pure): one store, worked by one step at a time on a timer of the injected clock, so
 * polling, the views and the local History never wait for it.
 *
 * A step: open the store (once it succeeded, never again), then write one batch of the outbox (one statement) and,
 * after it, offer again the local History's runs the outbox had to drop (`replaySince`), then read the team's rows
 * when due (every poll interval; at once after connecting) into one TeamRuns per service and team filter, a bounded
 * number of pages a step, then the daily retention of this installation's own rows. A step that fails sets the status
 * to the problem and waits with backoff and jitter as a list's refresh does (src/lists/refresh.ts: 5 s doubling to
 * 5 minutes); a problem no retry soon cures (a refused certificate or password, no such database) starts further up
 * that backoff: never a tight loop. What the window observes only goes into the outbox (bounded) and asks for a step.
 */

export interface TeamSessionPorts {
  readonly store: Pick<TeamStore, 'open' | 'write' | 'read' | 'deleteOwnBefore' | 'close'>;
  /** This installation's id (its rows in the store). */
  readonly observer: string;
  readonly clock: Clock;
  readonly random: () => number;
  /** The services' Histories of this window (TeamSlot.readers). */
  readers(): readonly TeamReader[];
  /** When this installation last deleted its old rows, and that it did now (kept beyond the window: globalState). */
  readonly retention: { last(): number | undefined; ran(at: number): void };
  /** How often the team's rows are read (the poll interval). */
  pollIntervalMs(): number;
  /** How many days History keeps: the team's runs are read from then on. */
  historyDays(): number;
  /** Names the store in the status (user@host:port/database, never the password). */
  readonly label: string;
  log(level: 'info' | 'warn', line: string): void;
  /** The outbox (tests give a small one). */
  readonly outbox?: Outbox;
}

/** What the status says. */
export type TeamStatus =
  | { readonly kind: 'connecting' }
  | { readonly kind: 'connected' }
  | { readonly kind: 'readOnly'; readonly reason: NonNullable<StoreState['readOnly']> }
  | { readonly kind: 'problem'; readonly error: StoreError; readonly retryAt: number };

/** Pages of each table read at most in one step: a read at the caps costs a bounded amount, then the next step reads on. */
export const PAGES_A_STEP = 4;
/** Waits between steps while a read has more pages, and before a write after an observation (gathers a few). */
const MORE_MS = 1_000;
const WRITE_SOON_MS = 2_000;
/** Without a shared service yet, looked at again this soon. */
const NONE_YET_MS = 5_000;
/** While a pass reads on, History is told of the rows read at most this often (each time every History merges). */
const SAY_EVERY_MS = 10_000;
/** Unwatched stretches handed out at most (the chart's words name the first few). */
const MAX_GAPS = 50;
/** The open runs are written every few minutes (and at close), so a teammate sees them while they run. */
const OPEN_EVERY_MS = 5 * 60_000;
/** Complete answers further apart than this start a new watch span (the window was not watching between them). */
const SPAN_GAP_MS = 10 * 60_000;
/** Watch spans of the team kept at most (the tooltip's count of installations). */
const MAX_SPANS = 20_000;
/** Problems no retry within seconds cures: their backoff starts at 40 s. */
const SLOW_PROBLEMS: ReadonlySet<StoreProblem> = new Set(['certificate', 'tls', 'refusedPassword', 'noDatabase']);
const SLOW_START = 4;

const bucketOf = (service: string, team: string) => `${service}\u0000${team}`;
/** Sets of buckets made in this process (see TeamSession.generation). */
let generations = 0;

export class TeamSession implements TeamHistoryPort {
  private readonly outbox: Outbox;
  private readonly changes = new Emitter<void>();
  readonly onDidChange: Event<void> = this.changes.event;
  private state: StoreState | undefined;
  private current: TeamStatus = { kind: 'connecting' };
  private timer: TimerHandle | undefined;
  private timerAt = Infinity;
  private working = false;
  private failures = 0;
  private disposed = false;
  private nextReadAt = 0;
  private watermark: Watermark = START;
  /** What the rows read so far were read for (the services, the team filters, from when): a change reads from START. */
  private readFor = '';
  /** The team's runs by service and team filter ('' takes every row of its service; a team, that team's rows only). */
  private buckets = new Map<string, TeamRuns>();
  /** Which set of buckets: each set's versions are its own (of this process: no two sessions share one). */
  private generation = ++generations;
  private spans = new Map<string, WatchSpan>();
  /** Rows read that History was not told of yet, and when it last was. */
  private unsaid = false;
  private saidAt = -Infinity;
  /** Each service and team filter's current watch span, and when its open runs were last written. */
  private readonly watching = new Map<string, { from: number; to: number; openAt: number }>();
  private firstOpen!: (result: StoreState | StoreError) => void;
  /** What the first attempt to open the store found (the Connect command says it). */
  readonly opened: Promise<StoreState | StoreError> = new Promise((resolve) => (this.firstOpen = resolve));

  constructor(private readonly ports: TeamSessionPorts) {
    this.outbox = ports.outbox ?? new Outbox();
  }

  /** Starts: the store is opened at once, in the background. */
  start(): void {
    this.schedule(0);
  }

  get status(): TeamStatus {
    return this.current;
  }

  /** Rows waiting to be written. */
  get waiting(): number {
    return this.outbox.size;
  }

  summary(): TeamSummary {
    const now = this.ports.clock.now();
    const today = Math.floor(now / DAY_MS) * DAY_MS;
    return {
      status: statusLine(this.current, this.ports.label, now),
      watchedToday: watchedBy(this.spans.values(), today, now + 1),
    };
  }

  unwatched(reader: TeamReader, from: number, to: number): readonly TeamGap[] {
    const service = reader.service();
    const spans = [...this.spans.values()].filter((s) => s.service === service);
    return unwatched(spans, from, to).filter((_, i) => i < MAX_GAPS);
  }

  /** The set of buckets, the bucket (two services' runs can have made as many changes) and its runs' version. */
  version(reader: TeamReader): string | undefined {
    const team = this.bucketOf(reader);
    if (!team) return undefined;
    return `${this.generation}:${team.version}:${bucketOf(reader.service() ?? '', reader.team())}`;
  }

  newestFirst(reader: TeamReader, local: readonly HistoryEntry[]): Iterator<HistoryEntry, undefined> | undefined {
    const team = this.bucketOf(reader);
    return team ? mergedNewestFirst(local, team) : undefined;
  }

  /** The team's runs of the reader's service and team filter; undefined while there are none. */
  private bucketOf(reader: TeamReader): TeamRuns | undefined {
    const service = reader.service();
    const team = service === undefined ? undefined : this.buckets.get(bucketOf(service, reader.team()));
    return team?.size ? team : undefined;
  }

  /** What the poll lease holder's History saw: its runs that left, its watch span, now and then its open runs. */
  observed(reader: TeamReader, o: TeamObservation): void {
    const service = reader.service();
    if (service === undefined || this.disposed || this.state?.readOnly) return;
    const team = reader.team();
    const { observer } = this.ports;
    for (const entry of o.left) this.outbox.addRun(runOfEntry(entry, observer, service, team));
    const key = bucketOf(service, team);
    let span = this.watching.get(key);
    if (!span || o.at - span.to > SPAN_GAP_MS || o.at < span.to) {
      span = { from: o.at, to: o.at, openAt: -Infinity };
      this.watching.set(key, span);
    }
    span.to = o.at;
    this.outbox.addSpan({ observer, service, team, from: span.from, to: span.to });
    if (o.at - span.openAt >= OPEN_EVERY_MS) {
      span.openAt = o.at;
      for (const run of o.open()) this.outbox.addRun({ ...run, observer, service, team, leftAt: undefined });
    }
    this.schedule(WRITE_SOON_MS);
  }

  /** One last write of what waits (at most `ms`), then the store is closed; nothing runs after. */
  async close(ms = 3_000): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    if (this.timer !== undefined) this.ports.clock.clearTimeout(this.timer);
    const writable = this.state && !this.state.readOnly && this.current.kind !== 'problem';
    if (writable && this.outbox.size && !this.working) {
      const batch = this.outbox.take(WRITE_BATCH);
      await Promise.race([
        this.ports.store.write(batch.runs, batch.spans).catch(() => undefined),
        new Promise<void>((resolve) => this.ports.clock.setTimeout(resolve, ms)),
      ]);
    }
    this.changes.dispose();
    await this.ports.store.close();
  }

  private schedule(ms: number): void {
    if (this.disposed) return;
    const at = this.ports.clock.now() + ms;
    if (this.working || (this.timer !== undefined && this.timerAt <= at)) return; // the step under way schedules the next
    if (this.timer !== undefined) this.ports.clock.clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = this.ports.clock.setTimeout(() => void this.tick(), ms);
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    this.timerAt = Infinity;
    if (this.disposed) return;
    this.working = true;
    let next: number;
    try {
      next = await this.step();
      this.failures = 0;
    } catch (e) {
      const error = storeErrorOf(e, []);
      this.failures++;
      const delay = backoffDelay(
        this.failures + (SLOW_PROBLEMS.has(error.problem) ? SLOW_START : 0),
        this.ports.random,
      );
      if (this.current.kind !== 'problem' || this.current.error.message !== error.message) {
        this.ports.log('warn', `Team History: ${error.message}`);
      }
      this.setStatus({ kind: 'problem', error, retryAt: this.ports.clock.now() + delay });
      if (!this.state) this.firstOpen(error);
      next = delay;
    } finally {
      this.working = false;
    }
    this.schedule(next);
  }

  /** One step (see the top of this file); returns how long until the next one. */
  private async step(): Promise<number> {
    const { store, clock } = this.ports;
    if (!this.state) {
      this.state = await store.open();
      this.firstOpen(this.state);
      this.nextReadAt = clock.now();
    }
    const writable = !this.state.readOnly;
    if (writable && this.outbox.size) {
      const batch = this.outbox.take(WRITE_BATCH);
      await store.write(batch.runs, batch.spans);
      this.outbox.sent(batch);
      const since = this.outbox.replaySince;
      if (since !== undefined) this.outbox.replay(this.localRuns(since));
    }
    this.setStatus(this.statusOfStore());
    let more = false;
    if (clock.now() >= this.nextReadAt) {
      const read = await this.read();
      more = read === true;
      // No service shared yet (the services are being made): read as soon as one is.
      if (!more) this.nextReadAt = clock.now() + (read === 'none' ? NONE_YET_MS : this.ports.pollIntervalMs());
    }
    if (writable && retentionDue(this.ports.retention.last(), clock.now())) {
      await store.deleteOwnBefore(clock.now() - RETENTION_MS);
      this.ports.retention.ran(clock.now());
    }
    if (writable && this.outbox.size) return 0;
    return more ? MORE_MS : Math.max(0, this.nextReadAt - clock.now());
  }

  private statusOfStore(): TeamStatus {
    const readOnly = this.state?.readOnly;
    return readOnly ? { kind: 'readOnly', reason: readOnly } : { kind: 'connected' };
  }

  private setStatus(status: TeamStatus): void {
    const same =
      status.kind === this.current.kind &&
      (status.kind !== 'problem' || (this.current.kind === 'problem' && status.error === this.current.error));
    // connected or read-only (at first, or back after a problem): said once in the log
    if (!same && status.kind !== 'problem') {
      this.ports.log('info', statusLine(status, this.ports.label, this.ports.clock.now()));
    }
    this.current = status;
    if (!same) this.changes.fire();
  }

  /** The shared services' Histories with their keys, and their buckets. */
  private shared(): { reader: TeamReader; service: string; team: string }[] {
    return this.ports.readers().flatMap((reader) => {
      const service = reader.service();
      return service !== undefined && reader.shared() ? [{ reader, service, team: reader.team() }] : [];
    });
  }

  /** This window's runs of every shared service from `since` on, as this installation's rows. */
  private *localRuns(since: number): Iterable<TeamRun> {
    for (const { reader, service, team } of this.shared()) {
      for (const entry of reader.local()) {
        if (entry.leftAt >= since) yield runOfEntry(entry, this.ports.observer, service, team);
      }
    }
  }

  /** Reads up to PAGES_A_STEP pages of the team's rows; true when more wait, 'none' without a service to read. */
  private async read(): Promise<boolean | 'none'> {
    const now = this.ports.clock.now();
    const shared = this.shared();
    const keys = [...new Set(shared.map((s) => bucketOf(s.service, s.team)))].sort();
    const services = [...new Set(shared.map((s) => s.service))].sort();
    const fromMs = Math.floor(now / DAY_MS) * DAY_MS - this.ports.historyDays() * DAY_MS;
    const readFor = JSON.stringify([keys, fromMs]);
    if (readFor !== this.readFor) {
      this.readFor = readFor;
      this.watermark = START;
      this.buckets = new Map(keys.map((key) => [key, new TeamRuns(this.ports.observer)]));
      this.generation = ++generations;
      this.spans = new Map();
      if (keys.length) this.changes.fire();
    }
    if (!services.length) return 'none';
    let changed = false;
    let more = false;
    for (let page = 0; page < PAGES_A_STEP; page++) {
      const read = await this.ports.store.read(services, this.watermark, fromMs);
      if (this.readFor !== readFor || this.disposed) return false;
      this.watermark = read.watermark;
      for (const run of read.runs) {
        this.buckets.get(bucketOf(run.service, ''))?.add(run);
        if (run.team) this.buckets.get(bucketOf(run.service, run.team))?.add(run);
      }
      for (const span of read.spans) {
        const key = `${span.observer}\u0000${span.service}\u0000${span.team}\u0000${span.from}`;
        const had = this.spans.get(key);
        if (had || this.spans.size < MAX_SPANS) this.spans.set(key, had && had.to > span.to ? had : span);
      }
      changed ||= read.runs.length > 0 || read.spans.length > 0;
      more = read.more;
      if (!more) break;
    }
    // Every History merges again on a change: while a long pass reads on (a table at the caps), at most every 10 s.
    if (changed) this.unsaid = true;
    if (this.unsaid && (!more || now - this.saidAt >= SAY_EVERY_MS)) {
      this.unsaid = false;
      this.saidAt = now;
      this.changes.fire();
    }
    return more;
  }
}

/** The status in one line: connected, read-only and why, or the problem and when it is tried again. */
export function statusLine(status: TeamStatus, label: string, now: number): string {
  switch (status.kind) {
    case 'connecting':
      return t('team History: connecting to {0}', label);
    case 'connected':
      return t('team History: connected to {0}', label);
    case 'readOnly':
      return t(
        'team History: {0} is read-only ({1}): the team’s runs are shown, this window’s are not sent',
        label,
        READ_ONLY[status.reason](),
      );
    case 'problem':
      return t(
        'team History: {0} Tried again in {1} s.',
        status.error.message + '.',
        Math.max(1, Math.round((status.retryAt - now) / 1000)),
      );
  }
}

const READ_ONLY: Record<NonNullable<StoreState['readOnly']>, () => string> = {
  newerSchema: () => t('its tables are of a newer version of this extension'),
  noWritePrivilege: () => t('the role may not write to the tables'),
  readOnlyServer: () => t('the server takes no writes'),
};

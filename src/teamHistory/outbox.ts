import type { TeamRun, WatchSpan } from './teamRows';

/*
 * What this installation has yet to write to the team's store (pure). Rows wait here, each once (a newer version of
 * a row replaces the one waiting, combined as the store's upsert combines them), until a write of them succeeds;
 * a failed write leaves them waiting, so nothing is lost while the store is unreachable, and a row written twice is
 * one row in the store (its upsert is idempotent), so nothing is doubled.
 *
 * Bounded: at most `maxRuns` runs and `maxSpans` spans wait. When a run must be dropped for a newer one (the store
 * was away long), the local History, which keeps every run, is the outbox: `replaySince` says from when its runs must
 * be offered again (`replay`), oldest first, as room allows.
 */

export interface OutboxLimits {
  readonly maxRuns: number;
  readonly maxSpans: number;
}

/** 10,000 runs (a day of a busy service) and 1,000 spans wait at most; the local History holds the rest. */
const OUTBOX_LIMITS: OutboxLimits = { maxRuns: 10_000, maxSpans: 1_000 };

/** Rows taken for one write; `sent` with it removes those not replaced meanwhile. */
export interface OutboxBatch {
  readonly runs: readonly TeamRun[];
  readonly spans: readonly WatchSpan[];
}

/** A run's key in the store: its observer's own row of this sync, first seen then. */
const runKey = (r: TeamRun) => `${r.service}\u0000${r.id}\u0000${r.firstSeen}`;
const spanKey = (s: WatchSpan) => `${s.service}\u0000${s.team}\u0000${s.from}`;
/** When a run happened, for replaying: when it left, else when it was last seen. */
const timeOf = (r: TeamRun) => r.leftAt ?? r.lastSeen;

/**
 * Two versions of one row combined as the store combines them: the newer's fields, the latest last sighting, the
 * earliest leaving any version saw, errors if any saw them.
 */
export function combineRuns(older: TeamRun, newer: TeamRun): TeamRun {
  const leftAt =
    older.leftAt === undefined
      ? newer.leftAt
      : newer.leftAt === undefined
        ? older.leftAt
        : Math.min(older.leftAt, newer.leftAt);
  return {
    ...newer,
    lastSeen: Math.max(older.lastSeen, newer.lastSeen),
    leftAt,
    hadErrors: older.hadErrors || newer.hadErrors,
  };
}

export class Outbox {
  private readonly runs = new Map<string, TeamRun>();
  private readonly spans = new Map<string, WatchSpan>();
  private since: number | undefined;
  private droppedSpans = 0;

  constructor(private readonly limits: OutboxLimits = OUTBOX_LIMITS) {}

  /** Rows waiting. */
  get size(): number {
    return this.runs.size + this.spans.size;
  }

  /** From when the local History's runs must be offered again (`replay`): runs of then or later were dropped. */
  get replaySince(): number | undefined {
    return this.since;
  }

  /** Spans dropped for room since this was made (the activity chart shows their time as unwatched). */
  get spansDropped(): number {
    return this.droppedSpans;
  }

  addRun(run: TeamRun): void {
    const key = runKey(run);
    const waiting = this.runs.get(key);
    if (waiting) {
      this.runs.delete(key); // the newest last
      this.runs.set(key, combineRuns(waiting, run));
      return;
    }
    if (this.runs.size >= this.limits.maxRuns) {
      const oldestKey = this.runs.keys().next().value as string;
      const oldest = this.runs.get(oldestKey) as TeamRun;
      this.runs.delete(oldestKey);
      this.since = Math.min(this.since ?? Infinity, timeOf(oldest));
    }
    this.runs.set(key, run);
  }

  addSpan(span: WatchSpan): void {
    const key = spanKey(span);
    const waiting = this.spans.get(key);
    if (waiting) {
      this.spans.delete(key);
      this.spans.set(key, { ...span, to: Math.max(waiting.to, span.to) });
      return;
    }
    if (this.spans.size >= this.limits.maxSpans) {
      this.spans.delete(this.spans.keys().next().value as string);
      this.droppedSpans++;
    }
    this.spans.set(key, span);
  }

  /** The oldest rows waiting, at most `max` (runs first): one write's worth. */
  take(max: number): OutboxBatch {
    const runs: TeamRun[] = [];
    const spans: WatchSpan[] = [];
    for (const run of this.runs.values()) {
      if (runs.length >= max) break;
      runs.push(run);
    }
    for (const span of this.spans.values()) {
      if (runs.length + spans.length >= max) break;
      spans.push(span);
    }
    return { runs, spans };
  }

  /** The batch was written: its rows stop waiting, but for those a newer version replaced meanwhile. */
  sent(batch: OutboxBatch): void {
    for (const run of batch.runs) if (this.runs.get(runKey(run)) === run) this.runs.delete(runKey(run));
    for (const span of batch.spans) if (this.spans.get(spanKey(span)) === span) this.spans.delete(spanKey(span));
  }

  /**
   * Offers again the runs of the local History (`rows`: every run it keeps, as this installation's rows) from
   * replaySince on, oldest first, as long as there is room without dropping any; what does not fit stays to replay
   * (replaySince moves to it). Call it when the outbox has room (after a write); nothing to do without replaySince.
   */
  replay(rows: Iterable<TeamRun>): void {
    const since = this.since;
    if (since === undefined) return;
    const due = [...rows].filter((r) => timeOf(r) >= since).sort((a, b) => timeOf(a) - timeOf(b));
    this.since = undefined;
    for (const row of due) {
      if (this.runs.size >= this.limits.maxRuns && !this.runs.has(runKey(row))) {
        this.since = timeOf(row);
        return;
      }
      this.addRun(row);
    }
  }
}

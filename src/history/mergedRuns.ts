import type { Clock, TimerHandle } from '../base/clock';
import type { Disposable } from '../base/events';
import type { HistoryEntry } from './entry';
import { flowStats, type FlowStats } from './stats';
import type { OlderDays } from './summary';

/*
 * One service's History as its readers see it while a team store is connected: this window's runs merged with the
 * team's (src/teamHistory/merge.ts, through the TeamSlot), made from the newest end and only as far as asked.
 *
 * The History view's first rows take the newest page (`head`): they cost the page, not every run; once a merge ended,
 * the view reads it until the next one ends (a poll's departures never shrink the view to a page and back). Every run (`all`:
 * Export, the tools, Insights, the activity chart, Open as JSON) is the same walk to its end, made a step of
 * STEP_RUNS at a time on the clock's timers, so no task of the host's thread merges a whole service, let alone all of
 * them; a reader that needs every run now finishes the walk at once (this service only). What learns from every run
 * and is asked on each render (stats: "usually done", stuck, a row's tint; the slower flows; the sparkline) reads the
 * last complete merge (`settled`) until the new one is made, then History says it changed.
 *
 * The merge is made again only when this service's own runs or the team's runs of it changed (`version`): a change of
 * another service's runs merges nothing here.
 */

/** The team's side of the merge for one service (the window's TeamSlot with this History's reader). */
export interface MergeSource {
  /** Changes whenever the team's runs of this service change; undefined: none (History is this window's). */
  version(): string | undefined;
  /** `local` merged with the team's runs, newest first, one at a time (valid while `version` says the same). */
  newestFirst(local: readonly HistoryEntry[]): Iterator<HistoryEntry, undefined> | undefined;
}

export interface MergedRunsPorts {
  readonly clock: Clock;
  readonly source: MergeSource;
  /** This window's runs (newest first, a new array when they change), their stats and the older days' summaries. */
  local(): {
    readonly entries: readonly HistoryEntry[];
    readonly stats: ReadonlyMap<number, FlowStats>;
    readonly older: OlderDays;
  };
  /** The walk to the end finished: what reads `settled` is told (History's change event). */
  finished(): void;
}

/** The History view's first page: its newest rows. */
export const FIRST_ROWS = 200;
/** Runs merged in one task of the host's thread while every run is worked out in the background (~15 – 30 ms). */
export const STEP_RUNS = 2_000;

interface Walk {
  readonly local: readonly HistoryEntry[];
  readonly version: string | undefined;
  /** undefined: no team runs (the local runs as they are), or the walk ended. */
  iterator: Iterator<HistoryEntry, undefined> | undefined;
  /** Made before the walk's first step (the team's order and the local index: a pass over the runs). */
  started: boolean;
  /** The runs worked out so far, newest first (`local` itself when there is nothing to merge). */
  entries: readonly HistoryEntry[];
  readonly built: HistoryEntry[];
  done: boolean;
  /** The stats of the runs once the walk ended, and the summaries they were made with. */
  stats?: ReadonlyMap<number, FlowStats>;
  statsOlder?: OlderDays;
  /** The first page handed out, kept while the walk has not ended. */
  head?: readonly HistoryEntry[];
  /** History was told that the walk ended. */
  said?: boolean;
}

export class MergedRuns implements Disposable {
  private walk: Walk | undefined;
  /** The last walk that ended: what stats, slower flows and the sparkline read until the next one ends. */
  private settledWalk: Walk | undefined;
  private timer: TimerHandle | undefined;
  /** Disposed (its History's service removed): a late reader is still answered, but no step is left and nothing said. */
  private disposed = false;

  constructor(private readonly ports: MergedRunsPorts) {}

  /**
   * Whether `head()` hands every run: of the current merge once it ended (no store: always), or while it is made of the
   * last one of this scope that did; false only for the first page.
   */
  get complete(): boolean {
    return this.current().done || this.lastMerge() !== undefined;
  }

  /**
   * What the History view draws: every run once the walk ended. While a walk runs (this window's runs or the team's
   * changed), every run of the last merge of this scope that ended, a few hundred ms stale: the view never shrinks
   * to a page and back on each poll (older days, a selected run, the days expanded kept). Only without one (the first
   * merge after connecting, a new scope after `forget()`), the newest `count` runs, which cost the page.
   */
  head(count = FIRST_ROWS): readonly HistoryEntry[] {
    const walk = this.current();
    if (walk.done) return walk.entries;
    const last = this.lastMerge();
    if (last) return last.entries;
    this.pull(walk, count);
    if (walk.done) return walk.entries;
    if (walk.head?.length !== Math.min(count, walk.built.length)) walk.head = walk.built.slice(0, count);
    return walk.head;
  }

  /** Every run, merged now when the background steps have not finished (this service only). */
  all(): readonly HistoryEntry[] {
    const walk = this.current();
    if (!walk.done) this.pull(walk, Infinity);
    return walk.entries;
  }

  /** The stats every run gives: of the current merge once it ended, else of the last one that did (or the local). */
  stats(): ReadonlyMap<number, FlowStats> {
    const walk = this.current();
    return walk.done
      ? this.statsOf(walk)
      : this.settledWalk
        ? this.statsOf(this.settledWalk)
        : this.ports.local().stats;
  }

  /** Every run of the last merge that ended (the current one's once it did), never merged now. */
  settled(): readonly HistoryEntry[] {
    const walk = this.current();
    return walk.done ? walk.entries : (this.settledWalk?.entries ?? this.ports.local().entries);
  }

  /**
   * History moved to another scope (another service or team filter), or was cleared (here or by another window): the
   * last merge made is of other runs, so what reads `settled` (stats, stuck, the sparkline, the pinned flows) reads
   * this window's own until the new merge is made, and the History view its first page.
   */
  forget(): void {
    this.walk = this.settledWalk = undefined;
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer !== undefined) this.ports.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.walk = this.settledWalk = undefined;
  }

  /** The walk of this window's runs and the team's as they are now: a new one when either changed. */
  private current(): Walk {
    const { entries: local } = this.ports.local();
    const version = this.ports.source.version();
    const walk = this.walk;
    if (walk && walk.local === local && walk.version === version) return walk;
    const built: HistoryEntry[] = [];
    const next: Walk = { local, version, iterator: undefined, started: false, entries: built, built, done: false };
    if (version === undefined) {
      next.done = true;
      next.entries = local;
    }
    this.walk = next;
    if (next.done) this.settledWalk = next;
    else this.schedule();
    return next;
  }

  /** Walks on until `count` runs are worked out, or to the end. */
  private pull(walk: Walk, count: number): void {
    if (!walk.started) {
      walk.started = true;
      walk.iterator = this.ports.source.newestFirst(walk.local);
      if (!walk.iterator) walk.entries = walk.local;
    }
    const iterator = walk.iterator;
    while (iterator && walk.built.length < count) {
      const next = iterator.next();
      if (next.done) break;
      walk.built.push(next.value);
    }
    if (walk.built.length < count || !iterator) this.end(walk);
  }

  /** The last walk that ended and merged the team's runs (of this scope: `forget()` drops it), if any. */
  private lastMerge(): Walk | undefined {
    const last = this.settledWalk;
    return last?.version !== undefined ? last : undefined;
  }

  private end(walk: Walk): void {
    walk.done = true;
    walk.iterator = undefined;
    walk.head = undefined;
    this.settledWalk = walk;
    this.schedule(); // says so from a task of its own, never inside a reader's call
  }

  private statsOf(walk: Walk): ReadonlyMap<number, FlowStats> {
    const { older, stats, entries } = this.ports.local();
    if (walk.version === undefined && walk.local === entries) return stats;
    if (!walk.stats || walk.statsOlder !== older) {
      walk.stats = flowStats(walk.entries, older);
      walk.statsOlder = older;
    }
    return walk.stats;
  }

  private schedule(): void {
    if (this.timer === undefined && !this.disposed) this.timer = this.ports.clock.setTimeout(() => this.step(), 0);
  }

  /** One step of the background walk; when it ends (here or in a reader's call), History is told. */
  private step(): void {
    this.timer = undefined;
    const walk = this.current();
    if (!walk.done) {
      this.pull(walk, walk.built.length + STEP_RUNS);
      if (!walk.done) return this.schedule();
    }
    if (walk.version !== undefined && !walk.said) {
      walk.said = true;
      this.ports.finished();
    }
  }
}

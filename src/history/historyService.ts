import type { FlowSync } from '../api/types';
import type { Clock } from '../base/clock';
import { DisposableStore, Emitter, type Disposable, type Event } from '../base/events';
import { inert } from '../base/inert';
import { t } from '../base/l10n';
import type { ListState } from '../lists/refresh';
import type { SettingValues } from '../settings/settingValues';
import { activitySparkline, processingNow } from './activity';
import { DAY_MS, MAX_CREATED_AT, flowNameOf, itemHasErrors, type HistoryEntry } from './entry';
import { bounded } from '../base/inert';
import { eta } from './eta';
import { HeldRuns } from './held';
import { FIRST_ROWS, MergedRuns } from './mergedRuns';
import type { FlowInsight } from './insights';
import type { LogStore } from './logStore';
import { ProcessingObserver, processingAnswer } from './observer';
import { SlowerAnnouncer, SlowerFlows } from './slowerFlows';
import { flowStats, isStuck, processingAgeMs, stuckThresholdMs, type FlowStats } from './stats';
import { HISTORY_CAP, mergeSegments, originFolder, pruneEntries } from './store';
import type { OpenSighting, TeamGap, TeamReader, TeamSlot, TeamSummary } from './teamPort';
import { dayOf } from './log';
import { StuckAnnouncer } from './stuckAnnouncer';
import { NO_OLDER_DAYS, type OlderDays } from './summary';
import { finishedNotification, slowerText, type Watches } from './texts';
import { HistoryWriteTrouble } from './writeTrouble';

/** The most watches kept per History scope. */
const MAX_WATCHES = 1_000;
/** Runs read at start before History is ready (the first views: the newest days); older days follow, up to HISTORY_CAP. */
const FIRST_READ = 10_000;

/** What the views need from the history: entries, typical durations, stuck syncs and watches of the current service. */
export interface HistorySnapshot {
  readonly origin: string | undefined;
  /** Newest first, within historyDays: every run (with a store, merged with the team's when first read). */
  readonly entries: readonly HistoryEntry[];
  /** Each flow's durations; with a store, of the last merge made (read on every render: it never merges). */
  readonly stats: ReadonlyMap<number, FlowStats>;
  /** The days within historyDays whose runs are not all in memory: their summaries (for the week chart; `stats` has them). */
  readonly older: OlderDays;
  readonly watches: Watches;
}

// ------------------------------------------------------------ ports

/** What History reads of its service's Explorer (src/lists/explorer.ts): its scope, its key to hide, its Processing list. */
export interface HistoryExplorer {
  /** What History is kept under (one per service entry: its URL, with its team filter when it has one); none unset. */
  readonly historyScope: string | undefined;
  readonly teamId: string;
  /** The service's key in the team's store: its base URL (undefined while it has none). */
  readonly serviceKey?: string | undefined;
  readonly keyToHide: string | undefined;
  /** Whether a text holds the API key (such a run is never written). */
  mentionsKey(text: string): boolean;
  onDidChangeStatus(listener: () => void): Disposable;
  readonly lists: {
    readonly processing: { readonly state: ListState<FlowSync>; onDidChange(listener: () => void): Disposable };
  };
}

/** What History does with the log of one scope: every method of LogStore it uses (src/history/log.ts), each async. */
export type HistoryLogStore = Pick<LogStore, 'cleared' | 'append' | 'read' | 'summaries' | 'pruneDisk' | 'clear'>;

/** Where the watches of every scope are kept, as one value (VS Code's globalState: the same in every window). */
interface WatchesStore {
  read(): unknown;
  write(all: Record<string, unknown>): Promise<void>;
}

export interface HistoryLogger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
}

/** The settings History reads; userHistoryDays: the user's own historyDays, the only one that deletes from disk. */
export type HistorySettings = Pick<SettingValues, 'historyDays' | 'stuckAfterMinutes' | 'notifyWhenFinished'> & {
  userHistoryDays?: number;
};

/**
 * What History tells the person (the vscode layer shows it, naming the service when there are several): the syncs that
 * left (one notification a poll, with its runs for its buttons), syncs that became stuck, flows slower than usual, and
 * that History cannot be written.
 */
export type HistoryNotice =
  | { readonly kind: 'finished'; readonly text: string; readonly entries: readonly HistoryEntry[] }
  | {
      readonly kind: 'stuck';
      readonly text: string;
      /** The one sync it names (its Open in Browser), undefined when it names several. */
      readonly sync?: { readonly id: number; readonly flowId: number };
      /** How many syncs it names. */
      readonly count?: number;
    }
  | {
      readonly kind: 'slower';
      readonly text: string;
      /** How many flows it names. */
      readonly count?: number;
    }
  | { readonly kind: 'cannotWrite'; readonly text: string };

export interface HistoryPorts {
  readonly explorer: HistoryExplorer;
  /** The log store of a scope's folder (originFolder): a new one each time the scope becomes the current one. */
  readonly openLog: (folder: string) => HistoryLogStore;
  readonly watches: WatchesStore;
  readonly clock: Clock;
  readonly settings: () => HistorySettings;
  readonly log: HistoryLogger;
  /** The notices sink (see HistoryNotice). */
  readonly notify: (notice: HistoryNotice) => void;
  /**
   * The window's team History (src/history/teamPort.ts), and whether this service's runs are shared (its entry does
   * not say `"teamHistory": false`): while a store is connected, every reader of History sees the team's runs merged
   * with this window's; the notifications still come only from what this window saw.
   */
  readonly team?: { readonly slot: TeamSlot; shared(): boolean };
}

/** What History knows of a processing sync that a filter reads (is:stuck, is:watched, is:longer, its age). */
export interface HistoryLive {
  readonly flags: { readonly stuck: boolean; readonly watched: boolean; readonly longer: boolean };
  readonly seconds: { readonly age: number | undefined };
}

/**
 * History of one service, the pure part behind small ports (HistoryPorts; the vscode layer, src/history/vscode/
 * historyService.ts, gives it global storage, globalState, the log and the notifications): feeds each successful
 * processing answer to the ProcessingObserver, keeps the entries of the current scope in its log store (append-only:
 * src/history/log.ts), keeps the watches, and says what to announce: the syncs that left (at most one notice per
 * poll), the syncs that became stuck and the flows that became slower than usual, each by the window whose request
 * saw it, unless notifications are off.
 *
 * Concurrency: loads run one after another (a reload() never overtakes the first load's background read of the older
 * days, whose runs the store hands out once); the summaries of older days asked for last win over earlier ones;
 * writes run one after another. The scope is checked again after every wait: a load or summary read that finds it
 * changed meanwhile is dropped, so is a write that finds it changed before it begins (one under way finishes in the
 * old scope's file, and nothing more), and a clear clears the files it was asked for but leaves what the new scope
 * holds. Once disposed (the service removed, the window closing), nothing more is read, summarized or pruned; the runs
 * that left before are still written. The key is never written: a run whose record holds it (a service echoing it) is
 * left out of the log.
 */
export class HistoryCore implements Disposable {
  private readonly explorer: HistoryExplorer;
  private readonly clock: Clock;
  private readonly settings: () => HistorySettings;
  private readonly log: HistoryLogger;
  private readonly observer: ProcessingObserver;
  protected readonly changes = new Emitter<void>();
  /** Entries, stats, watches, pins or stuck syncs changed (the views render again). */
  readonly onDidChange: Event<void> = this.changes.event;
  /** Writes that fail: logged, told once, and the runs not written are written by the next poll. */
  private readonly writeTrouble: HistoryWriteTrouble;
  private readonly disposables = new DisposableStore();
  private origin: string | undefined;
  private entries: HistoryEntry[] = [];
  private stats: Map<number, FlowStats> = new Map();
  /** A poll's departures: entries and stats updated in time proportional to the change (the same as merge, prune, flowStats). */
  private readonly held = new HeldRuns();
  private older: OlderDays = NO_OLDER_DAYS;
  /** Counts the summary reads asked for: only the latest one's result is kept. */
  private olderAsked = 0;
  /** Resolves when the summaries asked for so far are read and applied. */
  private olderDone: Promise<void> = Promise.resolve();
  /**
   * The loads, one after another: the store returns each run once, to whichever read finds it first, so a reload()
   * overlapping the first load's background read of the older days would resolve without them.
   */
  private loads: Promise<unknown> = Promise.resolve();
  private watches: { syncs: Set<number>; flows: Set<number> } = { syncs: new Set(), flows: new Set() };
  /** Raised whenever the watches may have changed (watched here or in another window, a new scope). */
  private watchesChanged = 0;
  private lastLoadedAt: number | undefined;
  private lastStuck: string | undefined = '';
  /** Writes one after another: a write never overtakes the one before it. */
  private writing: Promise<void> = Promise.resolve();
  /** The store of the current origin. */
  private store: HistoryLogStore | undefined;
  /** Runs that left at or before this were cleared (by any window). */
  private clearedAt = -Infinity;
  /** Resolves when the first read of the current origin is done (History ready). */
  private ready: Promise<void> = Promise.resolve();
  /** Disposed (its service removed, the window closing): nothing more is read, summarized or pruned. */
  private disposed = false;

  /**
   * What the readers see: this window's runs merged with the team's while a store is connected (src/history/
   * mergedRuns.ts: the first page at once, every run a step at a time or when a reader needs them), else this window's.
   */
  private readonly runs: MergedRuns;
  private readonly reader: TeamReader;

  private readonly slower = new SlowerFlows();
  private readonly slowerAnnouncer = new SlowerAnnouncer();
  private readonly stuckAnnouncer: StuckAnnouncer;

  constructor(private readonly ports: HistoryPorts) {
    const { explorer, clock, log } = ports;
    this.explorer = explorer;
    this.clock = clock;
    this.settings = ports.settings;
    this.log = log;
    this.observer = new ProcessingObserver(() => explorer.keyToHide);
    this.stuckAnnouncer = new StuckAnnouncer(
      () => explorer.keyToHide,
      () => clock.now(),
    );
    this.writeTrouble = new HistoryWriteTrouble(
      (text) => ports.notify({ kind: 'cannotWrite', text }),
      (line) => log.warn(line),
    );
    const processing = explorer.lists.processing;
    this.reader = {
      service: () => explorer.serviceKey,
      team: () => explorer.teamId,
      shared: () => ports.team?.shared() ?? false,
      local: () => this.entries,
    };
    this.disposables.add(
      this.changes,
      processing.onDidChange(() => this.onProcessingChanged()),
      explorer.onDidChangeStatus(() => void this.useOrigin(explorer.historyScope)),
    );
    const team = ports.team?.slot;
    this.runs = new MergedRuns({
      clock,
      source: {
        version: () => team?.version(this.reader),
        newestFirst: (local) => team?.newestFirst(this.reader, local),
      },
      local: () => ({ entries: this.entries, stats: this.stats, older: this.older }),
      finished: () => this.changed(),
    });
    this.disposables.add(this.runs);
    if (team) {
      let version = team.version(this.reader);
      this.disposables.add(
        team.join(this.reader),
        // Only when this service's merge changed: another service's runs, or the store's status, merge nothing here.
        team.onDidChange(() => {
          const now = team.version(this.reader);
          if (now === version) return this.changes.fire();
          version = now;
          this.changed();
        }),
      );
    }
    void this.useOrigin(explorer.historyScope);
  }

  /** The flows slower than usual now, by flow id (computed at most every few minutes: src/history/slowerFlows.ts). */
  slowerFlows(now: number): ReadonlyMap<number, FlowInsight> {
    return this.slower.get(this.runs.settled(), this.older, now);
  }

  /** The status bar's sparkline: how many syncs were processing over the last hour. */
  sparkline(now: number): string {
    return activitySparkline(this.runs.settled(), processingNow(this.tracked, this.explorer.keyToHide), now);
  }

  /** What the status bar adds from History: the stuck syncs and the last hour's sparkline (changes with onDidChange). */
  statusExtras(now: number): { stuck: FlowSync[]; sparkline: string } {
    return { stuck: this.stuckSyncs(), sparkline: this.sparkline(now) };
  }

  /** What the language model tools read of History (each read anew: History changes every poll). */
  readonly reads = {
    entries: (): readonly HistoryEntry[] => this.runs.all(),
    stuck: (): readonly FlowSync[] => this.stuckSyncs(),
    live: (sync: FlowSync, now: number): HistoryLive => this.live(sync, now),
    watched: (id: number): boolean => this.isWatched('sync', id),
    older: (): OlderDays => this.older,
  };

  /**
   * What History holds now. `entries`: every run (merged now when the background steps have not finished, this
   * service only); `stats`: of every run, those of the last merge made until the current one is (never merged here).
   */
  get snapshot(): HistorySnapshot {
    const runs = this.runs;
    return {
      origin: this.origin,
      get entries() {
        return runs.all();
      },
      get stats() {
        return runs.stats();
      },
      older: this.older,
      watches: this.watches,
    };
  }

  /**
   * Every run as last merged (the current merge once it is made), never merged now: for what is drawn again on every
   * change (the status bar's pinned flows, the Processing view's idle pinned rows); History changes when it is made.
   */
  settledEntries(): readonly HistoryEntry[] {
    return this.runs.settled();
  }

  /**
   * The History view's rows: every run once the merge with the team's runs is made; while a new one is made, every run
   * of the last one that ended (a few hundred ms stale); without one (connecting, a new scope) its newest `count`
   * (`complete` false; the rest is merged a step at a time, and History says when it is done).
   */
  viewRows(count = FIRST_ROWS): { readonly entries: readonly HistoryEntry[]; readonly complete: boolean } {
    const entries = this.runs.head(count);
    return { entries, complete: this.runs.complete };
  }

  /** The stretches of [from, to) nobody of the team watched this service; undefined while no store is connected. */
  teamUnwatched(from: number, to: number): readonly TeamGap[] | undefined {
    return this.ports.team?.slot.unwatched(this.reader, from, to);
  }

  /** What team History says of itself (the History view's tooltip); undefined while no store is connected. */
  teamSummary(): TeamSummary | undefined {
    return this.ports.team?.slot.summary();
  }

  /** Resolves when the first read is done and the writes asked for so far are on disk. */
  async flushed(): Promise<void> {
    await this.ready;
    await this.writing;
    await this.olderDone;
  }

  /** Resolves when the first views' runs are read (History ready). */
  whenReady(): Promise<void> {
    return this.ready;
  }

  /** The threshold after which a processing sync of `flowId` is stuck, or undefined (none known yet). */
  stuckThreshold(flowId: number): number | undefined {
    return stuckThresholdMs(this.runs.stats().get(flowId), this.settings().stuckAfterMinutes);
  }

  isStuck(sync: FlowSync, now = this.clock.now()): boolean {
    return isStuck(sync, now, this.stuckThreshold(sync.flow_id), this.observer.tracked.get(sync.id)?.firstSeen);
  }

  /** The processing syncs that are stuck now. */
  stuckSyncs(): FlowSync[] {
    const now = this.clock.now();
    return (this.explorer.lists.processing.state.items ?? []).map((i) => i.value).filter((s) => this.isStuck(s, now));
  }

  /** What a filter reads of a processing sync that History knows: is:stuck, is:watched, is:longer, its age. */
  live(sync: FlowSync, at: number): HistoryLive {
    const stuck = this.isStuck(sync, at);
    const ageMs = processingAgeMs(sync, at, this.tracked.get(sync.id)?.firstSeen);
    const longer = eta(this.runs.stats().get(sync.flow_id), ageMs, stuck)?.phase === 'longer';
    return {
      flags: { stuck, watched: this.isWatched('sync', sync.id), longer },
      seconds: { age: ageMs === undefined ? undefined : ageMs / 1000 },
    };
  }

  /** The runs processing now as this window saw them (team History's open rows). */
  private openSightings(): OpenSighting[] {
    const hide = this.explorer.keyToHide;
    return [...this.observer.tracked.values()].map((tracked) => ({
      id: tracked.sync.id,
      flowId: tracked.sync.flow_id,
      flowName: flowNameOf(tracked.sync, hide),
      createdAt: bounded(tracked.sync.created_at, MAX_CREATED_AT, hide),
      firstSeen: tracked.firstSeen,
      lastSeen: tracked.lastSeen,
      hadErrors: itemHasErrors(tracked.raw),
    }));
  }

  /** The syncs processing now, with when this window first saw them (for the chart). */
  get tracked() {
    return this.observer.tracked;
  }

  /**
   * A count raised whenever the watches change (here, in another window, a new scope): the generation a filter that
   * reads is:watched is applied again on (the History view's `RowFind.keep`), as the runs' array is for the runs.
   */
  get watchesVersion(): number {
    return this.watchesChanged;
  }

  isWatched(kind: 'sync' | 'flow', id: number): boolean {
    return (kind === 'sync' ? this.watches.syncs : this.watches.flows).has(id);
  }

  async watch(kind: 'sync' | 'flow', ids: readonly number[], on: boolean): Promise<void> {
    this.syncWatches(); // another window may have changed them: add to theirs, never write over them
    const set = kind === 'sync' ? this.watches.syncs : this.watches.flows;
    this.watchesChanged++;
    for (const id of ids) {
      if (on && set.size < MAX_WATCHES) set.add(id);
      if (!on) set.delete(id);
    }
    await this.saveWatches();
    this.changed();
  }

  /** The last item seen of a sync that left processing at `leftAt` (Open as JSON on a History row). */
  lastItem(id: number, leftAt: number): Readonly<Record<string, unknown>> | undefined {
    return this.runs.all().find((e) => e.id === id && e.leftAt === leftAt)?.raw;
  }

  /** Reads what other windows added (e.g. the History view became visible). */
  async reload(): Promise<void> {
    await this.ready;
    if (this.origin) await this.load(this.origin, HISTORY_CAP);
  }

  /**
   * Clear History: for every window (a marker they honour), then the files of the current service. When the scope
   * changes meanwhile (or the service is removed), the files it was asked for are cleared and what is held now is kept.
   */
  async clear(): Promise<void> {
    const origin = this.origin;
    const store = this.store;
    if (!origin || !store || this.disposed) return;
    await this.writing;
    try {
      await store.clear();
    } catch (e) {
      this.log.warn(`History could not be cleared: ${(e as Error)?.message ?? e}`);
    }
    const clearedAt = await store.cleared();
    if (!this.current(origin, store)) return;
    this.clearedAt = clearedAt;
    this.entries = [];
    this.older = NO_OLDER_DAYS;
    this.olderAsked++;
    this.stats = new Map();
    this.runs.forget(); // the last merge holds the cleared runs: what reads it reads this window's until the next
    this.log.info(`History cleared for ${origin}`);
    this.changed();
  }

  /** Applies a new historyDays at once (the view shows only what is kept). */
  applySettings(): void {
    this.entries = pruneEntries(this.entries, this.clock.now(), this.settings().historyDays);
    const from = dayOf(this.clock.now() - this.settings().historyDays * DAY_MS);
    this.older = { before: this.older.before, days: this.older.days.filter((d) => d.day >= from) };
    this.stats = flowStats(this.entries, this.older);
    this.changed();
  }

  dispose(): void {
    this.disposed = true;
    this.disposables.dispose();
  }

  /** Whether `origin` and its `store` are still the ones shown (checked after every wait: a scope may change meanwhile). */
  private current(origin: string, store: HistoryLogStore): boolean {
    return !this.disposed && origin === this.origin && store === this.store;
  }

  /**
   * History changed: the views are told, then what became news is said (each once: a sync that became stuck, a flow
   * slower than usual), by the window whose request saw it, unless notifications are off.
   */
  private changed(): void {
    this.changes.fire();
    // The stuck syncs are counted on every change, said or not (a sync stuck while notifications were off is not news later).
    const stuck = this.stuckAnnouncer.next(this.stuckSyncs());
    if (this.settings().notifyWhenFinished === 'off' || this.explorer.lists.processing.state.adopted) return;
    if (stuck) {
      const { saidOne: sync, saidCount: count } = this.stuckAnnouncer;
      this.ports.notify({ kind: 'stuck', text: stuck, sync, count });
    }
    const slower = this.nextSlowerAnnouncement();
    if (slower) this.ports.notify({ kind: 'slower', text: slower.text, count: slower.count });
  }

  /** What to announce now of the flows that became slower than usual (once per flow a day), and how many; undefined when nothing. */
  private nextSlowerAnnouncement(): { text: string; count: number } | undefined {
    const now = this.clock.now();
    const fresh = this.slowerAnnouncer.next(this.slowerFlows(now).values(), now);
    if (fresh.length === 0) return undefined;
    const first = fresh[0];
    const text =
      fresh.length === 1
        ? t('{0} is slower than usual. {1}.', inert(first.label, 80), slowerText(first))
        : t(
            '{0} flows are slower than usual, {1} among them. {2}.',
            fresh.length,
            inert(first.label, 80),
            slowerText(first),
          );
    return { text, count: fresh.length };
  }

  private useOrigin(origin: string | undefined): Promise<void> {
    if (origin === this.origin) return this.ready;
    this.origin = origin;
    this.entries = [];
    this.older = NO_OLDER_DAYS;
    this.olderAsked++;
    this.stats = new Map();
    this.clearedAt = -Infinity;
    this.runs.forget(); // the last merge made is another service's: no stats or stuck threshold of this one from it
    this.store = origin ? this.ports.openLog(originFolder(origin)) : undefined;
    this.watches = readWatches(this.ports.watches.read(), origin);
    this.watchesChanged++;
    this.changed();
    if (!origin) return (this.ready = Promise.resolve());
    this.ready = this.start(origin);
    return this.ready;
  }

  /** First the newest days (History ready), then older ones up to the cap; then the user's days prune the disk. */
  private async start(origin: string): Promise<void> {
    const more = await this.load(origin, FIRST_READ);
    if (this.disposed || origin !== this.origin) return;
    if (more) void this.load(origin, HISTORY_CAP);
    const userDays = this.settings().userHistoryDays;
    if (userDays !== undefined && this.store) void this.store.pruneDisk(userDays).catch(() => undefined);
  }

  private onProcessingChanged(): void {
    const state = this.explorer.lists.processing.state;
    // One History per service entry (its URL and team filter, see historyScope): a new team filter of an entry is another's.
    const origin = this.explorer.historyScope;
    if (origin !== this.origin) void this.useOrigin(origin);
    if (!origin) return;
    const context = `${origin}|${this.explorer.teamId}`;
    if (state.items === undefined) {
      // Reset (a new URL, key or team filter): observation starts again; nothing is written.
      if (!state.loading) this.observer.restart(context);
      return;
    }
    if (state.error || state.loadedAt === undefined || state.loadedAt === this.lastLoadedAt) return;
    this.lastLoadedAt = state.loadedAt;
    const watchesChanged = this.syncWatches();
    const { left } = this.observer.observe(
      context,
      state.loadedAt,
      processingAnswer({ items: [...state.items], dropped: state.dropped }),
    );
    // The window that polled (not one that adopted another's answer) sends what it saw to the team's store.
    if (!state.adopted && state.dropped === 0) {
      this.ports.team?.slot.observed(this.reader, { at: state.loadedAt, left, open: () => this.openSightings() });
    }
    if (left.length === 0) {
      if (this.writeTrouble.unsaved) void this.persist(origin, []); // runs a failed write left wait in the store
      // Only when the stuck syncs changed: an identical answer must not re-render the Processing view.
      const stuck = this.stuckSyncs()
        .map((s) => s.id)
        .join(',');
      if (stuck !== this.lastStuck || watchesChanged) {
        this.lastStuck = stuck;
        this.changed();
      }
      return;
    }
    this.lastStuck = undefined;
    const notice = finishedNotification(left, this.watches, this.settings().notifyWhenFinished);
    if (notice.unwatch.length) void this.watch('sync', notice.unwatch, false);
    ({ entries: this.entries, stats: this.stats } = this.held.depart(
      this.entries,
      this.older,
      left,
      this.clock.now(),
      this.settings().historyDays,
    ));
    // At the cap, departures push the oldest runs out: once the oldest day held changes, its summary counts instead.
    const oldest = this.entries.at(-1);
    if (this.store && oldest && this.entries.length >= HISTORY_CAP && this.olderBefore(oldest) !== this.older.before) {
      this.askOlder(this.store, false);
    }
    this.changed();
    // Every window sees a sync leave; the one whose request saw it says so (one notification, not one per window).
    if (notice.text && !state.adopted) {
      this.ports.notify({ kind: 'finished', text: notice.text, entries: notice.entries });
    }
    void this.persist(origin, left);
  }

  /** Reads what is new in every window's files of the shown days (up to `limit` runs more); true when older days are left. */
  private load(origin: string, limit: number): Promise<boolean> {
    const next = this.loads.then(() => this.loadNow(origin, limit));
    this.loads = next.catch(() => undefined); // a load that failed does not stop the next
    return next;
  }

  private async loadNow(origin: string, limit: number): Promise<boolean> {
    const store = this.store;
    if (!store || !this.current(origin, store)) return false;
    const started = this.clock.now();
    let result;
    try {
      result = await store.read(this.settings().historyDays, limit);
    } catch (e) {
      this.log.warn(`History could not be read: ${(e as Error)?.message ?? e}`);
      return false;
    }
    if (!this.current(origin, store)) return false;
    const clearedAt = await store.cleared();
    if (!this.current(origin, store)) return false;
    const cleared = this.honourClear(clearedAt);
    const held = this.entries;
    this.entries = pruneEntries(
      mergeSegments([this.entries, result.entries]),
      this.clock.now(),
      this.settings().historyDays,
    );
    this.log.debug(
      `History: ${this.entries.length} entries for ${origin} (${result.entries.length} read) in ${this.clock.now() - started} ms`,
    );
    // Told only when the read changed the runs held (it also returns this window's own runs, held already): every
    // change re-renders the Processing view's rows, and a reveal under way there would lose its row to it.
    if (cleared || !sameRuns(held, this.entries)) {
      this.stats = flowStats(this.entries, this.older);
      this.changed();
    }
    this.askOlder(store, !result.more && this.entries.length < HISTORY_CAP);
    return result.more && this.entries.length < HISTORY_CAP;
  }

  /** Reads the summaries of the days not held whole (none when `whole`), after those asked before (a day is made once). */
  private askOlder(store: HistoryLogStore, whole: boolean): void {
    const asked = ++this.olderAsked;
    this.olderDone = this.olderDone.then(() => this.readOlder(store, whole, asked));
  }

  /**
   * The days within historyDays whose runs are not all in memory (older than the oldest day held, and that day itself,
   * which the cap may have cut): their summaries, read or made in the background (never before History is ready).
   */
  private async readOlder(store: HistoryLogStore, whole: boolean, asked: number): Promise<void> {
    if (this.disposed || asked !== this.olderAsked || store !== this.store) return; // a later read asked again
    const oldest = this.entries.at(-1);
    if (whole || !oldest) {
      if (this.older !== NO_OLDER_DAYS) this.applyOlder(NO_OLDER_DAYS);
      return;
    }
    const before = this.olderBefore(oldest);
    let days;
    try {
      days = await store.summaries(this.settings().historyDays, dayOf(before));
    } catch (e) {
      this.log.warn(`History summaries could not be read: ${(e as Error)?.message ?? e}`);
      return;
    }
    if (this.disposed || asked !== this.olderAsked || store !== this.store) return;
    this.applyOlder({
      before,
      days: days.filter((d) => d.day >= dayOf(this.clock.now() - this.settings().historyDays * DAY_MS)),
    });
  }

  /** Where the summaries end and the runs in memory count: the day after the oldest held (the cap may cut that one), at most today. */
  private olderBefore(oldest: HistoryEntry): number {
    return Math.min(dayStart(this.clock.now()), dayStart(oldest.leftAt) + DAY_MS);
  }

  private applyOlder(older: OlderDays): void {
    this.older = older;
    this.stats = flowStats(this.entries, this.older);
    this.changed();
  }

  /**
   * Another window cleared History: what left before is dropped here too. A marker set back (it was ahead of the
   * clock) is taken as it is. True when runs were dropped (a later marker).
   */
  private honourClear(clearedAt: number): boolean {
    const later = clearedAt > this.clearedAt;
    this.clearedAt = clearedAt;
    if (!later) return false;
    this.entries = this.entries.filter((e) => e.leftAt > clearedAt);
    this.older = NO_OLDER_DAYS;
    this.olderAsked++;
    this.stats = flowStats(this.entries);
    this.runs.forget(); // as clear(): the last merge holds the cleared runs
    return true;
  }

  /**
   * Appends the runs that left to this window's file of the day (never a rewrite); a run holding the key is left out.
   * Runs that left before the service was removed (or the window closes) are still written; nothing is asked after.
   */
  private persist(origin: string, left: readonly HistoryEntry[]): Promise<void> {
    if (this.disposed) return this.writing;
    this.writing = this.writing.then(async () => {
      const store = this.store;
      if (origin !== this.origin || !store) return;
      try {
        const { leftOut } = await store.append(left, (record) => this.explorer.mentionsKey(record));
        this.writeTrouble.saved();
        if (leftOut) this.log.warn(`${leftOut} run(s) whose data contains the API key are not written to History.`);
        if (!this.current(origin, store)) return;
        const clearedAt = await store.cleared();
        if (this.current(origin, store) && this.honourClear(clearedAt)) this.changed();
      } catch (e) {
        this.writeTrouble.failed(e);
      }
    });
    return this.writing;
  }

  /**
   * Takes the watches from their store, which every window shares: a watch set in another window counts here from
   * its next answer on. True when they differed.
   */
  private syncWatches(): boolean {
    const stored = readWatches(this.ports.watches.read(), this.origin);
    const same = (a: Set<number>, b: Set<number>) => a.size === b.size && [...a].every((id) => b.has(id));
    if (same(stored.syncs, this.watches.syncs) && same(stored.flows, this.watches.flows)) return false;
    this.watches = stored;
    this.watchesChanged++;
    return true;
  }

  private async saveWatches(): Promise<void> {
    if (!this.origin) return;
    const all = (this.ports.watches.read() as Record<string, unknown> | undefined) ?? {};
    const next = { ...(typeof all === 'object' && !Array.isArray(all) ? all : {}) } as Record<string, unknown>;
    next[this.origin] = { syncs: [...this.watches.syncs], flows: [...this.watches.flows] };
    await this.ports.watches.write(next);
  }
}

/** The start (ms) of the UTC day of a time. */
function dayStart(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** The watches of `origin` from their store; anything without the expected shape is ignored. */
function readWatches(stored: unknown, origin: string | undefined): { syncs: Set<number>; flows: Set<number> } {
  const empty = { syncs: new Set<number>(), flows: new Set<number>() };
  if (!origin || typeof stored !== 'object' || stored === null || !Object.hasOwn(stored, origin)) return empty;
  const w = (stored as Record<string, unknown>)[origin] as { syncs?: unknown; flows?: unknown } | null;
  const ids = (v: unknown) =>
    new Set((Array.isArray(v) ? v : []).filter((n): n is number => Number.isSafeInteger(n)).slice(0, MAX_WATCHES));
  return w && typeof w === 'object' ? { syncs: ids(w.syncs), flows: ids(w.flows) } : empty;
}

/** Whether two lists of runs (newest first) say the same: the same runs, each with the same times and flow. */
function sameRuns(a: readonly HistoryEntry[], b: readonly HistoryEntry[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (
      x.id !== y.id ||
      x.flowId !== y.flowId ||
      x.flowName !== y.flowName ||
      x.createdAt !== y.createdAt ||
      x.firstSeen !== y.firstSeen ||
      x.lastSeen !== y.lastSeen ||
      x.leftAt !== y.leftAt
    ) {
      return false;
    }
  }
  return true;
}

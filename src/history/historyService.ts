import * as vscode from 'vscode';
import { ANSWER_BOUNDS, boundedJsonText } from '../api/jsonBounds';
import type { FlowSync } from '../api/types';
import { readStorageFile, writeStorageFile } from '../coordination/fileStore';
import type { Clock } from '../core/clock';
import { DisposableStore, Emitter, type Event } from '../core/events';
import type { Explorer } from '../core/explorer';
import {
  ProcessingObserver,
  finishedNotification,
  flowStats,
  isStuck,
  processingAnswer,
  stuckThresholdMs,
  type FlowStats,
  type HistoryEntry,
  type Watches,
} from '../core/history';
import { entriesToWrite, mergeSegments, originFolder, parseSegment, pruneEntries, segmentFileName, serializeSegment } from '../core/historyStore';
import type { SettingValues } from '../core/settingValues';
import type { ListRefresher } from '../core/refresh';

/** Watches kept per service origin (globalState), bounded. */
const WATCHES_KEY = 'flowsync.watches';
const MAX_WATCHES = 1_000;
/** Another window's segment untouched this long is folded into ours and removed (its window is gone). */
const STALE_SEGMENT_MS = 24 * 60 * 60_000;

/** What the views need from the history: entries, typical durations, stuck syncs and watches of the current service. */
export interface HistorySnapshot {
  readonly origin: string | undefined;
  /** Newest first, within historyDays. */
  readonly entries: readonly HistoryEntry[];
  readonly stats: ReadonlyMap<number, FlowStats>;
  readonly watches: Watches;
}

/**
 * The History feature's vscode layer: feeds each successful processing answer to the pure ProcessingObserver, keeps
 * the entries of the current service origin in the extension's global storage, keeps the watches, and announces
 * departures (at most one notification per poll).
 *
 * Storage: globalStorage/history/<origin folder>/segment-<window>.json. Each window writes only its own segment;
 * every window reads all segments of the origin and merges them (mergeSegments: each run once), so several windows
 * writing at once neither lose nor double an entry; a window's segment leaves out runs another live segment already
 * holds (entriesToWrite), so each run is on disk about once. A segment untouched for a day belongs to a window that
 * is gone: its runs are written into ours, then it is removed. A segment is read within the bounds of an answer from
 * the service (readStorageFile, boundedJsonText); a corrupt one, or one over them, is set aside (renamed
 * *.corrupt) with a log line. Writes replace the segment through a temporary file (writeStorageFile). The key is never written there: a run whose data holds it (a service echoing it) is
 * left out of the file (keyFree).
 */
export class HistoryService implements vscode.Disposable {
  private readonly observer = new ProcessingObserver(() => this.explorer.keyToHide);
  private readonly changes = new Emitter<void>();
  readonly onDidChange: Event<void> = this.changes.event;
  private readonly disposables = new DisposableStore();
  private origin: string | undefined;
  private entries: HistoryEntry[] = [];
  private stats: Map<number, FlowStats> = new Map();
  private watches: { syncs: Set<number>; flows: Set<number> } = { syncs: new Set(), flows: new Set() };
  private lastLoadedAt: number | undefined;
  private lastStuck: string | undefined = '';
  /** Writes one after another: a write never overtakes the one before it. */
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly explorer: Explorer,
    private readonly storage: vscode.Uri,
    private readonly state: vscode.Memento,
    private readonly windowId: string,
    private readonly clock: Clock,
    private readonly settings: () => Pick<SettingValues, 'historyDays' | 'stuckAfterMinutes' | 'notifyWhenFinished'>,
    private readonly log: vscode.LogOutputChannel,
    /** Shows the one notification of a poll (the vscode layer adds its buttons). */
    private readonly announce: (text: string, entries: readonly HistoryEntry[]) => void,
  ) {
    const processing = explorer.lists.processing as ListRefresher<FlowSync>;
    this.disposables.add(
      this.changes,
      processing.onDidChange(() => this.onProcessingChanged(processing)),
      explorer.onDidChangeStatus(() => void this.useOrigin(explorer.origin)),
    );
    void this.useOrigin(explorer.origin);
  }

  get snapshot(): HistorySnapshot {
    return { origin: this.origin, entries: this.entries, stats: this.stats, watches: this.watches };
  }

  /** Where the current service's segments are kept (undefined without a service). */
  get storageFolder(): vscode.Uri | undefined {
    return this.origin ? this.folder(this.origin) : undefined;
  }

  /** The texts announced so far, in order (for tests and diagnostics). */
  readonly announced: string[] = [];

  /** Resolves when the writes asked for so far are on disk. */
  flushed(): Promise<void> {
    return this.writing;
  }

  /** The threshold after which a processing sync of `flowId` is stuck, or undefined (none known yet). */
  stuckThreshold(flowId: number): number | undefined {
    return stuckThresholdMs(this.stats.get(flowId), this.settings().stuckAfterMinutes);
  }

  isStuck(sync: FlowSync, now = this.clock.now()): boolean {
    return isStuck(sync, now, this.stuckThreshold(sync.flow_id), this.observer.tracked.get(sync.id)?.firstSeen);
  }

  /** The processing syncs that are stuck now. */
  stuckSyncs(): FlowSync[] {
    const now = this.clock.now();
    return (this.explorer.lists.processing.state.items ?? []).map((i) => i.value).filter((s) => this.isStuck(s, now));
  }

  /** The syncs processing now, with when this window first saw them (for the chart). */
  get tracked() {
    return this.observer.tracked;
  }

  isWatched(kind: 'sync' | 'flow', id: number): boolean {
    return (kind === 'sync' ? this.watches.syncs : this.watches.flows).has(id);
  }

  async watch(kind: 'sync' | 'flow', ids: readonly number[], on: boolean): Promise<void> {
    this.syncWatches(); // another window may have changed them: add to theirs, never write over them
    const set = kind === 'sync' ? this.watches.syncs : this.watches.flows;
    for (const id of ids) {
      if (on && set.size < MAX_WATCHES) set.add(id);
      if (!on) set.delete(id);
    }
    await this.saveWatches();
    this.changes.fire();
  }

  /** The last item seen of a sync that left processing at `leftAt` (Open as JSON on a History row). */
  lastItem(id: number, leftAt: number): Readonly<Record<string, unknown>> | undefined {
    return this.entries.find((e) => e.id === id && e.leftAt === leftAt)?.raw;
  }

  /** Re-reads every window's segment (e.g. the History view became visible). */
  async reload(): Promise<void> {
    if (this.origin) await this.load(this.origin);
  }

  /** Clear History: deletes every segment of the current service (every window's). */
  async clear(): Promise<void> {
    const origin = this.origin;
    if (!origin) return;
    await this.writing;
    try {
      await vscode.workspace.fs.delete(this.folder(origin), { recursive: true, useTrash: false });
    } catch {
      // nothing stored yet
    }
    this.entries = [];
    this.stats = new Map();
    this.log.info(`History cleared for ${origin}`);
    this.changes.fire();
  }

  /** Applies a new historyDays at once (the view shows only what is kept). */
  applySettings(): void {
    this.entries = pruneEntries(this.entries, this.clock.now(), this.settings().historyDays);
    this.stats = flowStats(this.entries);
    this.changes.fire();
  }

  dispose(): void {
    this.disposables.dispose();
  }

  private async useOrigin(origin: string | undefined): Promise<void> {
    if (origin === this.origin) return;
    this.origin = origin;
    this.entries = [];
    this.stats = new Map();
    this.watches = readWatches(this.state.get(WATCHES_KEY), origin);
    this.changes.fire();
    if (origin) await this.load(origin);
  }

  private onProcessingChanged(processing: ListRefresher<FlowSync>): void {
    const state = processing.state;
    const origin = this.explorer.origin;
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
    const { left } = this.observer.observe(context, state.loadedAt, processingAnswer({ items: [...state.items], dropped: state.dropped }));
    if (left.length === 0) {
      // Only when the stuck syncs changed: an identical answer must not re-render the Processing view.
      const stuck = this.stuckSyncs().map((s) => s.id).join(',');
      if (stuck !== this.lastStuck || watchesChanged) {
        this.lastStuck = stuck;
        this.changes.fire();
      }
      return;
    }
    this.lastStuck = undefined;
    const notice = finishedNotification(left, this.watches, this.settings().notifyWhenFinished);
    if (notice.unwatch.length) void this.watch('sync', notice.unwatch, false);
    this.entries = pruneEntries(mergeSegments([this.entries, left]), this.clock.now(), this.settings().historyDays);
    this.stats = flowStats(this.entries);
    this.changes.fire();
    // Every window sees a sync leave; the one whose request saw it says so (one notification, not one per window).
    if (notice.text && !state.adopted) {
      this.announced.push(notice.text);
      this.announce(notice.text, notice.entries);
    }
    void this.persist(origin);
  }

  private folder(origin: string): vscode.Uri {
    return vscode.Uri.joinPath(this.storage, 'history', originFolder(origin));
  }

  /** Reads and merges every window's segment of `origin`; sets aside corrupt ones. */
  private async load(origin: string): Promise<void> {
    const started = this.clock.now();
    const segments = await this.readSegments(origin);
    if (origin !== this.origin) return;
    this.entries = pruneEntries(mergeSegments([this.entries, ...segments.map((s) => s.entries)]), this.clock.now(), this.settings().historyDays);
    this.stats = flowStats(this.entries);
    this.log.debug(`History: ${this.entries.length} entries for ${origin} from ${segments.length} segment(s) in ${this.clock.now() - started} ms`);
    this.changes.fire();
  }

  private async readSegments(origin: string): Promise<Array<{ uri: vscode.Uri; entries: HistoryEntry[]; mtime: number }>> {
    const folder = this.folder(origin);
    let names: [string, vscode.FileType][];
    try {
      names = await vscode.workspace.fs.readDirectory(folder);
    } catch {
      return [];
    }
    const result: Array<{ uri: vscode.Uri; entries: HistoryEntry[]; mtime: number }> = [];
    for (const [name, type] of names) {
      if (type !== vscode.FileType.File || !/^segment-.*\.json$/.test(name)) continue;
      const uri = vscode.Uri.joinPath(folder, name);
      try {
        // Within the bounds of an answer from the service, like every file read from global storage; one over them is
        // set aside as corrupt.
        const [stat, stored] = await Promise.all([vscode.workspace.fs.stat(uri), readStorageFile(uri, ANSWER_BOUNDS.maxBytes)]);
        if (stored === undefined) continue;
        const checked = boundedJsonText(stored);
        const parsed = 'text' in checked ? parseSegment(checked.text, origin) : ({ ok: false, reason: 'tooLarge' } as const);
        if (parsed.ok) {
          if (parsed.rejected) this.log.warn(`History: ${parsed.rejected} entries of ${name} did not have the expected shape and were left out`);
          result.push({ uri, entries: parsed.entries, mtime: stat.mtime });
        } else if (parsed.reason === 'newerVersion' || parsed.reason === 'otherOrigin') {
          this.log.info(`History: ${name} left alone (${parsed.reason})`);
        } else {
          this.log.warn(`History: ${name} could not be read (${parsed.reason}); set aside as ${name}.corrupt`);
          await vscode.workspace.fs.rename(uri, vscode.Uri.joinPath(folder, `${name}.corrupt`), { overwrite: true }).then(undefined, () => undefined);
        }
      } catch (e) {
        this.log.warn(`History: ${name} could not be read: ${(e as Error)?.message ?? e}`);
      }
    }
    return result;
  }

  /** Writes this window's segment (everything it knows of the origin), then removes segments of windows long gone. */
  private persist(origin: string): Promise<void> {
    this.writing = this.writing.then(async () => {
      if (origin !== this.origin) return;
      const folder = this.folder(origin);
      const own = segmentFileName(this.windowId);
      try {
        // Fold in what other windows wrote since we last read, so our segment holds everything we know.
        const others = (await this.readSegments(origin)).filter((s) => !s.uri.path.endsWith(`/${own}`));
        this.entries = pruneEntries(mergeSegments([this.entries, ...others.map((s) => s.entries)]), this.clock.now(), this.settings().historyDays);
        this.stats = flowStats(this.entries);
        // Our segment leaves out the runs a live segment with a smaller name holds (each run on disk about once); a
        // stale segment's runs are written here before it is removed.
        const now = this.clock.now();
        const stale = others.filter((s) => now - s.mtime > STALE_SEGMENT_MS);
        const live = others.filter((s) => !stale.includes(s)).map((s) => ({ name: s.uri.path.slice(s.uri.path.lastIndexOf('/') + 1), entries: s.entries }));
        await vscode.workspace.fs.createDirectory(folder);
        const text = this.keyFree(entriesToWrite(this.entries, own, live), origin);
        await writeStorageFile(vscode.Uri.joinPath(folder, own), new TextEncoder().encode(text));
        for (const segment of stale) await vscode.workspace.fs.delete(segment.uri).then(undefined, () => undefined);
      } catch (e) {
        this.log.warn(`History could not be saved: ${(e as Error)?.message ?? e}`);
      }
    });
    return this.writing;
  }

  /**
   * The segment's text without the runs whose data holds the API key (a service that echoes it): they stay in this
   * window's History, but the key never reaches a file. One scan of the text when no run holds it.
   */
  private keyFree(entries: readonly HistoryEntry[], origin: string): string {
    const text = serializeSegment(entries, origin);
    if (!this.explorer.mentionsKey(text)) return text;
    const kept = entries.filter((entry) => !this.explorer.mentionsKey(JSON.stringify(entry)));
    this.log.warn(`${entries.length - kept.length} run(s) whose data contains the API key are not written to History.`);
    return serializeSegment(kept, origin);
  }

  /**
   * Takes the watches from globalState, which VS Code keeps the same in every window: a watch set in another window
   * counts here from its next answer on. True when they differed.
   */
  private syncWatches(): boolean {
    const stored = readWatches(this.state.get(WATCHES_KEY), this.origin);
    const same = (a: Set<number>, b: Set<number>) => a.size === b.size && [...a].every((id) => b.has(id));
    if (same(stored.syncs, this.watches.syncs) && same(stored.flows, this.watches.flows)) return false;
    this.watches = stored;
    return true;
  }

  private async saveWatches(): Promise<void> {
    if (!this.origin) return;
    const all = (this.state.get(WATCHES_KEY) as Record<string, unknown> | undefined) ?? {};
    const next = { ...(typeof all === 'object' && !Array.isArray(all) ? all : {}) } as Record<string, unknown>;
    next[this.origin] = { syncs: [...this.watches.syncs], flows: [...this.watches.flows] };
    await this.state.update(WATCHES_KEY, next);
  }
}

/** The watches of `origin` from globalState; anything without the expected shape is ignored. */
function readWatches(stored: unknown, origin: string | undefined): { syncs: Set<number>; flows: Set<number> } {
  const empty = { syncs: new Set<number>(), flows: new Set<number>() };
  if (!origin || typeof stored !== 'object' || stored === null || !Object.hasOwn(stored, origin)) return empty;
  const w = (stored as Record<string, unknown>)[origin] as { syncs?: unknown; flows?: unknown } | null;
  const ids = (v: unknown) => new Set((Array.isArray(v) ? v : []).filter((n): n is number => Number.isSafeInteger(n)).slice(0, MAX_WATCHES));
  return w && typeof w === 'object' ? { syncs: ids(w.syncs), flows: ids(w.flows) } : empty;
}


import * as vscode from 'vscode';
import type { Clock } from '../../base/clock';
import { Emitter, type Event } from '../../base/events';
import { storageFiles } from '../../env/vscode/storageFiles';
import type { Explorer } from '../../lists/explorer';
import type { RowDecorations } from '../../lists/vscode/groupedTree';
import { HistoryCore, type HistoryNotice, type HistoryPorts, type HistorySettings } from '../historyService';
import { LogStore } from '../logStore';
import { processingDecorations } from './historyUi';
import { FlowPins, PINS_STATE_KEY, pinnedLines, pinnedStates } from '../pins';
import type { FlowSync } from '../../api/types';
import { STATE_KEYS } from '../../base/stateKeys';

/** Watches kept per service (its History scope: see historyScope), in globalState, bounded. */
const WATCHES_KEY = STATE_KEYS.watches;

/** What a service's History is made of (see HistoryService). */
export interface HistoryServiceOptions {
  explorer: Explorer;
  /** The extension's global storage: History's files are under history/ there. */
  storage: vscode.Uri;
  /** globalState: the watches and the pins, the same in every window; the pins follow Settings Sync (setKeysForSync). */
  state: vscode.Memento & { setKeysForSync?(keys: readonly string[]): void };
  /** This window's id: it writes its own log file. */
  windowId: string;
  clock: Clock;
  /** userHistoryDays: the user's own historyDays, the only one that deletes from disk (none given: nothing is deleted). */
  settings: () => HistorySettings;
  log: vscode.LogOutputChannel;
  /** The window's team History and whether this service's runs are shared (HistoryPorts.team). */
  team?: HistoryPorts['team'];
}

/**
 * History of one service in VS Code: HistoryCore (src/history/historyService.ts, the logic) on the extension's
 * global storage, its globalState and its log. Storage: globalStorage/history/<folder of its History scope>/ (one per
 * service entry: its origin for the one service of flowsync.baseUrl, its base URL, with its team filter when it has
 * one, for one of several), the append-only log of src/history/log.ts through the storage port (src/env: node:fs on a
 * local disk, which appends; elsewhere, the browser, vscode.workspace.fs, which rewrites the window's day file).
 * Watches are kept in globalState, which VS Code keeps the same in every window.
 */
export class HistoryService extends HistoryCore implements vscode.Disposable {
  /** What History tells the person (src/extension.ts hands it to announceFinished.ts, named by its service). */
  readonly onDidNotify: Event<HistoryNotice>;
  /** History's marks on the Processing view's rows, and when they change (the view renders them once per change). */
  readonly processingMarks: RowDecorations<FlowSync>;
  private readonly notices: Emitter<HistoryNotice>;
  private readonly processingList: Explorer['lists']['processing'];
  /** The pinned flows of this service (src/history/pins.ts), kept in globalState and synced to the person's machines. */
  readonly pins: FlowPins;
  /** The flows with a sync processing, for the latest answer (worked out once per answer). */
  private busy: { items: readonly unknown[] | undefined; flows: ReadonlySet<number> } = { items: [], flows: new Set() };

  constructor({ explorer, storage, state, windowId, clock, settings, log, team }: HistoryServiceOptions) {
    const notices = new Emitter<HistoryNotice>();
    const files = storageFiles(vscode.Uri.joinPath(storage, 'history'));
    super({
      explorer,
      clock,
      settings,
      log,
      team,
      notify: (notice) => notices.fire(notice),
      watches: { read: () => state.get(WATCHES_KEY), write: async (all) => state.update(WATCHES_KEY, all) },
      openLog: (folder) =>
        new LogStore({
          files,
          folder,
          windowId,
          now: () => clock.now(),
          log: (level, message) => log[level](message),
        }),
    });
    this.processingList = explorer.lists.processing;
    this.notices = notices;
    this.onDidNotify = notices.event;
    state.setKeysForSync?.([PINS_STATE_KEY]);
    this.pins = new FlowPins(
      { read: () => state.get(PINS_STATE_KEY), write: (value) => state.update(PINS_STATE_KEY, value) },
      () => explorer.historyScope,
    );
    this.pins.onDidChange(() => this.changes.fire());
    const processing = explorer.lists.processing;
    const busy = (): ReadonlySet<number> => {
      const items = processing.state.items;
      if (items !== this.busy.items) this.busy = { items, flows: new Set(items?.map((item) => item.value.flow_id)) };
      return this.busy.flows;
    };
    const pins = { ids: () => this.pins.ids(), busy };
    this.processingMarks = { ...processingDecorations(this, () => clock.now(), pins), onDidChange: this.onDidChange };
  }

  /** What the status bar adds from History: the stuck syncs, the sparkline and the pinned flows with their state. */
  override statusExtras(now: number): { stuck: FlowSync[]; sparkline: string; pinned: string[] } {
    const items = this.processingList.state.items ?? [];
    const pinned = pinnedLines(pinnedStates(this.pins.ids(), items, this.settledEntries()));
    return { ...super.statusExtras(now), pinned };
  }

  override dispose(): void {
    super.dispose();
    this.notices.dispose();
    this.pins.dispose();
  }
}

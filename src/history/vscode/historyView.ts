import * as vscode from 'vscode';
import { DisposableStore } from '../../base/events';
import { SelectedRows } from '../../base/selectedRows';
import type { HistoryEntry, HistoryGroup } from '../index';
import { eachService, type ServiceSet } from '../../base/serviceSet';
import type { HistoryNode } from '../historyNode';
import type { HistoryViewService } from './historyNodes';
import { ContextKeys } from '../../base/vscode/contextKeys';
import type { RowFind } from '../../filter/rowFind';
import { COMMAND } from '../../base/commandIds';
import type { SettingsPartFeed } from '../../settings/settingsFeed';
import { webContextSuffix, type WebSection } from '../../webPages/webUrl';
import { RowTintDecorations } from '../../lists/vscode/rowDecorations';
import type { LevelPages } from '../../lists/levelPages';
import type { LateTreeView } from '../../base/vscode/lateTree';
import { VIEW_ID } from '../../base/commandIds';
import {
  dayLevel,
  dayPages,
  dayRows,
  historyMoreItem,
  historyTreeItem,
  resolveHistoryItem,
  type HistoryMoreRow,
} from './historyRows';
import { historyGroups } from '../texts';

/** The one row of the view while its filter matches nothing: it clears the filter. */
interface NoMatchRow {
  readonly kind: 'noMatch';
}

export type HistoryViewNode = HistoryNode | NoMatchRow | HistoryMoreRow;

export const HISTORY_VIEW = VIEW_ID.history;

/**
 * The History view: syncs that left processing within historyDays, grouped by the day they left (newest first; see
 * historyGroups for why days and not flows). Rows say "#1003 · ran about 12 min · 5 min ago", never "succeeded". With
 * several services, a row per service (in the order of the settings) and its days beneath it.
 */
export class HistoryView implements vscode.TreeDataProvider<HistoryViewNode>, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<HistoryViewNode | undefined>();
  readonly onDidChangeTreeData = this.changeEmitter.event;
  readonly view: vscode.TreeView<HistoryViewNode>;
  /** The runs selected, as the person sees them (a refresh being read again leaves them): what the palette acts on. */
  private readonly selected: SelectedRows<HistoryViewNode>;
  private readonly disposables = new DisposableStore();
  /** The days of each service, grouped when VS Code asks for them, with the runs and the day they were grouped on. */
  private readonly groups = new Map<string, { runs: readonly HistoryEntry[]; day: string; groups: HistoryGroup[] }>();
  /** The row of each service, kept so a change re-renders just that service. */
  private readonly serviceRows = new Map<string, HistoryNode>();
  private readonly contextKeys = new ContextKeys();
  /** The tints of the runs that stand out (src/lists/vscode/rowDecorations.ts). */
  private readonly marker = new RowTintDecorations();
  /** How many runs each day shows (its pages; a "Show more" row for the rest). */
  private readonly pages: LevelPages = dayPages();
  /** The view's filter (src/find); undefined while none is on. */
  private filter?: RowFind<HistoryEntry>;
  private readonly noMatchRow: NoMatchRow = { kind: 'noMatch' };
  private shownMessage?: string;
  private shownDescription?: string;

  constructor(
    /** Its tree view, registered at start (src/extension.ts): this view's rows are shown through it. */
    shown: Pick<LateTreeView<HistoryViewNode>, 'view' | 'data'>,
    private readonly services: ServiceSet<HistoryViewService>,
    private readonly now: () => number,
    /** The web page templates of each service (Open in Browser: a run's context value ends `.web` when set). */
    private readonly settings?: { readonly webPages: SettingsPartFeed<WebSection['webUrls']> },
  ) {
    this.view = shown.view;
    this.selected = new SelectedRows(this.view, shown.data.selectionMoments());
    this.disposables.add(
      this.changeEmitter,
      this.marker,
      this.selected,
      eachService(
        services,
        (service) => service.history.onDidChange(() => this.update(service.id)),
        () => this.update(undefined),
      ),
      // Which runs offer Open in Browser changed: every row renders again.
      settings?.webPages.onDidChange(() => this.changeEmitter.fire(undefined)) ?? { dispose: () => undefined },
      this.view.onDidChangeVisibility(
        () => this.view.visible && this.services.all.forEach((s) => void s.history.reload()),
      ),
    );
    this.update(undefined);
    this.disposables.add(shown.data.use(this)); // its rows go with it
  }

  /** The rows selected (src/base/selectedRows.ts): read this, not `view.selection`. */
  get selection(): readonly HistoryViewNode[] {
    return this.selected.rows;
  }

  getChildren(node?: HistoryViewNode): HistoryViewNode[] {
    if (node?.kind === 'noMatch' || node?.kind === 'historyMore') return [];
    if (!node) {
      if (this.nothingMatches()) return [this.noMatchRow];
      if (this.services.several) return this.services.all.map((s) => this.serviceRow(s.id));
      const only = this.services.all[0];
      return only ? this.days(only) : [];
    }
    if (node.kind === 'historyService') {
      const service = this.services.all.find((s) => s.id === node.service);
      return service ? this.days(service) : [];
    }
    return node.kind === 'historyDay' ? dayRows(node, this.pages) : []; // at most its pages of runs
  }

  getTreeItem(node: HistoryViewNode): vscode.TreeItem {
    if (node.kind === 'noMatch') {
      const label = this.filter?.clearLabel ?? '';
      const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
      item.id = 'noMatch';
      item.iconPath = new vscode.ThemeIcon('clear-all');
      item.command = { title: label, command: COMMAND.clearFilter, arguments: ['history'] };
      return item;
    }
    if (node.kind === 'historyMore') {
      return historyMoreItem(node, this.services.several, () => this.showMore(node));
    }
    const service = node.kind !== 'historyDay' ? this.services.all.find((s) => s.id === node.service) : undefined;
    const webSuffix = webContextSuffix('flowsync.historyEntry', this.settings?.webPages.current.get(node.service));
    const pinned = node.kind === 'historyEntry' && service?.history.pins.ids().includes(node.entry.flowId) === true;
    const context = {
      several: this.services.several,
      now: this.now(),
      service,
      webSuffix,
      pinned,
      marker: this.marker,
    };
    const item = historyTreeItem(node, context);
    if (node.kind === 'historyService' && this.filter && service) {
      item.description = this.filter.serviceText(this.keptOf(service).length, String(item.description ?? ''));
    }
    return item;
  }

  /** The parent of a row (to reveal a run): its day, and the day's service with several services. */
  getParent(node: HistoryViewNode): HistoryViewNode | undefined {
    if (node.kind === 'noMatch' || node.kind === 'historyService') return undefined;
    if (node.kind === 'historyMore') return node.day;
    const service = this.services.all.find((s) => s.id === node.service);
    if (node.kind === 'historyDay') return this.services.several ? this.serviceRow(node.service) : undefined;
    if (!service) return undefined;
    const group = this.groupsOf(service).find((g) => g.entries.includes(node.entry));
    return group && { kind: 'historyDay', group, service: service.id };
  }

  /** Shows only the runs of every service that `filter` keeps (undefined: every run). */
  setFilter(filter: RowFind<HistoryEntry> | undefined): void {
    if (filter === this.filter) return;
    this.filter = filter;
    this.pages.reset(); // other runs: each day shows its first page
    this.update(undefined);
  }

  /** What a filter needs of a service's runs: its name, and whether a sync is watched. */
  filterContext(service: string): { name: string; watched: (id: number) => boolean } {
    const found = this.services.all.find((s) => s.id === service);
    return { name: found?.name ?? '', watched: (id) => found?.history.isWatched('sync', id) === true };
  }

  /** The runs every service holds now (a filter counts them as you type). */
  heldItems(): Array<{ service: string; items: readonly HistoryEntry[] }> {
    return this.services.all.map((s) => ({ service: s.id, items: s.history.snapshot.entries }));
  }

  resolveTreeItem(item: vscode.TreeItem, node: HistoryViewNode): vscode.TreeItem | Promise<vscode.TreeItem> {
    if (node.kind === 'noMatch' || node.kind === 'historyMore') return item;
    const team = this.services.all.find((s) => s.id === node.service)?.history.teamSummary();
    return resolveHistoryItem(item, node, this.now(), team);
  }

  /**
   * Makes a day show the page that holds its run at `index` (a reveal: Go to, the timeline, a notification), and has
   * the view drawn again when it showed less.
   */
  showPageOf(service: string, dayKey: number, index: number): void {
    if (this.pages.reveal(dayLevel(service, dayKey), index)) this.changeEmitter.fire(undefined);
  }

  /** A day's "Show more" row was used: the day shows a page more, and the focus moves to its first new run. */
  private showMore(row: HistoryMoreRow): void {
    const first = this.pages.more(dayLevel(row.service, row.day.group.key), row.cut.total);
    this.changeEmitter.fire(undefined);
    const entry = row.day.group.entries[first];
    if (!entry) return;
    this.view.reveal({ kind: 'historyEntry', entry, service: row.service }, { select: true, focus: true }).then(
      undefined,
      () => undefined, // the run went with a change meanwhile: the focus stays where it was
    );
  }

  dispose(): void {
    this.disposables.dispose();
  }

  private days(service: HistoryViewService): HistoryNode[] {
    return this.groupsOf(service).map((group) => ({ kind: 'historyDay', group, service: service.id }));
  }

  /** Grouped again only when the runs shown or the day changed (a change of the team's status leaves them). */
  private groupsOf(service: HistoryViewService): HistoryGroup[] {
    const runs = this.keptOf(service);
    const now = this.now();
    const day = new Date(now).toDateString();
    let held = this.groups.get(service.id);
    if (held?.runs !== runs || held.day !== day) {
      this.groups.set(service.id, (held = { runs, day, groups: historyGroups(runs, now) }));
    }
    return held.groups;
  }

  /**
   * The runs of a service the view shows: without a filter its History's rows (HistoryCore.viewRows: before the first
   * merge with the team's runs is made, its newest page); with one, the runs the filter keeps of every run, kept again
   * when the runs or the watches (is:watched) changed.
   */
  private keptOf(service: HistoryViewService): readonly HistoryEntry[] {
    if (!this.filter) return service.history.viewRows().entries;
    return this.filter.keep(service.id, service.history.snapshot.entries, service.history.watchesVersion);
  }

  /** A filter is on, there are runs, and none matches. */
  private nothingMatches(): boolean {
    if (!this.filter) return false;
    const total = this.services.all.reduce((n, s) => n + s.history.snapshot.entries.length, 0);
    return total > 0 && this.services.all.every((s) => this.keptOf(s).length === 0);
  }

  /** The view's description and message say the filter and how many runs match. */
  private decorate(): void {
    let description: string | undefined;
    let message: string | undefined;
    const filter = this.filter;
    if (filter) {
      let matched = 0;
      let total = 0;
      for (const service of this.services.all) {
        total += service.history.snapshot.entries.length;
        matched += this.keptOf(service).length;
      }
      description = filter.description(matched, total);
      if (matched === 0 && total > 0) message = filter.noMatch();
    }
    if (description !== this.shownDescription) this.view.description = this.shownDescription = description;
    if (message !== this.shownMessage) this.view.message = this.shownMessage = message;
  }

  private serviceRow(id: string): HistoryNode {
    let row = this.serviceRows.get(id);
    if (!row) this.serviceRows.set(id, (row = { kind: 'historyService', service: id }));
    return row;
  }

  /** A service's History changed: its days are grouped again when next shown, if its runs did; the context key is set only when it flips. */
  private update(service: string | undefined): void {
    if (service === undefined) this.groups.clear();
    void this.contextKeys.set(
      'flowsync.hasHistory',
      this.services.all.some((s) => s.history.viewRows().entries.length > 0),
    );
    // While filtered, a change can make the view match nothing (or something again): the whole view is read again.
    this.changeEmitter.fire(
      service !== undefined && this.services.several && !this.filter ? this.serviceRow(service) : undefined,
    );
    this.decorate();
  }
}

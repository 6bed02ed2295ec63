import * as vscode from 'vscode';
import { DisposableStore } from '../../base/events';
import { every, type Clock } from '../../base/clock';
import type { Explorer } from '../explorer';
import type { ListRefresher } from '../refresh';
import type { TreeNode } from '../treeModel';
import { isStale } from '../../base/freshness';
import { viewMessage } from '../viewMessage';
import { ANY_LISTS, type AnyList, type ListId, type ValueOf } from '..';
import type { ListDefinition } from '../list';
import { t } from '../../base/l10n';
import type { Arrangement } from '../arrange';
import type { SettingsSource } from '../../settings/vscode/settings';
import { GroupedTree, type RowDecorations } from './groupedTree';

/** How often a view whose rows say "… ago" checks whether those texts have aged (while it is visible). */
export const AGE_TICK_MS = 30_000;

/** The view of one list: its tree plus the view-level decorations (message, description, badge, progress). */
export class ListView<T extends { id: number }> implements vscode.Disposable {
  readonly tree: GroupedTree<T>;
  readonly view: vscode.TreeView<TreeNode<T>>;
  private readonly disposables = new DisposableStore();
  private progress?: () => void;
  /** What decorate() set last (a new view shows none of them). */
  private readonly shown: { message?: string; description?: string; badge?: vscode.ViewBadge } = {};
  /** When the selection last changed (monotonic counter), to tell which view the person used last. */
  selectedAt = 0;
  private arrangement: Arrangement;
  private static selections = 0;

  constructor(
    readonly list: ListDefinition<T>,
    private readonly explorer: Explorer,
    clock: Clock,
    private readonly settings: SettingsSource,
    decorations?: RowDecorations<T>,
  ) {
    const refresher = explorer.refresher(list.id as ListId) as unknown as ListRefresher<T>;
    const now = () => clock.now();
    this.arrangement = settings.current.arrangements[list.id as ListId];
    this.tree = new GroupedTree(list, refresher, now, () => explorer.status === 'ready', this.arrangement, () => this.view.visible, decorations);
    this.view = vscode.window.createTreeView(list.viewId, { treeDataProvider: this.tree, showCollapseAll: true, canSelectMany: true });
    this.disposables.add(
      this.tree,
      this.view,
      refresher.onDidChange(() => this.decorate(now())),
      this.view.onDidChangeSelection(() => (this.selectedAt = ++ListView.selections)),
      this.view.onDidExpandElement((e) => this.tree.rememberExpansion(e.element, true)),
      this.view.onDidCollapseElement((e) => this.tree.rememberExpansion(e.element, false)),
      settings.onDidChange(() => this.rearrange()),
      explorer.teams.onDidLearn(() => this.decorate(now())), // the filtered team's name may be known now
      explorer.onDidChangeStatus(() => {
        this.tree.refreshAll();
        this.decorate(now());
      }),
    );
    if (list.rows.descriptionAges) {
      // Only while the view is visible: a hidden view costs nothing.
      this.disposables.add(every(clock, AGE_TICK_MS, () => this.view.visible && (this.decorate(now()), this.tree.refreshAgedDescriptions())));
    }
    if (!list.polled) {
      // Loaded only once its view is shown: a hidden view costs nothing.
      const load = () => this.view.visible && explorer.want(list.id as ListId);
      this.disposables.add(this.view.onDidChangeVisibility(load));
      load();
    }
    this.decorate(now());
  }

  private get refresher(): ListRefresher<unknown> {
    return this.explorer.refresher(this.list.id as ListId);
  }

  /** Takes how the rows are grouped and sorted from the settings (they changed); regroups without a request when it differs. */
  rearrange(): void {
    const wanted = this.settings.current.arrangements[this.list.id as ListId];
    if (wanted.groupBy === this.arrangement.groupBy && wanted.sortBy === this.arrangement.sortBy) return;
    this.arrangement = wanted;
    this.tree.arrange(wanted);
  }

  get currentArrangement(): Arrangement {
    return this.arrangement;
  }

  /** Shows, selects and focuses an item's row (loading the list first if it is not loaded); false when it is not listed. */
  async revealItem(id: number): Promise<boolean> {
    const node = this.tree.model.findLeaf(id);
    if (!node) return false;
    await this.view.reveal(node, { select: true, focus: true, expand: true });
    return true;
  }

  /**
   * Re-evaluates message, description and badge (also used when the team filter's name becomes known). Each is set
   * only when it differs from what was set last: every set is a message to the workbench.
   */
  decorate(now: number): void {
    const state = this.refresher.state;
    const ready = this.explorer.status === 'ready';
    // Stale: older than twice the interval that applies now, or a failed refresh shows the last data (freshness.ts).
    const stale = ready && isStale(state, now, this.list.polled ? this.refresher.pollIntervalMs : undefined);
    this.tree.setStale(stale);
    const message = ready ? viewMessage(state, this.list.emptyText(), now, stale) : undefined;
    if (message !== this.shown.message) this.view.message = this.shown.message = message;
    const team = this.explorer.teamId;
    const description = team ? t('Team: {0}', this.explorer.teams.get(team)?.name ?? team) : undefined;
    if (description !== this.shown.description) this.view.description = this.shown.description = description;
    if (this.list.badge) {
      const badge = ready && state.items ? this.list.badge(state.items.length) : undefined;
      if (badge?.value !== this.shown.badge?.value || badge?.tooltip !== this.shown.badge?.tooltip) this.view.badge = this.shown.badge = badge;
    }
    this.showProgress(state.loading);
  }

  dispose(): void {
    this.progress?.();
    this.disposables.dispose();
  }

  /** The view's progress bar runs while a load is in flight. */
  private showProgress(loading: boolean): void {
    if (loading && !this.progress) {
      void vscode.window.withProgress({ location: { viewId: this.list.viewId } }, () => new Promise<void>((resolve) => (this.progress = resolve)));
    } else if (!loading && this.progress) {
      this.progress();
      this.progress = undefined;
    }
  }
}

/** One view per list of the registry, by list id. */
export type ListViews = { [D in AnyList as D['id']]: ListView<ValueOf<D>> };

export function createListViews(
  explorer: Explorer,
  clock: Clock,
  settings: SettingsSource,
  decorations: { [D in AnyList as D['id']]?: RowDecorations<ValueOf<D>> } = {},
): ListViews {
  const views: Record<string, ListView<{ id: number }>> = {};
  for (const list of ANY_LISTS) views[list.id] = new ListView(list, explorer, clock, settings, (decorations as Record<string, RowDecorations<{ id: number }> | undefined>)[list.id]);
  return views as unknown as ListViews;
}

/** Every view, for code that works on any list. */
export function allViews(views: ListViews): ListView<{ id: number }>[] {
  return Object.values(views) as ListView<{ id: number }>[];
}

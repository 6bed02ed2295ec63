import * as vscode from 'vscode';
import type { Connection, FlowSync } from '../api/types';
import type { Explorer } from '../core/explorer';
import type { ListRefresher } from '../core/refresh';
import { viewMessage } from '../core/viewMessage';
import { t } from '../l10n';
import { connectionsAdapter, processingAdapter } from './adapters';
import { GroupedTree, type TreeNode } from './groupedTree';

export const PROCESSING_VIEW = 'flowsync.processing';
export const CONNECTIONS_VIEW = 'flowsync.connections';

/** One tree view: its provider plus the view-level decorations (message, description, badge, progress). */
export class ExplorerView<T> implements vscode.Disposable {
  readonly tree: GroupedTree<T>;
  readonly view: vscode.TreeView<TreeNode<T>>;
  private readonly disposables: vscode.Disposable[] = [];
  private progress?: () => void;
  /** When the selection last changed (monotonic counter), to tell which view the person used last. */
  selectedAt = 0;
  private static selections = 0;

  constructor(
    readonly viewId: string,
    private readonly explorer: Explorer,
    private readonly refresher: ListRefresher<T>,
    adapter: ConstructorParameters<typeof GroupedTree<T>>[1],
    private readonly emptyText: () => string,
    private readonly badge: ((count: number) => vscode.ViewBadge | undefined) | undefined,
    now: () => number,
  ) {
    this.tree = new GroupedTree(refresher, adapter, now, () => explorer.status === 'ready');
    this.view = vscode.window.createTreeView(viewId, { treeDataProvider: this.tree, showCollapseAll: true });
    this.disposables.push(
      this.tree,
      this.view,
      refresher.onDidChange(() => this.decorate(now())),
      this.view.onDidChangeSelection(() => (this.selectedAt = ++ExplorerView.selections)),
      explorer.onDidChangeStatus(() => {
        this.tree.refreshAll();
        this.decorate(now());
      }),
    );
    this.decorate(now());
  }

  /** Re-evaluates message, description and badge (also used when the team filter's name becomes known). */
  decorate(now: number): void {
    const state = this.refresher.state;
    const ready = this.explorer.status === 'ready';
    this.view.message = ready ? viewMessage(state, this.emptyText(), now) : undefined;
    const team = this.explorer.teamId;
    this.view.description = team ? t('Team: {0}', this.explorer.teams.get(team)?.name ?? team) : undefined;
    if (this.badge) this.view.badge = ready && state.items ? this.badge(state.items.length) : undefined;
    this.showProgress(state.loading);
  }

  /** Ties a disposable to this view's lifetime. */
  track(disposable: vscode.Disposable): void {
    this.disposables.push(disposable);
  }

  dispose(): void {
    this.progress?.();
    for (const d of this.disposables) d.dispose();
  }

  /** The view's progress bar runs while a load is in flight. */
  private showProgress(loading: boolean): void {
    if (loading && !this.progress) {
      void vscode.window.withProgress({ location: { viewId: this.viewId } }, () => new Promise<void>((resolve) => (this.progress = resolve)));
    } else if (!loading && this.progress) {
      this.progress();
      this.progress = undefined;
    }
  }
}

/** How often the Processing view checks whether "started N min ago" texts have aged. */
export const AGE_TICK_MS = 30_000;

export function createProcessingView(explorer: Explorer, now: () => number): ExplorerView<FlowSync> {
  const view = new ExplorerView(
    PROCESSING_VIEW,
    explorer,
    explorer.processing,
    processingAdapter,
    () => t('No flow syncs are processing.'),
    (count) => (count > 0 ? { value: count, tooltip: count === 1 ? t('1 flow sync processing') : t('{0} flow syncs processing', count) } : undefined),
    now,
  );
  // Only while the view is visible: a hidden view costs nothing.
  const timer = setInterval(() => view.view.visible && view.tree.refreshAgedDescriptions(), AGE_TICK_MS);
  view.track({ dispose: () => clearInterval(timer) });
  return view;
}

export function createConnectionsView(explorer: Explorer, now: () => number): ExplorerView<Connection> {
  const view = new ExplorerView(CONNECTIONS_VIEW, explorer, explorer.connections, connectionsAdapter, () => t('No connections.'), undefined, now);
  // Connections load only once their view is shown: a hidden view costs nothing.
  const load = () => {
    if (view.view.visible) explorer.wantConnections();
  };
  view.track(view.view.onDidChangeVisibility(load));
  load();
  return view;
}

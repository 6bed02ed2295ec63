import type * as vscode from 'vscode';
import type { HistoryView } from '../../history/vscode/historyView';
import type { ListViews } from '../../lists/vscode/listView';
import type { FindViews } from './findViews';

/** The workspace state key of the filters (the same as findViews.ts FILTERS_STATE_KEY: a test checks both). */
const FILTERS_STATE_KEY = 'flowsync.filters';

/**
 * The views' filters, their code loaded on first use (esbuild.js CHUNKS: find): when a command or a link first sets
 * or reads one, or at start when this workspace kept a filter (so the views show it filtered again after a reload).
 */
export class FindOnDemand implements vscode.Disposable {
  private made?: Promise<FindViews>;
  private disposed = false;

  constructor(
    private readonly views: ListViews,
    private readonly history: HistoryView,
    private readonly state: Pick<vscode.Memento, 'get' | 'update'>,
    private readonly now: () => number,
  ) {
    const kept = state.get<unknown>(FILTERS_STATE_KEY);
    if (typeof kept === 'object' && kept !== null && Object.keys(kept).length > 0) void this.get();
  }

  /** The filters, made once. */
  get(): Promise<FindViews> {
    return (this.made ??= import('./findViews').then(({ createFindViews }) => {
      const find = createFindViews(
        { processing: this.views.processing, connections: this.views.connections, history: this.history },
        this.state,
        this.now,
      );
      if (this.disposed) find.dispose();
      return find;
    }));
  }

  dispose(): void {
    this.disposed = true;
    void this.made?.then((find) => find.dispose());
  }
}

import type * as vscode from 'vscode';
import type { Connection, FlowSync, Item } from '../../api/types';
import { DisposableStore } from '../../base/events';
import { t } from '../../base/l10n';
import { ContextKeys } from '../../base/vscode/contextKeys';
import { historyRunSubjects } from '../../history/findRows';
import type { HistoryEntry } from '../../history/entry';
import type { HistoryView } from '../../history/vscode/historyView';
import type { RowsForFilter } from '../../lists/findRows';
import { connectionRows, processingRows } from '../../lists/findRows';
import type { ListView } from '../../lists/vscode/listView';
import { FilterSubjects } from '../../filter/filterMatch';
import type { Filter, FilterView } from '../../filter/filterQuery';
import { filterDescription, noMatchText, serviceMatchText } from '../../filter/filterTexts';
import type { RowFind } from '../../filter/rowFind';
import { FILTER_VIEWS, ViewFilters } from '../../filter/viewFilters';
import { FILTERS_STATE_KEY, rememberLinkFilter } from '../keptFilters';

/** What FindViews watches of a view's tree: whether it is shown, and when it is used. */
export type FindTree = Pick<vscode.TreeView<unknown>, 'visible' | 'onDidChangeSelection' | 'onDidChangeVisibility'>;

/** A view a filter applies to: it shows what a RowFind keeps, holds rows per service, and has a tree view. */
export interface FindTarget<Row> {
  setFilter(filter: RowFind<Row> | undefined): void;
  heldItems(): Array<{ service: string; items: readonly Row[] }>;
  readonly view: FindTree;
}

/** A view's filter as FindViews uses it, whatever its rows are: shows a filter on the view, counts what one matches. */
export interface FilteredView {
  readonly tree: FindTree;
  show(filter: Filter | undefined): void;
  count(filter: Filter): { matched: number; total: number };
}

/** A view with its Finder, as FindViews uses it (the rows' type stays with the two, which agree on it). */
export function filteredView<Row extends object>(target: FindTarget<Row>, finder: Finder<Row>): FilteredView {
  return {
    tree: target.view,
    show: (filter) => target.setFilter(filter && finder.rowFind(filter)),
    count: (filter) => finder.count(filter, target.heldItems()),
  };
}

/**
 * The filter of one view over every service: each service's rows as the filter sees them (FilterSubjects: a row's
 * texts folded once while the row object lives, whatever filter is typed next), and the RowFind of a filter.
 */
export class Finder<Row extends object> {
  private readonly subjects = new Map<string, FilterSubjects<Row>>();

  /** `subjectsFor`: a service's rows as the filter sees them (made once per service). */
  constructor(private readonly subjectsFor: (service: string) => FilterSubjects<Row>) {}

  subjectsOf(service: string): FilterSubjects<Row> {
    let subjects = this.subjects.get(service);
    if (!subjects) {
      subjects = this.subjectsFor(service);
      this.subjects.set(service, subjects);
    }
    return subjects;
  }

  /** How many of the rows held match `filter`, and how many there are (the input box, as you type). */
  count(
    filter: Filter,
    held: ReadonlyArray<{ service: string; items: readonly Row[] }>,
  ): { matched: number; total: number } {
    let matched = 0;
    let total = 0;
    for (const { service, items } of held) {
      total += items.length;
      matched += this.subjectsOf(service).count(filter, items);
    }
    return { matched, total };
  }

  /** What a view asks of `filter`: the rows it keeps per service (worked out once per rows and generation), its words. */
  rowFind(filter: Filter): RowFind<Row> {
    const kept = new Map<string, { rows: readonly Row[]; generation: number; kept: readonly Row[] }>();
    return {
      readsLive: filter.terms.some((term) => term.kind === 'flag' || term.kind === 'duration'),
      keep: (service, rows, generation) => {
        const last = kept.get(service);
        if (last && last.rows === rows && last.generation === generation) return last.kept;
        const result = this.subjectsOf(service).filter(filter, rows);
        kept.set(service, { rows, generation, kept: result });
        return result;
      },
      description: (matched, total) => filterDescription(filter.source, matched, total),
      noMatch: () => noMatchText(filter.source),
      clearLabel: t('Clear Filter'),
      serviceText: serviceMatchText,
    };
  }
}

/** The Finder of a list's view: the list says what its rows show; History adds what it knows (Processing). */
export function listFinder<T extends { id: number }>(
  rows: RowsForFilter<T>,
  view: Pick<ListView<T>, 'filterContext'>,
  now: () => number,
): Finder<Item<T>> {
  return new Finder<Item<T>>(
    (service) =>
      new FilterSubjects<Item<T>>(
        (item) => rows.subject(item.value, view.filterContext(service).name),
        (item) => {
          const at = now();
          const own = rows.live(item.value, at);
          const extra = view.filterContext(service).live?.(item.value, at);
          return extra
            ? { flags: { ...own.flags, ...extra.flags }, seconds: { ...own.seconds, ...extra.seconds } }
            : own;
        },
      ),
  );
}

/** The Finder of the History view: History's one matcher of runs (the tools and Export keep the same runs). */
export function historyFinder(view: Pick<HistoryView, 'filterContext'>): Finder<HistoryEntry> {
  return new Finder<HistoryEntry>((service) =>
    historyRunSubjects(
      () => view.filterContext(service).name,
      (id) => view.filterContext(service).watched(id),
    ),
  );
}

/**
 * The filters of the Processing, Connections and History views (Find, issue #30): one ViewFilters (kept in the
 * workspace's state), applied to its view whenever one changes; the context key `flowsync.filter.<view>` is true while
 * that view has a filter (the title bar's Clear Filter), `flowsync.filtered` while any has. Remembers which of the
 * views was used last (selection or shown), for commands run from the palette or a title bar (VS Code tells a
 * title-bar command nothing of its view). Its own chunk (esbuild.js CHUNKS: find), made when a filter is first set,
 * or at start when the workspace kept one.
 */
export class FindViews implements vscode.Disposable {
  readonly filters: ViewFilters;
  private readonly contextKeys = new ContextKeys();
  private readonly disposables = new DisposableStore();
  private readonly usedAt = new Map<FilterView, number>();
  private uses = 0;

  constructor(
    private readonly targets: { readonly [V in FilterView]: FilteredView },
    private readonly state: Pick<vscode.Memento, 'get' | 'update'>,
  ) {
    this.filters = new ViewFilters({
      get: () => state.get(FILTERS_STATE_KEY),
      update: (value) => state.update(FILTERS_STATE_KEY, value),
    });
    this.disposables.add(
      this.filters,
      this.filters.onDidChange((view) => this.apply(view)),
    );
    for (const view of FILTER_VIEWS) {
      const { tree } = this.targets[view];
      const used = () => void this.usedAt.set(view, ++this.uses);
      this.disposables.add(
        tree.onDidChangeSelection(used),
        tree.onDidChangeVisibility((e) => e.visible && used()),
      );
      if (this.filters.get(view)) this.apply(view);
    }
  }

  /** Sets the view's filter as a link asks: like `filters.set`, and it is not kept across restarts (keptFilters.ts). */
  setFromLink(view: FilterView, text: string): { problem?: string } {
    const result = this.filters.set(view, text);
    if (result.problem === undefined) void rememberLinkFilter(this.state, view, this.filters.get(view)?.source);
    return result;
  }

  /** How many of the rows of the filter's view it matches, and how many there are. */
  count(filter: Filter): { matched: number; total: number } {
    return this.targets[filter.view].count(filter);
  }

  /**
   * The view a command from the palette or a title bar means, among `candidates`: the only one; else the only one
   * shown; else the one used last that is shown; else undefined (the command asks).
   */
  likelyView(candidates: readonly FilterView[]): FilterView | undefined {
    if (candidates.length === 1) return candidates[0];
    const shown = candidates.filter((view) => this.targets[view].tree.visible);
    if (shown.length === 1) return shown[0];
    const used = shown
      .filter((view) => this.usedAt.has(view))
      .sort((a, b) => this.usedAt.get(b)! - this.usedAt.get(a)!);
    return used[0];
  }

  dispose(): void {
    for (const view of FILTER_VIEWS) this.targets[view].show(undefined);
    this.disposables.dispose();
  }

  private apply(view: FilterView): void {
    const filter = this.filters.get(view);
    this.targets[view].show(filter);
    void this.contextKeys.set(`flowsync.filter.${view}`, filter !== undefined);
    void this.contextKeys.set('flowsync.filtered', this.filters.active().length > 0);
  }
}

/** Makes the FindViews of the three views (the chunk's entry). */
export function createFindViews(
  views: { processing: ListView<FlowSync>; connections: ListView<Connection>; history: HistoryView },
  state: Pick<vscode.Memento, 'get' | 'update'>,
  now: () => number,
): FindViews {
  return new FindViews(
    {
      processing: filteredView(views.processing, listFinder(processingRows, views.processing, now)),
      connections: filteredView(views.connections, listFinder(connectionRows, views.connections, now)),
      history: filteredView(views.history, historyFinder(views.history)),
    },
    state,
  );
}

import * as vscode from 'vscode';
import { DisposableStore } from '../../base/events';
import { SelectedRows } from '../../base/selectedRows';
import { every, type Clock } from '../../base/clock';
import type { Explorer } from '../explorer';
import type { ListRefresher } from '../refresh';
import { isStale } from '../../base/freshness';
import { asSentence } from '../../base/format';
import { viewMessage } from '../viewMessage';
import type { AnyList, ListId, ValueOf } from '..';
import type { ListFace } from '../list';
import { LIST_FACES, processingFace } from '../listFaces';
import { t } from '../../base/l10n';
import type { Arrangement } from '../arrangement';
import type { SettingsFeed, SettingsPartFeed } from '../../settings/settingsFeed';
import type { ListsSection } from '../listsSection';
import type { LateTreeView } from '../../base/vscode/lateTree';
import { GroupedTree, type RowDecorations } from './groupedTree';
import { ServicesTree, type ServicesTreeNode } from './servicesTree';
import { RowTintDecorations } from './rowDecorations';
import type { Item } from '../../api/types';
import type { FilterLive } from '../../filter/filterMatch';
import type { RowFind } from '../../filter/rowFind';
import { COMMAND } from '../../base/commandIds';
import { eachService, type ServiceSet } from '../../base/serviceSet';
import type { WebSection } from '../../webPages/webUrl';

/** How often a view whose rows say "… ago" checks whether those texts have aged (while it is visible). */
const AGE_TICK_MS = 30_000;

/** A view just shown is drawn level by level: it holds its rows once VS Code has asked for none for this long. */
const REVEAL_QUIET_MS = 100;
/** The longest a reveal waits for a view to be shown and drawn. */
const REVEAL_WAIT_MS = 3_000;

/** What a list view needs of a service. */
export interface ListService {
  readonly id: string;
  readonly name?: string;
  readonly explorer: Explorer;
}

/** The settings a list view reads: its arrangement, and the web page templates (which rows offer Open in Browser). */
type ListSettings = SettingsFeed<ListsSection> & { readonly webPages: SettingsPartFeed<WebSection['webUrls']> };

/** What a list view needs of the services: which there are (in order), and when that changes. */
export type ListServices = Pick<ServiceSet<ListService>, 'all' | 'onDidChange'>;

interface ServicePart<T extends { id: number }> {
  readonly service: ListService;
  readonly tree: GroupedTree<T>;
  readonly disposables: DisposableStore;
  /** What History adds to a filter's flags and durations (is:stuck, is:watched, is:longer, age). */
  readonly live?: (value: T, now: number) => FilterLive;
}

/**
 * The view of one list over every service: its tree (ServicesTree: one service's tree as ever, or a row per service)
 * plus the view-level decorations (message, description, badge, progress).
 */
export class ListView<T extends { id: number }> implements vscode.Disposable {
  readonly tree: ServicesTree<T>;
  readonly view: vscode.TreeView<ServicesTreeNode<T>>;
  private readonly disposables = new DisposableStore();
  /** Each service's part, in the order of the settings. */
  private parts: ServicePart<T>[] = [];
  /** The part of each service followed (eachService). */
  private readonly partOfService = new Map<ListService, ServicePart<T>>();
  private progress?: () => void;
  /** What decorate() set last (a new view shows none of them). */
  private readonly shown: { message?: string; description?: string; badge?: vscode.ViewBadge } = {};
  /** When the selection last changed (monotonic counter), to tell which view the person used last. */
  selectedAt = 0;
  /** The rows selected, as the person sees them (a refresh being read again leaves them): what the palette acts on. */
  private readonly selected: SelectedRows<ServicesTreeNode<T>>;
  private arrangement: Arrangement;
  private static selections = 0;
  /** The view's filter (src/find); undefined while none is on. */
  private filter?: RowFind<Item<T>>;
  /** Counts the times flags and durations may have changed (a clock tick, History's news): kept rows are then stale. */
  private live = 0;
  /** Tints the rows that stand out (a view that has them: Processing), made with its first service. */
  private tints?: RowTintDecorations;

  /** The rows selected (src/base/selectedRows.ts): read this, not `view.selection`. */
  get selection(): readonly ServicesTreeNode<T>[] {
    return this.selected.rows;
  }

  constructor(
    /** Its list's face (its rows' code takes the rest of the list from the registry, src/lists/index.ts). */
    readonly list: ListFace,
    /** Its tree view, registered at start (src/extension.ts): this view's rows are shown through it. */
    shown: Pick<LateTreeView<ServicesTreeNode<T>>, 'view' | 'data'>,
    private readonly services: ListServices,
    private readonly clock: Clock,
    private readonly settings: ListSettings,
    private readonly decorations: (service: ListService) => RowDecorations<T> | undefined = () => undefined,
    /** Whether its rows that stand out are tinted (the Processing view's). */
    private readonly tinted = false,
  ) {
    this.arrangement = settings.current.arrangements[list.id as ListId];
    this.tree = new ServicesTree<T>(
      list.id,
      (id) => this.serviceRowText(id),
      () => this.tints,
    );
    this.view = shown.view;
    this.selected = new SelectedRows(this.view, shown.data.selectionMoments());
    this.disposables.add(
      shown.data.use(this.tree), // its rows go with it
      this.tree,
      this.selected,
      this.view.onDidChangeSelection(() => (this.selectedAt = ++ListView.selections)),
      this.view.onDidExpandElement((e) => this.partOf(e.element)?.tree.rememberExpansion(e.element as never, true)),
      this.view.onDidCollapseElement((e) => this.partOf(e.element)?.tree.rememberExpansion(e.element as never, false)),
      settings.onDidChange(() => this.rearrange()),
      // Which rows offer Open in Browser (their context value) changed: every row renders again.
      settings.webPages.onDidChange(() => this.parts.forEach((part) => part.tree.refreshAll())),
      eachService(
        services,
        (service) => this.followService(service),
        () => this.useServices(),
      ),
    );
    if (list.rows.descriptionAges) {
      // Only while the view is visible: a hidden view costs nothing.
      this.disposables.add(
        every(
          clock,
          AGE_TICK_MS,
          () =>
            this.view.visible && (this.liveChanged(), this.decorate(this.now()), this.tree.refreshAgedDescriptions()),
        ),
      );
    }
    if (!list.polled) {
      // Loaded only once its view is shown: a hidden view costs nothing.
      this.disposables.add(this.view.onDidChangeVisibility(() => this.loadShown()));
    }
    // At the start there is no service yet (the registry makes them once it has started): nothing to show.
    if (services.all.length) this.useServices();
  }

  /** The one service's GroupedTree, or the first one's (tests and single-service code). */
  get firstTree(): GroupedTree<T> | undefined {
    return this.parts[0]?.tree;
  }

  /** The service a row belongs to (a command's argument). */
  serviceOf(node: unknown): string | undefined {
    return this.tree.serviceOf(node);
  }

  /** The service of a row this view handed to VS Code, by identity; undefined for any other value (ServicesTree.ownerOf). */
  ownerOf(node: unknown): string | undefined {
    return this.tree.ownerOf(node);
  }

  /** Shows only the rows of every service that `filter` keeps (undefined: every row); no request. */
  setFilter(filter: RowFind<Item<T>> | undefined): void {
    if (filter === this.filter) return;
    this.filter = filter;
    for (const part of this.parts) {
      part.tree.firstPages(); // other rows: each level shows its first page
      this.selectFor(part);
    }
    this.decorate(this.now());
  }

  /** What a filter needs of a service's rows: its name, and what History knows of them (Processing). */
  filterContext(service: string): { name: string; live?: (value: T, now: number) => FilterLive } {
    const part = this.parts.find((p) => p.service.id === service);
    return { name: part?.service.name ?? '', live: part?.live };
  }

  /** The items every service holds now (a filter counts them as you type). */
  heldItems(): Array<{ service: string; items: readonly Item<T>[] }> {
    return this.parts.map((part) => ({ service: part.service.id, items: this.itemsOf(part) }));
  }

  /**
   * Flags or durations a filter reads may have changed (a sync became stuck, time passed): a filter that reads them
   * is applied again. Nothing happens without such a filter.
   */
  liveChanged(): void {
    this.live++;
    if (!this.filter?.readsLive) return;
    for (const part of this.parts) this.selectFor(part);
  }

  /**
   * What another feature adds to a service's rows changed (History: one answer moved a sync to History, or made one
   * stuck): a filter that reads it is applied again, else the service's rows render again, once with the answer that
   * changed them (GroupedTree.redraw).
   */
  private marksChanged(part: ServicePart<T>): void {
    this.live++;
    if (this.filter?.readsLive) this.selectFor(part);
    else part.tree.redraw();
  }

  /** Takes how the rows are grouped and sorted from the settings (they changed); regroups without a request when it differs. */
  rearrange(): void {
    const wanted = this.settings.current.arrangements[this.list.id as ListId];
    if (wanted.groupBy === this.arrangement.groupBy && wanted.sortBy === this.arrangement.sortBy) return;
    this.arrangement = wanted;
    for (const part of this.parts) part.tree.arrange(wanted);
  }

  get currentArrangement(): Arrangement {
    return this.arrangement;
  }

  /** Shows, selects and focuses an item's row of a service; false when it is not listed. */
  async revealItem(id: number, service = this.parts[0]?.service.id): Promise<boolean> {
    if (service === undefined || !this.tree.findLeaf(service, id)) return false;
    this.tree.treeOf(service)?.showPageOf(id); // its level shows the page that holds it (src/lists/levelPages.ts)
    // Beneath a service's row the workbench can reveal a row only in a view it has shown (it then knows the rows above),
    // and only once it holds them: the view just shown asks for its rows level by level, and a reveal meanwhile looks
    // for rows it has not added yet ("Data tree node not found").
    if (this.tree.several && !this.view.visible) {
      await vscode.commands.executeCommand(`${this.list.viewId}.focus`);
      await this.madeVisible();
      await this.drawn();
    }
    const node = this.tree.findLeaf(service, id);
    if (!node) return false;
    await this.view.reveal(node, { select: true, focus: true, expand: true });
    return true;
  }

  /** Selects and focuses a row the view shows (a level's first new row, after "Show more"). */
  private async focusRow(node: ServicesTreeNode<T>): Promise<void> {
    try {
      await this.view.reveal(node, { select: true, focus: true });
    } catch {
      // the row went with an answer meanwhile: the focus stays where it was
    }
  }

  /** Resolves when the view is shown (VS Code says so after the focus command), at most after REVEAL_WAIT_MS. */
  private madeVisible(): Promise<void> {
    if (this.view.visible) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        subscription.dispose();
        resolve();
      };
      const timer = setTimeout(done, REVEAL_WAIT_MS);
      const subscription = this.view.onDidChangeVisibility(() => this.view.visible && done());
    });
  }

  /** Resolves when VS Code has asked for no rows for REVEAL_QUIET_MS (the view is drawn), at most after REVEAL_WAIT_MS. */
  private async drawn(): Promise<void> {
    const until = Date.now() + REVEAL_WAIT_MS;
    let seen: number | undefined;
    while (seen !== this.tree.fetchCount && Date.now() < until) {
      seen = this.tree.fetchCount;
      await new Promise((resolve) => setTimeout(resolve, REVEAL_QUIET_MS));
    }
  }

  /**
   * Re-evaluates message, description and badge (also used when the team filter's name becomes known). Each is set
   * only when it differs from what was set last: every set is a message to the workbench. With several services the
   * view says no message of one service: each service's row says its count or its trouble.
   */
  decorate(now: number): void {
    let message: string | undefined;
    let description: string | undefined;
    let total = 0;
    let counted = false;
    let matched = 0;
    let filtered = 0;
    for (const part of this.parts) {
      const { explorer } = part.service;
      const refresher = this.refresherOf(explorer);
      const state = refresher.state;
      const ready = explorer.status === 'ready';
      // Stale: older than twice the interval that applies now, or a failed refresh shows the last data (freshness.ts).
      const stale = ready && isStale(state, now, this.list.polled ? refresher.pollIntervalMs : undefined);
      part.tree.setStale(stale);
      if (ready && state.items) {
        total += state.items.length;
        counted = true;
        if (this.filter) {
          matched += this.kept(part, state.items as readonly Item<T>[]).length;
          filtered += state.items.length;
        }
      }
      if (this.parts.length === 1) {
        message = ready ? viewMessage(state, this.list.emptyText(), now, stale) : undefined;
        const team = explorer.teamId;
        description = team ? t('Team: {0}', explorer.teams.get(team)?.name ?? team) : undefined;
      } else {
        this.tree.refreshService(part.service.id);
      }
    }
    const filter = this.filter;
    if (filter && counted) {
      description = [description, filter.description(matched, filtered)].filter(Boolean).join(' · ');
      if (matched === 0 && filtered > 0) message = filter.noMatch();
    }
    this.tree.setNoMatch(
      filter && counted && matched === 0 && filtered > 0
        ? {
            label: filter.clearLabel,
            command: { title: filter.clearLabel, command: COMMAND.clearFilter, arguments: [this.list.id] },
          }
        : undefined,
    );
    if (message !== this.shown.message) this.view.message = this.shown.message = message;
    if (description !== this.shown.description) this.view.description = this.shown.description = description;
    if (this.list.badge) {
      const badge = counted ? this.list.badge(total) : undefined;
      if (badge?.value !== this.shown.badge?.value || badge?.tooltip !== this.shown.badge?.tooltip) {
        this.view.badge = this.shown.badge = badge;
      }
    }
    this.showProgress(this.parts.some((p) => this.refresherOf(p.service.explorer).state.loading));
  }

  dispose(): void {
    this.progress?.();
    this.disposables.dispose();
  }

  private now(): number {
    return this.clock.now();
  }

  private refresherOf(explorer: Explorer): ListRefresher<unknown> {
    return explorer.refresher(this.list.id as ListId);
  }

  private partOf(node: unknown): ServicePart<T> | undefined {
    const service = this.tree.serviceOf(node);
    return this.parts.find((p) => p.service.id === service);
  }

  /** What a service's row says: its name, and its count or why it has none. */
  private serviceRowText(id: string): { name: string; description: string; problem?: string } {
    const part = this.parts.find((p) => p.service.id === id);
    const name = part?.service.name ?? id;
    if (!part) return { name, description: '' };
    const { explorer } = part.service;
    if (explorer.status !== 'ready') {
      const problem = explorer.detail ?? statusWords(explorer.status);
      return { name, description: `⚠ ${problem}`, problem };
    }
    const state = this.refresherOf(explorer).state;
    if (state.error) {
      const problem = asSentence(state.error.message);
      return { name, description: `⚠ ${problem}`, problem };
    }
    if (!state.items) return { name, description: t('loading…') };
    const count = this.list.count(state.items.length);
    return {
      name,
      description: this.filter
        ? this.filter.serviceText(this.kept(part, state.items as readonly Item<T>[]).length, count)
        : count,
    };
  }

  /** Makes a service's part (eachService shows the parts once it has followed every new service); its end disposes it. */
  private followService(service: ListService): { dispose(): void } {
    if (this.tinted && !this.tints) this.disposables.add((this.tints = new RowTintDecorations()));
    this.partOfService.set(service, this.makePart(service));
    return {
      dispose: () => {
        this.partOfService.get(service)?.disposables.dispose();
        this.partOfService.delete(service);
      },
    };
  }

  /** Shows the tree of each service, in the order of the settings (eachService made those of new services). */
  private useServices(): void {
    this.parts = this.services.all.flatMap((service) => this.partOfService.get(service) ?? []);
    this.tree.setTrees(this.parts.map((p) => ({ service: p.service.id, tree: p.tree })));
    this.loadShown();
    this.decorate(this.now());
  }

  private makePart(service: ListService): ServicePart<T> {
    const { explorer } = service;
    const refresher = this.refresherOf(explorer) as ListRefresher<T>;
    const now = () => this.now();
    const decorations = this.decorations(service);
    const tree = new GroupedTree(this.list, refresher, {
      now,
      isActive: () => explorer.status === 'ready',
      arrangement: this.arrangement,
      isVisible: () => this.view.visible,
      decorations,
      webPages: () => this.settings.webPages.current.get(service.id),
      // "Show more" was used: the focus moves to the first new row
      shownMore: (first) => void this.focusRow(this.tree.ownRow(service.id, first)),
    });
    const disposables = new DisposableStore();
    disposables.add(
      tree,
      // What another feature adds changed (History: one answer changed its runs or stuck syncs): rendered once.
      decorations?.onDidChange?.(() => this.marksChanged(part)) ?? { dispose: () => undefined },
      refresher.onDidChange(() => this.decorate(now())),
      explorer.teams.onDidLearn(() => this.decorate(now())), // the filtered team's name may be known now
      explorer.onDidChangeStatus(() => {
        tree.refreshAll();
        this.tree.refreshService(service.id);
        this.loadShown();
        this.decorate(now());
      }),
    );
    const part: ServicePart<T> = {
      service,
      tree,
      disposables,
      live: decorations?.live && ((value, now) => decorations.live!(value, now)),
    };
    this.selectFor(part);
    return part;
  }

  /** The part's tree shows the rows the filter keeps (every row without one). */
  private selectFor(part: ServicePart<T>): void {
    part.tree.setSelect(this.filter ? (items) => this.kept(part, items) : undefined);
  }

  /** The rows of `items` the filter keeps (it works them out once per answer and reading of the live flags). */
  private kept(part: ServicePart<T>, items: readonly Item<T>[]): readonly Item<T>[] {
    return this.filter ? this.filter.keep(part.service.id, items, this.live) : items;
  }

  private itemsOf(part: ServicePart<T>): readonly Item<T>[] {
    return ((part.service.explorer.status === 'ready'
      ? this.refresherOf(part.service.explorer).state.items
      : undefined) ?? []) as readonly Item<T>[];
  }

  /** A list loaded on demand loads, for every service, once its view is shown. */
  private loadShown(): void {
    if (this.list.polled || !this.view.visible) return;
    for (const part of this.parts) part.service.explorer.want(this.list.id as ListId);
  }

  /** The view's progress bar runs while a load is in flight. */
  private showProgress(loading: boolean): void {
    if (loading && !this.progress) {
      void vscode.window.withProgress(
        { location: { viewId: this.list.viewId } },
        () => new Promise<void>((resolve) => (this.progress = resolve)),
      );
    } else if (!loading && this.progress) {
      this.progress();
      this.progress = undefined;
    }
  }
}

function statusWords(status: string): string {
  switch (status) {
    case 'noKey':
      return t('No API key is set for this service.');
    case 'secretsUnavailable':
      return t('The system keyring could not be read.');
    default:
      return t('The service URL is not usable.');
  }
}

/** One view per list of the registry, by list id. */
export type ListViews = { [D in AnyList as D['id']]: ListView<ValueOf<D>> };

/** Each list's tree view as the start registers it, by list id (its rows come with its ListView). */
export type ListTreeViews = { readonly [D in AnyList as D['id']]: LateTreeView<ServicesTreeNode<ValueOf<D>>> };

export function createListViews(
  /** Each list's tree view, registered at start, by list id. */
  shown: ListTreeViews,
  services: ListServices,
  clock: Clock,
  settings: ListSettings,
  /** Each list's row decorations of a service (none: a service no longer shown, or none for that list). */
  decorations: { [D in AnyList as D['id']]?: (service: ListService) => RowDecorations<ValueOf<D>> | undefined } = {},
): ListViews {
  const views: Record<string, unknown> = {};
  for (const list of LIST_FACES) {
    views[list.id] = new ListView(
      list,
      (shown as Record<string, Pick<LateTreeView<ServicesTreeNode<{ id: number }>>, 'view' | 'data'>>)[list.id],
      services,
      clock,
      settings,
      (decorations as Record<string, ((s: ListService) => RowDecorations<{ id: number }> | undefined) | undefined>)[
        list.id
      ],
      list.id === processingFace.id, // its rows that stand out are tinted
    );
  }
  return views as ListViews;
}

/** A list view as code that works on any list reads it: its tree view, when it was used, and its end. */
type AnyListView = Pick<ListView<{ id: number }>, 'view' | 'selection' | 'selectedAt' | 'dispose'>;

/** Every view, for code that works on any list. */
export function allViews(views: ListViews): AnyListView[] {
  return Object.values(views);
}

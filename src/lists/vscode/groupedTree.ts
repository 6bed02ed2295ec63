import * as vscode from 'vscode';
import { markdownHover } from '../../base/vscode/hover';
import type { Item } from '../../api/types';
import type { Group } from '../grouping';
import { rowAccessibleName } from '../accessibleNames';
import type { IconSpec } from '../icons';
import type { RowStates } from '../rowTints';
import { inert } from '../../base/inert';
import type { ListRefresher } from '../refresh';
import {
  TreeModel,
  groupsStartExpanded,
  type GroupNode,
  type LeafNode,
  type MoreNode,
  type ShownNode,
  type TreeNode,
} from '../treeModel';
import { arrangedTree } from '../arrange';
import type { Arrangement } from '../arrangement';
import type { ListDefinition, ListFace } from '../list';
import { listById } from '..';
import type { FilterLive } from '../../filter/filterMatch';
import { webContextSuffix, type WebTemplates } from '../../webPages/webUrl';
import { themeIcon } from './themeIcon';
import { moreTreeItem } from './moreRow';

/**
 * What another feature adds to a list's rows (e.g. History marks stuck and watched syncs and puts a flow's typical
 * durations in its tooltip). Texts are ours or already inert; they are appended, never replace the row's own.
 */
export interface RowDecorations<T> {
  /** `states`: what makes the row stand out (src/lists/rowTints.ts), its words among `descriptions` too. */
  leaf?(
    value: T,
  ):
    | { descriptions?: string[]; icon?: IconSpec; contextSuffix?: string; tooltip?: string; states?: RowStates }
    | undefined;
  /** `states`: the strongest of its rows' (a flow: src/lists/groupStates.ts), its words among `descriptions` too. */
  group?(
    group: Group<T>,
    grouping: string,
  ):
    | { tooltip?: string; descriptions?: string[]; contextSuffix?: string; icon?: IconSpec; states?: RowStates }
    | undefined;
  /** The flags and durations a filter reads that this feature knows (History: is:stuck, is:watched, is:longer, age). */
  live?(value: T, now: number): FilterLive;
  /** The group rows in the order shown (History: pinned flows first, and an idle row for each with nothing processing). */
  arrangeRoots?(roots: GroupNode<T>[], grouping: string): GroupNode<T>[];
  /** When what it adds may have changed (History: its runs, stats, watches, stuck syncs): the rows render again, once. */
  onDidChange?(listener: () => void): { dispose(): void };
}

/** How a list's tree is shown, besides its list and refresher. */
export interface GroupedTreeOptions<T> {
  readonly now: () => number;
  /** Root children shown only while a list can load (welcome views take over otherwise). */
  readonly isActive: () => boolean;
  /** How its rows are grouped and sorted; the list's defaults without one. */
  readonly arrangement?: Arrangement;
  /** Whether the view is shown; while it is not, answers only mark the model stale. Always, without one. */
  readonly isVisible?: () => boolean;
  /** What another feature adds to rows (History: stuck, watched, when a sync is usually done). */
  readonly decorations?: RowDecorations<T>;
  /** Its service's web page templates: a row of a kind with one offers Open in Browser (its context value ends `.web`). */
  readonly webPages?: () => WebTemplates | undefined;
  /** A level's "Show more" row was used: the first of its new rows (the view moves the focus to it). */
  readonly shownMore?: (first: ShownNode<T>) => void;
}

/**
 * The vscode tree of one list: renders its TreeModel (src/lists/treeModel.ts, where grouping, comparison of answers
 * and ageing live). When an answer changes, only the groups whose items changed are refreshed; an identical answer
 * fires nothing, so selection and expansion are never disturbed. While the view is hidden, answers are not grouped:
 * the model is brought up to date when it is next read (VS Code asks for the rows once the view shows again).
 */
export class GroupedTree<T extends { id: number }> implements vscode.TreeDataProvider<ShownNode<T>>, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<TreeNode<T> | undefined>();
  readonly onDidChangeTreeData = this.changeEmitter.event;
  private current: TreeModel<T>;
  private groupingName: string;
  private readonly subscription: { dispose(): void };
  /** The model has not seen the newest answer (the view was hidden when it came, or nothing was read yet). */
  private stale = true;
  /** VS Code (or a command) has asked for rows: until then there is nothing shown to refresh. */
  private asked = false;
  /** The person's own expand/collapse choices, by group row id: they win over the rule (groupsStartExpanded). */
  private readonly expansion = new Map<string, boolean>();
  /** The list's data is stale (see freshness.ts): every row says so to a screen reader. */
  private stale_ = false;
  /** Which of the answer's items are shown (a filter, src/find); all of them without one. */
  private select?: (items: readonly Item<T>[]) => readonly Item<T>[];

  private readonly now: () => number;
  private readonly isActive: () => boolean;
  private readonly isVisible: () => boolean;
  private readonly decorations: RowDecorations<T>;
  private readonly webPages: () => WebTemplates | undefined;
  private readonly shownMore: (first: ShownNode<T>) => void;
  /** The states of each row drawn (the list has decorations): the view tints it once its id is final. */
  private readonly drawnStates = new WeakMap<vscode.TreeItem, RowStates>();
  /** Its list, whole: the registry's list of the face's id. */
  private readonly list: ListDefinition<T>;

  constructor(
    /** Its list's face, as its view knows it from the start (src/lists/listFaces.ts). */
    face: ListFace,
    private readonly refresher: ListRefresher<T>,
    {
      now,
      isActive,
      arrangement,
      isVisible = () => true,
      decorations = {},
      webPages = () => undefined,
      shownMore = () => undefined,
    }: GroupedTreeOptions<T>,
  ) {
    this.now = now;
    this.isActive = isActive;
    this.isVisible = isVisible;
    this.decorations = decorations;
    this.webPages = webPages;
    this.shownMore = shownMore;
    const list = (this.list = listById(face.id) as unknown as ListDefinition<T>);
    this.current = new TreeModel(list.id, arrangedTree(list, arrangement));
    this.groupingName = arrangement?.groupBy ?? list.arrangements.defaultGroupBy;
    this.subscription = refresher.onDidChange((change) => {
      if (change.itemsChanged) this.update();
    });
  }

  /** The model, up to date with the newest answer. */
  get model(): TreeModel<T> {
    if (this.stale) {
      this.stale = false;
      this.current.update(this.items());
    }
    return this.current;
  }

  /** Shows only the items `select` keeps (undefined: every item); the tree is read again. */
  setSelect(select: ((items: readonly Item<T>[]) => readonly Item<T>[]) | undefined): void {
    this.select = select;
    this.stale = true;
    this.refreshAll();
  }

  /** Each level shows its first page again (the view shows other rows: a new filter). */
  firstPages(): void {
    this.current.pages.reset();
  }

  private items(): readonly Item<T>[] {
    const items = this.refresher.state.items ?? [];
    return this.select ? this.select(items) : items;
  }

  /** Groups and sorts the rows another way (a setting changed): no request, the whole tree re-renders. */
  arrange(arrangement: Arrangement): void {
    this.current = new TreeModel(this.list.id, arrangedTree(this.list, arrangement));
    this.groupingName = arrangement.groupBy;
    this.stale = true;
    this.changeEmitter.fire(undefined);
  }

  /** Remembers that the person expanded or collapsed a group row. */
  rememberExpansion(node: TreeNode<T>, expanded: boolean): void {
    if (node.kind === 'group') this.expansion.set(this.model.groupId(node.group), expanded);
  }

  /** Marks every row's accessible name with "stale data" (or not); re-renders only when that changes. */
  setStale(stale: boolean): void {
    if (stale === this.stale_) return;
    this.stale_ = stale;
    this.refreshAll();
  }

  /** Re-renders everything (e.g. the welcome state changed); nothing to do before VS Code has asked for any row. */
  refreshAll(): void {
    if (this.asked) this.changeEmitter.fire(undefined);
  }

  /**
   * What another feature adds to the rows changed (RowDecorations.onDidChange): every row renders again, once. History
   * changes with the answer it learns from, before this tree hears of that answer: the model is marked stale, so the
   * answer's own render is folded into this one (one render per answer; VS Code reads the rows after the answer's turn,
   * and the model is brought up to date then). A view's other renders of the same turn are folded in by ServicesTree.
   */
  redraw(): void {
    if (!this.asked) return;
    this.stale = true;
    this.changeEmitter.fire(undefined);
  }

  /** A level's rows: at most its pages of them, then its "Show more" row (src/lists/levelPages.ts). */
  getChildren(node?: ShownNode<T>): ShownNode<T>[] {
    this.asked = true;
    if (!node) return this.isActive() ? this.model.shownRoots(this.arrangeRoots()) : [];
    return node.kind === 'group' ? this.model.shownChildren(node) : [];
  }

  getParent(node: ShownNode<T>): TreeNode<T> | undefined {
    return node.kind !== 'group' && this.model.adapter.groupRows ? node.parent : undefined;
  }

  /**
   * Makes the levels above an item's row show the page that holds it (a reveal: Go to, Find, a link, the timeline), and
   * has them drawn again; its row, or undefined when it is not listed.
   */
  showPageOf(id: number): LeafNode<T> | undefined {
    const shown = this.model.showPageOf(id, this.arrangeRoots());
    if (shown?.more) this.changeEmitter.fire(shown.more === 'root' ? undefined : shown.more);
    return shown?.leaf;
  }

  /** A level's "Show more" row was used: it shows a page more; the view is told its first new row. */
  showMore(node: MoreNode<T>): void {
    const first = this.model.pages.more(node.cut.level, node.cut.total);
    this.changeEmitter.fire(node.parent);
    const row = this.getChildren(node.parent)[first];
    if (row) this.shownMore(row);
  }

  /** How the group rows are ordered (History's pinned flows first), for a grouped list with such decorations. */
  private arrangeRoots(): ((groups: GroupNode<T>[]) => GroupNode<T>[]) | undefined {
    const arrange = this.decorations.arrangeRoots;
    return arrange && this.model.adapter.groupRows ? (groups) => arrange(groups, this.groupingName) : undefined;
  }

  getTreeItem(node: ShownNode<T>): vscode.TreeItem {
    if (node.kind === 'more') return moreTreeItem(node, node.cut, `more:${node.cut.level}`, () => this.showMore(node));
    const a = this.model.adapter;
    // Labels and descriptions hold service text (names, types, statuses): shown inert, never as markup or icons.
    if (node.kind === 'group') {
      // An idle row (a pinned flow with nothing processing) has no children: its marks say what it is
      const rows = a.groupRows!;
      const id = this.model.groupId(node.group) + (node.idle ? ':idle' : '');
      const expanded = this.expansion.get(id) ?? groupsStartExpanded(this.model.rowCount());
      const label = inert(node.group.label);
      const item = new vscode.TreeItem(
        label,
        node.idle
          ? vscode.TreeItemCollapsibleState.None
          : expanded
            ? vscode.TreeItemCollapsibleState.Expanded
            : vscode.TreeItemCollapsibleState.Collapsed,
      );
      item.id = id;
      const marks = this.decorations.group?.(node.group, this.groupingName);
      const descriptions = [...(node.idle ? [] : [inert(rows.describe(node.group))]), ...(marks?.descriptions ?? [])];
      item.description = descriptions.join(' · ');
      const icon = marks?.icon ?? rows.icon(node.group);
      item.iconPath = themeIcon(icon);
      item.contextValue = rows.context + (marks?.contextSuffix ?? '') + webContextSuffix(rows.context, this.webPages());
      item.accessibilityInformation = { label: rowAccessibleName({ label, icon, descriptions, stale: this.stale_ }) };
      if (this.decorations.group) this.drawnStates.set(item, marks?.states ?? {});
      return item;
    }
    const value = node.item.value;
    const label = inert(a.leafLabel(value));
    const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
    item.id = this.model.leafId(value);
    const description = inert(a.leafDescription(value, this.now()));
    this.model.rendered(value, description);
    const marks = this.decorations.leaf?.(value);
    const descriptions = [description, ...(marks?.descriptions ?? [])];
    item.description = descriptions.join(' · ');
    const icon = marks?.icon ?? a.leafIcon(value);
    item.iconPath = themeIcon(icon);
    item.contextValue = a.leafContext + (marks?.contextSuffix ?? '') + webContextSuffix(a.leafContext, this.webPages());
    item.accessibilityInformation = { label: rowAccessibleName({ label, icon, descriptions, stale: this.stale_ }) };
    if (this.decorations.leaf) this.drawnStates.set(item, marks?.states ?? {});
    return item;
  }

  /** What makes a row drawn by getTreeItem stand out; undefined for a row of a list without such states. */
  statesOf(item: vscode.TreeItem): RowStates | undefined {
    return this.drawnStates.get(item);
  }

  /**
   * Re-renders the groups whose items' descriptions have aged ("started 3 min ago" → "4 min ago") since they were
   * shown. A clock tick, not a poll: unchanged data costs no request, and nothing fires while the text holds.
   */
  refreshAgedDescriptions(): number {
    const aged = this.model.agedGroups(this.now());
    if (aged.length && !this.model.adapter.groupRows) this.changeEmitter.fire(undefined);
    else for (const node of aged) this.changeEmitter.fire(node);
    return aged.length;
  }

  /** Tooltips are built only when hovered. */
  resolveTreeItem(item: vscode.TreeItem, node: ShownNode<T>): vscode.TreeItem {
    if (node.kind === 'more') return item;
    if (node.kind === 'leaf') {
      const extra = this.decorations.leaf?.(node.item.value)?.tooltip;
      const tooltip = this.model.adapter.leafTooltip(node.item as Item<T>, this.now());
      item.tooltip = markdownHover(extra ? `${tooltip}\n\n${extra}` : tooltip);
    } else {
      const tooltip = this.decorations.group?.(node.group, this.groupingName)?.tooltip;
      if (tooltip) item.tooltip = markdownHover(tooltip);
    }
    return item;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changeEmitter.dispose();
  }

  private update(): void {
    if (this.stale) return; // not read since it went stale (or redrawn whole since): VS Code asks for everything anyway
    if (!this.isVisible()) {
      this.stale = true;
      this.changeEmitter.fire(undefined); // re-read when shown again
      return;
    }
    const change = this.current.update(this.items());
    if (!change) return;
    if (change.all || !this.model.adapter.groupRows) {
      this.changeEmitter.fire(undefined);
    } // a flat list has no group rows to refresh
    else for (const node of change.groups) this.changeEmitter.fire(node);
  }
}

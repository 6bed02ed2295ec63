import * as vscode from 'vscode';
import { DisposableStore } from '../../base/events';
import { inert } from '../../base/inert';
import { t } from '../../base/l10n';
import { SERVICE_ICON } from '../icons';
import type { ShownNode, TreeNode } from '../treeModel';
import { TurnRedraws, type Redraw } from '../redraws';
import type { GroupedTree } from './groupedTree';
import { themeIcon } from './themeIcon';
import type { RowMarker } from './rowDecorations';

/** The top-level row of one service, when the view shows several. */
interface ServiceRow {
  readonly kind: 'service';
  readonly list: string;
  readonly service: string;
}

/** The one row of a view whose filter matches nothing: it clears the filter (a link, as a view's message cannot hold one). */
export interface NoMatchRow {
  readonly kind: 'noMatch';
  readonly list: string;
}

export type ServicesTreeNode<T> = ShownNode<T> | ServiceRow | NoMatchRow;

/** What a service row says: its name, and its count or its trouble. */
export interface ServiceRowText {
  name: string;
  /** e.g. "4 syncs", or the error of its last load. */
  description: string;
  /** The words of its trouble (screen readers), or undefined when it has none. */
  problem?: string;
}

/** One service's part of the view: its tree, its row when there are several, and the subscription to its changes. */
interface ServiceEntry<T extends { id: number }> {
  service: string;
  tree: GroupedTree<T>;
  row: ServiceRow;
  subscription: vscode.Disposable;
}

/**
 * The tree of one list over every service: with one service, that service's tree exactly as it always was; with
 * several, one top-level row per service (in the order of the settings) and that service's tree beneath it. Row ids
 * are made unique per service, and each row knows its service (`serviceOf`), so commands act on the right one.
 */
export class ServicesTree<T extends { id: number }>
  implements vscode.TreeDataProvider<ServicesTreeNode<T>>, vscode.Disposable
{
  private readonly changeEmitter = new vscode.EventEmitter<ServicesTreeNode<T> | undefined>();
  readonly onDidChangeTreeData = this.changeEmitter.event;
  private trees: Array<ServiceEntry<T>> = [];
  /** The same entries by service: a change of one service finds its own in constant time, however many there are. */
  private byService = new Map<string, ServiceEntry<T>>();
  /** The service of each row handed to VS Code (rows are compared by identity when VS Code hands them back). */
  private readonly owner = new WeakMap<object, string>();
  /**
   * What each service's row said when VS Code last read it (getTreeItem). A row is re-rendered only when what it says
   * changed: re-rendering a row makes VS Code fetch every row beneath it again, and a reveal under way there then
   * looks for rows the view has just replaced ("Data tree node not found").
   */
  private readonly shownRows = new Map<string, string>();
  /** How many times VS Code has asked for rows: a view being drawn asks level by level (ListView.revealItem waits). */
  private fetches = 0;
  private readonly disposables = new DisposableStore();
  /** While set, the view shows only this row (its filter matches nothing): label, and the command it runs. */
  private noMatch?: { row: NoMatchRow; label: string; command: vscode.Command };
  /**
   * What renders again, each row at most once a turn: one answer of a service changes its row, the rows beneath it and
   * History's marks on them, each heard on its own (src/lists/redraws.ts).
   */
  private readonly redraws = new TurnRedraws<TreeNode<T>>(
    (redraw) => this.changeEmitter.fire(this.nodeOf(redraw)),
    (run) => queueMicrotask(run),
  );

  constructor(
    private readonly list: string,
    private readonly rowText: (service: string) => ServiceRowText,
    /** Tints the rows that stand out (src/lists/vscode/rowDecorations.ts), once their ids are final; made with the rows. */
    private readonly marker: () => RowMarker | undefined = () => undefined,
  ) {
    this.disposables.add(this.changeEmitter);
  }

  /** Shows these services' trees, in this order (the trees are owned by the caller). */
  setTrees(trees: ReadonlyArray<{ service: string; tree: GroupedTree<T> }>): void {
    for (const old of this.trees) old.subscription.dispose();
    this.trees = trees.map(({ service, tree }) => {
      const row: ServiceRow = this.byService.get(service)?.row ?? {
        kind: 'service',
        list: this.list,
        service,
      };
      const subscription = tree.onDidChangeTreeData((node) => this.treeChanged(service, node));
      return { service, tree, row, subscription };
    });
    this.byService = new Map(this.trees.map((entry) => [entry.service, entry]));
    this.shownRows.clear(); // every row is read again
    this.redraws.view();
  }

  /** Shows only a row that runs `command` (a filter matches nothing), or the rows again (undefined). */
  setNoMatch(noMatch: { label: string; command: vscode.Command } | undefined): void {
    if (noMatch?.label === this.noMatch?.label && noMatch?.command.command === this.noMatch?.command.command) return;
    this.noMatch = noMatch && { ...noMatch, row: this.noMatch?.row ?? { kind: 'noMatch', list: this.list } };
    this.redraws.view();
  }

  get several(): boolean {
    return this.trees.length > 1;
  }

  /** The service of a row VS Code handed back (a command's argument); undefined for anything else. */
  serviceOf(node: unknown): string | undefined {
    if (typeof node !== 'object' || node === null) return undefined;
    if ((node as ServiceRow).kind === 'service') return (node as ServiceRow).service;
    return this.owner.get(node) ?? (this.trees.length === 1 ? this.trees[0].service : undefined);
  }

  /**
   * The service of an item or group row this tree handed to VS Code, by identity: undefined for any other value,
   * however it is shaped (a command's argument from elsewhere).
   */
  ownerOf(node: unknown): string | undefined {
    return typeof node === 'object' && node !== null ? this.owner.get(node) : undefined;
  }

  /** The tree of one service. */
  treeOf(service: string): GroupedTree<T> | undefined {
    return this.byService.get(service)?.tree;
  }

  /** The row of an item of one service (to reveal it), made known as that service's. */
  findLeaf(service: string, id: number): TreeNode<T> | undefined {
    const node = this.treeOf(service)?.model.findLeaf(id);
    if (node) this.own(service, [node]);
    return node;
  }

  /** Re-renders the rows whose "… ago" texts have aged, in every service's tree; how many groups aged. */
  refreshAgedDescriptions(): number {
    return this.trees.reduce((sum, { tree }) => sum + tree.refreshAgedDescriptions(), 0);
  }

  /**
   * Re-renders one service's row when what it says (its count or trouble) is not what VS Code read last. Nothing when
   * it is (another list loaded, the teams were learned again, a load started) or when VS Code has not read the row
   * yet (a view not shown: it reads the row as it is when shown).
   */
  refreshService(service: string): void {
    if (this.several && this.rowSaysOther(service)) this.redrawService(service);
  }

  /** How many times rows were asked for so far. */
  get fetchCount(): number {
    return this.fetches;
  }

  getChildren(node?: ServicesTreeNode<T>): ServicesTreeNode<T>[] {
    this.fetches++;
    if (!node) {
      if (this.noMatch) return [this.noMatch.row];
      if (this.several) return this.trees.map((t) => t.row);
      const only = this.trees[0];
      return only ? this.own(only.service, only.tree.getChildren()) : [];
    }
    if (node.kind === 'noMatch') return [];
    if (node.kind === 'service') {
      const entry = this.byService.get(node.service);
      return entry ? this.own(entry.service, entry.tree.getChildren()) : [];
    }
    const service = this.serviceOf(node);
    const tree = service === undefined ? undefined : this.treeOf(service);
    return tree && service !== undefined ? this.own(service, tree.getChildren(node)) : [];
  }

  getParent(node: ServicesTreeNode<T>): ServicesTreeNode<T> | undefined {
    if (node.kind === 'service' || node.kind === 'noMatch') return undefined;
    const service = this.serviceOf(node);
    const entry = service === undefined ? undefined : this.byService.get(service);
    if (!entry) return undefined;
    const parent = entry.tree.getParent(node);
    if (parent) return this.own(entry.service, [parent])[0];
    return this.several ? entry.row : undefined;
  }

  getTreeItem(node: ServicesTreeNode<T>): vscode.TreeItem {
    if (node.kind === 'noMatch') {
      const item = new vscode.TreeItem(this.noMatch?.label ?? '', vscode.TreeItemCollapsibleState.None);
      item.id = 'noMatch';
      item.iconPath = new vscode.ThemeIcon('clear-all');
      item.command = this.noMatch?.command;
      return item;
    }
    if (node.kind === 'service') {
      const text = this.rowText(node.service);
      this.shownRows.set(node.service, rowTextKey(text));
      const name = inert(text.name);
      const item = new vscode.TreeItem(name, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `service:${rowKey(node.service)}`;
      item.description = inert(text.description);
      item.iconPath = themeIcon(SERVICE_ICON);
      item.contextValue = 'flowsync.service';
      item.tooltip = text.problem ? `${name}: ${inert(text.problem)}` : name;
      item.accessibilityInformation = { label: [t('service {0}', name), inert(text.description)].join(', ') };
      return item;
    }
    const service = this.serviceOf(node);
    const tree = service === undefined ? undefined : this.treeOf(service);
    if (!tree) return new vscode.TreeItem('');
    const item = tree.getTreeItem(node);
    if (this.several && item.id) item.id = `${rowKey(service!)}|${item.id}`;
    const states = tree.statesOf(item);
    if (states) this.marker()?.mark(item, this.list, states);
    return item;
  }

  resolveTreeItem(item: vscode.TreeItem, node: ServicesTreeNode<T>): vscode.TreeItem {
    if (node.kind === 'service' || node.kind === 'noMatch') return item;
    const service = this.serviceOf(node);
    const tree = service === undefined ? undefined : this.treeOf(service);
    return tree ? tree.resolveTreeItem(item, node) : item;
  }

  dispose(): void {
    for (const t of this.trees) t.subscription.dispose();
    this.disposables.dispose();
  }

  /**
   * A service's tree changed: with one service, the view's rows; with several, beneath the service's row, all of them
   * when the tree renders whole (its row renders again then), or when the row itself says something new (the answer
   * that changed its rows changed its count: the row renders again and every row beneath it with it).
   */
  private treeChanged(service: string, node: TreeNode<T> | undefined): void {
    if (!this.several) {
      if (node) this.redraws.row(service, node);
      else this.redraws.view();
    } else if (node === undefined || (!this.redraws.covers(service, node) && this.rowSaysOther(service))) {
      this.redrawService(service);
    } else {
      this.redraws.row(service, node);
    }
  }

  /** Whether a service's row, read by VS Code, now says something else (its count or trouble). */
  private rowSaysOther(service: string): boolean {
    if (!this.byService.has(service)) return false;
    const shown = this.shownRows.get(service);
    return shown !== undefined && shown !== rowTextKey(this.rowText(service));
  }

  /** A service's row renders again, and every row beneath it. */
  private redrawService(service: string): void {
    this.shownRows.delete(service); // read again (refreshService compares with what VS Code reads next)
    this.redraws.service(service);
  }

  /** The node VS Code is told to render again (undefined: the whole view). */
  private nodeOf(redraw: Redraw<TreeNode<T>>): ServicesTreeNode<T> | undefined {
    if (redraw.kind === 'row') return redraw.node;
    if (redraw.kind === 'view') return undefined;
    return this.byService.get(redraw.service)?.row;
  }

  /** A row of one service's tree, made known as that service's (VS Code hands it back to the view's commands). */
  ownRow(service: string, node: ShownNode<T>): ShownNode<T> {
    return this.own(service, [node])[0];
  }

  private own<N extends ShownNode<T>>(service: string, nodes: N[]): N[] {
    for (const node of nodes) this.owner.set(node, service);
    return nodes;
  }
}

/**
 * A service's part of its rows' ids. VS Code derives a row's handle from its id, and a slash in it breaks reveal (a
 * service id is a URL): so it is encoded.
 */
export function rowKey(service: string): string {
  return encodeURIComponent(service);
}

/** What a service row says, as one string to compare. */
function rowTextKey(text: ServiceRowText): string {
  return JSON.stringify([text.name, text.description, text.problem ?? null]);
}

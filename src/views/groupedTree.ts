import * as vscode from 'vscode';
import type { Item } from '../api/types';
import type { Group } from '../core/grouping';
import type { ListRefresher } from '../core/refresh';
import type { IconSpec } from '../core/icons';
import { inert } from '../core/inert';

export interface GroupNode<T> {
  kind: 'group';
  /** The adapter's groupIdPrefix ('flow' or 'team'): says which view the node belongs to. */
  groupKind: string;
  group: Group<T>;
}

export interface LeafNode<T> {
  kind: 'leaf';
  item: Item<T>;
  parent: GroupNode<T>;
}

export type TreeNode<T> = GroupNode<T> | LeafNode<T>;

/** What differs between the two views: how to group, and how a group and an item look. */
export interface TreeAdapter<T> {
  /** Prefix of tree item ids, e.g. "sync" → "sync:123", "flow:7". */
  leafIdPrefix: string;
  groupIdPrefix: string;
  leafContext: string;
  groupContext: string;
  group(items: readonly Item<T>[]): Group<T>[];
  idOf(value: T): number;
  groupDescription(group: Group<T>): string;
  groupIcon: IconSpec;
  leafLabel(value: T): string;
  leafDescription(value: T, now: number): string;
  /** The description holds a relative time, so it ages while the data stays the same. */
  descriptionAges: boolean;
  leafTooltip(item: Item<T>, now: number): string;
  leafIcon(value: T): IconSpec;
}

export function themeIcon(spec: IconSpec): vscode.ThemeIcon {
  return new vscode.ThemeIcon(spec.id, spec.color ? new vscode.ThemeColor(spec.color) : undefined);
}

/**
 * A two-level tree (group → items) over one list. When an answer changes, only the groups whose items changed are
 * refreshed; an identical answer fires nothing, so selection and expansion are never disturbed.
 */
export class GroupedTree<T> implements vscode.TreeDataProvider<TreeNode<T>>, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<TreeNode<T> | undefined>();
  readonly onDidChangeTreeData = this.changeEmitter.event;
  private groups: GroupNode<T>[] = [];
  private readonly signatures = new WeakMap<object, string>();
  /** The description each shown item was last rendered with (it holds a relative time that ages). */
  private readonly renderedDescriptions = new Map<string, string>();
  private readonly subscription: { dispose(): void };

  constructor(
    private readonly refresher: ListRefresher<T>,
    private readonly adapter: TreeAdapter<T>,
    private readonly now: () => number,
    /** Root children shown only while a list can load (welcome views take over otherwise). */
    private readonly isActive: () => boolean,
  ) {
    this.subscription = refresher.onDidChange((change) => {
      if (change.itemsChanged) this.update();
    });
    this.update();
  }

  /** Re-renders everything (e.g. the welcome state changed). */
  refreshAll(): void {
    this.changeEmitter.fire(undefined);
  }

  getChildren(node?: TreeNode<T>): TreeNode<T>[] {
    if (!node) return this.isActive() ? this.groups : [];
    if (node.kind === 'leaf') return [];
    return node.group.items.map((item) => ({ kind: 'leaf', item, parent: node }));
  }

  getParent(node: TreeNode<T>): TreeNode<T> | undefined {
    return node.kind === 'leaf' ? node.parent : undefined;
  }

  getTreeItem(node: TreeNode<T>): vscode.TreeItem {
    const a = this.adapter;
    if (node.kind === 'group') {
      // Labels and descriptions hold service text (names, types, statuses): shown inert, never as markup or icons.
      const item = new vscode.TreeItem(inert(node.group.label), vscode.TreeItemCollapsibleState.Expanded);
      item.id = `${a.groupIdPrefix}:${node.group.key}`;
      item.description = inert(a.groupDescription(node.group));
      item.iconPath = themeIcon(a.groupIcon);
      item.contextValue = a.groupContext;
      return item;
    }
    const value = node.item.value;
    const item = new vscode.TreeItem(inert(a.leafLabel(value)), vscode.TreeItemCollapsibleState.None);
    const id = this.leafId(value);
    item.id = id;
    item.description = inert(a.leafDescription(value, this.now()));
    if (a.descriptionAges) this.renderedDescriptions.set(id, item.description);
    item.iconPath = themeIcon(a.leafIcon(value));
    item.contextValue = a.leafContext;
    return item;
  }

  /**
   * Re-renders the groups whose items' descriptions have aged ("started 3 min ago" → "4 min ago") since they were
   * shown. A clock tick, not a poll: unchanged data costs no request, and nothing fires while the text holds.
   */
  refreshAgedDescriptions(): number {
    const now = this.now();
    let fired = 0;
    for (const node of this.groups) {
      const aged = node.group.items.some((item) => {
        const shown = this.renderedDescriptions.get(this.leafId(item.value));
        return shown !== undefined && shown !== this.adapter.leafDescription(item.value, now);
      });
      if (aged) {
        this.changeEmitter.fire(node);
        fired++;
      }
    }
    return fired;
  }

  /** Tooltips are built only when hovered. */
  resolveTreeItem(item: vscode.TreeItem, node: TreeNode<T>): vscode.TreeItem {
    if (node.kind === 'leaf') item.tooltip = new vscode.MarkdownString(this.adapter.leafTooltip(node.item, this.now()));
    return item;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changeEmitter.dispose();
  }

  private update(): void {
    const fresh = this.adapter.group(this.refresher.state.items ?? []);
    this.forgetGoneItems();
    const old = new Map(this.groups.map((node) => [node.group.key, node]));
    const sameShape = fresh.length === this.groups.length && fresh.every((g, i) => this.groups[i].group.key === g.key && this.groups[i].group.label === g.label);
    if (!sameShape) {
      this.groups = fresh.map((group) => {
        const node = old.get(group.key);
        if (node) {
          node.group = group;
          return node;
        }
        return { kind: 'group', groupKind: this.adapter.groupIdPrefix, group };
      });
      this.changeEmitter.fire(undefined);
      return;
    }
    for (const [i, group] of fresh.entries()) {
      const node = this.groups[i];
      const changed = this.signature(node.group) !== this.signature(group);
      node.group = group;
      if (changed) this.changeEmitter.fire(node);
    }
  }

  private leafId(value: T): string {
    return `${this.adapter.leafIdPrefix}:${this.adapter.idOf(value)}`;
  }

  /** Drops the rendered descriptions of items that are no longer listed. */
  private forgetGoneItems(): void {
    if (this.renderedDescriptions.size === 0) return;
    const listed = new Set((this.refresher.state.items ?? []).map((item) => this.leafId(item.value)));
    for (const id of this.renderedDescriptions.keys()) if (!listed.has(id)) this.renderedDescriptions.delete(id);
  }

  private signature(group: Group<T>): string {
    let signature = this.signatures.get(group);
    if (signature === undefined) {
      signature = group.items.map((item) => JSON.stringify(item.raw)).join('\n');
      this.signatures.set(group, signature);
    }
    return signature;
  }
}

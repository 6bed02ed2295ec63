import * as vscode from 'vscode';
import type { Item } from '../api/types';
import type { IconSpec } from '../core/icons';
import { inert } from '../core/inert';
import type { ListRefresher } from '../core/refresh';
import { TreeModel, type TreeNode } from '../core/treeModel';
import type { ListDefinition } from '../lists/list';

export function themeIcon(spec: IconSpec): vscode.ThemeIcon {
  return new vscode.ThemeIcon(spec.id, spec.color ? new vscode.ThemeColor(spec.color) : undefined);
}

/**
 * The vscode tree of one list: renders its TreeModel (src/core/treeModel.ts, where grouping, comparison of answers
 * and ageing live). When an answer changes, only the groups whose items changed are refreshed; an identical answer
 * fires nothing, so selection and expansion are never disturbed.
 */
export class GroupedTree<T extends { id: number }> implements vscode.TreeDataProvider<TreeNode<T>>, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<TreeNode<T> | undefined>();
  readonly onDidChangeTreeData = this.changeEmitter.event;
  readonly model: TreeModel<T>;
  private readonly subscription: { dispose(): void };

  constructor(
    list: ListDefinition<T>,
    private readonly refresher: ListRefresher<T>,
    private readonly now: () => number,
    /** Root children shown only while a list can load (welcome views take over otherwise). */
    private readonly isActive: () => boolean,
  ) {
    this.model = new TreeModel(list.id, list.tree);
    this.subscription = refresher.onDidChange((change) => {
      if (change.itemsChanged) this.update();
    });
    this.model.update(refresher.state.items ?? []);
  }

  /** Re-renders everything (e.g. the welcome state changed). */
  refreshAll(): void {
    this.changeEmitter.fire(undefined);
  }

  getChildren(node?: TreeNode<T>): TreeNode<T>[] {
    if (!node) return this.isActive() ? [...this.model.groups] : [];
    return node.kind === 'leaf' ? [] : this.model.children(node);
  }

  getParent(node: TreeNode<T>): TreeNode<T> | undefined {
    return node.kind === 'leaf' ? node.parent : undefined;
  }

  getTreeItem(node: TreeNode<T>): vscode.TreeItem {
    const a = this.model.adapter;
    // Labels and descriptions hold service text (names, types, statuses): shown inert, never as markup or icons.
    if (node.kind === 'group') {
      const item = new vscode.TreeItem(inert(node.group.label), vscode.TreeItemCollapsibleState.Expanded);
      item.id = this.model.groupId(node.group);
      item.description = inert(a.groupDescription(node.group));
      item.iconPath = themeIcon(a.groupIcon);
      item.contextValue = a.groupContext;
      return item;
    }
    const value = node.item.value;
    const item = new vscode.TreeItem(inert(a.leafLabel(value)), vscode.TreeItemCollapsibleState.None);
    item.id = this.model.leafId(value);
    item.description = inert(a.leafDescription(value, this.now()));
    this.model.rendered(value, item.description);
    item.iconPath = themeIcon(a.leafIcon(value));
    item.contextValue = a.leafContext;
    return item;
  }

  /**
   * Re-renders the groups whose items' descriptions have aged ("started 3 min ago" → "4 min ago") since they were
   * shown. A clock tick, not a poll: unchanged data costs no request, and nothing fires while the text holds.
   */
  refreshAgedDescriptions(): number {
    const aged = this.model.agedGroups(this.now());
    for (const node of aged) this.changeEmitter.fire(node);
    return aged.length;
  }

  /** Tooltips are built only when hovered. */
  resolveTreeItem(item: vscode.TreeItem, node: TreeNode<T>): vscode.TreeItem {
    if (node.kind === 'leaf') item.tooltip = new vscode.MarkdownString(this.model.adapter.leafTooltip(node.item as Item<T>, this.now()));
    return item;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changeEmitter.dispose();
  }

  private update(): void {
    const change = this.model.update(this.refresher.state.items ?? []);
    if (!change) return;
    if (change.all) this.changeEmitter.fire(undefined);
    else for (const node of change.groups) this.changeEmitter.fire(node);
  }
}

import type { TreeNode } from '../treeModel';
import { allViews, type ListViews } from './listView';

/** A row of any list's tree; it carries the id of its list. */
export type ExplorerNode = TreeNode<{ id: number }>;

/** A row of a list's tree: an item or a group (not a service's row, nor any other view's row). */
function isExplorerNode(node: unknown): node is ExplorerNode {
  const kind = (node as { kind?: unknown } | undefined)?.kind;
  return kind === 'leaf' || kind === 'group';
}

/**
 * The rows a command acts on: the list rows VS Code passes (a context menu on a multi-selection passes the clicked row
 * and the whole selection), else the selection of the Flow Sync view used last.
 */
export function chosenNodes(views: ListViews, node?: unknown, nodes?: readonly unknown[]): ExplorerNode[] {
  if (nodes?.length) return nodes.filter(isExplorerNode);
  if (node) return isExplorerNode(node) ? [node] : [];
  const shown = allViews(views).filter((v) => v.view.visible && v.view.selection.length > 0);
  shown.sort((a, b) => b.selectedAt - a.selectedAt);
  return (shown[0]?.view.selection ?? []).filter(isExplorerNode);
}

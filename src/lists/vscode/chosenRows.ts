import { isListRow, type ListRow } from '../listRow';
import { allViews, type ListViews } from './listView';

/** A row of any list's tree; it carries the id of its list. */
export type ExplorerNode = ListRow;

/**
 * The rows a command acts on: the list rows VS Code passes (a context menu on a multi-selection passes the clicked row
 * and the whole selection), else the selection of the Flow Sync view used last. Rows of other views, and anything
 * that is not a list's row (src/lists/listRow.ts), are left out.
 */
export function chosenNodes(views: ListViews, node?: unknown, nodes?: readonly unknown[]): ExplorerNode[] {
  if (nodes?.length) return nodes.filter(isListRow);
  if (node) return isListRow(node) ? [node] : [];
  const shown = allViews(views).filter((v) => v.view.visible && v.selection.length > 0);
  shown.sort((a, b) => b.selectedAt - a.selectedAt);
  return (shown[0]?.selection ?? []).filter(isListRow);
}

import * as vscode from 'vscode';
import { moreTexts, type LevelCut } from '../levelPages';
import { showMoreCommand } from './showMore';

/**
 * A level's "Show more" row (src/lists/levelPages.ts), in a list's view or History's: what it says, in words for a
 * screen reader too, and its command: Enter or a click runs `show`. `id`: the row's id, unique in its view.
 */
export function moreTreeItem(row: object, cut: LevelCut, id: string, show: () => void): vscode.TreeItem {
  const { label, accessibleName } = moreTexts(cut);
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
  item.id = id;
  item.iconPath = new vscode.ThemeIcon('ellipsis');
  // No context value: no row menu (Open as JSON and the others act on a service's rows, and this is none)
  item.accessibilityInformation = { label: accessibleName };
  item.command = showMoreCommand(row, label, show);
  return item;
}

import * as vscode from 'vscode';
import { markdownHover } from '../../base/vscode/hover';
import { DisposableStore } from '../../base/events';
import { historyGroups, historyRow, historyTooltip, type HistoryEntry, type HistoryGroup } from '../index';
import { FLOW_ICON } from '../../lists/icons';
import { inert } from '../../base/inert';
import type { HistoryService } from './historyService';
import { t } from '../../base/l10n';
import { ContextKeys } from '../../base/vscode/contextKeys';
import { themeIcon } from '../../lists/vscode/groupedTree';

export const HISTORY_VIEW = 'flowsync.history';

/** A day of the History view, and one sync that left processing on it. */
export type HistoryNode = { kind: 'historyDay'; group: HistoryGroup } | { kind: 'historyEntry'; entry: HistoryEntry };

export function isHistoryNode(value: unknown): value is HistoryNode {
  const kind = (value as { kind?: unknown } | undefined)?.kind;
  return kind === 'historyDay' || kind === 'historyEntry';
}

/**
 * The History view: syncs that left processing within historyDays, grouped by the day they left (newest first; see
 * historyGroups for why days and not flows). Rows say "#1003 · ran about 12 min · 5 min ago", never "succeeded".
 */
export class HistoryView implements vscode.TreeDataProvider<HistoryNode>, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<HistoryNode | undefined>();
  readonly onDidChangeTreeData = this.changeEmitter.event;
  readonly view: vscode.TreeView<HistoryNode>;
  private readonly disposables = new DisposableStore();
  /** The days, grouped when VS Code asks for them (undefined: History changed since). */
  private groups?: HistoryGroup[];
  private readonly contextKeys = new ContextKeys();

  constructor(
    private readonly history: HistoryService,
    private readonly now: () => number,
  ) {
    this.view = vscode.window.createTreeView(HISTORY_VIEW, { treeDataProvider: this, showCollapseAll: true, canSelectMany: true });
    this.disposables.add(
      this.changeEmitter,
      this.view,
      history.onDidChange(() => this.update()),
      this.view.onDidChangeVisibility(() => this.view.visible && void history.reload()),
    );
  }

  getChildren(node?: HistoryNode): HistoryNode[] {
    if (!node) return (this.groups ??= historyGroups(this.history.snapshot.entries, this.now())).map((group) => ({ kind: 'historyDay', group }));
    return node.kind === 'historyDay' ? node.group.entries.map((entry) => ({ kind: 'historyEntry', entry })) : [];
  }

  getTreeItem(node: HistoryNode): vscode.TreeItem {
    const now = this.now();
    if (node.kind === 'historyDay') {
      const item = new vscode.TreeItem(node.group.label, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `day:${node.group.key}`;
      item.description = node.group.entries.length === 1 ? t('1 sync') : t('{0} syncs', node.group.entries.length);
      item.iconPath = new vscode.ThemeIcon('calendar');
      item.contextValue = 'flowsync.historyDay';
      return item;
    }
    const { label, description } = historyRow(node.entry, now);
    const item = new vscode.TreeItem(inert(label), vscode.TreeItemCollapsibleState.None);
    item.id = `left:${node.entry.id}:${node.entry.leftAt}`;
    item.description = inert(description);
    item.iconPath = themeIcon({ ...FLOW_ICON, id: 'history' });
    item.contextValue = 'flowsync.historyEntry';
    return item;
  }

  resolveTreeItem(item: vscode.TreeItem, node: HistoryNode): vscode.TreeItem {
    if (node.kind === 'historyEntry') item.tooltip = markdownHover(historyTooltip(node.entry, this.now()));
    return item;
  }

  dispose(): void {
    this.disposables.dispose();
  }

  /** History changed: the days are grouped again when next shown; the context key is set only when it flips. */
  private update(): void {
    this.groups = undefined;
    void this.contextKeys.set('flowsync.hasHistory', this.history.snapshot.entries.length > 0);
    this.changeEmitter.fire(undefined);
  }
}

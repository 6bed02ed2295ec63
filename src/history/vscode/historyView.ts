import * as vscode from 'vscode';
import { markdownHover } from '../../base/vscode/hover';
import { DisposableStore } from '../../base/events';
import { historyGroups, historyRow, historyTooltip, type HistoryEntry, type HistoryGroup } from '../index';
import { FLOW_ICON, SERVICE_ICON } from '../../lists/icons';
import { inert } from '../../base/inert';
import type { HistoryService } from './historyService';
import { t } from '../../base/l10n';
import { ContextKeys } from '../../base/vscode/contextKeys';
import { themeIcon } from '../../lists/vscode/groupedTree';
import { rowKey } from '../../lists/vscode/servicesTree';

export const HISTORY_VIEW = 'flowsync.history';

/** A service (several services), a day of the History view, and one sync that left processing on it. */
export type HistoryNode =
  | { kind: 'historyService'; service: string }
  | { kind: 'historyDay'; group: HistoryGroup; service: string }
  | { kind: 'historyEntry'; entry: HistoryEntry; service: string };

export function isHistoryNode(value: unknown): value is HistoryNode {
  const kind = (value as { kind?: unknown } | undefined)?.kind;
  return kind === 'historyDay' || kind === 'historyEntry' || kind === 'historyService';
}

/** A service whose History the view shows. */
export interface HistoryViewService {
  readonly id: string;
  readonly name?: string;
  readonly history: HistoryService;
}

/** The services, in order, and when they change. */
export interface HistoryViewServices {
  readonly all: readonly HistoryViewService[];
  readonly several: boolean;
  onDidChange(listener: () => void): { dispose(): void };
}

/**
 * The History view: syncs that left processing within historyDays, grouped by the day they left (newest first; see
 * historyGroups for why days and not flows). Rows say "#1003 · ran about 12 min · 5 min ago", never "succeeded". With
 * several services, a row per service (in the order of the settings) and its days beneath it.
 */
export class HistoryView implements vscode.TreeDataProvider<HistoryNode>, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<HistoryNode | undefined>();
  readonly onDidChangeTreeData = this.changeEmitter.event;
  readonly view: vscode.TreeView<HistoryNode>;
  private readonly disposables = new DisposableStore();
  private readonly perService = new DisposableStore();
  /** The days of each service, grouped when VS Code asks for them (absent: its History changed since). */
  private readonly groups = new Map<string, HistoryGroup[]>();
  /** The row of each service, kept so a change re-renders just that service. */
  private readonly serviceRows = new Map<string, HistoryNode>();
  private readonly contextKeys = new ContextKeys();

  constructor(
    private readonly services: HistoryViewServices,
    private readonly now: () => number,
  ) {
    this.view = vscode.window.createTreeView(HISTORY_VIEW, { treeDataProvider: this, showCollapseAll: true, canSelectMany: true });
    this.disposables.add(
      this.changeEmitter,
      this.view,
      this.perService,
      services.onDidChange(() => this.watch()),
      this.view.onDidChangeVisibility(() => this.view.visible && this.services.all.forEach((s) => void s.history.reload())),
    );
    this.watch();
  }

  getChildren(node?: HistoryNode): HistoryNode[] {
    if (!node) {
      if (this.services.several) return this.services.all.map((s) => this.serviceRow(s.id));
      const only = this.services.all[0];
      return only ? this.days(only) : [];
    }
    if (node.kind === 'historyService') {
      const service = this.services.all.find((s) => s.id === node.service);
      return service ? this.days(service) : [];
    }
    return node.kind === 'historyDay' ? node.group.entries.map((entry) => ({ kind: 'historyEntry', entry, service: node.service })) : [];
  }

  getTreeItem(node: HistoryNode): vscode.TreeItem {
    const now = this.now();
    const prefix = this.services.several ? `${rowKey(node.service)}|` : '';
    if (node.kind === 'historyService') {
      const service = this.services.all.find((s) => s.id === node.service);
      const name = inert(service?.name ?? node.service);
      const count = service?.history.snapshot.entries.length ?? 0;
      const item = new vscode.TreeItem(name, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `service:${rowKey(node.service)}`;
      item.description = count === 1 ? t('1 sync') : t('{0} syncs', count);
      item.iconPath = themeIcon(SERVICE_ICON);
      item.contextValue = 'flowsync.service';
      item.accessibilityInformation = { label: [t('service {0}', name), item.description].join(', ') };
      return item;
    }
    if (node.kind === 'historyDay') {
      const item = new vscode.TreeItem(node.group.label, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `${prefix}day:${node.group.key}`;
      item.description = node.group.entries.length === 1 ? t('1 sync') : t('{0} syncs', node.group.entries.length);
      item.iconPath = new vscode.ThemeIcon('calendar');
      item.contextValue = 'flowsync.historyDay';
      return item;
    }
    const { label, description } = historyRow(node.entry, now);
    const item = new vscode.TreeItem(inert(label), vscode.TreeItemCollapsibleState.None);
    item.id = `${prefix}left:${node.entry.id}:${node.entry.leftAt}`;
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

  private days(service: HistoryViewService): HistoryNode[] {
    let groups = this.groups.get(service.id);
    if (!groups) this.groups.set(service.id, (groups = historyGroups(service.history.snapshot.entries, this.now())));
    return groups.map((group) => ({ kind: 'historyDay', group, service: service.id }));
  }

  private serviceRow(id: string): HistoryNode {
    let row = this.serviceRows.get(id);
    if (!row) this.serviceRows.set(id, (row = { kind: 'historyService', service: id }));
    return row;
  }

  private watch(): void {
    this.perService.clear();
    this.groups.clear();
    for (const service of this.services.all) this.perService.add(service.history.onDidChange(() => this.update(service.id)));
    this.update(undefined);
  }

  /** A service's History changed: its days are grouped again when next shown; the context key is set only when it flips. */
  private update(service: string | undefined): void {
    if (service === undefined) this.groups.clear();
    else this.groups.delete(service);
    void this.contextKeys.set('flowsync.hasHistory', this.services.all.some((s) => s.history.snapshot.entries.length > 0));
    this.changeEmitter.fire(service !== undefined && this.services.several ? this.serviceRow(service) : undefined);
  }
}

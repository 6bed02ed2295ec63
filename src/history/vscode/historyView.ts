import * as vscode from 'vscode';
import { DisposableStore } from '../../base/events';
import type { HistoryGroup } from '../index';
import type { HistoryNode, HistoryViewService, HistoryViewServices } from './historyNodes';
import { ContextKeys } from '../../base/vscode/contextKeys';
import type * as HistoryRows from './historyRows';

export const HISTORY_VIEW = 'flowsync.history';

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
  /** The code of the rows, once loaded. */
  private rows?: typeof HistoryRows;
  private loadingRows?: Promise<typeof HistoryRows>;

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

  /** Before the rows' code is loaded (its own chunk: esbuild.js CHUNKS), each answer waits for it once. */
  getChildren(node?: HistoryNode): HistoryNode[] | Promise<HistoryNode[]> {
    const rows = this.rows;
    if (!rows) return this.loadRows().then(() => this.getChildren(node));
    if (!node) {
      if (this.services.several) return this.services.all.map((s) => this.serviceRow(s.id));
      const only = this.services.all[0];
      return only ? this.days(rows, only) : [];
    }
    if (node.kind === 'historyService') {
      const service = this.services.all.find((s) => s.id === node.service);
      return service ? this.days(rows, service) : [];
    }
    return node.kind === 'historyDay' ? node.group.entries.map((entry) => ({ kind: 'historyEntry', entry, service: node.service })) : [];
  }

  getTreeItem(node: HistoryNode): vscode.TreeItem | Promise<vscode.TreeItem> {
    const rows = this.rows;
    if (!rows) return this.loadRows().then(() => this.getTreeItem(node));
    const service = node.kind === 'historyService' ? this.services.all.find((s) => s.id === node.service) : undefined;
    return rows.historyTreeItem(node, { several: this.services.several, now: this.now(), service });
  }

  resolveTreeItem(item: vscode.TreeItem, node: HistoryNode): vscode.TreeItem | Promise<vscode.TreeItem> {
    const rows = this.rows;
    if (!rows) return this.loadRows().then(() => this.resolveTreeItem(item, node));
    return rows.resolveHistoryItem(item, node, this.now());
  }

  dispose(): void {
    this.disposables.dispose();
  }

  private loadRows(): Promise<typeof HistoryRows> {
    return (this.loadingRows ??= import('./historyRows').then((rows) => (this.rows = rows)));
  }

  private days(rows: typeof HistoryRows, service: HistoryViewService): HistoryNode[] {
    let groups = this.groups.get(service.id);
    if (!groups) this.groups.set(service.id, (groups = rows.historyGroups(service.history.snapshot.entries, this.now())));
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

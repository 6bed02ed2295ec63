import * as vscode from 'vscode';
import { markdownHover } from '../../base/vscode/hover';
import { inert } from '../../base/inert';
import { t } from '../../base/l10n';
import { FLOW_ICON, SERVICE_ICON } from '../../lists/icons';
import { themeIcon } from '../../lists/vscode/themeIcon';
import { rowKey } from '../../lists/vscode/servicesTree';
import type { RowMarker } from '../../lists/vscode/rowDecorations';
import { historyRow, historyTooltip } from '../index';
import type { HistoryNode } from '../historyNode';
import type { HistoryViewService } from './historyNodes';
import type { TeamSummary } from '../teamPort';
import { teamTooltip } from '../texts';
import { LevelPages, groupLevel, type LevelCut } from '../../lists/levelPages';
import { moreTreeItem } from '../../lists/vscode/moreRow';

/*
 * The rows of the History view: what a service, a day and a sync that left processing look like. In the services'
 * chunk (esbuild.js CHUNKS), loaded when the view first asks for a row.
 */

interface HistoryRowContext {
  /** Several services: rows are kept apart by their service in their ids. */
  several: boolean;
  now: number;
  /** The service of a service row, and of a run's row (its flow's usual durations). */
  service?: HistoryViewService;
  /** What a run's context value ends with: `.web` when its service has a page for syncs (Open in Browser). */
  webSuffix?: string;
  /** The run's flow is pinned: its context value says `.pinned` (its menu offers Unpin Flow, not Pin Flow). */
  pinned?: boolean;
  /** Tints the runs that stand out (src/lists/vscode/rowDecorations.ts). */
  marker?: RowMarker;
}

export function historyTreeItem(
  node: HistoryNode,
  { several, now, service, webSuffix = '', pinned = false, marker }: HistoryRowContext,
): vscode.TreeItem {
  const prefix = several ? `${rowKey(node.service)}|` : '';
  if (node.kind === 'historyService') {
    const name = inert(service?.name ?? node.service);
    // While the team's runs are merged in, the view shows the newest page: "200+ syncs" until every run is.
    const rows = service?.history.viewRows();
    const count = rows?.entries.length ?? 0;
    const item = new vscode.TreeItem(name, vscode.TreeItemCollapsibleState.Expanded);
    item.id = `service:${rowKey(node.service)}`;
    item.description =
      rows && !rows.complete ? t('{0}+ syncs', count) : count === 1 ? t('1 sync') : t('{0} syncs', count);
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
  const stats = service?.history.snapshot.stats.get(node.entry.flowId);
  const { label, description, states } = historyRow(node.entry, now, stats);
  const item = new vscode.TreeItem(inert(label), vscode.TreeItemCollapsibleState.None);
  item.id = `${prefix}left:${node.entry.id}:${node.entry.leftAt}`;
  item.description = inert(description);
  item.iconPath = themeIcon({ ...FLOW_ICON, id: 'history' });
  item.contextValue = 'flowsync.historyEntry' + (pinned ? '.pinned' : '') + webSuffix;
  marker?.mark(item, 'history', states); // tinted when it had errors or ran longer than usual
  return item;
}

/** `team`: what team History says of itself while a store is connected (the tooltip of a service's and a day's row). */
export function resolveHistoryItem(
  item: vscode.TreeItem,
  node: HistoryNode,
  now: number,
  team?: TeamSummary,
): vscode.TreeItem {
  if (node.kind === 'historyEntry') item.tooltip = markdownHover(historyTooltip(node.entry, now));
  else if (team) item.tooltip = teamTooltip(team); // plain text: nothing in it is markup
  return item;
}

/** A day's "Show more" row: the day holds more runs than it shows (src/lists/levelPages.ts). */
export interface HistoryMoreRow {
  readonly kind: 'historyMore';
  readonly service: string;
  readonly day: Extract<HistoryNode, { kind: 'historyDay' }>;
  readonly cut: LevelCut;
}

/** How many pages of runs each day shows (a busy day holds up to HISTORY_CAP runs). */
export function dayPages(): LevelPages {
  return new LevelPages();
}

/** The level of a day's runs, of one service. */
export function dayLevel(service: string, dayKey: number): string {
  return `${rowKey(service)}|${groupLevel(dayKey)}`;
}

/** A day's runs as shown: at most its pages of them, then its "Show more" row when it holds more. */
export function dayRows(
  day: Extract<HistoryNode, { kind: 'historyDay' }>,
  pages: LevelPages,
): Array<HistoryNode | HistoryMoreRow> {
  const { rows, cut } = pages.slice(dayLevel(day.service, day.group.key), day.group.entries);
  const shown: Array<HistoryNode | HistoryMoreRow> = rows.map((entry) => ({
    kind: 'historyEntry',
    entry,
    service: day.service,
  }));
  if (cut) shown.push({ kind: 'historyMore', service: day.service, day, cut });
  return shown;
}

/** A day's "Show more" row: Enter or a click runs `show`. */
export function historyMoreItem(row: HistoryMoreRow, several: boolean, show: () => void): vscode.TreeItem {
  const prefix = several ? `${rowKey(row.service)}|` : '';
  return moreTreeItem(row, row.cut, `${prefix}more:day:${row.day.group.key}`, show);
}

import * as vscode from 'vscode';
import type { FlowSync } from '../../api/types';
import { t } from '../../base/l10n';
import type { FlowStats } from '../../history/stats';
import { historyRow } from '../../history/texts';
import { isHistoryNode, type HistoryNode } from '../../history/historyNode';
import { listById } from '../../lists';
import { flowLabel } from '../../lists/grouping';
import { syncCount } from '../../lists/listFaces';
import { syncDescriptionParts } from '../../lists/itemTexts';
import { isListRow } from '../../lists/listRow';
import { chosenNodes, type ExplorerNode } from '../../lists/vscode/chosenRows';
import type { ListViews } from '../../lists/vscode/listView';
import type { HistorySelection } from '../../history/vscode/historyCommands';
import type { SettingsFeed } from '../../settings/settingsFeed';
import { expandWebUrl, type WebSection } from '../../webPages/webUrl';
import { markdownLines, type MarkdownRow } from '../markdownLine';
import { syncTarget, type WebTarget } from '../webPicks';
import { rowTarget } from './openInBrowser';

/** What Copy as Markdown uses. */
export interface MarkdownCommandDeps {
  /** The views: the rows chosen (the selection), the service and grouping of a row. */
  readonly views: ListViews;
  /** The History view: its selection, from the palette. */
  readonly historyView: HistorySelection;
  /** Each service's History: a run's flow's usual durations (its row says when it ran longer). */
  readonly services: {
    readonly all: readonly {
      readonly id: string;
      readonly history: { readonly snapshot: { readonly stats: ReadonlyMap<number, FlowStats> } };
    }[];
  };
  /** The web page templates of each service (Open in Browser's): a row is linked where its kind has one. */
  readonly settings: SettingsFeed<WebSection>;
  now(): number;
}

/**
 * The rows a command acts on, in order: those given (a menu: the clicked row and the selection, any view's), else the
 * runs selected in History while it is shown (as Open in Browser), else the selection of the lists.
 */
function chosenRows(
  deps: MarkdownCommandDeps,
  node?: unknown,
  nodes?: readonly unknown[],
): Array<ExplorerNode | HistoryNode> {
  const given = nodes?.length ? nodes : node !== undefined ? [node] : [];
  if (given.length) return given.filter((row) => isHistoryNode(row) || isListRow(row));
  const history = deps.historyView;
  const runs = history.view.visible ? history.selection.filter(isHistoryNode) : [];
  return runs.length ? runs : chosenNodes(deps.views);
}

/** A row's page (its kind's template filled in), where its service has a template for its kind. */
function pageOf(deps: MarkdownCommandDeps, target: WebTarget | undefined): string | undefined {
  const template = target && deps.settings.current.webUrls.get(target.service)?.[target.kind];
  return template && target ? expandWebUrl(template, target.values) : undefined;
}

/** What a row says in Markdown: its title and words as its row shows them, its page; undefined for a service row. */
function markdownRow(deps: MarkdownCommandDeps, row: ExplorerNode | HistoryNode, now: number): MarkdownRow | undefined {
  if (isHistoryNode(row)) {
    if (row.kind === 'historyService') return undefined;
    if (row.kind === 'historyDay') return { name: row.group.label, parts: [syncCount(row.group.entries.length)] };
    const { entry, service } = row;
    const stats = deps.services.all.find((s) => s.id === service)?.history.snapshot.stats.get(entry.flowId);
    const { label, said } = historyRow(entry, now, stats);
    return { id: entry.id, name: label, parts: said, url: pageOf(deps, syncTarget(service, entry)) };
  }
  const list = listById(row.list);
  if (!list) return undefined;
  const url = pageOf(deps, rowTarget(deps.views, row));
  if (row.kind === 'leaf') {
    const value = row.item.value;
    if (row.list === 'processing') {
      const sync = value as FlowSync;
      return { id: sync.id, name: flowLabel(sync), parts: syncDescriptionParts(sync, now), url };
    }
    return { name: list.rows.leafLabel(value), parts: [list.rows.leafDescription(value, now)], url };
  }
  const grouping = list.arrangements.groupings[deps.views[row.list as keyof ListViews].currentArrangement.groupBy];
  const parts = row.idle ? [t('idle')] : grouping ? [grouping.describe(row.group.items.length)] : [];
  return { name: row.group.label, parts, url };
}

/**
 * Copy as Markdown: each row chosen as one line, `[#1003 Invoices → Sheets](page) · pending · started 12 min ago`
 * (src/links/markdownLine.ts: linked where Open in Browser has a page for its kind, service text escaped); several rows
 * as a list. Nothing chosen: says to select a row.
 */
export async function copyAsMarkdown(
  deps: MarkdownCommandDeps,
  node?: ExplorerNode | HistoryNode,
  nodes?: readonly (ExplorerNode | HistoryNode)[],
): Promise<void> {
  const now = deps.now();
  const rows = chosenRows(deps, node, nodes).flatMap((row) => markdownRow(deps, row, now) ?? []);
  const text = markdownLines(rows);
  if (!text) {
    void vscode.window.showInformationMessage(t('Select a flow sync, flow, connection, team or History run first.'));
    return;
  }
  await vscode.env.clipboard.writeText(text);
  vscode.window.setStatusBarMessage(
    rows.length === 1 ? t('Copied as Markdown') : t('Copied {0} rows as Markdown', rows.length),
    3000,
  );
}

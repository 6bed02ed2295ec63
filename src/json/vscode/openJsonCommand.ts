import * as vscode from 'vscode';
import type { Item } from '../../api/types';
import { inert } from '../../base/inert';
import { serviceName } from '../../base/serviceSet';
import type { TreeNode } from '../../lists/treeModel';
import { ANY_LISTS, listById, type ListId } from '../../lists';
import { t } from '../../base/l10n';
import type { JsonTarget } from './jsonDocuments';
import { allViews } from '../../lists/vscode/listView';
import type { HistoryEntry } from '../../history/index';
import { isHistoryNode, type HistoryNode } from '../../history/vscode/historyNodes';
import type { CommandContext } from '../../commands/vscode/commandContext';

/** A row of any list's tree; it carries the id of its list. */
export type ExplorerNode = TreeNode<{ id: number }>;

/** What a tree node stands for: an item, or a group (its items) under the view's current grouping. */
export function targetOf(ctx: CommandContext, node: ExplorerNode): JsonTarget {
  const list = node.list as ListId;
  const service = ctx.views[list].serviceOf(node);
  if (node.kind === 'leaf') return { list, kind: 'item', id: node.item.value.id, service };
  return { list, kind: 'group', grouping: ctx.views[list].currentArrangement.groupBy, key: node.group.key, service };
}

/** A row of a list's tree, not a service's row. */
function isExplorerNode(node: unknown): node is ExplorerNode {
  const kind = (node as { kind?: unknown } | undefined)?.kind;
  return kind === 'leaf' || kind === 'group';
}

/**
 * The rows a command acts on: the ones VS Code passes (a context menu on a multi-selection passes the clicked row and
 * the whole selection), else the selection of the Flow Sync view used last.
 */
export function chosenNodes(
  ctx: CommandContext,
  node?: ExplorerNode | HistoryNode,
  nodes?: readonly (ExplorerNode | HistoryNode)[],
): ExplorerNode[] {
  if (nodes?.length) return nodes.filter((n): n is ExplorerNode => !isHistoryNode(n) && isExplorerNode(n));
  if (node) return isHistoryNode(node) || !isExplorerNode(node) ? [] : [node];
  const views = allViews(ctx.views).filter((v) => v.view.visible && v.view.selection.length > 0);
  views.sort((a, b) => b.selectedAt - a.selectedAt);
  return (views[0]?.view.selection ?? []).filter(isExplorerNode);
}

/** The History rows (syncs that left processing) among the rows given. */
function historyEntries(
  node?: ExplorerNode | HistoryNode,
  nodes?: readonly (ExplorerNode | HistoryNode)[],
): Array<{ entry: HistoryEntry; service: string }> {
  const rows = nodes?.length ? nodes : node ? [node] : [];
  return rows.flatMap((row) => {
    if (!isHistoryNode(row) || row.kind === 'historyService') return [];
    const entries = row.kind === 'historyEntry' ? [row.entry] : row.group.entries;
    return entries.map((entry) => ({ entry, service: row.service }));
  });
}

/** The items of rows: an item row stands for its item, a group row for its items. */
function itemIds(rows: readonly ExplorerNode[]): number[] {
  const ids = rows.flatMap((row) =>
    row.kind === 'leaf' ? [row.item.value.id] : row.group.items.map((i) => i.value.id),
  );
  return [...new Set(ids)];
}

/** Open as JSON: the rows given (menu), else the selection, else a quick pick; several rows open as one array. */
export async function openJson(
  ctx: CommandContext,
  node?: ExplorerNode | HistoryNode,
  nodes?: readonly (ExplorerNode | HistoryNode)[],
): Promise<void> {
  const left = historyEntries(node, nodes)[0];
  if (left) {
    await ctx.json.open({
      list: 'processing',
      kind: 'history',
      id: left.entry.id,
      leftAt: left.entry.leftAt,
      service: left.service,
    });
    return;
  }
  const rows = chosenNodes(ctx, node, nodes);
  let target: JsonTarget | undefined;
  if (rows.length === 1) target = targetOf(ctx, rows[0]);
  else if (rows.length > 1) {
    // Several rows open as one document of the first row's list and service.
    const list = rows[0].list as ListId;
    const service = ctx.views[list].serviceOf(rows[0]);
    target = {
      list,
      kind: 'items',
      ids: itemIds(rows.filter((r) => r.list === list && ctx.views[list].serviceOf(r) === service)),
      service,
    };
  } else target = await pickItem(ctx);
  if (target) await ctx.json.open(target);
}

async function pickItem(ctx: CommandContext): Promise<JsonTarget | undefined> {
  type Pick = vscode.QuickPickItem & { target?: JsonTarget };
  const picks: Pick[] = [];
  for (const service of ctx.services.all) {
    const name = serviceName(ctx.services, service);
    const named = name === undefined ? '' : `${name} · `;
    for (const list of ANY_LISTS) {
      const items = (service.explorer.refresher(list.id as ListId).state.items ?? []) as readonly Item<{
        id: number;
      }>[];
      if (items.length) picks.push({ label: `${named}${list.pick.title()}`, kind: vscode.QuickPickItemKind.Separator });
      for (const { value } of items) {
        // Quick picks render $(icon) syntax: every service text in them is inert.
        picks.push({
          label: `$(${list.pick.icon}) ${inert(list.pick.label(value))}`,
          description: inert(list.pick.description(value)),
          target: { list: list.id as ListId, kind: 'item', id: value.id, service: service.id },
        });
      }
    }
  }
  if (!picks.length) {
    void vscode.window.showInformationMessage(t('Nothing is loaded yet. Open the Flow Sync views or refresh first.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(picks, {
    title: t('Open as JSON'),
    placeHolder: t('Choose a flow sync or connection'),
    matchOnDescription: true,
  });
  return picked?.target;
}

/** Copy ID: the id of every chosen row (a group row: its key), one per line. */
export async function copyId(
  ctx: CommandContext,
  node?: ExplorerNode | HistoryNode,
  nodes?: readonly (ExplorerNode | HistoryNode)[],
): Promise<void> {
  const rows = chosenNodes(ctx, node, nodes);
  const entries = historyEntries(node, nodes);
  if (!rows.length && !entries.length) {
    void vscode.window.showInformationMessage(t('Select a flow sync or connection first.'));
    return;
  }
  const ids = [
    ...rows.map((row) => (row.kind === 'leaf' ? String(row.item.value.id) : String(row.group.key))),
    ...entries.map((e) => String(e.entry.id)),
  ];
  await vscode.env.clipboard.writeText(ids.join('\n'));
  vscode.window.setStatusBarMessage(
    ids.length === 1 ? t('Copied ID {0}', inert(ids[0])) : t('Copied {0} IDs', ids.length),
    3000,
  );
}

/** The link that reveals an item (vscode://<extension id>/<row prefix>?id=N, and &service=<name> with several services): never a URL or key. */
export function linkOf(ctx: CommandContext, list: ListId, id: number, service?: string): string {
  const name = service === undefined || ctx.services.all.length < 2 ? undefined : ctx.services.byId(service)?.name;
  const named = name === undefined ? '' : `&service=${encodeURIComponent(name)}`;
  return `${vscode.env.uriScheme}://${ctx.extensionId}/${listById(list)!.rows.leafIdPrefix}?id=${id}${named}`;
}

/** Copy Link: a link to every chosen item row, one per line. */
export async function copyLink(
  ctx: CommandContext,
  node?: ExplorerNode | HistoryNode,
  nodes?: readonly (ExplorerNode | HistoryNode)[],
): Promise<void> {
  const rows = chosenNodes(ctx, node, nodes).filter((row) => row.kind === 'leaf');
  if (!rows.length) {
    void vscode.window.showInformationMessage(t('Select a flow sync or connection first.'));
    return;
  }
  const links = rows.map((row) =>
    linkOf(
      ctx,
      row.list as ListId,
      (row as Extract<ExplorerNode, { kind: 'leaf' }>).item.value.id,
      ctx.views[row.list as ListId].serviceOf(row),
    ),
  );
  await vscode.env.clipboard.writeText(links.join('\n'));
  vscode.window.setStatusBarMessage(
    links.length === 1
      ? t(
          'Copied a link to {0}',
          listById(rows[0].list)!.itemName((rows[0] as Extract<ExplorerNode, { kind: 'leaf' }>).item.value.id),
        )
      : t('Copied {0} links', links.length),
    3000,
  );
}

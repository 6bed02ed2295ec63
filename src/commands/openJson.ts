import * as vscode from 'vscode';
import type { Item } from '../api/types';
import { inert } from '../core/inert';
import type { TreeNode } from '../core/treeModel';
import { ANY_LISTS, type ListId } from '../lists';
import { t } from '../l10n';
import type { JsonTarget } from '../views/jsonDocuments';
import { allViews } from '../views/listView';
import type { CommandContext } from './context';

/** A row of any list's tree; it carries the id of its list. */
export type ExplorerNode = TreeNode<{ id: number }>;

/** What a tree node stands for: an item, or a group (its items). */
export function targetOf(node: ExplorerNode): JsonTarget {
  const list = node.list as ListId;
  return node.kind === 'group' ? { list, kind: 'group', id: node.group.key } : { list, kind: 'item', id: node.item.value.id };
}

/** The node selected in a Flow Sync view; when several have a selection, the one selected last. */
export function selectedNode(ctx: CommandContext): ExplorerNode | undefined {
  const views = allViews(ctx.views).filter((v) => v.view.visible && v.view.selection.length > 0);
  views.sort((a, b) => b.selectedAt - a.selectedAt);
  return views[0]?.view.selection[0];
}

/** Open as JSON: the node given (menu), else the selection, else a quick pick of every item. */
export async function openJson(ctx: CommandContext, node?: ExplorerNode): Promise<void> {
  const chosen = node ?? selectedNode(ctx);
  const target = chosen ? targetOf(chosen) : await pickItem(ctx);
  if (target) await ctx.json.open(target);
}

async function pickItem(ctx: CommandContext): Promise<JsonTarget | undefined> {
  type Pick = vscode.QuickPickItem & { target?: JsonTarget };
  const picks: Pick[] = [];
  for (const list of ANY_LISTS) {
    const items = (ctx.explorer.refresher(list.id as ListId).state.items ?? []) as readonly Item<{ id: number }>[];
    if (items.length) picks.push({ label: list.pick.title(), kind: vscode.QuickPickItemKind.Separator });
    for (const { value } of items) {
      // Quick picks render $(icon) syntax: every service text in them is inert.
      picks.push({
        label: `$(${list.pick.icon}) ${inert(list.pick.label(value))}`,
        description: inert(list.pick.description(value)),
        target: { list: list.id as ListId, kind: 'item', id: value.id },
      });
    }
  }
  if (!picks.length) {
    void vscode.window.showInformationMessage(t('Nothing is loaded yet. Open the Flow Sync views or refresh first.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(picks, { title: t('Open as JSON'), placeHolder: t('Choose a flow sync or connection'), matchOnDescription: true });
  return picked?.target;
}

export async function copyId(ctx: CommandContext, node?: ExplorerNode): Promise<void> {
  const chosen = node ?? selectedNode(ctx);
  if (!chosen) {
    void vscode.window.showInformationMessage(t('Select a flow sync or connection first.'));
    return;
  }
  const { id } = targetOf(chosen);
  await vscode.env.clipboard.writeText(String(id));
  vscode.window.setStatusBarMessage(t('Copied ID {0}', id), 3000);
}

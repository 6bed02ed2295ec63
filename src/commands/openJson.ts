import * as vscode from 'vscode';
import type { Connection, FlowSync } from '../api/types';
import { flowLabel, teamLabel } from '../core/grouping';
import { inert } from '../core/inert';
import { t } from '../l10n';
import { processingAdapter } from '../views/adapters';
import type { TreeNode } from '../views/groupedTree';
import type { JsonKind } from '../views/jsonDocuments';
import type { CommandContext } from './context';

export type ExplorerNode = TreeNode<FlowSync> | TreeNode<Connection>;

interface Target {
  kind: JsonKind;
  id: number;
}

/** What a tree node stands for: a sync, a flow (its syncs), a connection or a team (its connections). */
export function targetOf(node: ExplorerNode): Target {
  const inProcessing = (node.kind === 'group' ? node.groupKind : node.parent.groupKind) === processingAdapter.groupIdPrefix;
  if (node.kind === 'group') return { kind: inProcessing ? 'flow' : 'team', id: node.group.key };
  return { kind: inProcessing ? 'sync' : 'connection', id: node.item.value.id };
}

/** The node selected in a Flow Sync view; when both have a selection, the one selected last. */
export function selectedNode(ctx: CommandContext): ExplorerNode | undefined {
  const views = [ctx.processingView, ctx.connectionsView].filter((v) => v.view.visible && v.view.selection.length > 0);
  views.sort((a, b) => b.selectedAt - a.selectedAt);
  return views[0]?.view.selection[0] as ExplorerNode | undefined;
}

/** Open as JSON: the node given (menu), else the selection, else a quick pick of every item. */
export async function openJson(ctx: CommandContext, node?: ExplorerNode): Promise<void> {
  const chosen = node ?? selectedNode(ctx);
  const target = chosen ? targetOf(chosen) : await pickItem(ctx);
  if (target) await ctx.json.open(target.kind, target.id);
}

async function pickItem(ctx: CommandContext): Promise<Target | undefined> {
  type Pick = vscode.QuickPickItem & { target?: Target };
  const picks: Pick[] = [];
  const syncs = ctx.explorer.processing.state.items ?? [];
  const connections = ctx.explorer.connections.state.items ?? [];
  if (syncs.length) picks.push({ label: t('Processing flow syncs'), kind: vscode.QuickPickItemKind.Separator });
  for (const { value } of syncs) {
    // Quick picks render $(icon) syntax: every service text in them is inert.
    picks.push({ label: `$(sync) ${t('Sync #{0}', value.id)}`, description: inert(`${flowLabel(value)} · ${value.status}`), target: { kind: 'sync', id: value.id } });
  }
  if (connections.length) picks.push({ label: t('Connections'), kind: vscode.QuickPickItemKind.Separator });
  for (const { value } of connections) {
    picks.push({ label: `$(plug) ${inert(value.name)}`, description: inert(`${value.type} · ${teamLabel(value)} · #${value.id}`), target: { kind: 'connection', id: value.id } });
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

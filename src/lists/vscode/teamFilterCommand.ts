import * as vscode from 'vscode';
import { connectionCount } from '../itemTexts';
import { inert } from '../../base/inert';
import { t } from '../../base/l10n';
import { connectionsList } from '../connections';
import { saveTeamId } from '../../settings/vscode/settings';
import type { CommandContext } from '../../commands/vscode/commandContext';

/** Filter by Team...: a quick pick of the teams seen in connections; sets flowsync.teamId. */
export async function filterByTeam(ctx: CommandContext): Promise<void> {
  if (ctx.service.explorer.teams.list().length === 0 && ctx.service.explorer.status === 'ready' && !ctx.service.explorer.teamId) {
    await ctx.service.explorer.refresh(connectionsList.id);
  }
  const current = ctx.service.explorer.teamId;
  type Pick = vscode.QuickPickItem & { teamId: string };
  const picks: Pick[] = [
    { label: t('All teams'), description: current ? undefined : t('current'), teamId: '' },
    ...ctx.service.explorer.teams.list().map((team) => ({
      label: inert(team.name),
      description: `#${team.id} · ${connectionCount(team.connections)}${team.id === current ? ` · ${t('current')}` : ''}`,
      teamId: team.id,
    })),
  ];
  const picked = await vscode.window.showQuickPick(picks, {
    title: t('Filter by Team'),
    placeHolder: picks.length > 1 ? t('Show flow syncs and connections of one team') : t('No teams are known yet: load the Connections view first'),
    matchOnDescription: true,
  });
  if (picked && picked.teamId !== current) await applyTeam(ctx, picked.teamId);
}

export async function clearTeamFilter(ctx: CommandContext): Promise<void> {
  if (ctx.service.explorer.teamId) await applyTeam(ctx, '');
}

async function applyTeam(ctx: CommandContext, teamId: string): Promise<void> {
  await saveTeamId(teamId);
  await ctx.service.reconfigure();
}

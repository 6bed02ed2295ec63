import * as vscode from 'vscode';
import { connectionCount } from '../itemTexts';
import { inert } from '../../base/inert';
import { t } from '../../base/l10n';
import { connectionsList } from '../connections';
import { saveTeamId, saveServiceTeam } from '../../settings/vscode/settings';
import { pickService } from '../../services/vscode/pickService';
import type { ServiceConnection } from '../../services/vscode/serviceConnection';
import type { CommandContext } from '../../commands/vscode/commandContext';

/** Filter by Team...: which service (with several), then a quick pick of the teams seen in its connections. */
export async function filterByTeam(ctx: CommandContext): Promise<void> {
  const service = await pickService(ctx.services, t('Filter by Team'));
  if (!service) return;
  const { explorer } = service;
  if (explorer.teams.list().length === 0 && explorer.status === 'ready' && !explorer.teamId) {
    await explorer.refresh(connectionsList.id);
  }
  const current = explorer.teamId;
  type Pick = vscode.QuickPickItem & { teamId: string };
  const picks: Pick[] = [
    { label: t('All teams'), description: current ? undefined : t('current'), teamId: '' },
    ...explorer.teams.list().map((team) => ({
      label: inert(team.name),
      description: `#${team.id} · ${connectionCount(team.connections)}${team.id === current ? ` · ${t('current')}` : ''}`,
      teamId: team.id,
    })),
  ];
  const picked = await vscode.window.showQuickPick(picks, {
    title: t('Filter by Team'),
    placeHolder:
      picks.length > 1
        ? t('Show flow syncs and connections of one team')
        : t('No teams are known yet: load the Connections view first'),
    matchOnDescription: true,
  });
  if (picked && picked.teamId !== current) await applyTeam(ctx, service, picked.teamId);
}

export async function clearTeamFilter(ctx: CommandContext): Promise<void> {
  const service = await pickService(ctx.services, t('Clear Team Filter'), (s) => s.explorer.teamId !== '');
  if (service?.explorer.teamId) await applyTeam(ctx, service, '');
}

/** The one service: flowsync.teamId, as ever; one of several: the `teamId` of its entry in flowsync.services. */
async function applyTeam(ctx: CommandContext, service: ServiceConnection, teamId: string): Promise<void> {
  if (service.target.bind === 'origin') await saveTeamId(teamId);
  else await saveServiceTeam(ctx.settings.current.servicesRaw, service.target, teamId);
  await service.reconfigure();
}

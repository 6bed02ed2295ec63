import * as vscode from 'vscode';
import { connectionCount } from '../listFaces';
import { inert } from '../../base/inert';
import { t } from '../../base/l10n';
import { connectionsList } from '../connections';
import type { Explorer } from '../explorer';

/** A service as the team filter sees it: its Explorer (its teams and team filter). */
export interface TeamFilterService {
  readonly explorer: Explorer;
}

/** What the team filter commands use: which service (asked with several), and how its team filter is saved. */
export interface TeamFilterDeps<S extends TeamFilterService> {
  /** The only service, or the one picked by name among those `only` accepts; undefined when cancelled. */
  pickService(title: string, only?: (service: S) => boolean): Promise<S | undefined>;
  /** Saves the service's team filter in its settings and applies it. */
  saveTeam(service: S, teamId: string): Promise<void>;
}

/** Filter by Team...: which service (with several), then a quick pick of the teams seen in its connections. */
export async function filterByTeam<S extends TeamFilterService>(deps: TeamFilterDeps<S>): Promise<void> {
  const service = await deps.pickService(t('Filter by Team'));
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
  if (picked && picked.teamId !== current) await deps.saveTeam(service, picked.teamId);
}

export async function clearTeamFilter<S extends TeamFilterService>(deps: TeamFilterDeps<S>): Promise<void> {
  const service = await deps.pickService(t('Clear Team Filter'), (s) => s.explorer.teamId !== '');
  if (service?.explorer.teamId) await deps.saveTeam(service, '');
}

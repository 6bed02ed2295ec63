import { saveTeamId, saveUserSetting } from '../../settings/vscode/settingsEdits';
import type { SettingsFeed } from '../../settings/settingsFeed';
import { withTeam } from '../serviceEdits';
import { SERVICES_SETTING, type ServicesSection } from '../servicesSection';
import type { ServiceTarget } from '../serviceTargets';

/** Writes `flowsync.services` to the user settings (the only place it is read from); none left removes the setting. */
export async function saveServices(entries: readonly unknown[]): Promise<void> {
  await saveUserSetting(SERVICES_SETTING, entries.length ? entries : undefined);
}

/**
 * Sets a service's team filter and applies it: the one service's is flowsync.teamId, as ever (where it is set); one
 * of several keeps it as the `teamId` of its entry in flowsync.services.
 */
export async function saveServiceTeam(
  settings: SettingsFeed<ServicesSection>,
  service: { readonly target: ServiceTarget; reconfigure(): Promise<void> },
  teamId: string,
): Promise<void> {
  if (service.target.bind === 'origin') await saveTeamId(teamId);
  else if (service.target.name !== undefined) {
    await saveServices(withTeam(settings.current.servicesRaw, service.target.name, teamId));
  }
  await service.reconfigure();
}

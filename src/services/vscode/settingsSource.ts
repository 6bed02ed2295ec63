import type { LogOutputChannel } from 'vscode';
import { readListsSection, type ListsSection } from '../../lists/listsSection';
import { SettingsSource } from '../../settings/vscode/settings';
import { readServicesSection, webPagesText, type ServicesSection } from '../servicesSection';
import { SettingsPart } from '../../settings/settingsFeed';

/**
 * The window's settings: each feature reads its own section in the same read, the services (`flowsync.services`)
 * and the lists' arrangements. A listener that throws is logged, never lost.
 */
export function windowSettings(log: LogOutputChannel): WindowSettings {
  return new WindowSettings(
    (read, shared) => ({ ...readServicesSection(read, shared), ...readListsSection(read) }),
    (error) => log.error(`A settings listener failed: ${String(error)}`),
  );
}

/** The window's settings, with the one event of the web page templates, read with the services' section. */
class WindowSettings extends SettingsSource<ServicesSection & ListsSection> {
  /**
   * The web page templates of every service (Open in Browser), and one event when a settings change changed them,
   * compared once for the List views and the History view (which rows offer Open in Browser).
   */
  readonly webPages = new SettingsPart(this, (settings) => settings.webUrls, webPagesText);

  override dispose(): void {
    this.webPages.dispose();
    super.dispose();
  }
}

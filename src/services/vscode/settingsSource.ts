import type { LogOutputChannel } from 'vscode';
import { readListsSection } from '../../lists/listsSection';
import { SettingsSource } from '../../settings/vscode/settings';
import { readServicesSection } from '../servicesSection';

/**
 * The window's settings: each feature reads its own section in the same read, the services (`flowsync.services`)
 * and the lists' arrangements. A listener that throws is logged, never lost.
 */
export function windowSettings(log: LogOutputChannel) {
  return new SettingsSource(
    (read, shared) => ({ ...readServicesSection(read, shared), ...readListsSection(read) }),
    (error) => log.error(`A settings listener failed: ${String(error)}`),
  );
}

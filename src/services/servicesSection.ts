import { userOwnValue, type APPLICATION_SCOPED, type Settings, type SettingsReader } from '../settings/settingsFeed';
import { parseServiceEntries } from './serviceEntries';
import type { ServiceEntryLike } from './serviceTargets';

/** `flowsync.services`: read from the user settings only (a workspace can never add a service or send a key elsewhere). */
export const SERVICES_SETTING = 'services' satisfies (typeof APPLICATION_SCOPED)[number];

/** The services' section of the settings snapshot (read with the rest, once per change: SettingsSections). */
export interface ServicesSection {
  /** The valid entries of `flowsync.services` (user settings only: a workspace can never add a service). */
  services: readonly ServiceEntryLike[];
  /** One sentence per entry of `flowsync.services` that was skipped, naming it. */
  serviceWarnings: readonly string[];
  /** `flowsync.services` as the user settings hold it (edits keep every entry they do not change). */
  servicesRaw: unknown;
}

/** Reads `flowsync.services` (the user's own value) into its valid entries and one warning per skipped entry. */
export function readServicesSection(read: SettingsReader, settings: Pick<Settings, 'allowHttp'>): ServicesSection {
  // Application-scoped (settingsFeed.ts APPLICATION_SCOPED): never a workspace's, nor another extension's default.
  const raw = userOwnValue(read, SERVICES_SETTING) ?? [];
  const { entries, warnings } = parseServiceEntries(raw, settings);
  return { services: Object.freeze(entries), serviceWarnings: Object.freeze(warnings), servicesRaw: raw };
}

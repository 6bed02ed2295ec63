import { userOwnValue, type APPLICATION_SCOPED, type Settings, type SettingsReader } from '../settings/settingsFeed';
import { parseWebTemplates, withTeamFilter, type WebSection, type WebTemplates } from '../webPages/webUrl';
import { ServiceEntriesRead } from './serviceEntries';
import { SINGLE_SERVICE_ID, type ServiceEntryLike } from './serviceTargets';

/** `flowsync.services`: read from the user settings only (a workspace can never add a service or send a key elsewhere). */
export const SERVICES_SETTING = 'services' satisfies (typeof APPLICATION_SCOPED)[number];

/** The services' section of the settings snapshot (read with the rest, once per change: SettingsSections). */
export interface ServicesSection extends WebSection {
  /** The valid entries of `flowsync.services` (user settings only: a workspace can never add a service). */
  services: readonly ServiceEntryLike[];
  /** One sentence per entry of `flowsync.services` that was skipped, naming it. */
  serviceWarnings: readonly string[];
  /** `flowsync.services` as the user settings hold it (edits keep every entry they do not change). */
  servicesRaw: unknown;
  /** Its entries as read (each URL and web pages parsed once): the registry chooses from them again (confusables.ts). */
  servicesRead: ServiceEntriesRead;
}

/**
 * Reads `flowsync.services` (the user's own value) into its valid entries and one warning per skipped entry; the web
 * pages of the service of `flowsync.baseUrl` by its team filter (`settings.teamId`), each entry's by its own.
 */
export function readServicesSection(
  read: SettingsReader,
  settings: Pick<Settings, 'allowHttp'> & Partial<Pick<Settings, 'teamId'>>,
): ServicesSection {
  // Application-scoped (settingsFeed.ts APPLICATION_SCOPED): never a workspace's, nor another extension's default.
  const raw = userOwnValue(read, SERVICES_SETTING) ?? [];
  const servicesRead = new ServiceEntriesRead(raw, settings);
  const { entries, warnings } = servicesRead.choose();
  const webUrls = new Map<string, WebTemplates>();
  if (entries.length === 0) {
    // flowsync.webUrl: the pages of the service of flowsync.baseUrl; application-scoped like it (never a workspace's).
    const web = parseWebTemplates(userOwnValue(read, 'webUrl'), 'flowsync.webUrl');
    const decided = withTeamFilter(web.templates, settings.teamId ?? '', 'flowsync.webUrl');
    warnings.push(...web.warnings, ...decided.warnings);
    webUrls.set(SINGLE_SERVICE_ID, decided.templates);
  } else for (const entry of entries) if (entry.web) webUrls.set(entry.id, entry.web);
  return {
    services: Object.freeze(entries),
    serviceWarnings: Object.freeze(warnings),
    servicesRaw: raw,
    servicesRead,
    webUrls,
  };
}

/**
 * The web page templates of every service as one text, to tell two reads apart (a few hundred characters): the one
 * comparison behind the event of the templates (src/services/vscode/settingsSource.ts), which the views' menus follow.
 */
export function webPagesText(webUrls: WebSection['webUrls']): string {
  return JSON.stringify([...webUrls]);
}

/**
 * The services' warnings a settings change brings (`said`: not among the last read's, `before`) and the read's own
 * (`now`, the next `before`): a warning is said when a change brings it, not again while it stays, and again after a
 * change took it away and another brought it back.
 */
export function warningsBrought(
  before: ReadonlySet<string>,
  warnings: readonly string[],
): { said: string[]; now: ReadonlySet<string> } {
  return { said: warnings.filter((w) => !before.has(w)), now: new Set(warnings) };
}

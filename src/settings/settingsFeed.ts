import type { Disposable, Listener } from '../base/events';
import { normalizeSettings, teamIdOf, type SettingValues } from './settingValues';

/**
 * The settings every feature shares, as one snapshot of `flowsync.*` (read by src/settings/vscode/settings.ts, the one
 * module that reads the configuration). Every value a workspace may set is untrusted input: normalizeSettings clamps
 * numbers to the bounds package.json declares and accepts a team id of digits only. A feature's own section (the
 * services, how each list is arranged) is read by that feature, in the same read, into the same snapshot: see
 * SettingsSections.
 */
export interface Settings extends SettingValues {
  /** From the user's own settings only: a workspace must not be able to send the key elsewhere. */
  baseUrl: string;
  /** From the user's own settings only, like baseUrl. */
  allowHttp: boolean;
  /**
   * flowsync.teamId of the user's own settings ('' when unset or not digits; never another extension's default): what
   * Add Service moves into the user's flowsync.services. `teamId` is the merged value, which a workspace may set; it
   * must not land in the user settings.
   */
  userTeamId: string;
  /**
   * historyDays of the user's own settings (unset: the manifest's default, 7): only this deletes History from disk,
   * never a workspace's nor another extension's default.
   */
  userHistoryDays: number;
}

/**
 * What a feature reads its own keys of `flowsync.*` through: the one read of the configuration of this change (VS
 * Code's configuration object of the section, as read once).
 */
export interface SettingsReader {
  /** The value as VS Code merges it (default, user, workspace, folder): anything at all. */
  get(key: string): unknown;
  /** Where the value comes from: the default and the user's own value (userValue reads them). */
  inspect(key: string): { readonly defaultValue?: unknown; readonly globalValue?: unknown } | undefined;
}

/** The user settings' own value, else the default, else undefined: for what a workspace must never choose. */
export function userValue(read: SettingsReader, key: string): unknown {
  const inspected = read.inspect(key);
  return inspected?.globalValue ?? inspected?.defaultValue;
}

/**
 * The values only the user's own settings give (Settings.userTeamId, userHistoryDays): the user's own value (its
 * globalValue), else the manifest's default (normalizeSettings' fallback, '' for a team), never inspect()'s
 * defaultValue, which another extension's configurationDefaults may set (a team Add Service would write into the
 * user's flowsync.services; a historyDays that would delete History from disk).
 */
export function userOnlySettings(read: SettingsReader): Pick<Settings, 'userTeamId' | 'userHistoryDays'> {
  return {
    userTeamId: teamIdOf(read.inspect('teamId')?.globalValue) ?? '',
    userHistoryDays: normalizeSettings({ historyDays: read.inspect('historyDays')?.globalValue }).historyDays,
  };
}

/**
 * The features' own sections of the settings: read with the shared ones, once per change, into the same frozen
 * snapshot (`settings`: the shared values of this read). The settings module knows no feature's keys; the start
 * (src/extension.ts) hands it the features' readers, e.g. the services' (src/services/servicesSection.ts) and the
 * lists' arrangements (src/lists/listsSection.ts).
 */
export type SettingsSections<Extra extends object> = (read: SettingsReader, settings: Readonly<Settings>) => Extra;

/** The settings as a feature holds them: the snapshot as last read (frozen: a change makes a new one) and its changes. */
export interface SettingsFeed<S extends object = Settings> {
  readonly current: Readonly<S>;
  onDidChange(listener: Listener<Readonly<S>>): Disposable;
}

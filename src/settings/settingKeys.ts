/**
 * Every key of `flowsync.*` the code reads or writes, the one typed table of them: the settings' readers
 * (SettingsReader.get/inspect) and writes (saveWhereSet, saveUserSetting) take a SettingKey, so a key that is not here
 * does not compile. `test/unit/settings/settingKeys.test.ts` checks it against package.json's
 * contributes.configuration, both ways.
 */
export const SETTING_KEYS = [
  'baseUrl',
  'services',
  'teamId',
  'autoRefresh',
  'refreshIntervalSeconds',
  'requestTimeoutSeconds',
  'processing.groupBy',
  'processing.sortBy',
  'connections.groupBy',
  'connections.sortBy',
  'notifyWhenFinished',
  'notifyOnErrors',
  'stuckAfterMinutes',
  'historyDays',
  'allowHttp',
  'webUrl',
] as const;

/** A key of `flowsync.*` (without the section). */
export type SettingKey = (typeof SETTING_KEYS)[number];

/** The section every key is under. */
export const SETTINGS_SECTION = 'flowsync';

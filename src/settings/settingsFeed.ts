import { Emitter, type Disposable, type Event, type Listener } from '../base/events';
import type { SettingKey } from './settingKeys';
import { normalizeSettings, teamIdOf, type SettingValues } from './settingValues';

/**
 * The settings every feature shares, as one snapshot of `flowsync.*` (read by src/settings/vscode/settings.ts, the one
 * module that reads the configuration). Every value a workspace may set is untrusted input: normalizeSettings clamps
 * numbers to the bounds package.json declares and accepts a team id of digits only. A feature's own section (the
 * services, how each list is arranged) is read by that feature, in the same read, into the same snapshot: see
 * SettingsSections.
 */
export interface Settings extends SettingValues {
  /** From the user's own settings only (APPLICATION_SCOPED): a workspace must not be able to send the key elsewhere. */
  baseUrl: string;
  /** From the user's own settings only, like baseUrl (APPLICATION_SCOPED). */
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
  /**
   * The value as VS Code merges it (default, user, workspace, folder): anything at all. For a key of
   * APPLICATION_SCOPED that is the user's own value or the default, which another extension may set: see there.
   */
  get(key: SettingKey): unknown;
  /**
   * Where the value comes from: the default and the user's own value. Costly in VS Code (about 0.3 ms): read at the
   * start only for a key of APPLICATION_SCOPED that chooses something (userOwnValue).
   */
  inspect(key: SettingKey): { readonly defaultValue?: unknown; readonly globalValue?: unknown } | undefined;
}

/**
 * The settings that decide where the API key is sent: package.json declares them `"scope": "application"`, so VS Code
 * reads no workspace's or folder's value of them, trusted or not (nor in a language block). It does not keep another
 * extension's configurationDefaults from setting their default, though: it checks a default's scope only against the
 * settings already registered, and at the start it takes every extension's defaults before any extension's settings
 * (measured, VS Code 1.139.1: the Restricted Mode suite installs such an extension). So `get()` of these keys is the
 * user's own value or a default anyone may have set: read them with userOwnValue.
 */
export const APPLICATION_SCOPED = [
  'baseUrl',
  'allowHttp',
  'services',
  'webUrl',
] as const satisfies readonly SettingKey[];

/**
 * The user's own value of a key of APPLICATION_SCOPED, else undefined (unset: the caller takes the manifest's default,
 * '', false, [] or {}, which choose nothing). `get()` when it chooses nothing (who set it does not matter then), else
 * inspect()'s globalValue: so inspect() is read only for a key the user (or another extension's default) has set.
 */
export function userOwnValue(read: SettingsReader, key: (typeof APPLICATION_SCOPED)[number]): unknown {
  const value = read.get(key);
  const choosesNothing =
    value === undefined ||
    value === '' ||
    value === false ||
    (typeof value === 'object' && value !== null && Object.keys(value).length === 0);
  return choosesNothing ? value : read.inspect(key)?.globalValue;
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
 * One snapshot of the settings from one read (`read`: VS Code's configuration object of `flowsync`): the shared
 * values, clamped (normalizeSettings), and the features' sections. Each inspect() costs VS Code a walk over every
 * language override (about 0.3 ms): it is called at once only for a key of APPLICATION_SCOPED that chooses something
 * (userOwnValue), and what else only inspect() tells (userTeamId, userHistoryDays: Add Service and History's deletion
 * from disk) is read when first asked for, once per snapshot.
 */
export function readSnapshot<Extra extends object>(
  read: SettingsReader,
  sections: SettingsSections<Extra>,
): Readonly<Settings & Extra> {
  const baseUrl = userOwnValue(read, 'baseUrl');
  let userOnly: Pick<Settings, 'userTeamId' | 'userHistoryDays'> | undefined;
  const userOwn = () => (userOnly ??= userOnlySettings(read));
  const settings = {
    ...normalizeSettings({
      teamId: read.get('teamId'),
      autoRefresh: read.get('autoRefresh'),
      refreshIntervalSeconds: read.get('refreshIntervalSeconds'),
      requestTimeoutSeconds: read.get('requestTimeoutSeconds'),
      notifyWhenFinished: read.get('notifyWhenFinished'),
      notifyOnErrors: read.get('notifyOnErrors'),
      stuckAfterMinutes: read.get('stuckAfterMinutes'),
      historyDays: read.get('historyDays'),
    }),
    baseUrl: typeof baseUrl === 'string' ? baseUrl : '',
    allowHttp: userOwnValue(read, 'allowHttp') === true,
  } as Settings;
  Object.defineProperties(settings, {
    userTeamId: { get: () => userOwn().userTeamId, enumerable: true },
    userHistoryDays: { get: () => userOwn().userHistoryDays, enumerable: true },
  });
  const snapshot = Object.defineProperties(
    {},
    // The shared values last: a feature's section cannot replace one (where the key goes among them).
    { ...Object.getOwnPropertyDescriptors(sections(read, settings)), ...Object.getOwnPropertyDescriptors(settings) },
  ) as Settings & Extra;
  return Object.freeze(snapshot);
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

/** One part of the settings as its readers hold it: the part as last read, and when a settings change changed it. */
export interface SettingsPartFeed<P> {
  readonly current: P;
  readonly onDidChange: Event<P>;
}

/**
 * One part of the settings with its own change event, for every reader of it: the part as last read, and an event
 * that fires once per settings change that changed it, compared in one place (`key`: two reads of it with the same key
 * are the same part), however many listen.
 */
export class SettingsPart<S extends object, P> implements SettingsPartFeed<P>, Disposable {
  private readonly changes = new Emitter<P>();
  private readonly subscription: Disposable;
  private last: string;
  /** Fires with the part as now read, when a settings change changed it. */
  readonly onDidChange: Event<P> = this.changes.event;

  constructor(
    private readonly feed: SettingsFeed<S>,
    private readonly read: (settings: Readonly<S>) => P,
    key: (part: P) => string,
  ) {
    this.last = key(read(feed.current));
    this.subscription = feed.onDidChange((settings) => {
      const part = read(settings);
      const now = key(part);
      if (now === this.last) return;
      this.last = now;
      this.changes.fire(part);
    });
  }

  /** The part as last read. */
  get current(): P {
    return this.read(this.feed.current);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changes.dispose();
  }
}

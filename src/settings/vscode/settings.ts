import * as vscode from 'vscode';
import { ApiError } from '../../api/errors';
import { parseServiceUrl, type ServiceUrl } from '../../api/url';
import { normalizeSettings, teamIdOf, type SettingValues } from '../settingValues';
import { validArrangement, type Arrangement } from '../../lists/arrange';
import type { ListDefinition } from '../../lists/list';
import { ANY_LISTS, type ListId } from '../../lists';
import { Emitter, type Disposable, type Listener } from '../../base/events';
import { parseServiceEntries } from '../../services/serviceEntries';
import { withTeam } from '../../services/serviceEdits';
import type { ServiceEntryLike } from '../../services/serviceTargets';
import { t } from '../../base/l10n';

/**
 * The one module that reads `flowsync.*` settings, by one route: a SettingsSource reads them once at start and once
 * per change into one immutable snapshot (`current`), and sends it out with `onDidChange`. Nothing else reads the
 * configuration: code that needs a setting holds the source and reads `current` (a field, not a read of VS Code's
 * configuration).
 */
export const SECTION = 'flowsync';

/**
 * Every value a workspace may set is untrusted input: normalizeSettings clamps numbers to the bounds package.json
 * declares and accepts a team id of digits only.
 */
export interface Settings extends SettingValues {
  /** From the user's own settings only: a workspace must not be able to send the key elsewhere. */
  baseUrl: string;
  /** From the user's own settings only, like baseUrl. */
  allowHttp: boolean;
  /**
   * flowsync.teamId of the user's own settings ('' when unset or not digits): what Add Service moves into the user's
   * flowsync.services. `teamId` is the merged value, which a workspace may set; it must not land in the user settings.
   */
  userTeamId: string;
  /** historyDays of the user's own settings (or the default): only this deletes History from disk, never a workspace's. */
  userHistoryDays: number;
  /** How each list's rows are grouped and sorted (its two settings; an unknown value falls back to the default). */
  arrangements: Readonly<Record<ListId, Arrangement>>;
  /** The valid entries of `flowsync.services` (user settings only: a workspace can never add a service). */
  services: readonly ServiceEntryLike[];
  /** One sentence per entry of `flowsync.services` that was skipped, naming it. */
  serviceWarnings: readonly string[];
  /** `flowsync.services` as the user settings hold it (edits keep every entry they do not change). */
  servicesRaw: unknown;
}

/** The settings, read once per change. */
export class SettingsSource implements Disposable {
  private snapshot: Readonly<Settings> = readSettings();
  private readonly changes: Emitter<Readonly<Settings>>;
  private readonly subscription: Disposable;

  constructor(onListenerError?: (error: unknown) => void) {
    this.changes = new Emitter(onListenerError);
    this.subscription = vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(SECTION)) return;
      this.snapshot = readSettings();
      this.changes.fire(this.snapshot);
    });
  }

  /** The settings as last read (frozen: a change makes a new snapshot). */
  get current(): Readonly<Settings> {
    return this.snapshot;
  }

  onDidChange(listener: Listener<Readonly<Settings>>): Disposable {
    return this.changes.event(listener);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changes.dispose();
  }
}

/** Settings that only the user (not a workspace) may set: they decide where the key is sent. */
const USER_ONLY = ['baseUrl', 'allowHttp', 'services'] as const;

function readSettings(): Readonly<Settings> {
  const config = vscode.workspace.getConfiguration(SECTION);
  const baseUrl = userValue<unknown>(config, 'baseUrl', '');
  return Object.freeze({
    ...normalizeSettings({
      teamId: config.get('teamId'),
      autoRefresh: config.get('autoRefresh'),
      refreshIntervalSeconds: config.get('refreshIntervalSeconds'),
      requestTimeoutSeconds: config.get('requestTimeoutSeconds'),
      notifyWhenFinished: config.get('notifyWhenFinished'),
      stuckAfterMinutes: config.get('stuckAfterMinutes'),
      historyDays: config.get('historyDays'),
    }),
    baseUrl: typeof baseUrl === 'string' ? baseUrl : '',
    allowHttp: userValue<unknown>(config, 'allowHttp', false) === true,
    userTeamId: teamIdOf(config.inspect<unknown>('teamId')?.globalValue ?? '') ?? '',
    userHistoryDays: normalizeSettings({ historyDays: userValue<unknown>(config, 'historyDays', undefined) })
      .historyDays,
    ...serviceEntries(
      userValue<unknown>(config, 'services', []),
      userValue<unknown>(config, 'allowHttp', false) === true,
    ),
    arrangements: Object.freeze(
      Object.fromEntries(ANY_LISTS.map((list) => [list.id, readArrangement(config, list)])) as Record<
        ListId,
        Arrangement
      >,
    ),
  });
}

/**
 * Names the user-only settings that a workspace tries to set, so the log can say they are ignored. VS Code hides
 * application-scoped values of workspace files from inspect(), so the files themselves are read too, with a JSONC
 * scanner (linear time, size-bounded: a hostile file cannot freeze the window).
 */
export async function ignoredWorkspaceSettings(): Promise<string[]> {
  const config = vscode.workspace.getConfiguration(SECTION);
  const files = [
    ...(vscode.workspace.workspaceFolders ?? []).map((f) => vscode.Uri.joinPath(f.uri, '.vscode', 'settings.json')),
    ...(vscode.workspace.workspaceFile?.scheme === 'file' ? [vscode.workspace.workspaceFile] : []),
  ];
  const found = await Promise.all(
    files.map(async (uri) => {
      const size = await vscode.workspace.fs.stat(uri).then(
        (stat) => stat.size,
        () => undefined,
      );
      if (size === undefined) return []; // no such file: the scanner (its own chunk, esbuild.js CHUNKS) is not loaded
      const { MAX_SETTINGS_FILE_CHARS, settingsFileSets } = await import('../workspaceOverrides');
      if (size > MAX_SETTINGS_FILE_CHARS) return []; // not read at all
      const text = await vscode.workspace.fs.readFile(uri).then(
        (bytes) => new TextDecoder().decode(bytes),
        () => '',
      );
      return settingsFileSets(text, SECTION, USER_ONLY) ?? [];
    }),
  );
  const inFiles = found.flat();
  return USER_ONLY.filter((key) => {
    const inspected = config.inspect(key);
    return (
      inspected?.workspaceValue !== undefined || inspected?.workspaceFolderValue !== undefined || inFiles.includes(key)
    );
  }).map((key) => `${SECTION}.${key}`);
}

/** The service URL of the user settings: none set, usable, or a problem to show (a message that says what to fix). */
export type ConfiguredService =
  { kind: 'none' } | { kind: 'ok'; service: ServiceUrl } | { kind: 'problem'; message: string };

export function configuredService(settings: Pick<Settings, 'baseUrl' | 'allowHttp'>): ConfiguredService {
  if (!settings.baseUrl) return { kind: 'none' };
  try {
    return { kind: 'ok', service: parseServiceUrl(settings.baseUrl, { allowHttp: settings.allowHttp }) };
  } catch (e) {
    return { kind: 'problem', message: e instanceof ApiError ? e.message : String(e) };
  }
}

export async function saveBaseUrl(baseUrl: string): Promise<void> {
  await vscode.workspace.getConfiguration(SECTION).update('baseUrl', baseUrl, vscode.ConfigurationTarget.Global);
}

export async function saveTeamId(teamId: string): Promise<void> {
  await saveWhereSet('teamId', teamId || undefined);
}

function readArrangement(config: vscode.WorkspaceConfiguration, list: ListDefinition<{ id: number }>): Arrangement {
  const text = (key: string) => {
    const value = config.get<unknown>(key);
    return typeof value === 'string' ? value : undefined;
  };
  return validArrangement(list, {
    groupBy: text(list.arrangements.groupBySetting),
    sortBy: text(list.arrangements.sortBySetting),
  });
}

export async function saveArrangement(list: ListDefinition<{ id: number }>, arrangement: Arrangement): Promise<void> {
  await saveWhereSet(list.arrangements.groupBySetting, arrangement.groupBy);
  await saveWhereSet(list.arrangements.sortBySetting, arrangement.sortBy);
}

/** Writes a setting where its current value comes from, so a workspace-level value is changed rather than shadowed. */
async function saveWhereSet(key: string, value: unknown): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION);
  const inspected = config.inspect(key);
  const target =
    inspected?.workspaceFolderValue !== undefined
      ? vscode.ConfigurationTarget.WorkspaceFolder
      : inspected?.workspaceValue !== undefined
        ? vscode.ConfigurationTarget.Workspace
        : vscode.ConfigurationTarget.Global;
  await config.update(key, value, target);
}

function serviceEntries(
  raw: unknown,
  allowHttp: boolean,
): Pick<Settings, 'services' | 'serviceWarnings' | 'servicesRaw'> {
  const { entries, warnings } = parseServiceEntries(raw, { allowHttp });
  return { services: Object.freeze(entries), serviceWarnings: Object.freeze(warnings), servicesRaw: raw };
}

/** Writes `flowsync.services` to the user settings (the only place it is read from); none left removes the setting. */
export async function saveServices(entries: readonly unknown[]): Promise<void> {
  await vscode.workspace
    .getConfiguration(SECTION)
    .update('services', entries.length ? entries : undefined, vscode.ConfigurationTarget.Global);
}

/** Sets the team filter of one of several services (its entry's `teamId`). */
export async function saveServiceTeam(raw: unknown, target: { name?: string }, teamId: string): Promise<void> {
  if (target.name !== undefined) await saveServices(withTeam(raw, target.name, teamId));
}

function userValue<T>(config: vscode.WorkspaceConfiguration, key: string, fallback: T): T {
  const inspected = config.inspect<T>(key);
  return inspected?.globalValue ?? inspected?.defaultValue ?? fallback;
}

export const describeIgnored = (keys: string[]) =>
  t(
    'Ignoring {0} from the workspace settings: only your user settings may choose where the API key is sent.',
    keys.join(', '),
  );

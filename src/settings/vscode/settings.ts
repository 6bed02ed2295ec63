import * as vscode from 'vscode';
import { ApiError } from '../../api/errors';
import { parseServiceUrl, type ServiceUrl } from '../../api/url';
import { readSnapshot, type Settings, type SettingsFeed, type SettingsSections } from '../settingsFeed';
import { Emitter, type Disposable, type Listener } from '../../base/events';
import { onFirstUse } from '../../base/onFirstUse';
import { t } from '../../base/l10n';
import { SETTINGS_SECTION, type SettingKey } from '../settingKeys';

/**
 * The one module that reads `flowsync.*` settings, by one route: a SettingsSource reads them once at start and once
 * per change into one immutable snapshot (`current`), and sends it out with `onDidChange`. Nothing else reads the
 * configuration: code that needs a setting holds the source and reads `current` (a field, not a read of VS Code's
 * configuration). It knows the settings every feature shares (settingsFeed.ts: Settings); a feature's own section is
 * read by the feature's reader (SettingsSections), given to the source at the start, in the same read.
 */
const SECTION = SETTINGS_SECTION;

/**
 * The settings, read once per change: the shared ones and the features' sections (`Extra`). What it keeps is typed
 * without `Extra` (the snapshot is what `sections` made), so a source with more sections serves code that needs fewer.
 */
export class SettingsSource<Extra extends object = object> implements SettingsFeed<Settings & Extra>, Disposable {
  private snapshot: Readonly<Settings>;
  private readonly changes: Emitter<Readonly<Settings>>;
  private readonly subscription: Disposable;

  /** `sections`: the features' own sections, read in the same read (SettingsSections). */
  constructor(sections: SettingsSections<Extra>, onListenerError?: (error: unknown) => void) {
    this.snapshot = readSettings(sections);
    this.changes = new Emitter(onListenerError);
    this.subscription = vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(SECTION)) return;
      this.snapshot = readSettings(sections);
      this.changes.fire(this.snapshot);
    });
  }

  /** The settings as last read (frozen: a change makes a new snapshot). */
  get current(): Readonly<Settings & Extra> {
    return this.snapshot as Readonly<Settings & Extra>;
  }

  onDidChange(listener: Listener<Readonly<Settings & Extra>>): Disposable {
    return this.changes.event(listener as Listener<Readonly<Settings>>);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changes.dispose();
  }
}

function readSettings(sections: SettingsSections<object>): Readonly<Settings> {
  return readSnapshot(vscode.workspace.getConfiguration(SECTION), sections);
}

/**
 * Names the user-only settings (`userOnly`: keys of `flowsync.*`, APPLICATION_SCOPED) that a workspace tries to set,
 * so the log can say they are ignored. VS Code reads no workspace value of an application-scoped setting and so hides
 * it from inspect() too: the workspace's files themselves are read, with a JSONC scanner (linear time, size-bounded: a
 * hostile file cannot freeze the window).
 */
export async function ignoredWorkspaceSettings(userOnly: readonly SettingKey[]): Promise<string[]> {
  // A folder's .vscode/settings.json (its top level), and a .code-workspace file (its "settings").
  const files: Array<{ uri: vscode.Uri; under?: string }> = [
    ...(vscode.workspace.workspaceFolders ?? []).map((f) => ({
      uri: vscode.Uri.joinPath(f.uri, '.vscode', 'settings.json'),
    })),
    ...(vscode.workspace.workspaceFile?.scheme === 'file'
      ? [{ uri: vscode.workspace.workspaceFile, under: 'settings' }]
      : []),
  ];
  // The JSONC scanner (its own chunk: esbuild.js CHUNKS), loaded only when a workspace has a settings file.
  const scanner = onFirstUse(() => import('../workspaceOverrides'));
  const found = await Promise.all(
    files.map(async ({ uri, under }) => {
      const size = await vscode.workspace.fs.stat(uri).then(
        (stat) => stat.size,
        () => undefined,
      );
      if (size === undefined) return []; // no such file: the scanner is not loaded
      const { MAX_SETTINGS_FILE_CHARS, settingsFileSets } = await scanner.get();
      if (size > MAX_SETTINGS_FILE_CHARS) return []; // not read at all
      const text = await vscode.workspace.fs.readFile(uri).then(
        (bytes) => new TextDecoder().decode(bytes),
        () => '',
      );
      return settingsFileSets(text, SECTION, userOnly, under) ?? [];
    }),
  );
  const inFiles = new Set(found.flat());
  return userOnly.filter((key) => inFiles.has(key)).map((key) => `${SECTION}.${key}`);
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
  await saveUserSetting('baseUrl', baseUrl);
}

export async function saveTeamId(teamId: string): Promise<void> {
  await saveWhereSet('teamId', teamId || undefined);
}

/** Writes a setting where its current value comes from, so a workspace-level value is changed rather than shadowed. */
export async function saveWhereSet(key: SettingKey, value: unknown): Promise<void> {
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

/** Writes a setting to the user settings (where what only the user may choose is read from); undefined removes it. */
export async function saveUserSetting(key: SettingKey, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration(SECTION).update(key, value, vscode.ConfigurationTarget.Global);
}

export const describeIgnored = (keys: string[]) =>
  t(
    'Ignoring {0} from the workspace settings: only your user settings may choose where the API key is sent and which pages Open in Browser opens.',
    keys.join(', '),
  );

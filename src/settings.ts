import * as vscode from 'vscode';
import { ApiError } from './api/errors';
import { parseServiceUrl, type ServiceUrl } from './api/url';
import { t } from './l10n';

/** The one module that reads `flowsync.*` settings. */
export const SECTION = 'flowsync';

export interface Settings {
  /** From the user's own settings only: a workspace must not be able to send the key elsewhere. */
  baseUrl: string;
  teamId: string;
  autoRefresh: boolean;
  refreshIntervalSeconds: number;
  requestTimeoutSeconds: number;
  /** From the user's own settings only, like baseUrl. */
  allowHttp: boolean;
}

export const MIN_REFRESH_SECONDS = 5;
export const MIN_TIMEOUT_SECONDS = 1;

/** Settings that only the user (not a workspace) may set: they decide where the key is sent. */
const USER_ONLY = ['baseUrl', 'allowHttp'] as const;

export function readSettings(): Settings {
  const config = vscode.workspace.getConfiguration(SECTION);
  return {
    baseUrl: userValue(config, 'baseUrl', ''),
    teamId: String(config.get<string | number>('teamId', '') ?? '').trim(),
    autoRefresh: config.get<boolean>('autoRefresh', true) !== false,
    refreshIntervalSeconds: atLeast(config.get<number>('refreshIntervalSeconds', 30), MIN_REFRESH_SECONDS, 30),
    requestTimeoutSeconds: atLeast(config.get<number>('requestTimeoutSeconds', 15), MIN_TIMEOUT_SECONDS, 15),
    allowHttp: userValue<boolean>(config, 'allowHttp', false) === true,
  };
}

/**
 * Names the user-only settings that a workspace tries to set, so the log can say they are ignored. VS Code hides
 * application-scoped values of workspace files from inspect(), so the files themselves are looked at too (as text:
 * a dotted key or a nested "flowsync" object).
 */
export async function ignoredWorkspaceSettings(): Promise<string[]> {
  const config = vscode.workspace.getConfiguration(SECTION);
  const files = [
    ...(vscode.workspace.workspaceFolders ?? []).map((f) => vscode.Uri.joinPath(f.uri, '.vscode', 'settings.json')),
    ...(vscode.workspace.workspaceFile?.scheme === 'file' ? [vscode.workspace.workspaceFile] : []),
  ];
  const texts = await Promise.all(
    files.map((uri) => Promise.resolve(vscode.workspace.fs.readFile(uri)).then((bytes) => new TextDecoder().decode(bytes), () => '')),
  );
  return USER_ONLY.filter((key) => {
    const inspected = config.inspect(key);
    if (inspected?.workspaceValue !== undefined || inspected?.workspaceFolderValue !== undefined) return true;
    const dotted = new RegExp(`"${SECTION}\\.${key}"\\s*:`);
    const nested = new RegExp(`"${SECTION}"\\s*:\\s*\\{[^}]*"${key}"\\s*:`);
    return texts.some((text) => dotted.test(text) || nested.test(text));
  }).map((key) => `${SECTION}.${key}`);
}

/** The service URL of the user settings, parsed; a message when it cannot be used; undefined when none is set. */
export function configuredService(settings: Settings = readSettings()): ServiceUrl | string | undefined {
  if (!settings.baseUrl) return undefined;
  try {
    return parseServiceUrl(settings.baseUrl, { allowHttp: settings.allowHttp });
  } catch (e) {
    return e instanceof ApiError ? e.message : String(e);
  }
}

export function onDidChangeSettings(listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(SECTION)) listener();
  });
}

export async function saveBaseUrl(baseUrl: string): Promise<void> {
  await vscode.workspace.getConfiguration(SECTION).update('baseUrl', baseUrl, vscode.ConfigurationTarget.Global);
}

export async function saveTeamId(teamId: string): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION);
  // Write where the current value comes from, so a workspace-level filter is changed rather than shadowed.
  const inspected = config.inspect<string>('teamId');
  const target =
    inspected?.workspaceFolderValue !== undefined
      ? vscode.ConfigurationTarget.WorkspaceFolder
      : inspected?.workspaceValue !== undefined
        ? vscode.ConfigurationTarget.Workspace
        : vscode.ConfigurationTarget.Global;
  await config.update('teamId', teamId || undefined, target);
}

function userValue<T>(config: vscode.WorkspaceConfiguration, key: string, fallback: T): T {
  const inspected = config.inspect<T>(key);
  return inspected?.globalValue ?? inspected?.defaultValue ?? fallback;
}

function atLeast(value: unknown, minimum: number, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.max(minimum, value) : fallback;
}

export const describeIgnored = (keys: string[]) =>
  t('Ignoring {0} from the workspace settings: only your user settings may choose where the API key is sent.', keys.join(', '));

import * as vscode from 'vscode';
import { ApiError } from '../../api/errors';
import { parseServiceUrl, type ServiceUrl } from '../../api/url';
import type { Settings } from '../settingsFeed';
import { SETTINGS_SECTION, type SettingKey } from '../settingKeys';

/*
 * What the commands do with the settings (settings.ts reads them): the generic writes, where a value is set or to the
 * user's own settings, for the features' own edits; and the service URL as the key commands read it.
 */

const SECTION = SETTINGS_SECTION;

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

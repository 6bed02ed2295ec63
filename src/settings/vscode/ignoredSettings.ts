import * as vscode from 'vscode';
import { onFirstUse } from '../../base/onFirstUse';
import { t } from '../../base/l10n';
import { SETTINGS_SECTION, type SettingKey } from '../settingKeys';

const SECTION = SETTINGS_SECTION;

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

export const describeIgnored = (keys: string[]) =>
  t(
    'Ignoring {0} from the workspace settings: only your user settings may choose where the API key is sent and which pages Open in Browser opens.',
    keys.join(', '),
  );

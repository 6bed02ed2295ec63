import * as vscode from 'vscode';
import { apiKeyProblem } from '../../api/apiKey';
import { t } from '../../base/l10n';
import { secretStoreProblem, type ApiKeyStore } from './apiKeyStore';

/** Where a key goes: the slot it is kept in, what the prompts call the service, and the service to apply it to. */
export interface KeyPlace {
  scope: string;
  /** The service's name (several services) or its base URL (the one of flowsync.baseUrl). */
  label: string;
  service?: { reconfigure(): Promise<void>; readonly explorer: { reload(): void } };
}

/** What the key commands use: the keyring, the log, and where a key goes. */
export interface KeyCommandDeps {
  readonly keys: Pick<ApiKeyStore, 'set' | 'delete'>;
  readonly log: Pick<vscode.LogOutputChannel, 'info'>;
  /**
   * The service a key command is for and where its key is kept (src/services/vscode/keyPlace.ts): asks which service
   * with several, or (`askUrl`) for the URL when none is set. Undefined when there is none or the person cancels.
   */
  keyPlace(title: string, askUrl: boolean): Promise<KeyPlace | undefined>;
}

/** Set API Key...: which service (with several), then the key in a password box; it is sent to that service only. */
export async function setApiKey(deps: KeyCommandDeps): Promise<void> {
  const place = await deps.keyPlace(t('Set API Key'), true);
  if (!place) return;
  const key = await vscode.window.showInputBox({
    title: t('Flow Sync API key for {0}', place.label),
    prompt: t('Stored in the system keyring (VS Code SecretStorage) and sent only to {0}.', place.label),
    password: true,
    ignoreFocusOut: true,
    validateInput: (value) => apiKeyProblem(value.trim()),
  });
  if (key === undefined) return;
  try {
    await deps.keys.set(place.scope, key.trim());
  } catch (e) {
    void vscode.window.showErrorMessage(secretStoreProblem(e));
    return;
  }
  deps.log.info(`API key saved for ${place.label}`);
  await place.service?.reconfigure();
  place.service?.explorer.reload();
  void vscode.window.showInformationMessage(t('API key saved for {0}.', place.label));
}

export async function clearApiKey(deps: KeyCommandDeps): Promise<void> {
  const place = await deps.keyPlace(t('Remove API Key'), false);
  if (!place) return;
  try {
    await deps.keys.delete(place.scope);
  } catch (e) {
    void vscode.window.showErrorMessage(secretStoreProblem(e));
    return;
  }
  deps.log.info(`API key removed for ${place.label}`);
  await place.service?.reconfigure();
  void vscode.window.showInformationMessage(t('API key removed for {0}.', place.label));
}

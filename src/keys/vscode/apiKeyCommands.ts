import * as vscode from 'vscode';
import { apiKeyProblem } from '../../api/client';
import { t } from '../../base/l10n';
import { secretStoreProblem } from './apiKeyStore';
import { configuredService } from '../../settings/vscode/settings';
import type { CommandContext } from '../../commands/vscode/commandContext';
import { promptServiceUrl } from '../../settings/vscode/serviceUrlCommand';

/** Set API Key...: asks for the service URL first when none is set, then for the key in a password box. */
export async function setApiKey(ctx: CommandContext): Promise<void> {
  const configured = configuredService(ctx.settings.current);
  if (configured.kind === 'problem') void vscode.window.showWarningMessage(configured.message);
  const service = configured.kind === 'ok' ? configured.service : await promptServiceUrl(ctx);
  if (!service) return;
  const key = await vscode.window.showInputBox({
    title: t('Flow Sync API key for {0}', service.origin),
    prompt: t('Stored in the system keyring (VS Code SecretStorage) and sent only to {0}.', service.origin),
    password: true,
    ignoreFocusOut: true,
    validateInput: (value) => apiKeyProblem(value.trim()),
  });
  if (key === undefined) return;
  try {
    await ctx.keys.set(service.origin, key.trim());
  } catch (e) {
    void vscode.window.showErrorMessage(secretStoreProblem(e));
    return;
  }
  ctx.log.info(`API key saved for ${service.origin}`);
  await ctx.service.reconfigure();
  ctx.service.explorer.reload();
  void vscode.window.showInformationMessage(t('API key saved for {0}.', service.origin));
}

export async function clearApiKey(ctx: CommandContext): Promise<void> {
  const configured = configuredService(ctx.settings.current);
  if (configured.kind !== 'ok') {
    void vscode.window.showInformationMessage(t('No Flow Sync service is set, so there is no API key to remove.'));
    return;
  }
  const service = configured.service;
  try {
    await ctx.keys.delete(service.origin);
  } catch (e) {
    void vscode.window.showErrorMessage(secretStoreProblem(e));
    return;
  }
  ctx.log.info(`API key removed for ${service.origin}`);
  await ctx.service.reconfigure();
  void vscode.window.showInformationMessage(t('API key removed for {0}.', service.origin));
}

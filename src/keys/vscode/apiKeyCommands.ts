import * as vscode from 'vscode';
import { apiKeyProblem } from '../../api/client';
import { t } from '../../base/l10n';
import { inert } from '../../base/inert';
import { secretStoreProblem } from './apiKeyStore';
import { configuredService } from '../../settings/vscode/settings';
import type { CommandContext } from '../../commands/vscode/commandContext';
import { promptServiceUrl } from '../../settings/vscode/serviceUrlCommand';
import { pickService } from '../../services/vscode/pickService';
import type { ServiceConnection } from '../../services/vscode/serviceConnection';
import { serviceScope } from '../../services/serviceTargets';

/** Where a key goes: the slot it is kept in, what the prompts call the service, and its connection. */
interface KeyPlace {
  scope: string;
  /** The service's name (several services) or its base URL (the one of flowsync.baseUrl). */
  label: string;
  service?: ServiceConnection;
}

/**
 * The service a key command is for. The one service of flowsync.baseUrl (asking for the URL first when none is set),
 * or one of flowsync.services, picked by name. Either way its key is kept for its exact base URL (two services may
 * share an origin with different path prefixes, and each has its own key).
 */
async function keyPlace(ctx: CommandContext, title: string, askUrl: boolean): Promise<KeyPlace | undefined> {
  const settings = ctx.settings.current;
  if (settings.services.length === 0) {
    const configured = configuredService(settings);
    if (configured.kind === 'problem') void vscode.window.showWarningMessage(configured.message);
    const url = configured.kind === 'ok' ? configured.service : askUrl ? await promptServiceUrl(ctx) : undefined;
    if (!url && !askUrl && configured.kind !== 'ok') {
      void vscode.window.showInformationMessage(t('No Flow Sync service is set, so there is no API key to remove.'));
    }
    return url && { scope: url.baseUrl, label: url.baseUrl, service: ctx.services.all[0] };
  }
  const service = await pickService(ctx.services, title);
  const scope = service && serviceScope(service.target, settings.allowHttp);
  return service && scope ? { scope, label: inert(service.name ?? scope), service } : undefined;
}

/** Set API Key...: which service (with several), then the key in a password box; it is sent to that service only. */
export async function setApiKey(ctx: CommandContext): Promise<void> {
  const place = await keyPlace(ctx, t('Set API Key'), true);
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
    await ctx.keys.set(place.scope, key.trim());
  } catch (e) {
    void vscode.window.showErrorMessage(secretStoreProblem(e));
    return;
  }
  ctx.log.info(`API key saved for ${place.label}`);
  await place.service?.reconfigure();
  place.service?.explorer.reload();
  void vscode.window.showInformationMessage(t('API key saved for {0}.', place.label));
}

export async function clearApiKey(ctx: CommandContext): Promise<void> {
  const place = await keyPlace(ctx, t('Remove API Key'), false);
  if (!place) return;
  try {
    await ctx.keys.delete(place.scope);
  } catch (e) {
    void vscode.window.showErrorMessage(secretStoreProblem(e));
    return;
  }
  ctx.log.info(`API key removed for ${place.label}`);
  await place.service?.reconfigure();
  void vscode.window.showInformationMessage(t('API key removed for {0}.', place.label));
}

import * as vscode from 'vscode';
import { inert } from '../../base/inert';
import { t } from '../../base/l10n';
import type { KeyPlace } from '../../keys/vscode/apiKeyCommands';
import type { Settings, SettingsFeed } from '../../settings/settingsFeed';
import { configuredService } from '../../settings/vscode/settingsEdits';
import type { ServicesSection } from '../servicesSection';
import { serviceScope } from '../serviceTargets';
import { pickService } from './pickService';
import type { ServiceRegistry } from './serviceRegistry';
import { promptServiceUrl } from './serviceUrlCommand';

/**
 * The service a key command is for (KeyCommandDeps.keyPlace). The one service of flowsync.baseUrl (asking for the URL
 * first when none is set), or one of flowsync.services, picked by name. Either way its key is kept for its exact base
 * URL (two services may share an origin with different path prefixes, and each has its own key).
 */
export async function keyPlace(
  deps: { readonly settings: SettingsFeed<Settings & ServicesSection>; readonly services: ServiceRegistry },
  title: string,
  askUrl: boolean,
): Promise<KeyPlace | undefined> {
  const settings = deps.settings.current;
  if (settings.services.length === 0) {
    const configured = configuredService(settings);
    if (configured.kind === 'problem') void vscode.window.showWarningMessage(configured.message);
    const url = configured.kind === 'ok' ? configured.service : askUrl ? await promptServiceUrl(deps) : undefined;
    if (!url && !askUrl && configured.kind !== 'ok') {
      void vscode.window.showInformationMessage(t('No Flow Sync service is set, so there is no API key to remove.'));
    }
    return url && { scope: url.baseUrl, label: url.baseUrl, service: deps.services.all[0] };
  }
  const service = await pickService(deps.services, title);
  const scope = service && serviceScope(service.target, settings.allowHttp);
  return service && scope ? { scope, label: inert(service.name ?? scope), service } : undefined;
}

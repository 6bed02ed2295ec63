import * as vscode from 'vscode';
import { ApiError } from '../../api/errors';
import { parseServiceUrl, type ServiceUrl } from '../../api/url';
import { t } from '../../base/l10n';
import { saveBaseUrl } from '../../settings/vscode/settingsEdits';
import type { Settings, SettingsFeed } from '../../settings/settingsFeed';
import type { ServicesSection } from '../servicesSection';
import type { ServiceRegistry } from './serviceRegistry';
import { COMMAND } from '../../base/commandIds';
import { showMessageWithAction } from '../../base/vscode/messages';

/** Asks for the service URL (validated as typed) and saves it to the user settings. Undefined when cancelled. */
export async function promptServiceUrl(deps: {
  readonly settings: SettingsFeed<Settings>;
  readonly services: Pick<ServiceRegistry, 'reconfigure'>;
}): Promise<ServiceUrl | undefined> {
  const { baseUrl, allowHttp } = deps.settings.current;
  const input = await vscode.window.showInputBox({
    title: t('Flow Sync service URL'),
    prompt: t('The address of your Flow Sync service, e.g. https://flowsync.example.com. Saved in your user settings.'),
    placeHolder: 'https://flowsync.example.com',
    value: baseUrl,
    ignoreFocusOut: true,
    validateInput: (value) => {
      try {
        parseServiceUrl(value, { allowHttp });
        return undefined;
      } catch (e) {
        return e instanceof ApiError ? e.message : String(e);
      }
    },
  });
  if (input === undefined) return undefined;
  const service = parseServiceUrl(input, { allowHttp });
  await saveBaseUrl(service.baseUrl);
  await deps.services.reconfigure();
  return service;
}

/** Set Service URL...: flowsync.baseUrl (while flowsync.services lists none), then offers to set its key. */
export async function setServiceUrl(deps: {
  readonly settings: SettingsFeed<Settings & ServicesSection>;
  readonly services: Pick<ServiceRegistry, 'reconfigure' | 'all'>;
}): Promise<void> {
  if (deps.settings.current.services.length > 0) {
    // flowsync.baseUrl is not used while flowsync.services lists services: changing it would change nothing shown.
    showMessageWithAction(
      'info',
      t(
        'Your services are listed in flowsync.services. Add one with Add Service..., or remove one with Remove Service....',
      ),
      t('Add Service'),
      COMMAND.addService,
    );
    return;
  }
  const service = await promptServiceUrl(deps);
  if (!service) return;
  if (deps.services.all[0]?.explorer.status === 'noKey') {
    showMessageWithAction(
      'info',
      t('Flow Sync service set to {0}. Enter an API key for it?', service.origin),
      t('Set API Key'),
      COMMAND.setApiKey,
    );
  }
}

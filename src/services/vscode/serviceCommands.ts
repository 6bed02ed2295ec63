import * as vscode from 'vscode';
import { ApiError } from '../../api/errors';
import { parseServiceUrl } from '../../api/url';
import { inert } from '../../base/inert';
import { t } from '../../base/l10n';
import { secretStoreProblem, type ApiKeyStore } from '../../keys/vscode/apiKeyStore';
import type { Settings, SettingsFeed } from '../../settings/settingsFeed';
import type { ServicesSection } from '../servicesSection';
import { MAX_SERVICES, MAX_SERVICE_NAME, mixesScripts, serviceNameKey } from '../serviceEntries';
import { withService, withoutService } from '../serviceEdits';
import { serviceScope } from '../serviceTargets';
import { pickService } from './pickService';
import type { ServiceConnection } from './serviceConnection';
import type { ServiceRegistry } from './serviceRegistry';
import { saveServices } from './saveServices';

/** What Add Service... and Remove Service... use: the settings, the services, the keyring (a removed service's key) and the log. */
export interface ServiceCommandDeps {
  readonly settings: SettingsFeed<Settings & ServicesSection>;
  readonly services: ServiceRegistry;
  readonly keys: Pick<ApiKeyStore, 'delete'>;
  readonly log: Pick<vscode.LogOutputChannel, 'info'>;
}

/**
 * Add Service...: asks for a name and the URL, and adds the service to `flowsync.services` (user settings). The first
 * time, the service of `flowsync.baseUrl` becomes the first entry, with the user's own team filter (never a
 * workspace's) and its key (kept for its base URL, as an entry's is), so nothing is lost.
 */
export async function addService(deps: ServiceCommandDeps): Promise<void> {
  const settings = deps.settings.current;
  if (settings.services.length >= MAX_SERVICES) {
    void vscode.window.showWarningMessage(t('Flow Sync shows at most {0} services. Remove one first.', MAX_SERVICES));
    return;
  }
  const taken = settings.services.map((s) => serviceNameKey(s.name));
  // The service of flowsync.baseUrl, kept as the first entry the first time (named after its host).
  const first = currentServiceEntry(settings);
  let currentName: string | undefined;
  if (first) {
    // The service shown so far keeps working beside the new one: the person names it (its host is offered).
    const current = await vscode.window.showInputBox({
      title: t('Add Service: the name of your current service, {0}', inert(first.url)),
      prompt: t(
        'Both services are shown side by side, each under its name. A name for the one you use now, e.g. Production.',
      ),
      value: first.name,
      ignoreFocusOut: true,
      validateInput: (value) => nameProblem(value, []),
    });
    if (current === undefined) return;
    currentName = current.trim();
    taken.splice(0, taken.length, serviceNameKey(currentName));
  }
  const name = await vscode.window.showInputBox({
    title: t('Add Service (1/2): name'),
    prompt: t(
      'A name for this Flow Sync service, e.g. Production or Staging (at most {0} characters).',
      MAX_SERVICE_NAME,
    ),
    ignoreFocusOut: true,
    validateInput: (value) => nameProblem(value, taken),
  });
  if (name === undefined) return;
  const url = await vscode.window.showInputBox({
    title: t('Add Service (2/2): URL of {0}', inert(name.trim())),
    prompt: t('The address of the Flow Sync service, e.g. https://flowsync.example.com.'),
    placeHolder: 'https://flowsync.example.com',
    ignoreFocusOut: true,
    validateInput: (value) => urlProblem(value, settings.allowHttp),
  });
  if (url === undefined) return;
  await addServiceNow(deps, { currentName, name, url });
}

/**
 * Adds a service to `flowsync.services` without the questions (Add Service... asks them; tests call this). The first
 * time, the service of `flowsync.baseUrl` comes first, named `currentName` (else after its host).
 */
export async function addServiceNow(
  deps: ServiceCommandDeps,
  answers: { currentName?: string; name: string; url: string },
): Promise<void> {
  const settings = deps.settings.current;
  const service = parseServiceUrl(answers.url, { allowHttp: settings.allowHttp });
  let raw: unknown = settings.servicesRaw;
  const first = currentServiceEntry(settings);
  // Its key stays where it is: the one service's key is kept for its base URL, as the entry's is (nothing is copied).
  if (first) raw = withService(raw, { ...first, name: answers.currentName?.trim() || first.name });
  await saveServices(withService(raw, { name: answers.name.trim(), url: service.baseUrl }));
  deps.log.info(`Service added: ${inert(answers.name.trim())}`);
  await deps.services.reconfigure();
}

/** The service of flowsync.baseUrl as an entry (named after its host), while no entries are listed; else undefined. */
function currentServiceEntry(
  settings: Readonly<Settings & ServicesSection>,
): { name: string; url: string; teamId?: string } | undefined {
  if (settings.services.length > 0 || !settings.baseUrl.trim()) return undefined;
  try {
    const url = parseServiceUrl(settings.baseUrl, { allowHttp: settings.allowHttp });
    // Only the user's own team filter moves into the user's settings: a workspace's stays in the workspace.
    return { name: new URL(url.baseUrl).host, url: url.baseUrl, teamId: settings.userTeamId || undefined };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return undefined;
  }
}

/** Remove Service...: which one, then (after asking) removes it from `flowsync.services` with its key. */
export async function removeService(deps: ServiceCommandDeps): Promise<void> {
  const settings = deps.settings.current;
  if (settings.services.length === 0) {
    void vscode.window.showInformationMessage(
      t('No services are listed in flowsync.services. Use Add Service... to add one.'),
    );
    return;
  }
  const service = await pickService(deps.services, t('Remove Service'));
  const name = service?.name;
  if (!service || name === undefined) return;
  const remove = t('Remove');
  const answer = await vscode.window.showWarningMessage(
    t('Remove the service {0} and its API key?', inert(name)),
    { modal: true },
    remove,
  );
  if (answer !== remove) return;
  await removeServiceNow(deps, service);
}

/** Removes a service from `flowsync.services`, and its key unless another service is kept under the same base URL. */
export async function removeServiceNow(deps: ServiceCommandDeps, service: ServiceConnection): Promise<void> {
  const settings = deps.settings.current;
  const name = service.name;
  if (name === undefined) return;
  const scope = serviceScope(service.target, settings.allowHttp);
  await saveServices(withoutService(settings.servicesRaw, name));
  // Its key goes too, unless another service is kept under the same base URL.
  const shared = deps.services.all.some(
    (other) => other !== service && serviceScope(other.target, settings.allowHttp) === scope,
  );
  if (scope && !shared) {
    try {
      await deps.keys.delete(scope);
    } catch (e) {
      void vscode.window.showErrorMessage(secretStoreProblem(e));
    }
  }
  deps.log.info(`Service removed: ${inert(name)}`);
  await deps.services.reconfigure();
  void vscode.window.showInformationMessage(t('Removed the service {0}.', inert(name)));
}

function nameProblem(value: string, taken: readonly string[]): string | undefined {
  const name = value.trim();
  if (!serviceNameKey(name)) return t('Enter a name.');
  if (name.length > MAX_SERVICE_NAME) return t('A name has at most {0} characters.', MAX_SERVICE_NAME);
  if (mixesScripts(name)) {
    return t('A name may not mix letters of different scripts in one word (such as a Cyrillic "о" in a Latin word).');
  }
  if (taken.includes(serviceNameKey(name))) {
    return t('A service of this name, or of a name that looks like it, is already set up.');
  }
  return undefined;
}

function urlProblem(value: string, allowHttp: boolean): string | undefined {
  try {
    parseServiceUrl(value, { allowHttp });
    return undefined;
  } catch (e) {
    return e instanceof ApiError ? e.message : String(e);
  }
}

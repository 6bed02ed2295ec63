import * as vscode from 'vscode';
import { inert } from '../../base/inert';
import { t } from '../../base/l10n';
import type { ServiceConnection } from './serviceConnection';
import type { ServiceRegistry } from './serviceRegistry';

/**
 * The service a command acts on: the only one, or the one a person picks by name (a quick pick in the order of the
 * settings). Undefined when the pick is cancelled.
 */
export async function pickService(
  services: ServiceRegistry,
  title: string,
  only: (s: ServiceConnection) => boolean = () => true,
): Promise<ServiceConnection | undefined> {
  const candidates = services.all.filter(only);
  if (!services.several) return candidates[0];
  if (candidates.length === 0) return undefined;
  type Pick = vscode.QuickPickItem & { service: ServiceConnection };
  const picks: Pick[] = candidates.map((service) => ({
    // Names come from the user's settings, URLs too: shown inert (no $(icon) syntax).
    label: inert(service.name ?? ''),
    description: inert(service.target.baseUrl),
    service,
  }));
  const picked = await vscode.window.showQuickPick(picks, { title, placeHolder: t('Choose a service') });
  return picked?.service;
}

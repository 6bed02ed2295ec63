import { COMMAND } from '../../base/commandIds';
import type { ListId } from '..';
import { t } from '../../base/l10n';
import { showMessageWithAction } from '../../base/vscode/messages';
import type { Explorer } from '../explorer';

/** What the refresh commands use: every service's Explorer. */
export interface RefreshDeps {
  readonly services: { readonly all: readonly { readonly explorer: Explorer }[] };
}

/** Runs on every service that can load; when none can yet, says what to do instead of silently doing nothing. */
async function whenReady(deps: RefreshDeps, run: (explorer: Explorer) => Promise<unknown>): Promise<void> {
  const explorers = deps.services.all.map((s) => s.explorer);
  const ready = explorers.filter((e) => e.status === 'ready');
  if (ready.length) {
    await Promise.all(ready.map(run));
    return;
  }
  const first = explorers[0];
  const needsUrl = !first || first.status === 'noUrl' || first.status === 'invalidUrl';
  showMessageWithAction(
    'info',
    first?.detail ?? t('Flow Sync is not set up yet.'),
    needsUrl ? t('Set Service URL') : t('Set API Key'),
    needsUrl ? COMMAND.setBaseUrl : COMMAND.setApiKey,
  );
}

export const refreshAll = (deps: RefreshDeps) => whenReady(deps, (explorer) => explorer.refreshAll());

/** The refresh command of one list (registered for each list's `refreshCommand`). */
export const refreshList = (id: ListId) => (deps: RefreshDeps) => whenReady(deps, (explorer) => explorer.refresh(id));

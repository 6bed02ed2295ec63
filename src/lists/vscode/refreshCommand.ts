import { COMMAND } from '../../base/commandIds';
import type { ListId } from '..';
import { t } from '../../base/l10n';
import { showMessageWithAction } from '../../base/vscode/messages';
import type { CommandContext } from '../../commands/vscode/commandContext';
import type { Explorer } from '../explorer';

/** Runs on every service that can load; when none can yet, says what to do instead of silently doing nothing. */
async function whenReady(ctx: CommandContext, run: (explorer: Explorer) => Promise<unknown>): Promise<void> {
  const explorers = ctx.services.all.map((s) => s.explorer);
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

export const refreshAll = (ctx: CommandContext) => whenReady(ctx, (explorer) => explorer.refreshAll());

/** The refresh command of one list (registered for each list's `refreshCommand`). */
export const refreshList = (id: ListId) => (ctx: CommandContext) => whenReady(ctx, (explorer) => explorer.refresh(id));

import { COMMAND } from '../../base/commandIds';
import type { ListId } from '..';
import { t } from '../../base/l10n';
import { showMessageWithAction } from '../../base/vscode/messages';
import type { CommandContext } from '../../commands/vscode/commandContext';

/** When nothing can load yet, says what to do instead of silently doing nothing. */
async function whenReady(ctx: CommandContext, run: () => Promise<unknown>): Promise<void> {
  if (ctx.service.explorer.status === 'ready') {
    await run();
    return;
  }
  const needsUrl = ctx.service.explorer.status === 'noUrl' || ctx.service.explorer.status === 'invalidUrl';
  showMessageWithAction(
    'info',
    ctx.service.explorer.detail ?? t('Flow Sync is not set up yet.'),
    needsUrl ? t('Set Service URL') : t('Set API Key'),
    needsUrl ? COMMAND.setBaseUrl : COMMAND.setApiKey,
  );
}

export const refreshAll = (ctx: CommandContext) => whenReady(ctx, () => ctx.service.explorer.refreshAll());

/** The refresh command of one list (registered for each list's `refreshCommand`). */
export const refreshList = (id: ListId) => (ctx: CommandContext) => whenReady(ctx, () => ctx.service.explorer.refresh(id));

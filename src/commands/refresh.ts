import * as vscode from 'vscode';
import { t } from '../l10n';
import type { CommandContext } from './context';

/**
 * When nothing can load yet, says what to do instead of silently doing nothing. The command does not wait for the
 * answer: a notification left open must not keep the command (or a keybinding's chain) pending.
 */
async function whenReady(ctx: CommandContext, run: () => Promise<unknown>): Promise<void> {
  if (ctx.explorer.status === 'ready') {
    await run();
    return;
  }
  const needsUrl = ctx.explorer.status === 'noUrl' || ctx.explorer.status === 'invalidUrl';
  const action = needsUrl ? t('Set Service URL') : t('Set API Key');
  void vscode.window.showInformationMessage(ctx.explorer.detail ?? t('Flow Sync is not set up yet.'), action).then((choice) => {
    if (choice === action) void vscode.commands.executeCommand(needsUrl ? 'flowsync.setBaseUrl' : 'flowsync.setApiKey');
  });
}

export const refreshAll = (ctx: CommandContext) =>
  whenReady(ctx, () => Promise.all([ctx.explorer.refreshProcessing(), ctx.explorer.refreshConnections()]));

export const refreshProcessing = (ctx: CommandContext) => whenReady(ctx, () => ctx.explorer.refreshProcessing());

export const refreshConnections = (ctx: CommandContext) => whenReady(ctx, () => ctx.explorer.refreshConnections());

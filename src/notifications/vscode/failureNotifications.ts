import * as vscode from 'vscode';
import { COMMAND } from '../../base/commandIds';
import type { Explorer } from '../../lists/explorer';
import { asSentence } from '../../base/format';
import { inert } from '../../base/inert';
import { NotificationGate } from '../notificationGate';
import { LISTS } from '../../lists';
import { t } from '../../base/l10n';
import { showMessageWithAction } from '../../base/vscode/messages';

/** Tells the person about failures: once per kind of trouble, with the action that fixes it. */
export interface FailureNotifications extends vscode.Disposable {
  /** Kinds announced so far, in order (for tests and diagnostics). */
  readonly shown: readonly string[];
  /** The texts shown, in the same order (inert: service text in them is never a link, icon or markup). */
  readonly texts: readonly string[];
}

export function watchFailures(explorer: Explorer): FailureNotifications {
  const shown: string[] = [];
  const texts: string[] = [];
  const gate = new NotificationGate();
  const lists = LISTS.map((list) => explorer.refresher(list.id));
  const check = () => {
    // An error another window met is shown here but announced there (src/sharing/pollLease.ts): one notification, not one per window.
    const errors = lists.map((l) => (l.state.errorShared ? undefined : l.state.error)).filter((e) => e !== undefined);
    if (errors.length === 0) {
      if (lists.some((l) => l.state.loadedAt !== undefined)) gate.recovered();
      return;
    }
    for (const error of errors) {
      if (error.kind === 'cancelled' || !gate.shouldNotify(error.kind)) continue;
      const unauthorized = error.kind === 'unauthorized';
      const text = inert(unauthorized ? t('Flow Sync: {0}', error.message) : t('Flow Sync: {0} Retrying automatically.', asSentence(error.message)));
      shown.push(error.kind);
      texts.push(text);
      if (unauthorized) showMessageWithAction('error', text, t('Set API Key'), COMMAND.setApiKey);
      else showMessageWithAction('warning', text, t('Show Log'), COMMAND.showLog);
    }
  };
  const subscriptions = lists.map((l) => l.onDidChange(check));
  return { shown, texts, dispose: () => subscriptions.forEach((s) => s.dispose()) };
}

import * as vscode from 'vscode';
import type { Explorer } from './core/explorer';
import { asSentence } from './core/format';
import { inert } from './core/inert';
import { NotificationGate } from './core/notificationGate';
import { t } from './l10n';

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
  const show = (kind: string, text: string) => {
    shown.push(kind);
    texts.push(text);
    return text;
  };
  const gate = new NotificationGate();
  const lists = [explorer.processing, explorer.connections];
  const check = () => {
    const errors = lists.map((l) => l.state.error).filter((e) => e !== undefined);
    if (errors.length === 0) {
      if (lists.some((l) => l.state.loadedAt !== undefined)) gate.recovered();
      return;
    }
    for (const error of errors) {
      if (error.kind === 'cancelled' || !gate.shouldNotify(error.kind)) continue;
      if (error.kind === 'unauthorized') {
        const setKey = t('Set API Key');
        void vscode.window.showErrorMessage(show(error.kind, inert(t('Flow Sync: {0}', error.message))), setKey).then((choice) => {
          if (choice === setKey) void vscode.commands.executeCommand('flowsync.setApiKey');
        });
      } else {
        const showLog = t('Show Log');
        void vscode.window.showWarningMessage(show(error.kind, inert(t('Flow Sync: {0} Retrying automatically.', asSentence(error.message)))), showLog).then((choice) => {
          if (choice === showLog) void vscode.commands.executeCommand('flowsync.showLog');
        });
      }
    }
  };
  const subscriptions = lists.map((l) => l.onDidChange(check));
  return { shown, texts, dispose: () => subscriptions.forEach((s) => s.dispose()) };
}

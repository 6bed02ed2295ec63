import * as vscode from 'vscode';
import type { Clock } from '../../base/clock';
import { t } from '../../base/l10n';
import { HISTORY_VIEW } from '../../history/vscode/historyView';
import { AwaySummary } from '../awaySummary';

/**
 * The window's "while you were away" (src/notifications/awaySummary.ts), told the focus by VS Code: news offered while
 * the window has been without the focus for more than 5 minutes is held, and said as one notification with Show
 * History when the focus comes back. Made at activation, so the absence is counted from its start.
 */
export function awayFromWindow(clock: Pick<Clock, 'now'>): AwaySummary & vscode.Disposable {
  const away = new AwaySummary(() => clock.now());
  const told = (state: vscode.WindowState) => {
    const summary = away.focus(state.focused);
    if (!summary) return;
    const show = t('Show History');
    void vscode.window.showInformationMessage(summary.text, show).then((choice) => {
      if (choice === show) void vscode.commands.executeCommand(`${HISTORY_VIEW}.focus`);
    });
  };
  told(vscode.window.state);
  const subscription = vscode.window.onDidChangeWindowState(told);
  return Object.assign(away, { dispose: () => subscription.dispose() });
}

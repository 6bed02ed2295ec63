import * as vscode from 'vscode';
import type { Explorer } from '../core/explorer';
import { statusSummary } from '../core/statusSummary';
import { t } from '../l10n';
import { COMMAND } from '../commandIds';
import { processingList } from '../lists/processing';

const ACTION_COMMANDS = { focus: `${processingList.viewId}.focus`, setApiKey: COMMAND.setApiKey, setBaseUrl: COMMAND.setBaseUrl } as const;

/** The status bar item: the processing count (a feature of the processing list), or what to do to get one. */
export class ProcessingStatusBar implements vscode.Disposable {
  readonly item = vscode.window.createStatusBarItem('flowsync.status', vscode.StatusBarAlignment.Left, 10);
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly explorer: Explorer) {
    this.item.name = t('Flow Sync');
    this.disposables = [this.item, explorer.lists.processing.onDidChange(() => this.render()), explorer.onDidChangeStatus(() => this.render())];
    this.render();
    this.item.show();
  }

  render(): void {
    const summary = statusSummary(this.explorer.status, this.explorer.detail, this.explorer.lists.processing.state);
    this.item.text = summary.text;
    const tooltip = new vscode.MarkdownString(summary.tooltip, true);
    this.item.tooltip = tooltip;
    this.item.command = ACTION_COMMANDS[summary.action];
    this.item.backgroundColor = summary.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.accessibilityInformation = { label: summary.text.replace(/\$\([^)]+\)\s*/g, '') };
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

import * as vscode from 'vscode';
import { DisposableStore } from '../core/events';
import type { Explorer } from '../core/explorer';
import type { Event } from '../core/events';
import { statusSummary, type StatusExtras } from '../core/statusSummary';
import { t } from '../l10n';
import { COMMAND } from '../commandIds';
import { processingList } from '../lists/processing';

const ACTION_COMMANDS = { focus: `${processingList.viewId}.focus`, setApiKey: COMMAND.setApiKey, setBaseUrl: COMMAND.setBaseUrl } as const;

/** The status bar item: the processing count (a feature of the processing list), or what to do to get one. */
export class ProcessingStatusBar implements vscode.Disposable {
  readonly item = vscode.window.createStatusBarItem('flowsync.status', vscode.StatusBarAlignment.Left, 10);
  private readonly disposables = new DisposableStore();

  constructor(
    private readonly explorer: Explorer,
    /** What History adds (stuck syncs, the last hour's sparkline), and when it changes. */
    private readonly extras?: { get(): StatusExtras; onDidChange: Event<void> },
  ) {
    this.item.name = t('Flow Sync');
    this.disposables.add(this.item, explorer.lists.processing.onDidChange(() => this.render()), explorer.onDidChangeStatus(() => this.render()));
    if (extras) this.disposables.add(extras.onDidChange(() => this.render()));
    this.render();
    this.item.show();
  }

  render(): void {
    const summary = statusSummary(this.explorer.status, this.explorer.detail, this.explorer.lists.processing.state, this.extras?.get());
    this.item.text = summary.text;
    const tooltip = new vscode.MarkdownString(summary.tooltip, true);
    this.item.tooltip = tooltip;
    this.item.command = ACTION_COMMANDS[summary.action];
    this.item.backgroundColor = summary.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.accessibilityInformation = { label: summary.text.replace(/\$\([^)]+\)\s*/g, '') };
  }

  dispose(): void {
    this.disposables.dispose();
  }
}

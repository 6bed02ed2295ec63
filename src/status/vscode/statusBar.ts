import * as vscode from 'vscode';
import { markdownHover } from '../../base/vscode/hover';
import { DisposableStore } from '../../base/events';
import type { Explorer } from '../../lists/explorer';
import type { Clock } from '../../base/clock';
import type { Event } from '../../base/events';
import { statusSummary, type StatusExtras } from '../statusSummary';
import { t } from '../../base/l10n';
import { COMMAND } from '../../base/commandIds';
import { processingList } from '../../lists/processing';

const ACTION_COMMANDS = { focus: `${processingList.viewId}.focus`, setApiKey: COMMAND.setApiKey, setBaseUrl: COMMAND.setBaseUrl } as const;

/** The status bar item: the processing count (a feature of the processing list), or what to do to get one. */
export class ProcessingStatusBar implements vscode.Disposable {
  /** Created at the first render: undefined until the Explorer has been configured. */
  private shownItem?: vscode.StatusBarItem;
  private readonly disposables = new DisposableStore();

  constructor(
    private readonly explorer: Explorer,
    private readonly clock: Clock,
    /** What History adds (stuck syncs, the last hour's sparkline), and when it changes. */
    private readonly extras?: { get(): StatusExtras; onDidChange: Event<void> },
  ) {
    this.disposables.add(explorer.lists.processing.onDidChange(() => this.render()), explorer.onDidChangeStatus(() => this.render()));
    if (extras) this.disposables.add(extras.onDidChange(() => this.render()));
    this.render();
  }

  /**
   * Shows what the Explorer knows. There is no item before its first configuration: until the key has been read
   * (SecretStorage can take a while, e.g. a locked keyring) "set up" would be wrong for a person who has set it up.
   */
  render(): void {
    if (!this.explorer.pollSettings) return;
    const item = (this.shownItem ??= this.createItem());
    const extras = this.extras;
    const summary = statusSummary(this.explorer.status, this.explorer.detail, this.explorer.lists.processing.state, extras && (() => extras.get()), this.clock.now());
    item.text = summary.text;
    item.tooltip = markdownHover(summary.tooltip, true);
    item.command = ACTION_COMMANDS[summary.action];
    item.backgroundColor = summary.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    item.accessibilityInformation = { label: summary.accessibleLabel };
    item.show(); // the text and colours above already send an update: showing again costs nothing more
  }

  /** The item (for tests): undefined before the first configuration. */
  get item(): vscode.StatusBarItem | undefined {
    return this.shownItem;
  }

  dispose(): void {
    this.disposables.dispose();
  }

  private createItem(): vscode.StatusBarItem {
    const item = vscode.window.createStatusBarItem('flowsync.status', vscode.StatusBarAlignment.Left, 10);
    item.name = t('Flow Sync');
    this.disposables.add(item);
    return item;
  }
}

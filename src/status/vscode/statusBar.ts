import * as vscode from 'vscode';
import { markdownHover } from '../../base/vscode/hover';
import { DisposableStore } from '../../base/events';
import type { Explorer } from '../../lists/explorer';
import type { Clock } from '../../base/clock';
import type { Event } from '../../base/events';
import { servicesSummary, statusSummary, type StatusExtras } from '../statusSummary';
import { t } from '../../base/l10n';
import { COMMAND } from '../../base/commandIds';
import { processingList } from '../../lists/processing';
import { eachService, type ServiceSet } from '../../base/serviceSet';

const ACTION_COMMANDS = {
  focus: `${processingList.viewId}.focus`,
  setApiKey: COMMAND.setApiKey,
  setBaseUrl: COMMAND.setBaseUrl,
} as const;

/** A service as the status bar reads it: its Explorer, and what its History adds. */
interface StatusService {
  readonly name?: string;
  readonly explorer: Explorer;
  /** What its History adds (stuck syncs, the last hour's sparkline), and when that changes. */
  readonly history?: { statusExtras(now: number): StatusExtras; readonly onDidChange: Event<void> };
  /** What History adds, given as it is (a test's stand-in for `history`). */
  extras?(): StatusExtras;
}

/** The services the status bar sums up, and when that changes (a service added or removed). */
export type StatusServices = Pick<ServiceSet<StatusService>, 'all' | 'several' | 'onDidChange'>;

/** Where the status bar's item is made: VS Code's window (in ExtensionMode.Test the test API's, which keeps it). */
export interface StatusBarItems {
  createStatusBarItem(id: string, alignment: vscode.StatusBarAlignment, priority: number): vscode.StatusBarItem;
}

/**
 * The status bar item: the processing count (a feature of the processing list), or what to do to get one. With
 * several services, the total over those whose data is shown; its hover lists each service with its count or trouble.
 * Made with the services' code, in their chunk (statusOnFirstUse.ts).
 */
export class ProcessingStatusBar implements vscode.Disposable {
  /** Created at the first render: undefined until an Explorer has been configured. */
  private shownItem?: vscode.StatusBarItem;
  private readonly disposables = new DisposableStore();

  constructor(
    private readonly services: StatusServices,
    private readonly clock: Clock,
    private readonly items: StatusBarItems = vscode.window,
  ) {
    this.disposables.add(
      eachService(
        services,
        ({ explorer, history }) => {
          const subscriptions = new DisposableStore();
          subscriptions.add(
            explorer.lists.processing.onDidChange(() => this.render()),
            explorer.onDidChangeStatus(() => this.render()),
          );
          if (history) subscriptions.add(history.onDidChange(() => this.render()));
          return subscriptions;
        },
        () => this.render(),
      ),
    );
    this.render();
  }

  /**
   * Shows what the Explorers know. There is no item before the first configuration: until the key has been read
   * (SecretStorage can take a while, e.g. a locked keyring) "set up" would be wrong for a person who has set it up.
   */
  render(): void {
    const services = this.services.all;
    if (!services.length || !services.every((s) => s.explorer.pollSettings)) return;
    const item = (this.shownItem ??= this.createItem());
    const now = this.clock.now();
    const summary = this.services.several
      ? servicesSummary(
          services.map((s) => {
            const extras = s.explorer.status === 'ready' ? extrasOf(s, now) : undefined;
            return {
              name: s.name ?? '',
              status: s.explorer.status,
              detail: s.explorer.detail,
              state: s.explorer.lists.processing.state,
              stuck: extras?.stuck ?? [],
              pinned: extras?.pinned,
            };
          }),
          now,
        )
      : statusSummary(
          services[0].explorer.status,
          services[0].explorer.detail,
          services[0].explorer.lists.processing.state,
          () => extrasOf(services[0], now),
          now,
        );
    item.text = summary.text;
    item.tooltip = markdownHover(summary.tooltip, true);
    item.command = ACTION_COMMANDS[summary.action];
    item.backgroundColor = summary.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    item.accessibilityInformation = { label: summary.accessibleLabel };
    item.show(); // the text and colours above already send an update: showing again costs nothing more
  }

  dispose(): void {
    this.disposables.dispose();
  }

  private createItem(): vscode.StatusBarItem {
    const item = this.items.createStatusBarItem('flowsync.status', vscode.StatusBarAlignment.Left, 10);
    item.name = t('Flow Sync');
    this.disposables.add(item);
    return item;
  }
}

/** What a service's History adds to the status bar now. */
function extrasOf(service: StatusService, now: number): StatusExtras {
  return service.extras?.() ?? service.history?.statusExtras(now) ?? { stuck: [] };
}

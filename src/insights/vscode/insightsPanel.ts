import * as vscode from 'vscode';
import { DisposableStore } from '../../base/events';
import { serviceName, type ServiceSet } from '../../base/serviceSet';
import { t } from '../../base/l10n';
import { makeNonce } from '../../base/nonce';
import { webviewHtml } from '../../base/webviewPage';
import { flowInsights } from '../../history/insights';
import type { HistoryService } from '../../history/vscode/historyService';
import {
  insightsPage,
  parseInsightsMessage,
  type InsightsPage,
  type InsightsPanelMessage,
  type InsightsRenderReport,
} from '../insightsPage';

export const INSIGHTS_VIEW_TYPE = 'flowsync.insights';

/** One service as the panel reads it: its name (several services) and its History. */
export interface InsightsService {
  readonly name?: string;
  readonly history: Pick<HistoryService, 'snapshot' | 'onDidChange'>;
}

/** What the panel reads, each time it draws: the services (they come and go), the days kept, the clock. */
export interface InsightsSource {
  /** The services; when they change, the panel listens to their Histories' changes anew. */
  readonly services: Pick<ServiceSet<InsightsService>, 'all' | 'several' | 'onDidChange'>;
  historyDays(): number;
  now(): number;
}

/** How long History's changes are gathered before the page gets the new numbers. */
const CHANGE_DELAY_MS = 500;

/**
 * The "Flow Insights" panel: one webview panel (shown again, not duplicated), built like the activity chart's (the
 * same strict Content Security Policy: scripts by nonce, styles from the extension only). Its numbers come from the
 * day summaries and the runs History holds in memory, never from a log file, and are computed when the page asks
 * (it loads) or History changed while it is visible. Its code is in the commands' chunk (esbuild.js CHUNKS: commands).
 */
export class InsightsPanel implements vscode.Disposable {
  private static shown: InsightsPanel | undefined;

  static get current(): InsightsPanel | undefined {
    return InsightsPanel.shown;
  }

  static show(extensionUri: vscode.Uri, source: InsightsSource): InsightsPanel {
    const open = InsightsPanel.shown;
    if (open) {
      open.panel.reveal();
      return open;
    }
    return (InsightsPanel.shown = new InsightsPanel(extensionUri, source));
  }

  readonly panel: vscode.WebviewPanel;
  private readonly disposables = new DisposableStore();
  private readonly perService = new DisposableStore();
  private readonly rendered = new vscode.EventEmitter<InsightsRenderReport>();
  /** The page drew the numbers (with any Content Security Policy violation it saw: expected none). */
  readonly onDidRender = this.rendered.event;
  /** The last page sent (tests read its numbers). */
  lastPage: InsightsPage | undefined;
  private pageReady = false;
  private changeTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  private constructor(
    extensionUri: vscode.Uri,
    private readonly source: InsightsSource,
  ) {
    const root = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
    this.panel = vscode.window.createWebviewPanel(
      INSIGHTS_VIEW_TYPE,
      t('Flow Insights'),
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      { enableScripts: true, localResourceRoots: [root], retainContextWhenHidden: false, enableFindWidget: true },
    );
    this.panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'flowsync.svg');
    this.disposables.add(
      this.rendered,
      this.perService,
      this.panel.webview.onDidReceiveMessage((data: unknown) => this.receive(data)),
      this.panel.onDidChangeViewState(() => {
        if (!this.panel.visible) this.pageReady = false;
      }),
      source.services.onDidChange(() => this.watchServices()),
      { dispose: () => clearTimeout(this.changeTimer) },
    );
    this.watchServices();
    this.panel.onDidDispose(() => this.dispose());
    const webview = this.panel.webview;
    const file = (name: string) =>
      webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', name)).toString();
    webview.html = webviewHtml({
      cspSource: webview.cspSource,
      nonce: makeNonce(),
      scriptUri: file('insights.js'),
      styleUri: file('insights.css'),
      lang: vscode.env.language,
      title: t('Flow Insights'),
    });
  }

  /** The page's numbers now: every service's flows from its summaries and runs in memory. */
  page(): InsightsPage {
    const now = this.source.now();
    // Named as everywhere (serviceName): only with several services; with one, the page names none.
    const services = this.source.services.all.map((s) => ({
      service: serviceName(this.source.services, s) ?? s.history.snapshot.origin ?? '',
      flows: flowInsights(s.history.snapshot.entries, s.history.snapshot.older, now),
    }));
    return insightsPage(services, this.source.services.several, this.source.historyDays(), now, (ms) =>
      new Date(ms).toLocaleTimeString(vscode.env.language, { hour: '2-digit', minute: '2-digit' }),
    );
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (InsightsPanel.shown === this) InsightsPanel.shown = undefined;
    this.disposables.dispose();
    this.panel.dispose();
  }

  private watchServices(): void {
    this.perService.clear();
    for (const s of this.source.services.all) this.perService.add(s.history.onDidChange(() => this.dataChanged()));
    this.dataChanged();
  }

  private receive(data: unknown): void {
    const message = parseInsightsMessage(data);
    if (!message) return;
    if (message.type === 'ready') {
      this.pageReady = true;
      this.post();
    } else {
      this.rendered.fire(message);
    }
  }

  private dataChanged(): void {
    if (this.changeTimer !== undefined) return;
    this.changeTimer = setTimeout(() => {
      this.changeTimer = undefined;
      if (this.panel.visible) this.post();
    }, CHANGE_DELAY_MS);
  }

  private post(): void {
    if (this.disposed || !this.pageReady) return;
    this.lastPage = this.page();
    void this.panel.webview.postMessage({ type: 'page', page: this.lastPage } satisfies InsightsPanelMessage);
  }
}

/** Shows the "Flow Insights" panel (one at a time: a second call reveals it). */
export function showInsightsPanel(
  context: Pick<vscode.ExtensionContext, 'extensionUri'>,
  source: InsightsSource,
): InsightsPanel {
  return InsightsPanel.show(context.extensionUri, source);
}

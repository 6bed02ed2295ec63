import * as vscode from 'vscode';
import type { ActivityRange, ActivitySeries } from '../activityData';
import { normalizeSeries, parsePageMessage, type PanelMessage, type RenderReport } from '../activityMessages';
import { DisposableStore } from '../../base/events';
import { inert } from '../../base/inert';
import { t } from '../../base/l10n';
import { activityStrings } from '../activityStrings';
import { makeNonce } from '../../base/nonce';
import { webviewHtml } from '../../base/webviewPage';

export const ACTIVITY_VIEW_TYPE = 'flowsync.activity';

/** The series of a range (from the recorded history). Called whenever the page needs data; keep it cheap. */
export type ActivitySeriesSource = (range: ActivityRange) => ActivitySeries;
/** Fires when the recorded history changed (vscode.Event<void> or an Event of src/base/events). */
export type ActivityChangeEvent = (listener: () => void) => { dispose(): void };

/** How long data changes are gathered before the page gets the new series. */
const CHANGE_DELAY_MS = 200;

/**
 * The "Flow Sync Activity" panel: one webview panel (shown again, not duplicated), drawing the series the source
 * gives for the range the page asks for, and again whenever the source says the data changed while the panel is
 * visible. The page is dropped while the panel is hidden (no retainContextWhenHidden) and asks for everything again
 * when shown.
 */
export class ActivityPanel implements vscode.Disposable {
  private static shown: ActivityPanel | undefined;

  /** The open panel, if any (for tests and the command). */
  static get current(): ActivityPanel | undefined {
    return ActivityPanel.shown;
  }

  /** Shows the panel (creating it when none is open); `range` switches the range, else it stays (first: the hour). */
  static show(
    extensionUri: vscode.Uri,
    getSeries: ActivitySeriesSource,
    onDidChange: ActivityChangeEvent,
    range?: ActivityRange,
  ): ActivityPanel {
    const open = ActivityPanel.shown;
    if (open) {
      open.panel.reveal();
      if (range && range !== open.range) open.setRange(range);
      return open;
    }
    ActivityPanel.shown = new ActivityPanel(extensionUri, getSeries, onDidChange, range ?? 'hour');
    return ActivityPanel.shown;
  }

  readonly panel: vscode.WebviewPanel;
  private readonly disposables = new DisposableStore();
  private readonly rendered = new vscode.EventEmitter<RenderReport>();
  /** The page drew a series (with the CSP violations it has seen, expected none). For tests and diagnostics. */
  readonly onDidRender = this.rendered.event;
  /** Whether the page (this load of it) has asked for data: messages before that are lost. */
  private pageReady = false;
  private changeTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  private constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly getSeries: ActivitySeriesSource,
    onDidChange: ActivityChangeEvent,
    private range: ActivityRange,
  ) {
    const root = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
    this.panel = vscode.window.createWebviewPanel(
      ACTIVITY_VIEW_TYPE,
      t('Flow Sync Activity'),
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      { enableScripts: true, localResourceRoots: [root], retainContextWhenHidden: false, enableFindWidget: false },
    );
    this.panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'flowsync.svg');
    this.disposables.add(
      this.rendered,
      this.panel.webview.onDidReceiveMessage((data: unknown) => this.receive(data)),
      this.panel.onDidChangeViewState(() => {
        // hidden: the page is gone; it sends 'ready' when it loads again
        if (!this.panel.visible) this.pageReady = false;
      }),
      onDidChange(() => this.dataChanged()),
      { dispose: () => clearTimeout(this.changeTimer) },
    );
    this.panel.onDidDispose(() => this.dispose());
    this.panel.webview.html = this.html();
  }

  /** The range shown. */
  get currentRange(): ActivityRange {
    return this.range;
  }

  setRange(range: ActivityRange): void {
    this.range = range;
    this.post('series');
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (ActivityPanel.shown === this) ActivityPanel.shown = undefined;
    this.disposables.dispose();
    this.panel.dispose();
  }

  private html(): string {
    const webview = this.panel.webview;
    const file = (name: string) =>
      webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview', name)).toString();
    return webviewHtml({
      cspSource: webview.cspSource,
      nonce: makeNonce(),
      scriptUri: file('activity.js'),
      styleUri: file('activity.css'),
      lang: vscode.env.language,
      title: t('Flow Sync Activity'),
    });
  }

  private receive(data: unknown): void {
    const message = parsePageMessage(data);
    if (!message) return;
    if (message.type === 'ready') {
      this.pageReady = true;
      this.post('init');
    } else if (message.type === 'range') {
      this.setRange(message.range);
    } else {
      this.rendered.fire(message);
    }
  }

  private dataChanged(): void {
    if (this.changeTimer !== undefined) return;
    this.changeTimer = setTimeout(() => {
      this.changeTimer = undefined;
      if (this.panel.visible) this.post('series');
    }, CHANGE_DELAY_MS);
  }

  private post(kind: 'init' | 'series'): void {
    if (this.disposed || !this.pageReady) return;
    let message: PanelMessage;
    try {
      const series = normalizeSeries(this.getSeries(this.range), this.range, t('(unnamed flow)'));
      message =
        kind === 'init'
          ? { type: 'init', strings: activityStrings(), locale: vscode.env.language, series }
          : { type: 'series', series };
    } catch (error) {
      const text = t('The activity could not be computed: {0}', inert(error instanceof Error ? error.message : error));
      if (kind === 'init') {
        // the page needs its words before it can show anything
        void this.panel.webview.postMessage({
          type: 'init',
          strings: activityStrings(),
          locale: vscode.env.language,
          series: normalizeSeries(undefined, this.range),
        } satisfies PanelMessage);
      }
      message = { type: 'error', message: text };
    }
    void this.panel.webview.postMessage(message);
  }
}

/**
 * Shows the "Flow Sync Activity" panel (one at a time: a second call reveals it). `context` is the extension's
 * context (only its extensionUri is used).
 */
export function showActivityPanel(
  context: Pick<vscode.ExtensionContext, 'extensionUri'>,
  getSeries: ActivitySeriesSource,
  onDidChange: ActivityChangeEvent,
  range?: ActivityRange,
): ActivityPanel {
  return ActivityPanel.show(context.extensionUri, getSeries, onDidChange, range);
}

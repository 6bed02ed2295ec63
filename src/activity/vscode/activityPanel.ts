import * as vscode from 'vscode';
import type { ActivityRange, ActivitySeries } from '../activityData';
import { normalizeSeries, parsePageMessage, type PageMessage, type PanelMessage } from '../activityMessages';
import { inert } from '../../base/inert';
import { t } from '../../base/l10n';
import { activityStrings } from '../activityStrings';
import { WebviewHost } from '../../base/vscode/webviewHost';
import { OnePanel } from '../../base/webviewPanel';

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
  private static readonly shown = new OnePanel<ActivityPanel>();

  /** Shows the panel (creating it when none is open); `range` switches the range, else it stays (first: the hour). */
  static show(
    extensionUri: vscode.Uri,
    getSeries: ActivitySeriesSource,
    onDidChange: ActivityChangeEvent,
    range?: ActivityRange,
  ): ActivityPanel {
    return WebviewHost.show(
      ActivityPanel.shown,
      () => new ActivityPanel(extensionUri, getSeries, onDidChange, range ?? 'hour'),
      (open) => range && range !== open.range && open.setRange(range),
    );
  }

  private readonly host: WebviewHost<PageMessage>;

  private constructor(
    extensionUri: vscode.Uri,
    private readonly getSeries: ActivitySeriesSource,
    onDidChange: ActivityChangeEvent,
    private range: ActivityRange,
  ) {
    this.host = new WebviewHost(
      extensionUri,
      {
        viewType: ACTIVITY_VIEW_TYPE,
        title: t('Flow Sync Activity'),
        page: 'activity',
        enableFindWidget: false,
        changeDelayMs: CHANGE_DELAY_MS,
      },
      {
        parse: parsePageMessage,
        ready: () => this.post('init'), // its words and the series
        receive: (message) => this.receive(message),
      },
    );
    this.host.add(onDidChange(() => this.host.changed(() => this.post('series'))));
  }

  get panel(): vscode.WebviewPanel {
    return this.host.panel;
  }

  setRange(range: ActivityRange): void {
    this.range = range;
    this.post('series');
  }

  dispose(): void {
    this.host.dispose();
  }

  /** The page's messages after 'ready': 'range' (a person's pick); what it drew ('rendered') asks for nothing. */
  private receive(message: PageMessage): void {
    if (message.type === 'range') this.setRange(message.range);
  }

  private post(kind: 'init' | 'series'): void {
    if (!this.host.ready) return;
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
        this.host.post({
          type: 'init',
          strings: activityStrings(),
          locale: vscode.env.language,
          series: normalizeSeries(undefined, this.range),
        } satisfies PanelMessage);
      }
      message = { type: 'error', message: text };
    }
    this.host.post(message);
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

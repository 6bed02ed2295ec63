import * as vscode from 'vscode';
import type { Clock } from '../../base/clock';
import { eachService, serviceName, type ServiceSet } from '../../base/serviceSet';
import { t } from '../../base/l10n';
import { WebviewHost } from '../../base/vscode/webviewHost';
import { OnePanel } from '../../base/webviewPanel';
import type { HistoryService } from '../../history/vscode/historyService';
import { parseInsightsMessage, type InsightsPageMessage, type InsightsPanelMessage } from '../insightsPage';
import { InsightsFeed, Throttle } from '../insightsUpdates';

const INSIGHTS_VIEW_TYPE = 'flowsync.insights';

/** One service as the panel reads it: its name (several services) and its History. */
interface InsightsService {
  readonly name?: string;
  readonly history: Pick<HistoryService, 'snapshot' | 'onDidChange'>;
}

/** What the panel reads, each time it draws: the services (they come and go), the days kept, the clock. */
export interface InsightsSource {
  /** The services; when they change, the panel listens to their Histories' changes anew. */
  readonly services: Pick<ServiceSet<InsightsService>, 'all' | 'several' | 'onDidChange'>;
  historyDays(): number;
  /** The extension's clock: the time of the numbers, and the gap between two pages posted. */
  readonly clock: Clock;
}

/** How long History's changes are gathered before the page gets the new numbers. */
const CHANGE_DELAY_MS = 500;

/**
 * The "Flow Insights" panel: one webview panel (shown again, not duplicated), built like the activity chart's (the
 * same strict Content Security Policy: scripts by nonce, styles from the extension only). Its numbers come from the
 * day summaries and the runs History holds in memory, never from a log file, and are computed when the page asks
 * (it loads) or History changed while it is visible: only the services whose History changed are computed again
 * (FlowsByService; the others' last 24 hours are brought to the time alone), the page gets the whole page when it
 * loads and then only the services and flows whose rows changed (InsightsFeed; the page merges them), at most every
 * 3 s however often History changes (Throttle). Its code is in the commands' chunk (esbuild.js CHUNKS: commands).
 */
export class InsightsPanel implements vscode.Disposable {
  private static readonly shown = new OnePanel<InsightsPanel>();

  static show(extensionUri: vscode.Uri, source: InsightsSource): InsightsPanel {
    return WebviewHost.show(InsightsPanel.shown, () => new InsightsPanel(extensionUri, source));
  }

  private readonly host: WebviewHost<InsightsPageMessage>;
  private readonly feed = new InsightsFeed<InsightsService>((ms) =>
    new Date(ms).toLocaleTimeString(vscode.env.language, { hour: '2-digit', minute: '2-digit' }),
  );
  private readonly throttle: Throttle;

  private constructor(
    extensionUri: vscode.Uri,
    private readonly source: InsightsSource,
  ) {
    this.throttle = new Throttle(source.clock);
    this.host = new WebviewHost(
      extensionUri,
      {
        viewType: INSIGHTS_VIEW_TYPE,
        title: t('Flow Insights'),
        page: 'insights',
        enableFindWidget: true,
        changeDelayMs: CHANGE_DELAY_MS,
      },
      {
        parse: parseInsightsMessage,
        ready: () => {
          this.feed.reset(); // the whole page
          this.post();
        },
        receive: () => undefined, // what the page drew ('rendered') asks for nothing
      },
    );
    const changed = () => this.throttle.request(() => this.host.changed(() => this.post()));
    this.host.add(
      this.throttle,
      eachService(source.services, (s) => s.history.onDidChange(changed), changed),
    );
    changed();
  }

  get panel(): vscode.WebviewPanel {
    return this.host.panel;
  }

  dispose(): void {
    this.host.dispose();
  }

  /** Posts what changed since the last post (the whole page after the page loaded); nothing when nothing did. */
  private post(): void {
    if (!this.host.ready) return;
    // Named as everywhere (serviceName): only with several services; with one, the page names none.
    const services = this.source.services.all.map((s) => ({
      service: s,
      name: serviceName(this.source.services, s) ?? s.history.snapshot.origin ?? '',
      snapshot: s.history.snapshot,
    }));
    const update = this.feed.next(
      services,
      this.source.services.several,
      this.source.historyDays(),
      this.source.clock.now(),
    );
    if (update) this.host.post(update satisfies InsightsPanelMessage);
  }
}

/** Shows the "Flow Insights" panel (one at a time: a second call reveals it). */
export function showInsightsPanel(
  context: Pick<vscode.ExtensionContext, 'extensionUri'>,
  source: InsightsSource,
): InsightsPanel {
  return InsightsPanel.show(context.extensionUri, source);
}

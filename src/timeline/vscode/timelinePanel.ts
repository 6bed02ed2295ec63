import * as vscode from 'vscode';
import type { Clock } from '../../base/clock';
import { PANEL_VIEW_TYPES } from '../../base/commandIds';
import type { Disposable } from '../../base/events';
import { t } from '../../base/l10n';
import { eachService, serviceName, type ServiceSet } from '../../base/serviceSet';
import { WebviewHost } from '../../base/vscode/webviewHost';
import { OnePanel } from '../../base/webviewPanel';
import type { FilterSubjects } from '../../filter/filterMatch';
import type { Filter } from '../../filter/filterQuery';
import { flowNameOf, type HistoryEntry } from '../../history/entry';
import { historyRunSubjects } from '../../history/findRows';
import type { HistoryService } from '../../history/vscode/historyService';
import { timelineData, type ProcessingRun } from '../timelineData';
import {
  parseTimelineMessage,
  type TimelineState,
  type RunAction,
  type TimelinePageMessage,
  type TimelinePanelMessage,
} from '../timelineMessages';
import { timelineStrings } from '../timelineStrings';

export const TIMELINE_VIEW_TYPE = PANEL_VIEW_TYPES.timeline;

/** One service as the timeline reads it: its id and name, its History (runs, processing syncs, pins, watches). */
export interface TimelineService {
  readonly id: string;
  readonly name?: string;
  readonly history: Pick<HistoryService, 'snapshot' | 'onDidChange' | 'tracked' | 'isStuck' | 'isWatched' | 'pins'>;
}

/** What the panel reads and does: the services, History's filter, and what a chosen run opens. */
export interface TimelineSource<S extends TimelineService> {
  readonly services: Pick<ServiceSet<S>, 'all' | 'several' | 'onDidChange'>;
  readonly clock: Clock;
  /** The History view's filter (the timeline shows the runs it keeps), and its changes. */
  historyFilter(): Filter | undefined;
  onDidChangeFilter(listener: () => void): Disposable;
  /** A run chosen on the page: shown in History (or Processing), opened as JSON, or its web page opened. */
  act(action: RunAction, service: S, run: { entry?: HistoryEntry; processingId?: number }): Promise<void>;
}

/** How long History's changes are gathered before the page gets the runs again. */
const CHANGE_DELAY_MS = 1_000;

/**
 * The "Run Timeline" panel: one webview panel (shown again, not duplicated) on the webview host, built like the
 * activity chart's (the same strict Content Security Policy). It sends the page the runs of one service (the picker
 * chooses among several) from History in memory, never asking the service: History's runs and the syncs processing
 * now, as History's filter keeps them (src/timeline/timelineData.ts); the page lays out and draws only what its window
 * shows. Sent again when History, the services or the filter change while it is visible. Its code is in the
 * commands' chunk (esbuild.js CHUNKS: commands); its page is dist/webview/timeline.js.
 */
export class TimelinePanel<S extends TimelineService> implements vscode.Disposable {
  private static readonly shown = new OnePanel<TimelinePanel<TimelineService>>();

  /** Shows the panel (creating it when none is open); `restored`: the state a restored panel came back with (checked). */
  static show<S extends TimelineService>(
    extensionUri: vscode.Uri,
    source: TimelineSource<S>,
    restored?: TimelineState,
  ): TimelinePanel<S> {
    return WebviewHost.show(
      TimelinePanel.shown as OnePanel<TimelinePanel<S>>,
      () => new TimelinePanel(extensionUri, source, restored),
    );
  }

  private readonly host: WebviewHost<TimelinePageMessage>;
  private readonly subjects = new WeakMap<S, { name: string; of: FilterSubjects<HistoryEntry> }>();
  /** The service shown (its name; '' with one service). */
  private service: string | undefined;

  private constructor(
    extensionUri: vscode.Uri,
    private readonly source: TimelineSource<S>,
    private readonly restored: TimelineState | undefined,
  ) {
    this.service = restored?.service;
    this.host = new WebviewHost(
      extensionUri,
      {
        viewType: TIMELINE_VIEW_TYPE,
        title: t('Run Timeline'),
        page: 'timeline',
        enableFindWidget: false,
        changeDelayMs: CHANGE_DELAY_MS,
      },
      { parse: parseTimelineMessage, ready: () => this.post(), receive: (message) => this.receive(message) },
    );
    const changed = () => this.host.changed(() => this.post());
    this.host.add(
      eachService(source.services, (s) => s.history.onDidChange(changed), changed),
      source.onDidChangeFilter(changed),
    );
  }

  get panel(): vscode.WebviewPanel {
    return this.host.panel;
  }

  dispose(): void {
    this.host.dispose();
  }

  /** The service shown: the one of the name chosen, else the first. */
  private chosen(): S | undefined {
    const all = this.source.services.all;
    return all.find((s) => this.nameOf(s) === this.service) ?? all[0];
  }

  private nameOf(s: S): string {
    return serviceName(this.source.services, s) ?? '';
  }

  private receive(message: TimelinePageMessage): void {
    if (message.type === 'service') {
      this.service = message.service;
      this.post();
    } else if (message.type === 'run') {
      const service = this.chosen();
      if (!service) return;
      if (message.end < 0) {
        if (service.history.tracked.has(message.id)) {
          void this.source.act(message.action, service, { processingId: message.id });
        }
        return;
      }
      const entry = service.history.snapshot.entries.find((e) => e.id === message.id && e.leftAt === message.end);
      if (entry) void this.source.act(message.action, service, { entry });
    }
  }

  /**
   * A service's runs as History's filter sees them: kept while the panel is open (each run's texts folded once, when a
   * word or field term reads them).
   */
  private subjectsOf(service: S, name: string): FilterSubjects<HistoryEntry> {
    let subjects = this.subjects.get(service);
    if (subjects?.name !== name) {
      subjects = {
        name,
        of: historyRunSubjects(
          () => name,
          (id) => service.history.isWatched('sync', id),
        ),
      };
      this.subjects.set(service, subjects);
    }
    return subjects.of;
  }

  private post(): void {
    if (!this.host.ready) return;
    const service = this.chosen();
    const now = this.source.clock.now();
    const names = this.source.services.several ? this.source.services.all.map((s) => this.nameOf(s)) : [];
    const name = service ? this.nameOf(service) : '';
    const filter = this.source.historyFilter();
    let keep: ((entry: HistoryEntry) => boolean) | undefined;
    if (service && filter) {
      const subjects = this.subjectsOf(service, name);
      keep = (entry) => subjects.matches(filter, entry);
    }
    const history = service?.history;
    const data = timelineData(
      {
        entries: history?.snapshot.entries ?? [],
        processing: history ? processingRuns(history, now) : [],
        pinned: history?.pins.ids() ?? [],
        keep,
        filterText: filter?.source,
      },
      now,
      name,
      names,
    );
    this.host.post({
      type: 'timeline',
      strings: timelineStrings(),
      locale: vscode.env.language,
      data,
      ...(this.restored ? { restored: this.restored } : {}),
    } satisfies TimelinePanelMessage);
  }
}

/** The syncs History sees processing now, as the timeline's runs. */
function processingRuns(history: TimelineService['history'], now: number): ProcessingRun[] {
  return [...history.tracked.values()].map((s) => ({
    id: s.sync.id,
    flowId: s.sync.flow_id,
    flowName: flowNameOf(s.sync),
    createdAt: s.sync.created_at,
    firstSeen: s.firstSeen,
    hadErrors: s.sync.errors !== null && s.sync.errors !== undefined,
    stuck: history.isStuck(s.sync, now),
  }));
}

import type * as vscode from 'vscode';
import { PANEL_VIEW_TYPES } from '../../base/commandIds';
import { t } from '../../base/l10n';
import { own } from '../../base/own';
import type { ServiceSet } from '../../base/serviceSet';
import { WebviewHost } from '../../base/vscode/webviewHost';
import { activitySeries, processingNow, type ActivitySeries } from '../../history/index';
import type { HistoryService } from '../../history/vscode/historyService';
import { isActivityRange, type ActivityRange, type ActivitySeries as ChartSeries } from '../activityData';
import { showActivityPanel } from './activityPanel';
import { unwatchedWords } from '../activityStrings';

/** A service as Show Activity sees it: its History and the key its texts are masked of. */
export interface ActivityService {
  readonly name?: string;
  readonly history: HistoryService;
  readonly explorer: { readonly keyToHide?: string };
}

/** What Show Activity uses. */
export interface ActivityCommandDeps<S extends ActivityService> {
  /** Where the extension is installed (the panel's page and styles). */
  readonly extensionUri: vscode.Uri;
  now(): number;
  /** The only service, or the one picked by name; undefined when cancelled. */
  pickService(title: string): Promise<S | undefined>;
}

/** Show Activity: opens (or reveals) the activity chart of a service's History (the only one, or the one picked). */
export async function showActivity<S extends ActivityService>(deps: ActivityCommandDeps<S>): Promise<void> {
  const service = await deps.pickService(t('Show Activity'));
  if (service) openActivityChart(deps, service);
}

/**
 * The activity chart as it was before a reload, in the panel VS Code restored: of the service its page kept (else the
 * first), in its range. `state` comes from the page: its range and the service's name are read only when well-formed.
 */
export function restoreActivity<S extends ActivityService>(
  deps: Pick<ActivityCommandDeps<S>, 'extensionUri' | 'now'> & {
    readonly services: Pick<ServiceSet<S>, 'all' | 'byName'>;
  },
  panel: vscode.WebviewPanel,
  state: unknown,
): void {
  const kept = own(own(state, 'host'), 'service');
  const range = own(state, 'range');
  const service = (typeof kept === 'string' && kept ? deps.services.byName(kept) : undefined) ?? deps.services.all[0];
  if (!service) return panel.dispose();
  openActivityChart(deps, service, panel, isActivityRange(range) ? range : undefined);
}

/** Opens (or reveals) the activity chart of a service's History (in `restored`, a panel VS Code restored). */
function openActivityChart<S extends ActivityService>(
  deps: Pick<ActivityCommandDeps<S>, 'extensionUri' | 'now'>,
  service: S,
  restored?: vscode.WebviewPanel,
  range?: ActivityRange,
): void {
  const { history } = service;
  const keyToHide = () => service.explorer.keyToHide;
  const now = deps.now;
  const name = service.name ?? '';
  WebviewHost.opening(PANEL_VIEW_TYPES.activity, { panel: restored, keep: { service: name } }, () =>
    showActivityPanel(
      deps,
      (asked) => {
        const series = activitySeries(
          history.snapshot.entries,
          processingNow(history.tracked, keyToHide()),
          now(),
          asked,
          undefined,
          history.snapshot.older,
        );
        // Team History: the stretches nobody watched, in words, and shaded where no window watched at all.
        const gaps = history.teamUnwatched(series.times[0] ?? now(), now());
        const nobody = gaps?.filter((g) => g.teams.length === 0).map((g): [number, number] => [g.from, g.to]);
        return { ...chartSeries(series), ...(gaps ? { unwatched: unwatchedWords(gaps), gaps: nobody } : {}) };
      },
      history.onDidChange,
      range,
    ),
  );
}

/** The chart's series from History's activity series (the bands become named flows; "other" is drawn neutral). */
function chartSeries(series: ActivitySeries): ChartSeries {
  return {
    range: series.range,
    times: [...series.times],
    flows: series.bands.map((band) => ({ name: band.label, counts: [...band.values], other: band.key === 'other' })),
  };
}

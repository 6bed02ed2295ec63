import type * as vscode from 'vscode';
import { t } from '../../base/l10n';
import { activitySeries, processingNow, type ActivitySeries } from '../../history/index';
import type { HistoryService } from '../../history/vscode/historyService';
import type { ActivitySeries as ChartSeries } from '../activityData';
import { showActivityPanel } from './activityPanel';
import { unwatchedWords } from '../activityStrings';

/** A service as Show Activity sees it: its History and the key its texts are masked of. */
export interface ActivityService {
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
  if (service) openActivityChart(deps, service.history, () => service.explorer.keyToHide, deps.now);
}

/** Opens (or reveals) the activity chart of History. */
function openActivityChart(
  context: Pick<vscode.ExtensionContext, 'extensionUri'>,
  history: HistoryService,
  keyToHide: () => string | undefined,
  now: () => number,
): void {
  showActivityPanel(
    context,
    (range) => {
      const series = activitySeries(
        history.snapshot.entries,
        processingNow(history.tracked, keyToHide()),
        now(),
        range,
        undefined,
        history.snapshot.older,
      );
      const gaps = history.teamUnwatched(series.times[0] ?? now(), now());
      const nobody = gaps?.filter((g) => g.teams.length === 0).map((g): [number, number] => [g.from, g.to]);
      return { ...chartSeries(series), ...(gaps ? { unwatched: unwatchedWords(gaps), gaps: nobody } : {}) };
    },
    history.onDidChange,
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

import type * as vscode from 'vscode';
import { activitySeries, processingNow, type ActivitySeries } from '../../history/index';
import type { HistoryService } from '../../history/vscode/historyService';
import type { ActivitySeries as ChartSeries } from '../activityData';
import { showActivityPanel } from './activityPanel';

/**
 * Opens (or reveals) the activity chart of History. With the panel and the chart's series, this is its own chunk,
 * dist/chunks/activityChart.js (esbuild.js CHUNKS), loaded when the chart is first opened.
 */
export function openActivityChart(
  context: Pick<vscode.ExtensionContext, 'extensionUri'>,
  history: HistoryService,
  keyToHide: () => string | undefined,
  now: () => number,
): void {
  showActivityPanel(
    context,
    (range) =>
      chartSeries(
        activitySeries(
          history.snapshot.entries,
          processingNow(history.tracked, keyToHide()),
          now(),
          range,
          undefined,
          history.snapshot.older,
        ),
      ),
    history.onDidChange,
  );
}

/** The chart's series from History's activity series (the bands become named flows; "other" is drawn neutral). */
export function chartSeries(series: ActivitySeries): ChartSeries {
  return {
    range: series.range,
    times: [...series.times],
    flows: series.bands.map((band) => ({ name: band.label, counts: [...band.values], other: band.key === 'other' })),
  };
}

import type * as vscode from 'vscode';
import { activitySeries, processingNow } from '../../history/index';
import type { HistoryService } from '../../history/vscode/historyService';
import { chartSeries } from '../../history/vscode/historyUi';
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

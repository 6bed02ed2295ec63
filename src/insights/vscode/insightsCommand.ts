import type * as vscode from 'vscode';
import type { Clock } from '../../base/clock';
import { PANEL_VIEW_TYPES } from '../../base/commandIds';
import { WebviewHost } from '../../base/vscode/webviewHost';
import type { Settings, SettingsFeed } from '../../settings/settingsFeed';
import { showInsightsPanel, type InsightsSource } from './insightsPanel';

/** What Show Flow Insights uses. */
export interface InsightsCommandDeps {
  /** Where the extension is installed (the panel's page and styles). */
  readonly extensionUri: vscode.Uri;
  readonly services: InsightsSource['services'];
  readonly settings: SettingsFeed<Settings>;
  /** The extension's clock (the panel's time and the gap between its pages). */
  readonly clock: Clock;
}

/** Show Flow Insights: opens (or reveals) the panel, which reads every service's History and the days kept. */
export function showInsights(deps: InsightsCommandDeps): void {
  showInsightsPanel(deps, {
    services: deps.services,
    historyDays: () => deps.settings.current.historyDays,
    clock: deps.clock,
  });
}

/** Flow Insights as it was before a reload, in the panel VS Code restored (its page keeps its own scroll). */
export function restoreInsights(deps: InsightsCommandDeps, panel: vscode.WebviewPanel): void {
  WebviewHost.opening(PANEL_VIEW_TYPES.insights, { panel }, () => showInsights(deps));
}

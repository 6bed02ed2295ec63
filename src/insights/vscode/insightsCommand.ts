import type * as vscode from 'vscode';
import type { Settings, SettingsFeed } from '../../settings/settingsFeed';
import { showInsightsPanel, type InsightsSource } from './insightsPanel';

/** What Show Flow Insights uses. */
export interface InsightsCommandDeps {
  /** Where the extension is installed (the panel's page and styles). */
  readonly extensionUri: vscode.Uri;
  readonly services: InsightsSource['services'];
  readonly settings: SettingsFeed<Settings>;
  now(): number;
}

/** Show Flow Insights: opens (or reveals) the panel, which reads every service's History and the days kept. */
export function showInsights(deps: InsightsCommandDeps): void {
  showInsightsPanel(deps, {
    services: deps.services,
    historyDays: () => deps.settings.current.historyDays,
    now: () => deps.now(),
  });
}

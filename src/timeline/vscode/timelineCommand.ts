import type * as vscode from 'vscode';
import { WebviewHost } from '../../base/vscode/webviewHost';
import { parseTimelineState } from '../timelineMessages';
import { TIMELINE_VIEW_TYPE, TimelinePanel, type TimelineService, type TimelineSource } from './timelinePanel';

/** What Show Run Timeline uses: where the extension is installed (the page), and what the panel reads and does. */
export interface TimelineCommandDeps<S extends TimelineService> extends TimelineSource<S> {
  readonly extensionUri: vscode.Uri;
}

/** Show Run Timeline: opens (or reveals) the timeline of History's runs (the first service's; the page picks others). */
export function showTimeline<S extends TimelineService>(deps: TimelineCommandDeps<S>): void {
  TimelinePanel.show(deps.extensionUri, deps);
}

/**
 * The Run Timeline as it was before a reload: in the panel VS Code restored, with the service its page kept (`state`
 * comes from the page: checked, parseTimelineState; the page starts from it when it keeps no state of its own).
 */
export function restoreTimeline<S extends TimelineService>(
  deps: TimelineCommandDeps<S>,
  panel: vscode.WebviewPanel,
  state: unknown,
): void {
  const restored = parseTimelineState(state, deps.clock.now());
  WebviewHost.opening(TIMELINE_VIEW_TYPE, { panel }, () => TimelinePanel.show(deps.extensionUri, deps, restored));
}

import * as vscode from 'vscode';
import { t } from '../../base/l10n';
import type { JsonDocumentsOnDemand } from '../../json/vscode/jsonDocumentsOnDemand';
import type { HistoryEntry } from '../index';
import { HISTORY_VIEW } from './historyView';

/*
 * Its own chunk (esbuild.js CHUNKS: announce), loaded the first time a sync a person is told about leaves processing.
 */

/** The one notification of a poll, with "Open as JSON" (one sync) and "Show History". */
export function announceFinished(
  text: string,
  entries: readonly HistoryEntry[],
  json: JsonDocumentsOnDemand,
  service: string,
): void {
  const open = t('Open as JSON');
  const show = t('Show History');
  const actions = entries.length === 1 && entries[0].raw ? [open, show] : [show];
  void vscode.window.showInformationMessage(text, ...actions).then((choice) => {
    if (choice === open) {
      void json.open({ list: 'processing', kind: 'history', id: entries[0].id, leftAt: entries[0].leftAt, service });
    }
    if (choice === show) void vscode.commands.executeCommand(`${HISTORY_VIEW}.focus`);
  });
}

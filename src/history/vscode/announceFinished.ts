import * as vscode from 'vscode';
import { COMMAND } from '../../base/commandIds';
import { t } from '../../base/l10n';
import type { HistoryNotice } from '../historyService';
import { noticeActions, type NoticeAction } from '../noticeActions';
import { HISTORY_VIEW } from './historyView';

/*
 * Its own chunk (esbuild.js CHUNKS: announce), loaded the first time History tells the person something.
 */

/** Opens a sync that left processing as JSON (the JSON documents: src/json/vscode/jsonDocuments.ts). */
export interface OpenRunAsJson {
  open(target: { list: 'processing'; kind: 'history'; id: number; leftAt: number; service: string }): Promise<void>;
}

/**
 * Shows what History says (HistoryService.onDidNotify), its text named by `named` (the service's name when there are
 * several), with the buttons that fit it (src/history/noticeActions.ts): a notification, which a screen reader reads
 * out without taking the focus; a warning for a stuck sync or History that cannot be written. `syncPage`: its service
 * has a web page for syncs (Open in Browser).
 */
export function announce(
  notice: HistoryNotice,
  named: (text: string) => string,
  json: OpenRunAsJson,
  service: string,
  syncPage = false,
): void {
  const actions = noticeActions(notice, syncPage);
  const titles = actions.map(titleOf);
  const show =
    notice.kind === 'finished' || notice.kind === 'slower'
      ? vscode.window.showInformationMessage
      : vscode.window.showWarningMessage;
  void show(named(notice.text), ...titles).then((choice) => {
    const action = actions[titles.indexOf(choice ?? '')];
    if (action) run(action, notice, json, service);
  });
}

function titleOf(action: NoticeAction): string {
  switch (action) {
    case 'openJson':
      return t('Open as JSON');
    case 'openInBrowser':
      return t('Open in Browser');
    case 'showHistory':
      return t('Show History');
    case 'showTimeline':
      return t('Show in Timeline');
    case 'showInsights':
      return t('Show Flow Insights');
    case 'showLog':
      return t('Show Log');
  }
}

function run(action: NoticeAction, notice: HistoryNotice, json: OpenRunAsJson, service: string): void {
  const one = notice.kind === 'finished' ? notice.entries[0] : notice.kind === 'stuck' ? notice.sync : undefined;
  if (action === 'openJson' && notice.kind === 'finished') {
    const entry = notice.entries[0];
    void json.open({ list: 'processing', kind: 'history', id: entry.id, leftAt: entry.leftAt, service });
  }
  // The run as History's row is given: the command opens its service's page for it (or says why not).
  if (action === 'openInBrowser' && one) {
    void vscode.commands.executeCommand(COMMAND.openInBrowser, { kind: 'historyEntry', entry: one, service });
  }
  if (action === 'showHistory') void vscode.commands.executeCommand(`${HISTORY_VIEW}.focus`);
  if (action === 'showTimeline') void vscode.commands.executeCommand(COMMAND.showTimeline);
  if (action === 'showInsights') void vscode.commands.executeCommand(COMMAND.showInsights);
  if (action === 'showLog') void vscode.commands.executeCommand(COMMAND.showLog);
}

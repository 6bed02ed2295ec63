import * as vscode from 'vscode';
import { COMMAND } from '../../base/commandIds';
import { t } from '../../base/l10n';
import type { HistoryEntry } from '../index';
import type { HistoryNotice } from '../historyService';
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
 * several): a notification, which a screen reader reads out without taking the focus; a warning for a stuck sync or
 * History that cannot be written.
 */
export function announce(
  notice: HistoryNotice,
  named: (text: string) => string,
  json: OpenRunAsJson,
  service: string,
  syncPage = false,
): void {
  if (notice.kind === 'finished') announceFinished(named(notice.text), notice.entries, json, service, syncPage);
  else if (notice.kind === 'stuck' && notice.sync && syncPage) announceStuck(named(notice.text), notice.sync, service);
  else if (notice.kind === 'slower') void vscode.window.showInformationMessage(named(notice.text));
  else void vscode.window.showWarningMessage(named(notice.text));
}

/** A warning naming one stuck sync, with "Open in Browser" (its service has a page for syncs). */
function announceStuck(text: string, sync: { id: number; flowId: number }, service: string): void {
  const browse = t('Open in Browser');
  void vscode.window.showWarningMessage(text, browse).then((choice) => {
    if (choice === browse) openSyncPage(sync, service);
  });
}

/** Open in Browser of one sync: the command gets it as a History row (a run is a sync), and opens its page. */
function openSyncPage(sync: { id: number; flowId: number }, service: string): void {
  void vscode.commands.executeCommand(COMMAND.openInBrowser, { kind: 'historyEntry', entry: sync, service });
}

/**
 * The one notification of a poll, with "Open as JSON" and "Open in Browser" (one sync; the latter when its service
 * has a page for syncs, `syncPage`) and "Show History".
 */
export function announceFinished(
  text: string,
  entries: readonly HistoryEntry[],
  json: OpenRunAsJson,
  service: string,
  syncPage = false,
): void {
  const open = t('Open as JSON');
  const browse = t('Open in Browser');
  const show = t('Show History');
  const one = entries.length === 1 ? entries[0] : undefined;
  const actions = [...(one?.raw ? [open] : []), ...(one && syncPage ? [browse] : []), show];
  void vscode.window.showInformationMessage(text, ...actions).then((choice) => {
    if (choice === open) {
      void json.open({ list: 'processing', kind: 'history', id: entries[0].id, leftAt: entries[0].leftAt, service });
    }
    // The run as History's row is given: the command opens its service's page for it (or says why not).
    if (choice === browse && one) openSyncPage(one, service);
    if (choice === show) void vscode.commands.executeCommand(`${HISTORY_VIEW}.focus`);
  });
}

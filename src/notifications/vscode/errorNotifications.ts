import * as vscode from 'vscode';
import type { FlowSync } from '../../api/types';
import type { Clock } from '../../base/clock';
import { COMMAND } from '../../base/commandIds';
import { t } from '../../base/l10n';
import type { Disposable } from '../../base/events';
import { storageFiles } from '../../env/vscode/storageFiles';
import { HISTORY_DAYS } from '../../history/entry';
import { originFolder } from '../../history/store';
import type { Explorer } from '../../lists/explorer';
import type { Settings } from '../../settings/settingsFeed';
import { newWindowId } from '../../sharing/windowId';
import type { WebSection } from '../../webPages/webUrl';
import type { OpenRunAsJson } from '../../history/vscode/announceFinished';
import { AnnouncedRuns } from '../announcedRuns';
import type { AwaySummary } from '../awaySummary';
import { ErrorAnnouncer, type ErrorsAnnouncement } from '../../history/errorAnnouncer';

/** Opens processing syncs as JSON (the JSON documents: src/json/vscode/jsonDocuments.ts, a folder of the same layer). */
interface OpenAsJson {
  open(
    target:
      | { list: 'processing'; kind: 'item'; id: number; service: string }
      | { list: 'processing'; kind: 'items'; ids: number[]; service: string },
  ): Promise<void>;
}

/** A button of an errors notification: its title and what it does. */
interface ErrorsAction {
  readonly title: string;
  readonly run: () => unknown;
}

/**
 * A service whose syncs' errors are told: its Processing list, its watches, its key to hide (and to keep off disk), its
 * scope (what its runs announced are remembered under).
 */
export interface ErrorsService {
  readonly id: string;
  readonly explorer: Pick<Explorer, 'keyToHide' | 'lists' | 'scope' | 'mentionsKey'>;
  readonly history: { isWatched(kind: 'sync' | 'flow', id: number): boolean };
}

/**
 * What telling errors needs besides the service: the setting and the services' web pages (Open in Browser, when its
 * service has a page for syncs), the JSON documents (Open as JSON), the clock; and where the runs announced are
 * remembered beyond the window (the extension's global storage, and the user's historyDays: how long; none: this
 * window's memory only), and the log for its troubles.
 */
export interface ErrorsDeps {
  readonly settings: {
    readonly current: Pick<Settings, 'notifyOnErrors'> & Partial<Pick<Settings, 'userHistoryDays'> & WebSection>;
  };
  readonly json: OpenAsJson & OpenRunAsJson;
  readonly clock: Clock;
  readonly storage?: vscode.Uri;
  /** The id its files are written under (none: one drawn here, as src/sharing/windowId.ts draws a window's). */
  readonly windowId?: string;
  /** Where its troubles are told (the extension's log). */
  readonly log?: { warn(message: string): void };
  /** Holds what comes while the window has been away for more than 5 minutes, for one summary (awaySummary.ts). */
  readonly away?: Pick<AwaySummary, 'offer'>;
}

/** The folder of global storage under which the runs announced are kept, one folder per service scope. */
const ANNOUNCED_FOLDER = 'errors-announced';

/**
 * Tells that a service's processing syncs report errors (`flowsync.notifyOnErrors`; the decisions are
 * src/history/errorAnnouncer.ts's): a warning, which a screen reader reads out without taking the focus. The runs
 * dealt with are remembered in global storage (errors-announced/<folder of the service's scope>/: the append-only
 * files of src/notifications/announcedRuns.ts, shared by the windows of the profile), so a reload, a restart or another
 * window does not say them again.
 * `named`: the service's name when there are several; `said`: each text as it is shown (for tests); `processingView`:
 * the Processing view's id (Show Processing), given so that this chunk does not carry the list's definition.
 */
export function watchErrors(
  service: ErrorsService,
  deps: ErrorsDeps,
  named: () => string | undefined,
  said: (text: string) => void,
  processingView: string,
): Disposable {
  const announcer = new ErrorAnnouncer(
    () => deps.clock.now(),
    () => service.explorer.keyToHide,
  );
  const files = deps.storage && storageFiles(vscode.Uri.joinPath(deps.storage, ANNOUNCED_FOLDER));
  const windowId = deps.windowId ?? newWindowId(deps.clock.now());
  let memory: { scope: string; runs: AnnouncedRuns } | undefined;
  /** The runs announced of the service's scope now (a new scope: its own folder), or none without storage. */
  const memoryOf = (scope: string | undefined): AnnouncedRuns | undefined => {
    if (!files || scope === undefined) return undefined;
    if (memory?.scope !== scope) {
      const runs = new AnnouncedRuns({
        files,
        folder: originFolder(scope),
        windowId,
        now: () => deps.clock.now(),
        days: () => deps.settings.current.userHistoryDays ?? HISTORY_DAYS.fallback,
        secret: (record) => service.explorer.mentionsKey(record),
        log: deps.log && ((message) => deps.log?.warn(message)),
      });
      memory = { scope, runs };
    }
    return memory.runs;
  };
  const processing = service.explorer.lists.processing;
  let lastLoadedAt: number | undefined;
  let disposed = false;
  const subscription = processing.onDidChange(() => {
    const state = processing.state;
    if (state.items === undefined || state.loadedAt === undefined || state.loadedAt === lastLoadedAt) return;
    lastLoadedAt = state.loadedAt; // one look per answer, this window's or the one another window shared
    const poll = {
      processing: state.items.map((i) => i.value),
      mode: deps.settings.current.notifyOnErrors,
      watched: (sync: FlowSync) =>
        service.history.isWatched('sync', sync.id) || service.history.isWatched('flow', sync.flow_id),
      adopted: state.adopted === true,
      service: named(),
      memory: memoryOf(service.explorer.scope),
    };
    void announcer.nextWithMemory(poll).then((announcement) => {
      if (!announcement || disposed) return;
      if (deps.away && !deps.away.offer('errors', announcement.syncs.length, named())) return;
      said(announcement.text);
      const syncPage = deps.settings.current.webUrls?.get(service.id)?.sync !== undefined;
      const actions = errorsActions(announcement, service.id, deps.json, syncPage, processingView);
      void vscode.window.showWarningMessage(announcement.text, ...actions.map((a) => a.title)).then((choice) => {
        void actions.find((a) => a.title === choice)?.run();
      });
    });
  });
  return {
    dispose: () => {
      disposed = true;
      subscription.dispose();
    },
  };
}

/**
 * The buttons of an errors notification, in order: the one place they are listed. One sync: Open as JSON, Open in
 * Browser (when its service has a page for syncs, `syncPage`), Show Log. Several: Open as JSON (all of them in one
 * document), Show Processing (their rows stand out there), Show Log.
 */
function errorsActions(
  said: ErrorsAnnouncement,
  service: string,
  json: OpenAsJson,
  syncPage: boolean,
  processingView: string,
): ErrorsAction[] {
  const ids = said.syncs.map((s) => s.id);
  const openJson: ErrorsAction = {
    title: t('Open as JSON'),
    run: () =>
      json.open(
        ids.length === 1
          ? { list: 'processing', kind: 'item', id: ids[0], service }
          : { list: 'processing', kind: 'items', ids, service },
      ),
  };
  const showProcessing: ErrorsAction = {
    title: t('Show Processing'),
    run: () => vscode.commands.executeCommand(`${processingView}.focus`),
  };
  const showLog: ErrorsAction = { title: t('Show Log'), run: () => vscode.commands.executeCommand(COMMAND.showLog) };
  if (ids.length !== 1) return [openJson, showProcessing, showLog];
  const [sync] = said.syncs;
  const openPage: ErrorsAction = {
    title: t('Open in Browser'),
    // The sync as a run (History's row shape): the command opens its service's page for it, or says why not.
    run: () =>
      vscode.commands.executeCommand(COMMAND.openInBrowser, {
        kind: 'historyEntry',
        entry: { id: sync.id, flowId: sync.flow_id },
        service,
      }),
  };
  return syncPage ? [openJson, openPage, showLog] : [openJson, showLog];
}

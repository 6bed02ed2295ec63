import type { HistoryNotice } from './historyService';

/** What a button of a History notice does (its title and command are the notifications' own: announceFinished.ts). */
export type NoticeAction = 'openJson' | 'openInBrowser' | 'showHistory' | 'showTimeline' | 'showInsights' | 'showLog';

/**
 * The buttons of a History notice, in order: the one place they are chosen, so that every notice carries the action
 * that fits it. One finished sync: Open as JSON (when its record is kept), Open in Browser (when its service has a page
 * for syncs, `syncPage`), Show History; several: Show History. A stuck sync: Open in Browser (one, with a page), Show
 * History, Show in Timeline. A flow slower than usual: Show Flow Insights, Show in Timeline. History not written:
 * Show Log. (Several finished: Show History, Show in Timeline.)
 */
export function noticeActions(notice: HistoryNotice, syncPage: boolean): NoticeAction[] {
  switch (notice.kind) {
    case 'finished': {
      const one = notice.entries.length === 1 ? notice.entries[0] : undefined;
      return [
        ...(one?.raw ? (['openJson'] as const) : []),
        ...(one && syncPage ? (['openInBrowser'] as const) : []),
        'showHistory',
        ...(one ? [] : (['showTimeline'] as const)), // several runs: when they ran, side by side
      ];
    }
    case 'stuck':
      return [...(notice.sync && syncPage ? (['openInBrowser'] as const) : []), 'showHistory', 'showTimeline'];
    case 'slower':
      return ['showInsights', 'showTimeline'];
    case 'cannotWrite':
      return ['showLog'];
  }
}

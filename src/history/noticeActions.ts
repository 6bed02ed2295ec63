import type { HistoryNotice } from './historyService';

/** What a button of a History notice does (its title and command are the notifications' own: announceFinished.ts). */
export type NoticeAction = 'openJson' | 'openInBrowser' | 'showHistory' | 'showInsights' | 'showLog';

/**
 * The buttons of a History notice, in order: the one place they are chosen, so that every notice carries the action
 * that fits it. One finished sync: Open as JSON (when its record is kept), Open in Browser (when its service has a page
 * for syncs, `syncPage`), Show History; several: Show History. A stuck sync: Open in Browser (one, with a page), Show
 * History. A flow slower than usual: Show Flow Insights. History not written: Show Log.
 */
export function noticeActions(notice: HistoryNotice, syncPage: boolean): NoticeAction[] {
  switch (notice.kind) {
    case 'finished': {
      const one = notice.entries.length === 1 ? notice.entries[0] : undefined;
      return [
        ...(one?.raw ? (['openJson'] as const) : []),
        ...(one && syncPage ? (['openInBrowser'] as const) : []),
        'showHistory',
      ];
    }
    case 'stuck':
      return [...(notice.sync && syncPage ? (['openInBrowser'] as const) : []), 'showHistory'];
    case 'slower':
      return ['showInsights'];
    case 'cannotWrite':
      return ['showLog'];
  }
}

import type { Disposable } from 'vscode';
import { eachService, serviceName } from '../../base/serviceSet';
import type { HistoryNotice } from '../../history/historyService';
import { announce, type OpenRunAsJson } from '../../history/vscode/announceFinished';
import type { ServiceRegistry } from '../../services/vscode/serviceRegistry';
import type { WebSection } from '../../webPages/webUrl';
import type { AwaySummary, NewsKind } from '../awaySummary';

/**
 * Says what each service's History tells (syncs that left, became stuck or slower, History not written), named by its
 * service when there are several; made with the services' code (their chunk: failureWatch.ts). News that comes while
 * the window has been away for more than 5 minutes is held by `away` and said with the rest as one summary when the
 * person is back.
 */
export function announceHistoryNotices(
  services: ServiceRegistry,
  json: OpenRunAsJson,
  webPages?: { readonly current: Partial<WebSection> },
  away?: Pick<AwaySummary, 'offer'>,
): Disposable {
  return eachService(services, (service) =>
    service.history.onDidNotify((notice) => {
      const news = newsOf(notice);
      const name = serviceName(services, service);
      if (news && away && !away.offer(news.kind, news.count, name)) return;
      const named = (text: string) => (name === undefined ? text : `${name}: ${text}`);
      // Open in Browser for one sync: its service has a page for syncs.
      announce(notice, named, json, service.id, webPages?.current.webUrls?.get(service.id)?.sync !== undefined);
    }),
  );
}

/** What a notice tells, as news a summary counts (History not written is a problem: always said at once). */
function newsOf(notice: HistoryNotice): { kind: NewsKind; count: number } | undefined {
  if (notice.kind === 'finished') return { kind: 'finished', count: notice.entries.length };
  if (notice.kind === 'stuck') return { kind: 'stuck', count: notice.count ?? 1 };
  if (notice.kind === 'slower') return { kind: 'slower', count: notice.count ?? 1 };
  return undefined;
}

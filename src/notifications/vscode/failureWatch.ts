import { COMMAND } from '../../base/commandIds';
import type { Disposable } from '../../base/events';
import { failureText } from '../failureText';
import { NotificationGate } from '../notificationGate';
import { awayFromWindow } from './awayFromWindow';
import { watchErrors, type ErrorsDeps, type ErrorsService } from './errorNotifications';
import { announceHistoryNotices } from './historyNotices';
import type { Explorer } from '../../lists/explorer';
import { LISTS } from '../../lists';
import { processingList } from '../../lists/processing';
import { t } from '../../base/l10n';
import { showMessageWithAction } from '../../base/vscode/messages';
import { eachService, serviceName } from '../../base/serviceSet';
import type { ServiceRegistry } from '../../services/vscode/serviceRegistry';

/** Told each failure notification's kind of trouble and text as it is shown (in ExtensionMode.Test: the test API's). */
export interface FailuresTold {
  said(kind: string, text: string): void;
}

/** A service whose failures are told, by name when there are several. */
interface FailureService extends ErrorsService {
  readonly name?: string;
  readonly explorer: Explorer;
}

/**
 * Tells each service's failures, once per kind of trouble and service, and (with `errors`) that its processing syncs
 * report errors (kind 'errors': src/notifications/vscode/errorNotifications.ts); with several services, naming the
 * service. `told`: told each kind and its text as it is shown. Made with the services' code
 * (failureNotifications.ts): before the services are made there is no answer to tell of.
 */
export function watchEachService(
  services: ServiceRegistry,
  told: FailuresTold | undefined,
  errors?: ErrorsDeps,
): Disposable {
  // What History tells and the errors are news: held while the window is away, said as one summary (awaySummary.ts).
  const away = errors && awayFromWindow(errors.clock);
  const withAway = errors && { ...errors, away };
  const news = withAway && announceHistoryNotices(services, withAway.json, withAway.settings, away);
  const each = eachService(services, (service) => {
    const named = () => serviceName(services, service);
    const failures = watchService(service, named, told);
    const errorsTold =
      withAway && watchErrors(service, withAway, named, (text) => told?.said('errors', text), processingList.viewId);
    return { dispose: () => (failures.dispose(), errorsTold?.dispose()) };
  });
  return { dispose: () => (each.dispose(), news?.dispose(), away?.dispose()) };
}

function watchService(
  service: FailureService,
  nameShown: () => string | undefined,
  told: FailuresTold | undefined,
): { dispose(): void } {
  const gate = new NotificationGate();
  const lists = LISTS.map((list) => service.explorer.refresher(list.id));
  const check = () => {
    // An error another window met is shown here but announced there (src/sharing/pollLease.ts): one notification, not one per window.
    if (lists.every((l) => l.state.errorShared || !l.state.error)) {
      if (lists.some((l) => l.state.loadedAt !== undefined)) gate.recovered();
      return;
    }
    for (const list of lists) {
      const error = list.state.errorShared ? undefined : list.state.error;
      if (!error || error.kind === 'cancelled' || !gate.shouldNotify(error.kind)) continue;
      const unauthorized = error.kind === 'unauthorized';
      const text = failureText(error, nameShown(), list.state.nextAttemptAt !== undefined);
      told?.said(error.kind, text);
      if (unauthorized) showMessageWithAction('error', text, t('Set API Key'), COMMAND.setApiKey);
      else showMessageWithAction('warning', text, t('Show Log'), COMMAND.showLog);
    }
  };
  const subscriptions = lists.map((l) => l.onDidChange(check));
  return { dispose: () => subscriptions.forEach((s) => s.dispose()) };
}

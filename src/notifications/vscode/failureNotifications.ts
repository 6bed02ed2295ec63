import * as vscode from 'vscode';
import { COMMAND } from '../../base/commandIds';
import type { Explorer } from '../../lists/explorer';
import { failureText } from '../failureText';
import { NotificationGate } from '../notificationGate';
import type { ErrorsDeps, ErrorsService } from './errorNotifications';
import { onFirstUse } from '../../base/onFirstUse';
import { LISTS } from '../../lists';
import { processingList } from '../../lists/processing';
import { t } from '../../base/l10n';
import { showMessageWithAction } from '../../base/vscode/messages';
import { eachService, serviceName, type ServiceSet } from '../../base/serviceSet';

/** Tells the person about failures: once per kind of trouble, with the action that fixes it. */
export interface FailureNotifications extends vscode.Disposable {
  /** Kinds announced so far, in order (for tests and diagnostics). */
  readonly shown: readonly string[];
  /** The texts shown, in the same order (inert: service text in them is never a link, icon or markup). */
  readonly texts: readonly string[];
}

/** A service whose failures are told, by name when there are several. */
export interface FailureService extends ErrorsService {
  readonly name?: string;
  readonly explorer: Explorer;
}

/**
 * Tells each service's failures, once per kind of trouble and service, and (with `errors`) that its processing syncs
 * report errors (kind 'errors': src/notifications/vscode/errorNotifications.ts); with several services, naming the
 * service. Telling errors is loaded with the first service (its own chunk, esbuild.js CHUNKS): before the services
 * are made there is no answer to tell of.
 */
export function watchFailures(
  services: ServiceSet<FailureService>,
  errors?: ErrorsDeps,
  loadFailed?: (error: unknown) => void,
): FailureNotifications {
  const errorsCode = onFirstUse(() => import('./errorNotifications'), { onError: loadFailed });
  const shown: string[] = [];
  const texts: string[] = [];
  const say = (kind: string, text: string) => {
    shown.push(kind);
    texts.push(text);
  };
  const following = eachService(services, (service) => {
    const named = () => serviceName(services, service);
    const failures = watchService(service, named, say);
    let told: { dispose(): void } | undefined;
    let gone = false;
    if (errors) {
      void errorsCode.get().then(
        ({ watchErrors }) => {
          if (!gone) told = watchErrors(service, errors, named, (text) => say('errors', text), processingList.viewId);
        },
        () => undefined,
      );
    }
    return { dispose: () => ((gone = true), failures.dispose(), told?.dispose()) };
  });
  return {
    shown,
    texts,
    dispose: () => {
      following.dispose();
      errorsCode.dispose();
    },
  };
}

function watchService(
  service: FailureService,
  nameShown: () => string | undefined,
  say: (kind: string, text: string) => void,
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
      say(error.kind, text);
      if (unauthorized) showMessageWithAction('error', text, t('Set API Key'), COMMAND.setApiKey);
      else showMessageWithAction('warning', text, t('Show Log'), COMMAND.showLog);
    }
  };
  const subscriptions = lists.map((l) => l.onDidChange(check));
  return { dispose: () => subscriptions.forEach((s) => s.dispose()) };
}

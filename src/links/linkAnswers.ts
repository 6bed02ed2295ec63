import { t } from '../base/l10n';
import { clockTime } from '../base/format';
import type { HeldBack } from '../lists/refresh';
import type { ExplorerStatus } from '../lists/explorer';
import { MAX_SERVICE_NAME } from '../services/serviceEntries';

/** A link's target: the row prefix of a list ("sync", "connection") and an item id. */
export interface LinkTarget {
  prefix: string;
  id: number;
  /** The service's name (`&service=Staging`, with several services): never its URL. */
  service?: string;
}

/** Longest id a link may carry: ids are integers, and 16 digits is past any safe integer's use as an id. */
const ID = /^\d{1,16}$/;

/**
 * Reads …/sync?id=1003 or …/connection?id=5 (path and query of a vscode:// link). Anything else in the link is
 * ignored; undefined when there is no prefix or no plain decimal id.
 */
export function parseLink(path: string, query: string): LinkTarget | undefined {
  const prefix = path.replace(/^\/+|\/+$/g, '').toLowerCase();
  const params = new URLSearchParams(query);
  const idText = params.get('id') ?? '';
  if (!prefix || !ID.test(idText)) return undefined;
  const service = params.get('service');
  // A service is named (at most 60 characters); a longer name is no name of ours, and is never shown.
  if (service !== null && (service.trim() === '' || service.length > MAX_SERVICE_NAME)) return undefined;
  return service === null ? { prefix, id: Number(idText) } : { prefix, id: Number(idText), service };
}

/**
 * What a link for a service that is not ready is told, and the command offered: "not set up" (Set Service URL or Set
 * API Key) only when it is not; a keyring that failed or did not answer within its timeout (`keyringTimeout`: the link
 * waited for the first read of the key) is said as such, with no command to run.
 */
export function notReadyAnswer(status: Exclude<ExplorerStatus, 'ready'> | 'keyringTimeout'): {
  message: string;
  action?: 'setBaseUrl' | 'setApiKey';
} {
  if (status === 'secretsUnavailable' || status === 'keyringTimeout') {
    return {
      message: t(
        'Flow Sync cannot open this link yet: the system keyring did not answer, so the API key could not be read. Unlock or start the keyring, then open the link again.',
      ),
    };
  }
  const message = t('Flow Sync is not set up yet, so the link cannot be opened.');
  return status === 'noKey' ? { message, action: 'setApiKey' } : { message, action: 'setBaseUrl' };
}

/**
 * What a malformed link is told. It never repeats the link: its text is whoever made the link's, and a warning
 * from Flow Sync must not carry words a web page chose.
 */
/**
 * What a link naming a service that is not configured is told. It never repeats the name: a link's text is whoever
 * made the link's.
 */
export function unknownServiceMessage(): string {
  return t('Flow Sync cannot open this link: it names a service that is not in your settings (flowsync.services).');
}

/** What a view link whose filter does not read is told (without repeating it). */
export function invalidFilterLinkMessage(): string {
  return t(
    'Flow Sync cannot open this link: its filter cannot be read. Open the view and use its Filter command instead.',
  );
}

export function invalidLinkMessage(): string {
  return t(
    'Flow Sync cannot open this link: it is not a valid Flow Sync link. A valid one looks like …/sync?id=1003 or …/connection?id=5.',
  );
}

/**
 * What a link to an item that is not in its list is told, from why the link did (or did not) ask the service again:
 * `held` undefined means the list was just loaded. `itemName` is the extension's own words ("Flow sync #5").
 */
export function notListedMessage(
  itemName: string,
  held: HeldBack | undefined,
  state: { loadedAt?: number; nextAttemptAt?: number },
): string {
  const loaded = state.loadedAt === undefined ? undefined : clockTime(state.loadedAt);
  switch (held) {
    case undefined:
      return t('{0} is not in the list right now.', itemName);
    case 'keyRefused':
      return t(
        '{0} cannot be looked up: the service refused the API key, and Flow Sync does not send it again until a new key is set.',
        itemName,
      );
    case 'waiting':
      if (state.nextAttemptAt === undefined) {
        return t('{0} cannot be looked up: the service cannot be reached right now.', itemName);
      }
      return loaded
        ? t(
            '{0} is not in the list loaded at {1}. Flow Sync asks the service again at {2}, as the service asked (or after the last failure).',
            itemName,
            loaded,
            clockTime(state.nextAttemptAt),
          )
        : t(
            '{0} cannot be looked up yet: Flow Sync asks the service again at {1}, as the service asked (or after the last failure).',
            itemName,
            clockTime(state.nextAttemptAt),
          );
    case 'recent':
      return loaded
        ? t(
            '{0} is not in the list loaded at {1}. Links ask the service at most once per refresh interval: refresh the list to look again now.',
            itemName,
            loaded,
          )
        : t(
            '{0} cannot be looked up: the list could not be loaded just now. Links ask the service at most once per refresh interval.',
            itemName,
          );
  }
}

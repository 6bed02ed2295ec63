import type { ApiError } from '../api/errors';
import { asSentence } from '../base/format';
import { inert } from '../base/inert';
import { t } from '../base/l10n';

/**
 * The text of a failure notification, inert: the error's message, named by service when there are several, and what
 * happens next only when it is true: "Retrying automatically." while an automatic attempt is planned, else how to try
 * again (a refused key says itself what to do).
 */
export function failureText(error: ApiError, serviceName: string | undefined, retrying: boolean): string {
  const message =
    error.kind === 'unauthorized'
      ? error.message
      : retrying
        ? t('{0} Retrying automatically.', asSentence(error.message))
        : t('{0} Refresh to try again.', asSentence(error.message));
  return inert(
    serviceName === undefined ? t('Flow Sync: {0}', message) : t('Flow Sync ({0}): {1}', serviceName, message),
  );
}

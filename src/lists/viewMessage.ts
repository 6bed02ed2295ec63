import type { ListState } from './refresh';
import { asSentence, clockTime } from '../base/format';
import { updatedAgo } from '../base/freshness';
import { inert } from '../base/inert';
import { t } from '../base/l10n';

/**
 * The line shown at the top of a view: why the data may be stale, that the list is empty, or that items were left
 * out. Undefined when the tree speaks for itself.
 */
export function viewMessage<T>(
  state: Readonly<ListState<T>>,
  emptyText: string,
  now: number,
  /** The data is older than twice the refresh interval (freshness.ts): say how old, visible without hovering. */
  stale = false,
): string | undefined {
  const parts: string[] = [];
  if (state.error) {
    const message = asSentence(state.error.message);
    const loadedAt = state.loadedAt ?? now;
    parts.push(
      state.items
        ? t('⚠ {0} Showing data from {1} ({2}).', message, clockTime(loadedAt), updatedAgo(loadedAt, now))
        : `⚠ ${message}`,
    );
    if (state.refreshKeptUntil !== undefined) {
      parts.push(t('Your refresh waits as the service asked: refreshing at {0}.', clockTime(state.refreshKeptUntil)));
    } else if (state.nextAttemptAt !== undefined) parts.push(t('Retrying at {0}.', clockTime(state.nextAttemptAt)));
  } else {
    if (stale && state.items && state.loadedAt !== undefined) {
      parts.push(t('⚠ Data may be out of date: {0}.', updatedAgo(state.loadedAt, now)));
    }
    if (state.items && state.items.length === 0) parts.push(emptyText);
  }
  if (state.dropped > 0 && !state.error) {
    parts.push(
      t(
        '{0} item(s) were left out because they did not have the expected shape ({1}).',
        state.dropped,
        state.firstDropReason ?? '',
      ),
    );
  }
  return parts.length ? inert(parts.join(' '), 1000) : undefined;
}

import { t } from './l10n';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Data is stale when it is older than this many refresh intervals (a poll or two was missed). */
export const STALE_INTERVALS = 2;

/**
 * True when a list's data is stale: loaded longer ago than STALE_INTERVALS × the refresh interval, or a refresh failed
 * and the last data is shown. A list loaded on demand (no interval) is stale only after a failure.
 */
export function isStale(
  state: { items?: unknown; loadedAt?: number; error?: unknown },
  now: number,
  intervalMs: number | undefined,
): boolean {
  if (!state.items || state.loadedAt === undefined) return false;
  if (state.error) return true;
  return intervalMs !== undefined && intervalMs > 0 && now - state.loadedAt > STALE_INTERVALS * intervalMs;
}

/** Shown text: "updated just now", "updated 20 s ago", "updated 3 min ago", "updated 2 h ago". */
export function updatedAgo(loadedAt: number, now: number): string {
  const elapsed = Math.max(0, now - loadedAt);
  if (elapsed < 5 * SECOND) return t('updated just now');
  if (elapsed < MINUTE) return t('updated {0} s ago', Math.floor(elapsed / SECOND));
  if (elapsed < HOUR) return t('updated {0} min ago', Math.floor(elapsed / MINUTE));
  return t('updated {0} h ago', Math.floor(elapsed / HOUR));
}

/** The same in words for a screen reader: "updated 20 seconds ago", "updated 1 minute ago". */
export function updatedAgoWords(loadedAt: number, now: number): string {
  const elapsed = Math.max(0, now - loadedAt);
  if (elapsed < 5 * SECOND) return t('updated just now');
  if (elapsed < MINUTE) return t('updated {0} seconds ago', Math.floor(elapsed / SECOND));
  const minutes = Math.floor(elapsed / MINUTE);
  if (elapsed < HOUR) return minutes === 1 ? t('updated 1 minute ago') : t('updated {0} minutes ago', minutes);
  const hours = Math.floor(elapsed / HOUR);
  return hours === 1 ? t('updated 1 hour ago') : t('updated {0} hours ago', hours);
}

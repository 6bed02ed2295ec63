import { VIEW_ID } from '../base/commandIds';
import { t } from '../base/l10n';
import type { ListFace } from './list';

/*
 * Each list's face: what its view and its two settings need at start (src/lists/vscode/listView.ts,
 * src/lists/listsSection.ts). The rest of each list (its validation, its rows' texts and icons, its groupings and
 * sortings: processing.ts, connections.ts) is the services' chunk's, loaded before the first service's rows.
 */

export function syncCount(n: number): string {
  return n === 1 ? t('1 sync') : t('{0} syncs', n);
}

export function connectionCount(n: number): string {
  return n === 1 ? t('1 connection') : t('{0} connections', n);
}

/** The flow syncs processing now: polled; the badge counts them. */
export const processingFace = {
  id: 'processing',
  viewId: VIEW_ID.processing,
  polled: true,
  rows: { descriptionAges: true },
  arrangements: {
    groupingNames: ['flow', 'status', 'none'],
    sortingNames: ['started', 'id'],
    groupBySetting: 'processing.groupBy',
    sortBySetting: 'processing.sortBy',
    defaultGroupBy: 'flow',
    defaultSortBy: 'started',
  },
  emptyText: () => t('No flow syncs are processing.'),
  count: syncCount,
  badge: (count: number) =>
    count > 0
      ? { value: count, tooltip: count === 1 ? t('1 flow sync processing') : t('{0} flow syncs processing', count) }
      : undefined,
} as const satisfies ListFace;

/** The configured connections: loaded when the view is shown. */
export const connectionsFace = {
  id: 'connections',
  viewId: VIEW_ID.connections,
  polled: false,
  rows: { descriptionAges: false },
  arrangements: {
    groupingNames: ['team', 'type', 'none'],
    sortingNames: ['name', 'updated'],
    groupBySetting: 'connections.groupBy',
    sortBySetting: 'connections.sortBy',
    defaultGroupBy: 'team',
    defaultSortBy: 'name',
  },
  emptyText: () => t('No connections.'),
  count: connectionCount,
} as const satisfies ListFace;

/** Every list's face, in the order of the registry (src/lists/index.ts, LISTS) and of their views. */
export const LIST_FACES: readonly ListFace[] = [processingFace, connectionsFace];

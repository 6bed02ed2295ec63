import type { Item } from '../api/types';
import { groupBy, type Group } from './grouping';
import { joinPlacement } from './rowFields';
import type { TreeAdapter } from './treeModel';
import type { ListDefinition } from './list';

/** A choice of grouping and sorting for a list (names from its `arrangements`). */
export interface Arrangement {
  groupBy: string;
  sortBy: string;
}

/** The list's default arrangement. */
export function defaultArrangement<T extends { id: number }>(list: ListDefinition<T>): Arrangement {
  return { groupBy: list.arrangements.defaultGroupBy, sortBy: list.arrangements.defaultSortBy };
}

/** A known arrangement of the list: unknown names (from settings) fall back to the defaults, each on its own. */
export function validArrangement<T extends { id: number }>(
  list: ListDefinition<T>,
  wanted: Partial<Arrangement>,
): Arrangement {
  const { groupings, sortings, defaultGroupBy, defaultSortBy } = list.arrangements;
  return {
    groupBy: wanted.groupBy !== undefined && Object.hasOwn(groupings, wanted.groupBy) ? wanted.groupBy : defaultGroupBy,
    sortBy: wanted.sortBy !== undefined && Object.hasOwn(sortings, wanted.sortBy) ? wanted.sortBy : defaultSortBy,
  };
}

/** The tree of a list under an arrangement: its rows, grouped and sorted as chosen. */
export function arrangedTree<T extends { id: number }>(
  list: ListDefinition<T>,
  arrangement: Arrangement = defaultArrangement(list),
): TreeAdapter<T> {
  const { groupBy: groupName, sortBy: sortName } = validArrangement(list, arrangement);
  const grouping = list.arrangements.groupings[groupName];
  const sorting = list.arrangements.sortings[sortName];
  if (!grouping) {
    return {
      ...list.rows,
      groupRows: null,
      group: (items) => {
        const all = [...items];
        sorting.sort(all);
        return [{ key: '', label: '', items: all }];
      },
      placement: (value) => sorting.placement(value),
      samePlace: (a, b) => sorting.samePlace(a, b),
    };
  }
  return {
    ...list.rows,
    groupRows: {
      idPrefix: grouping.idPrefix,
      context: grouping.context,
      icon: (group: Group<T>) => grouping.icon(group.items[0].value),
      describe: (group: Group<T>) => grouping.describe(group.items.length),
    },
    // sorting.sort itself, not a wrapper: a SortItems with `order` (byText) sorts the whole answer once.
    group: (items: readonly Item<T>[]) => groupBy(items, grouping.keyOf, grouping.labelOf, sorting.sort),
    placement: (value) =>
      joinPlacement([String(grouping.keyOf(value)), grouping.labelOf(value), sorting.placement(value)]),
    samePlace: (a, b) =>
      sorting.samePlace(a, b) && grouping.keyOf(a) === grouping.keyOf(b) && grouping.labelOf(a) === grouping.labelOf(b),
  };
}

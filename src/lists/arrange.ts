import type { Item } from '../api/types';
import { groupBy, type Group } from './grouping';
import { joinPlacement } from './rowFields';
import type { TreeAdapter } from './treeModel';
import type { ListDefinition } from './list';
import { defaultArrangement, validArrangement, type Arrangement } from './arrangement';

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

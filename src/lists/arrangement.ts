import type { ListDefinition } from './list';

/*
 * How a list's rows are arranged, as chosen (its two settings, src/lists/listsSection.ts): what the settings read at
 * start needs. The tree of a list under an arrangement is arrange.ts, with the rows.
 */

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

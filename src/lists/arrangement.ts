import type { ListFace } from './list';

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
export function defaultArrangement(list: ListFace): Arrangement {
  return { groupBy: list.arrangements.defaultGroupBy, sortBy: list.arrangements.defaultSortBy };
}

/** A known arrangement of the list: unknown names (from settings) fall back to the defaults, each on its own. */
export function validArrangement(list: ListFace, wanted: Partial<Arrangement>): Arrangement {
  const { groupingNames, sortingNames, defaultGroupBy, defaultSortBy } = list.arrangements;
  return {
    groupBy: wanted.groupBy !== undefined && groupingNames.includes(wanted.groupBy) ? wanted.groupBy : defaultGroupBy,
    sortBy: wanted.sortBy !== undefined && sortingNames.includes(wanted.sortBy) ? wanted.sortBy : defaultSortBy,
  };
}
